/** The mean with a Student-t 95% confidence interval over seeds, and Kendall's tau of two orders. */
import { InvalidValueError } from '../errors.js';
import { mean } from '../stats.js';

/** Sample standard deviation (n - 1); NaN below two values. */
export function sampleSd(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n < 2) return Number.NaN;
  const m = mean(xs);
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (xs[i]! - m) ** 2;
  return Math.sqrt(ss / (n - 1));
}

// Two-sided 95% critical values of Student's t, df = 1..30 (standard tables, 3 decimals).
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/**
 * Two-sided 95% critical value t(0.975, df). Table for df <= 30; above, the Cornish-Fisher expansion
 * around z = 1.959964, whose error there is below 1e-4.
 */
export function tCritical95(df: number): number {
  if (!Number.isInteger(df) || df < 1) return Number.NaN;
  if (df <= 30) return T95[df - 1]!;
  const z = 1.959963984540054;
  const z3 = z ** 3;
  const z5 = z ** 5;
  const z7 = z ** 7;
  return (
    z +
    (z3 + z) / (4 * df) +
    (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) +
    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3)
  );
}

/** A mean over seeds with its 95% confidence half-width (NaN with fewer than two values). */
export interface Estimate {
  mean: number;
  /** Half-width of the 95% Student-t interval: the interval is mean +- ci95. */
  ci95: number;
  n: number;
}

/** Mean and Student-t 95% interval of independent values (one per seed). NaN values are left out. */
export function estimate(values: readonly number[]): Estimate {
  const xs = values.filter((v) => !Number.isNaN(v));
  const n = xs.length;
  const m = mean(xs);
  if (n < 2) return { mean: m, ci95: Number.NaN, n };
  return { mean: m, ci95: (tCritical95(n - 1) * sampleSd(xs)) / Math.sqrt(n), n };
}

/** Kendall's tau-a of two equally long value lists (ties count as neither concordant nor discordant). */
export function kendallTau(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length < 2)
    throw new InvalidValueError('kendallTau needs two lists of the same length >= 2');
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) s += Math.sign(a[i]! - a[j]!) * Math.sign(b[i]! - b[j]!);
  }
  return s / ((a.length * (a.length - 1)) / 2);
}
