/**
 * The credit level's exact knapsacks (src/solve/credit-knapsack.ts) against independent oracles: each
 * node's knapsack (value, a set attaining it) and the search for another optimal set against enumeration
 * (test/oracles/knapsack.ts), with ties; the LP term's rounding (`fractionalCeil`) and the density order
 * (`denser`) against exact BigInt arithmetic, with values where f64 products are not exact.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  anotherSetReaches,
  densityOrder,
  denser,
  fractionalCeil,
  CreditKnapsackScratch,
  nodeKnapsack,
  seededRandom,
} from './helpers/internals.js';
import { enumerateKnapsack } from './oracles/knapsack.js';

describe("each node's knapsack", () => {
  it('equals enumeration (value, a set attaining it), with ties; another optimal set is found exactly when one exists', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            w: fc.integer({ min: 1, max: 12 }),
            p: fc.oneof(fc.constantFrom(1, 2, 3), fc.integer({ min: 1, max: 30 })),
          }),
          { maxLength: 10 },
        ),
        fc.integer({ min: 0, max: 40 }),
        (xs, cap) => {
          const w = xs.map((x) => x.w);
          const p = xs.map((x) => x.p);
          const items = xs.map((_, i) => i);
          const exact = enumerateKnapsack(w, p, cap);
          const r = nodeKnapsack(items, w, p, cap, 0);
          expect(r.value).toBe(exact.value);
          expect(r.set.reduce((a, i) => a + w[i]!, 0)).toBeLessThanOrEqual(cap);
          expect(r.set.reduce((a, i) => a + p[i]!, 0)).toBe(exact.value);
          expect(nodeKnapsack(items, w, p, cap, exact.value + 1).value).toBe(-1);
          // Aimed at the optimum itself (the LP pruning then bites), from items in index order, not density order.
          expect(nodeKnapsack(items, w, p, cap, exact.value).value).toBe(exact.value);
          if (exact.value > 0) {
            // Another optimal set exists exactly when enumeration counts more than one.
            expect(anotherSetReaches(items, w, p, cap, r.set, exact.value, Infinity).reaches).toBe(exact.count > 1);
            expect(anotherSetReaches(items, w, p, cap, r.set, exact.value + 1, Infinity).reaches).toBe(false);
            // Past its state limit it stops without an answer (states past the limit), found or not.
            const capped = anotherSetReaches(items, w, p, cap, r.set, exact.value, 0);
            if (!capped.reaches) expect(capped.states).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 600, seed: 71 },
    );
  });
});

describe('another optimal set', () => {
  it('is found when it fills the capacity exactly, however the items are numbered; a limit of 0 states stops the search', () => {
    // Capacity 10: {0, 1} (6 + 4) and {2, 3} (5 + 5) both weigh exactly 10 and are worth 10.
    const w = [6, 4, 5, 5];
    const p = [6, 4, 5, 5];
    for (const set of [
      [0, 1],
      [2, 3],
    ]) {
      expect(anotherSetReaches([0, 1, 2, 3], w, p, 10, set, 10, Infinity).reaches).toBe(true);
      expect(anotherSetReaches([3, 2, 1, 0], w, p, 10, set, 10, Infinity).reaches).toBe(true);
      const stopped = anotherSetReaches([0, 1, 2, 3], w, p, 10, set, 10, 0);
      expect(stopped.reaches).toBe(false);
      expect(stopped.states).toBeGreaterThan(0);
    }
    // Leaving the path of {0} by taking item 1 as well fills the capacity exactly: {0, 1} is worth 10.
    expect(anotherSetReaches([0, 1], [6, 4], [6, 4], 10, [0], 10, Infinity).reaches).toBe(true);
    // Alone at the capacity: {0} weighs 10; no other set is worth 10.
    expect(anotherSetReaches([0, 1], [10, 3], [10, 3], 10, [0], 10, Infinity).reaches).toBe(false);
  });
});

describe("each node's knapsack past its scratch's first sizes", () => {
  it('equals a dense DP on hundreds of items (layers past 256 states, history past 1024 entries), with one scratch reused from small to large and back', () => {
    /** The best value within `cap` by the textbook DP over capacities: an oracle independent of the sparse DP. */
    const denseOptimum = (w: readonly number[], p: readonly number[], cap: number): number => {
      const best = new Float64Array(cap + 1);
      for (let i = 0; i < w.length; i++)
        for (let c = cap; c >= w[i]!; c--) best[c] = Math.max(best[c]!, best[c - w[i]!]! + p[i]!);
      return best[cap]!;
    };
    const rnd = seededRandom(4242);
    const scratch = new CreditKnapsackScratch();
    for (const [n, cap, spread] of [
      [8, 30, 10],
      // Exactly the scratch's first layer and prefix sizes, and one past them.
      [255, 4000, 60],
      [256, 4000, 60],
      [300, 2500, 97],
      [12, 40, 9],
      [500, 4000, 211],
      [6, 15, 5],
    ] as const) {
      const w = Array.from({ length: n }, () => 1 + Math.floor(rnd() * spread));
      const p = w.map((x) => x + Math.floor(rnd() * spread));
      const items = w.map((_, i) => i);
      const r = nodeKnapsack(items, w, p, cap, 0, Number.POSITIVE_INFINITY, false, scratch);
      expect(r.value).toBe(denseOptimum(w, p, cap));
      expect(r.set.reduce((a, i) => a + w[i]!, 0)).toBeLessThanOrEqual(cap);
      expect(r.set.reduce((a, i) => a + p[i]!, 0)).toBe(r.value);
      expect(nodeKnapsack(items, w, p, cap, 0)).toEqual(r);
    }
  });
});

