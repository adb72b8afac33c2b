import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MinHeap } from './helpers/internals.js';
import { Rng } from './helpers/internals.js';

describe('seeded PRNG', () => {
  it('gives the same stream for the same seed and stream coordinates', () => {
    const a = new Rng(42, 1, 7);
    const b = new Rng(42, 1, 7);
    for (let i = 0; i < 1000; i++) expect(a.nextU32()).toBe(b.nextU32());
  });

  it('gives unrelated streams for neighbouring seeds and indices', () => {
    const first = (r: Rng): number[] => Array.from({ length: 8 }, () => r.nextU32());
    const base = first(new Rng(1, 1, 0));
    expect(first(new Rng(2, 1, 0))).not.toEqual(base);
    expect(first(new Rng(1, 1, 1))).not.toEqual(base);
    expect(first(new Rng(1, 2, 0))).not.toEqual(base);
  });

  it('draws floats in [0, 1) with the mean and spread of a uniform', () => {
    const r = new Rng(3);
    let sum = 0;
    let sumSq = 0;
    const n = 200_000;
    for (let i = 0; i < n; i++) {
      const x = r.float();
      expect(x >= 0 && x < 1).toBe(true);
      sum += x;
      sumSq += x * x;
    }
    // Standard error of the mean is 0.29 / sqrt(n) ~ 0.00065: 0.005 is > 7 standard errors.
    expect(Math.abs(sum / n - 0.5)).toBeLessThan(0.005);
    expect(Math.abs(sumSq / n - sum ** 2 / n ** 2 - 1 / 12)).toBeLessThan(0.002);
  });

  it('draws integers in [0, n) covering every value', () => {
    const r = new Rng(5);
    const counts = new Array<number>(7).fill(0);
    for (let i = 0; i < 70_000; i++) counts[r.int(7)]!++;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
  });

  it('draws log-normals whose median is the given median', () => {
    const r = new Rng(9);
    const xs = Array.from({ length: 20_001 }, () => r.lognormal(6, 0.8)).sort((a, b) => a - b);
    expect(xs[10_000]!).toBeGreaterThan(5.7);
    expect(xs[10_000]!).toBeLessThan(6.3);
  });
});

describe('event heap', () => {
  it('pops in (primary, secondary) order whatever the push order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 1000 })), { maxLength: 300 }),
        (items) => {
          const h = new MinHeap(2);
          items.forEach(([p, s], i) => h.push(p, s * 1000 + i, i, 5000 + i));
          const popped: [number, number][] = [];
          while (h.size > 0) {
            const i = h.peekA();
            expect(h.peekB()).toBe(5000 + i);
            popped.push([h.peekKey(), items[i]![1] * 1000 + i]);
            h.pop();
          }
          const expected = items
            .map(([p, s], i) => [p, s * 1000 + i] as [number, number])
            .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          expect(popped).toEqual(expected);
        },
      ),
    );
  });
});
