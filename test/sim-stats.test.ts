import { describe, expect, it } from 'vitest';
import { estimate, sampleSd, tCritical95 } from './helpers/internals.js';
import { quantile } from './helpers/internals.js';

describe('summary statistics', () => {
  it('uses Student-t critical values: tables to df 30, the expansion beyond', () => {
    expect(tCritical95(1)).toBe(12.706);
    expect(tCritical95(4)).toBe(2.776);
    expect(tCritical95(30)).toBe(2.042);
    // Reference values of t(0.975, df) to 3 decimals.
    expect(tCritical95(40)).toBeCloseTo(2.021, 3);
    expect(tCritical95(60)).toBeCloseTo(2.0, 3);
    expect(tCritical95(120)).toBeCloseTo(1.98, 3);
    expect(tCritical95(0)).toBeNaN();
  });

  it('gives the 95% interval of a mean over seeds', () => {
    const xs = [10, 12, 11, 13, 9];
    const e = estimate(xs);
    expect(e.mean).toBe(11);
    expect(sampleSd(xs)).toBeCloseTo(Math.sqrt(2.5), 12);
    expect(e.ci95).toBeCloseTo((2.776 * Math.sqrt(2.5)) / Math.sqrt(5), 12);
    expect(estimate([4]).ci95).toBeNaN();
    expect(estimate([1, Number.NaN, 3]).n).toBe(2);
  });

  it('interpolates quantiles between order statistics', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([5, 1, 3], 0.95)).toBeCloseTo(4.8, 12);
    expect(quantile([], 0.5)).toBeNaN();
  });
});
