/** Descriptive statistics of timing samples and counters (percentiles by the rule of `../stats.ts`). */
import { mean, quantileSorted, sortedCopy } from '../stats.js';

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

/** Mean, min, P50, P95, P99 and max of `samples` (any order). All NaN with `n: 0` when empty. */
export function summarize(samples: ArrayLike<number>): Summary {
  const n = samples.length;
  if (n === 0) return { n: 0, mean: NaN, min: NaN, p50: NaN, p95: NaN, p99: NaN, max: NaN };
  const s = sortedCopy(samples);
  return {
    n,
    mean: mean(s),
    min: s[0] as number,
    p50: quantileSorted(s, 0.5),
    p95: quantileSorted(s, 0.95),
    p99: quantileSorted(s, 0.99),
    max: s[n - 1] as number,
  };
}
