/**
 * Sample statistics shared by the benchmark and the simulator: the mean, and quantiles interpolated
 * linearly between order statistics (type 7, the default of R and NumPy, also tinybench's rule, so ours
 * and tinybench's P50/P99 agree).
 */

/** Arithmetic mean; NaN for no values. */
export function mean(xs: ArrayLike<number>): number {
  if (xs.length === 0) return Number.NaN;
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s / xs.length;
}

/** Sorts a copy ascending (numeric, not lexicographic). */
export function sortedCopy(samples: ArrayLike<number>): Float64Array {
  return Float64Array.from(samples).sort();
}

/**
 * The p-quantile (p in [0, 1]) of ascending `sorted`: with h = (n - 1) p, the value at floor(h) plus
 * (h - floor(h)) of the gap to the next one. Empty input gives NaN; p outside [0, 1] throws RangeError.
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile p must be in [0, 1], got ${p}`);
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo]!;
  if (lo + 1 >= n) return a;
  return a + (h - lo) * (sorted[lo + 1]! - a);
}

/** `quantileSorted` of values in any order (sorts a copy). */
export function quantile(xs: ArrayLike<number>, p: number): number {
  return quantileSorted(sortedCopy(xs), p);
}
