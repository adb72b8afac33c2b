import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from './helpers/internals.js';

function exactPercentile(sorted: number[], q: number): number {
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]!;
}

describe('latency histogram', () => {
  it('is exact for small integers', () => {
    const h = new LatencyHistogram();
    for (let v = 1; v <= 20; v++) h.record(v);
    expect(h.summary()).toEqual({ count: 20, min: 1, max: 20, mean: 10.5, p50: 10, p95: 19, p99: 20 });
  });

  it('summarises an empty histogram as zeros', () => {
    expect(new LatencyHistogram().summary()).toEqual({ count: 0, min: 0, max: 0, mean: 0, p50: 0, p95: 0, p99: 0 });
  });

  it('keeps percentiles within 1/64 of the exact nearest-rank value', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2 ** 40 }), { minLength: 1, maxLength: 300 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (values, q) => {
          const h = new LatencyHistogram();
          for (const v of values) h.record(v);
          const exact = exactPercentile(
            [...values].sort((a, b) => a - b),
            q,
          );
          expect(Math.abs(h.percentile(q) - exact)).toBeLessThanOrEqual(exact / 64 + 0.5);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('rejects negative and non-finite samples', () => {
    const h = new LatencyHistogram();
    expect(() => h.record(-1)).toThrow(new RangeError('histogram value must be a finite non-negative number (got -1)'));
    expect(() => h.record(Number.NaN)).toThrow(RangeError);
    expect(h.count).toBe(0);
  });

  it('resets to empty', () => {
    const h = new LatencyHistogram();
    h.record(5);
    h.reset();
    expect(h.summary().count).toBe(0);
  });
});
