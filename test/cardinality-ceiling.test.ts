/**
 * The cardinality ceiling of a 0-1 knapsack (src/solve/dp/surrogate-core/cardinality.ts): never below the optimum
 * (enumeration), never above the linear relaxation's floor (computed here by sorting), and on strongly
 * correlated items (p = w + K) at most C + K kmax, below the relaxation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardinalityCeiling, seededRandom } from './helpers/internals.js';
import { enumerateKnapsack } from './oracles/knapsack.js';

/** floor of the linear relaxation's optimum (exact rationals via BigInt), sorting by p / w. */
function relaxationFloor(w: readonly number[], p: readonly number[], cap: number): number {
  const ids = w.map((_, i) => i).sort((a, b) => p[b]! * w[a]! - p[a]! * w[b]!);
  let room = cap;
  let value = 0;
  for (const j of ids) {
    if (w[j]! <= room) {
      room -= w[j]!;
      value += p[j]!;
    } else return value + Math.floor((room * p[j]!) / w[j]!);
  }
  return value;
}

/**
 * The module comment's ceiling at its best integer multiplier, by enumeration: the least over lambda =
 * 0..max p of lambda kmax + floor(LP_lambda), LP_lambda the linear relaxation with profits p - lambda
 * (items with p <= lambda left out), computed exactly over integers.
 */
function leastCeiling(w: readonly number[], p: readonly number[], cap: number, kmax: number): number {
  let least = Number.POSITIVE_INFINITY;
  for (let lambda = 0; lambda <= Math.max(...p); lambda++) {
    const ids = w
      .map((_, i) => i)
      .filter((i) => p[i]! > lambda)
      .sort((a, b) => (p[b]! - lambda) * w[a]! - (p[a]! - lambda) * w[b]!);
    let room = cap;
    let lp = 0;
    for (const j of ids) {
      if (w[j]! <= room) {
        room -= w[j]!;
        lp += p[j]! - lambda;
      } else {
        lp += Math.floor(((p[j]! - lambda) * room) / w[j]!);
        break;
      }
    }
    least = Math.min(least, lambda * kmax + lp);
  }
  return least;
}

/** The most items that fit together: the lightest first. */
function mostThatFit(w: readonly number[], cap: number): number {
  let n = 0;
  let sum = 0;
  for (const x of [...w].sort((a, b) => a - b)) {
    if (sum + x > cap) break;
    sum += x;
    n++;
  }
  return n;
}

const all = (k: number): Int32Array => Int32Array.from({ length: k }, (_, i) => i);

/** Between `min` and `max` items of weight 1 to `maxW` and profit 1 to `maxP`. */
const itemsArb = (maxW: number, maxP: number, min: number, max: number) =>
  fc.array(fc.record({ w: fc.integer({ min: 1, max: maxW }), p: fc.integer({ min: 1, max: maxP }) }), {
    minLength: min,
    maxLength: max,
  });

