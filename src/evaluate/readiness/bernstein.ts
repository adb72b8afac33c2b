/**
 * The history estimate of a tool's duration: an empirical Bernstein upper bound (paper eq. 8, after
 * Maurer & Pontil 2009), used once a history holds at least `minSamples` durations:
 *
 *     D = mean + sqrt(2 * variance * ln(3/delta) / n) + 3 * range * ln(3/delta) / n
 *
 * `variance` is the unbiased sample variance (divisor n - 1) and `range` is max - min of the samples kept
 * (ours: the paper says "sample variance" and "range" without more). The bound is a scheduling heuristic:
 * it is deliberately pessimistic with few samples (the range term shrinks as 1/n), and it does not
 * guarantee coverage of any single call.
 */

/** Summary of a sample of durations. */
export interface DurationStats {
  /** Number of samples. */
  n: number;
  mean: number;
  /** Unbiased sample variance (divisor n - 1); 0 when n < 2. */
  variance: number;
  /** max - min; 0 when n < 1. */
  range: number;
}

/** ln(3 / delta): the confidence factor shared by both correction terms. */
export function bernsteinLogFactor(delta: number): number {
  return Math.log(3 / delta);
}

/** The empirical Bernstein bound of `stats` at confidence `delta`; `stats.n` must be at least 1. */
export function bernsteinBound(stats: DurationStats, delta: number): number {
  const l = bernsteinLogFactor(delta);
  return stats.mean + Math.sqrt((2 * stats.variance * l) / stats.n) + (3 * stats.range * l) / stats.n;
}

/**
 * Mean, unbiased variance and range of `count` values read oldest first from a ring buffer starting at
 * `start` (a plain array: `start` 0, `count` its length). Two passes (mean, then squared deviations)
 * rather than running sums: the window is small, and a fixed reading order makes a restored predictor
 * compute bit-identical bounds.
 */
export function durationStats(values: ArrayLike<number>, start = 0, count = values.length): DurationStats {
  if (count === 0) return { n: 0, mean: 0, variance: 0, range: 0 };
  const cap = values.length;
  let sum = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0, j = start; i < count; i++, j = j + 1 === cap ? 0 : j + 1) {
    const v = values[j]!;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const mean = sum / count;
  let squares = 0;
  for (let i = 0, j = start; i < count; i++, j = j + 1 === cap ? 0 : j + 1) {
    const d = values[j]! - mean;
    squares += d * d;
  }
  return { n: count, mean, variance: count > 1 ? squares / (count - 1) : 0, range: max - min };
}
