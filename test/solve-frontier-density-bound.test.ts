/**
 * The TypeScript frontier's bound on the sessions still to fold (src/solve/dp/frontier/mirror.ts,
 * FrontierBound): at every residual it is at least the LP relaxation's value of the sessions left rounded
 * down (plans are worth whole units), and at most one above it. The LP value is computed here independently: the items by exact density (cross
 * products in BigInt), whole ones while they fit, then the next one's fraction as an exact rational.
 */
import { describe, expect, it } from 'vitest';
import { FrontierBound, seededRandom } from './helpers/internals.js';

/** The LP relaxation's value of items `from`.. within `r`, as numerator / denominator. */
function lpValue(p: readonly bigint[], w: readonly number[], from: number, r: number): { num: bigint; den: bigint } {
  const items = p.map((_, t) => t).filter((t) => t >= from);
  items.sort((a, b) => {
    const lhs = p[a]! * BigInt(w[b]!);
    const rhs = p[b]! * BigInt(w[a]!);
    return lhs > rhs ? -1 : lhs < rhs ? 1 : 0;
  });
  let value = 0n;
  let room = r;
  for (const t of items) {
    if (w[t]! <= room) {
      value += p[t]!;
      room -= w[t]!;
      continue;
    }
    return { num: value * BigInt(w[t]!) + p[t]! * BigInt(room), den: BigInt(w[t]!) };
  }
  return { num: value, den: 1n };
}

/**
 * Seeded items, `lo`-`hi` of them: weights 1-12; values equal to a small multiple of the weight (many
 * equal densities) or up to 2^40.
 */
function items(seed: number, lo: number, hi: number): { p: bigint[]; w: number[]; total: number } {
  const rnd = seededRandom(seed);
  const int = (a: number, b: number) => a + Math.floor(rnd() * (b - a + 1));
  const w = Array.from({ length: int(lo, hi) }, () => int(1, 12));
  const p = w.map((wt) => BigInt(rnd() < 0.4 ? wt * int(1, 3) : int(0, 2 ** 20) * int(1, 2 ** 20)));
  return { p, w, total: w.reduce((a, b) => a + b, 0) };
}

/** Checks the bound of `p`, `w` restricted to `from` at residual `r` against the LP value; whether that has a fraction. */
function check(bound: FrontierBound, p: bigint[], w: number[], from: number, r: number, at: string): boolean {
  const { num, den } = lpValue(p, w, from, r);
  const ub = bound.upper(r);
  // Plans are worth whole units: the LP value rounded down bounds them (BigInt division floors).
  const floor = num / den;
  expect(ub >= floor && ub <= floor + 1n, `${at} from ${from} r ${r}: ${ub} against ${floor}`).toBe(true);
  return den > 1n;
}

describe("the TypeScript frontier's density bound", () => {
  it('is at least the LP value of the sessions left, rounded down, at every residual, and at most one above it', () => {
    let fractional = 0;
    for (let seed = 0; seed < 400; seed++) {
      const { p, w, total } = items(seed + 77, 1, 12);
      const bound = new FrontierBound(p, w);
      for (let from = 0; from <= w.length; from++) {
        bound.restrict(from);
        for (let r = 0; r <= total + 2; r++) if (check(bound, p, w, from, r, `seed ${seed}`)) fractional++;
      }
    }
    expect(fractional).toBeGreaterThan(1000);
  });

  it("on long lists too (the sort's merges compare entries in both orders), at sampled residuals", () => {
    for (let seed = 0; seed < 30; seed++) {
      const { p, w, total } = items(seed + 5000, 100, 300);
      const n = w.length;
      const bound = new FrontierBound(p, w);
      for (const from of [0, Math.floor(n / 3), Math.floor((2 * n) / 3)]) {
        bound.restrict(from);
        for (let x = 0; x <= 40; x++) check(bound, p, w, from, Math.floor((total * x) / 40), `seed ${seed}`);
      }
    }
  });
});