describe("each node's knapsack, its history", () => {
  it('grows past twice its size at once: every subset of weights 1, 2, 4, ..., 2048 is a state of its own', () => {
    // Weights 2^0..2^11 at density 1: each layer doubles the states (every subset sum is distinct), so the
    // history needs about three times its length at a layer (2046 entries past 1024, then 4094 past 2048).
    const w = Array.from({ length: 12 }, (_, i) => 2 ** i);
    const p = [...w];
    const cap = 2 ** 12 - 2;
    const r = nodeKnapsack(
      w.map((_, i) => i),
      w,
      p,
      cap,
      0,
      Number.POSITIVE_INFINITY,
      false,
      new CreditKnapsackScratch(),
    );
    expect(r.value).toBe(cap);
    expect(r.set.reduce((a, i) => a + w[i]!, 0)).toBe(cap);
  });

  it('gives the same answer and states from a fresh scratch and from one grown past the problem (600 items; 256 whose rest fits)', () => {
    const rnd = seededRandom(777);
    const grown = new CreditKnapsackScratch();
    const run = (w: number[], p: number[], cap: number, scratch: CreditKnapsackScratch, target = 0) =>
      nodeKnapsack(
        w.map((_, i) => i),
        w,
        p,
        cap,
        target,
        Number.POSITIVE_INFINITY,
        false,
        scratch,
      );
    // 600 items, all fitting: more than twice the first sizes of the scratch's arrays at once.
    const w600 = Array.from({ length: 600 }, () => 1 + Math.floor(rnd() * 40));
    const p600 = w600.map((x) => x + Math.floor(rnd() * 40));
    const big = run(w600, p600, 3000, grown);
    expect(run(w600, p600, 3000, new CreditKnapsackScratch())).toEqual(big);
    expect(big.set.reduce((a, i) => a + w600[i]!, 0)).toBeLessThanOrEqual(3000);
    expect(big.set.reduce((a, i) => a + p600[i]!, 0)).toBe(big.value);
    // 256 items of weight 10, 5 units short of all fitting: a state that skipped an item has room for all
    // the rest, so the LP of the rest reads the prefix sums up to the last item. A target just below the
    // optimum makes the LP prune.
    const w256 = Array.from({ length: 256 }, () => 10);
    const p256 = w256.map((x, i) => x + (i % 7));
    const cap = 2555;
    const target = run(w256, p256, cap, grown).value - 3;
    const fresh = run(w256, p256, cap, new CreditKnapsackScratch(), target);
    expect(fresh).toEqual(run(w256, p256, cap, grown, target));
    expect(fresh.value).toBe(target + 3);
  });
});