describe('cardinality ceiling', () => {
  it('is at least the optimum and at most the linear relaxation on every profile, with items in any order', () => {
    fc.assert(
      fc.property(
        itemsArb(60, 90, 1, 14),
        fc.constantFrom('free', 'strong', 'p=w', 'inverse'),
        fc.double({ min: 0, max: 1.1, noNaN: true }),
        (raw, profile, rho) => {
          const w = raw.map((x) => x.w);
          const p = raw.map((x) =>
            profile === 'strong'
              ? x.w + 20
              : profile === 'p=w'
                ? x.w
                : profile === 'inverse'
                  ? Math.max(1, x.w - 10)
                  : x.p,
          );
          const cap = Math.floor(w.reduce((a, x) => a + x, 0) * rho);
          const ceiling = cardinalityCeiling(all(w.length), w.length, p, w, cap);
          if (mostThatFit(w, cap) === w.length) expect(ceiling).toBe(Number.POSITIVE_INFINITY);
          else {
            expect(ceiling).toBeGreaterThanOrEqual(enumerateKnapsack(w, p, cap).value);
            expect(ceiling).toBeLessThanOrEqual(relaxationFloor(w, p, cap));
          }
        },
      ),
      { numRuns: 1500, seed: 41 },
    );
  });

  it('is the least over integer multipliers of lambda kmax + the floor of the relaxation with profits p - lambda', () => {
    fc.assert(
      fc.property(itemsArb(40, 60, 2, 12), fc.double({ min: 0.1, max: 0.9, noNaN: true }), (raw, rho) => {
        const w = raw.map((x) => x.w);
        const p = raw.map((x) => x.p);
        const cap = Math.floor(w.reduce((a, x) => a + x, 0) * rho);
        const kmax = mostThatFit(w, cap);
        fc.pre(kmax < w.length);
        expect(cardinalityCeiling(all(w.length), w.length, p, w, cap)).toBe(leastCeiling(w, p, cap, kmax));
      }),
      { numRuns: 1500, seed: 43 },
    );
  });

  it('is at most C + K kmax on strongly correlated items (p = w + K), and below the linear relaxation on most of them', () => {
    let below = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 10, max: 1000 }), { minLength: 20, maxLength: 100 }),
        fc.double({ min: 0.2, max: 0.8, noNaN: true }),
        (w, rho) => {
          const p = w.map((x) => x + 100);
          const cap = Math.floor(w.reduce((a, x) => a + x, 0) * rho);
          const kmax = mostThatFit(w, cap);
          const ceiling = cardinalityCeiling(all(w.length), w.length, p, w, cap);
          expect(ceiling).toBeLessThanOrEqual(cap + 100 * kmax);
          runs++;
          if (ceiling < relaxationFloor(w, p, cap)) below++;
        },
      ),
      { numRuns: 200, seed: 42 },
    );
    expect(below).toBeGreaterThan(runs * 0.8);
  });

  it('counts every item when more are listed than its scratch first holds (300 items, most of them fitting)', () => {
    const rnd = seededRandom(3);
    const w = Array.from({ length: 300 }, () => 1 + Math.floor(rnd() * 20));
    const p = w.map((x) => x + 5);
    const cap = Math.floor(w.reduce((a, x) => a + x, 0) * 0.4);
    const kmax = mostThatFit(w, cap);
    expect(kmax).toBeGreaterThan(150);
    // The optimum by a table over capacities (profits positive integers).
    const best = new Array<number>(cap + 1).fill(0);
    for (let j = 0; j < w.length; j++)
      for (let c = cap; c >= w[j]!; c--) best[c] = Math.max(best[c]!, best[c - w[j]!]! + p[j]!);
    const ceiling = cardinalityCeiling(all(w.length), w.length, p, w, cap);
    expect(ceiling).toBeGreaterThanOrEqual(best[cap]!);
    expect(ceiling).toBeLessThanOrEqual(cap + 5 * kmax);
  });

  // The ceiling is computed in doubles, exact below 2^53 only: where a term reaches it, the answer is +Infinity
  // (no ceiling), never a rounded number. Each case reaches 2^53 in one place: the sum of the multiplier's
  // term and the profits above it (at 2^53 exactly, and past it), the break item's product with a weight, and
  // another item's product with the break item's weight (a profit far below the multiplier).
  it.each([
    {
      at: 'the sum past 2^53',
      w: [1, 2, 2, 5],
      p: [5252656419307520, 4742150164054016, 5219340357992448, 2951281945608192],
      cap: 9,
    },
    { at: 'the sum at 2^53', w: [4, 1, 2], p: [4503632891478016, 4503566363262976, 47], cap: 6 },
    {
      at: 'a product with the break weight',
      w: [1222902, 6025699570, 1809179302, 669668046, 14365294891],
      p: [7287455, 7909751, 3769199, 1866247, 7456959],
      cap: 346675455,
    },
    {
      at: 'a product of the break profit',
      w: [136031860577, 62139740, 7069850, 32085129846, 2229019],
      p: [76079, 63613, 138540, 156698, 13609],
      cap: 15464078841,
    },
  ])('is +Infinity, not a rounded number, where $at reaches 2^53', ({ w, p, cap }) => {
    expect(mostThatFit(w, cap)).toBeLessThan(w.length);
    expect(cardinalityCeiling(all(w.length), w.length, p, w, cap)).toBe(Number.POSITIVE_INFINITY);
  });

  it('reads only the items listed, by id', () => {
    const w = [5, 900, 7, 900, 9];
    const p = [105, 1, 107, 1, 109];
    // Items 0, 2 and 4 within 14: at most 2 of them fit; with lambda = 100 the relaxation is 14 + 200.
    expect(cardinalityCeiling(Int32Array.from([4, 0, 2]), 3, p, w, 14)).toBe(214);
    expect(enumerateKnapsack([5, 7, 9], [105, 107, 109], 14).value).toBe(214);
  });
});
