/**
 * Descriptive statistics of timing samples and counters. Percentiles interpolate linearly between order
 * statistics (the "R-7" / NumPy default rule, also tinybench's), so ours and tinybench's P50/P99 agree.
 */

/** Summary of a sample set, in the samples' unit. */
export interface Summary {
  n: number;
  mean: number;
  min: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/**
 * The p-quantile (p in [0, 1]) of ascending `sorted`: with h = (n - 1) p, the value at floor(h) plus
 * (h - floor(h)) of the gap to the next one. Empty input gives NaN.
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile p must be in [0, 1], got ${p}`);
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  if (lo + 1 >= n) return a;
  const b = sorted[lo + 1] as number;
  return a + (h - lo) * (b - a);
}

/** Sorts a copy ascending (numeric, not lexicographic). */
export function sortedCopy(samples: ArrayLike<number>): Float64Array {
  return Float64Array.from(samples).sort();
}

/** Mean, min, P50, P95, P99 and max of `samples` (any order). All NaN with `n: 0` when empty. */
export function summarize(samples: ArrayLike<number>): Summary {
  const n = samples.length;
  if (n === 0) return { n: 0, mean: NaN, min: NaN, p50: NaN, p95: NaN, p99: NaN, max: NaN };
  const s = sortedCopy(samples);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += s[i] as number;
  return {
    n,
    mean: sum / n,
    min: s[0] as number,
    p50: quantileSorted(s, 0.5),
    p95: quantileSorted(s, 0.95),
    p99: quantileSorted(s, 0.99),
    max: s[n - 1] as number,
  };
}
