/**
 * Dantzig's bound (src/solve/bound.ts `dantzig`, the LP relaxation of a 0-1 knapsack, rounded down) on
 * values, weights and capacities up to 2^47 (values summing below 2^53, its callers' domain), where the
 * products it forms pass 2^53: equal to an exact
 * oracle written in BigInt (items by ratio, compared by cross products; the whole items that fit, then
 * the floor of the critical item's fraction). Both of its paths are reached (the double one while every
 * product it forms stays below 2^53, the BigInt one past that), and near the guard between them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dantzig } from './helpers/internals.js';

/** floor(LP optimum) of the 0-1 knapsack, exactly. */
function exactDantzig(w: number[], v: number[], cap: number): number {
  const ids = w.map((_, i) => i).filter((i) => v[i]! > 0);
  ids.sort((a, b) => {
    const d = BigInt(v[b]!) * BigInt(w[a]!) - BigInt(v[a]!) * BigInt(w[b]!);
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  });
  let room = BigInt(cap);
  let total = 0n;
  for (const i of ids) {
    const wi = BigInt(w[i]!);
    if (wi <= room) {
      room -= wi;
      total += BigInt(v[i]!);
    } else {
      total += (BigInt(v[i]!) * room) / wi;
      break;
    }
  }
  return Number(total);
}

const magnitude = (bits: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: bits }), fc.double({ min: 0.5, max: 1, noNaN: true }))
    .map(([b, f]) => Math.max(1, Math.floor(2 ** b * f)));

describe("Dantzig's bound on values past 2^26", () => {
  it('equals the exact floor of the LP optimum, on both sides of the double path guard', () => {
    let big = 0;
    fc.assert(
      fc.property(
        fc.array(fc.record({ w: magnitude(40), v: magnitude(40) }), { minLength: 1, maxLength: 12 }),
        magnitude(45),
        (items, cap) => {
          const w = items.map((x) => x.w);
          const v = items.map((x) => x.v);
          const got = dantzig(
            items.map((_, i) => i),
            w,
            (i) => v[i]!,
            cap,
          );
          if (Math.max(...v) * Math.max(...w) >= 2 ** 53) big++;
          expect(got).toBe(exactDantzig(w, v, cap));
        },
      ),
      { numRuns: 3000, seed: 7 },
    );
    expect(big).toBeGreaterThan(300);
  });

  it('equals it where the scaled sum passes 2^53: many items of values near 2^47 and small weights', () => {
    // Values sum below 2^53, as every caller's do (tokens and credits below 2^32, at most 4,096 sessions);
    // the sum scaled by the critical item's weight does not.
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            w: fc.integer({ min: 1, max: 7 }),
            v: fc.integer({ min: 2 ** 45, max: 2 ** 47 - 1 }).map((x) => x - (x % 2) + 1),
          }),
          { minLength: 8, maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 200 }),
        (items, cap) => {
          const w = items.map((x) => x.w);
          const v = items.map((x) => x.v);
          expect(
            dantzig(
              items.map((_, i) => i),
              w,
              (i) => v[i]!,
              cap,
            ),
          ).toBe(exactDantzig(w, v, cap));
        },
      ),
      { numRuns: 2000, seed: 11 },
    );
  });
});