describe('the knapsacks on item indices past their scratch', () => {
  it('answer the same with the items numbered from 0 and from 5000 (the marks sized to the largest index)', () => {
    const rnd = seededRandom(99);
    const scratch = new CreditKnapsackScratch();
    for (const n of [20, 300]) {
      const w0 = Array.from({ length: n }, () => 1 + Math.floor(rnd() * 40));
      // Few distinct profits per weight, so that other optimal sets exist.
      const p0 = w0.map((x) => x + (Math.floor(rnd() * 3) === 0 ? 1 : 0));
      const cap = Math.floor(w0.reduce((a, x) => a + x, 0) / 3);
      const far = (xs: readonly number[]) => {
        const out = new Array<number>(5000 + n).fill(0);
        xs.forEach((x, i) => {
          out[5000 + i] = x;
        });
        return out;
      };
      const near = w0.map((_, i) => i);
      const farItems = near.map((i) => 5000 + i);
      const a = nodeKnapsack(near, w0, p0, cap, 0, Number.POSITIVE_INFINITY, false, scratch);
      const b = nodeKnapsack(farItems, far(w0), far(p0), cap, 0, Number.POSITIVE_INFINITY, false, scratch);
      expect(b.value).toBe(a.value);
      expect(b.set.map((i) => i - 5000)).toEqual(a.set);
      for (const target of [a.value, a.value + 1]) {
        const x = anotherSetReaches(near, w0, p0, cap, a.set, target, Number.POSITIVE_INFINITY, false, scratch);
        const y = anotherSetReaches(
          farItems,
          far(w0),
          far(p0),
          cap,
          b.set,
          target,
          Number.POSITIVE_INFINITY,
          false,
          scratch,
        );
        expect(y.reaches).toBe(x.reaches);
      }
    }
  });
});

describe('rounding of the LP terms (exact BigInt checks)', () => {
  it('fractionalCeil is never below the exact quotient, for credits and residuals up to 2^32', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 32 }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (p, w, r) => {
          const rem = r % w;
          const got = BigInt(fractionalCeil(p, rem, w));
          const num = BigInt(p) * BigInt(rem);
          const ceil = (num + BigInt(w) - 1n) / BigInt(w);
          expect(got).toBeGreaterThanOrEqual(ceil < BigInt(p) ? ceil : BigInt(p));
          expect(got).toBeLessThanOrEqual(BigInt(p));
        },
      ),
      { numRuns: 5000, seed: 8 },
    );
  });

  it('the density order is exact where f64 products are not (large values, near-equal densities)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2 ** 31, max: 2 ** 32 }),
        fc.integer({ min: 2 ** 30, max: 2 ** 31 }),
        fc.integer({ min: -3, max: 3 }),
        (p, w, d) => {
          // (p, w) against (p + d, w + 1) or so: densities within about 2^-30 of each other.
          const q = p + d;
          const x = w + 1;
          const exact = BigInt(p) * BigInt(x) - BigInt(q) * BigInt(w);
          expect(Math.sign(denser(p, w, q, x))).toBe(exact > 0n ? 1 : exact < 0n ? -1 : 0);
        },
      ),
      { numRuns: 3000, seed: 10 },
    );
  });

  it('the density order tells apart consecutive fractions near 2^32, whose cross products differ by one past 2^53', () => {
    for (let k = 1; k <= 40; k++) {
      const n = 2 ** 32 - k;
      // (n - 1) / (n - 2) > n / (n - 1): the cross products n (n - 2) and (n - 1)^2 differ by one.
      const exact = BigInt(n) * BigInt(n - 2) - BigInt(n - 1) * BigInt(n - 1);
      expect(exact).toBe(-1n);
      expect(n * (n - 2) - (n - 1) * (n - 1)).toBe(0); // in doubles the two round alike
      expect(denser(n, n - 1, n - 1, n - 2)).toBe(-1);
      expect(denser(n - 1, n - 2, n, n - 1)).toBe(1);
      expect(denser(n, n - 1, n, n - 1)).toBe(0);
    }
  });

  it('the density order breaks ties by index: equal densities keep ascending indices, whatever the input order', () => {
    // Densities 2, 2, 2, 1, 1 and 3 (p / w), given in a scrambled order.
    const w = [1, 2, 3, 1, 2, 1];
    const p = [2, 4, 6, 1, 2, 3];
    expect(densityOrder([4, 2, 0, 5, 3, 1], w, p)).toEqual([5, 0, 1, 2, 3, 4]);
    expect(densityOrder([3, 4, 1, 2, 0, 5], w, p)).toEqual([5, 0, 1, 2, 3, 4]);
  });
});
