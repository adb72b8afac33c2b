/**
 * The nested-rooms bound's rounding slack (src/solve/nested-bound.ts): before an LP value of the tokens
 * bound is rounded down, it is raised by 10^-9 x (|LP value| + mu x R), so that the slack grows with the
 * multiplier's term mu x R that is subtracted from it (and whose rounding it must cover), plus 10^-6.
 * Solved by hand on one node of 100,001 quanta: a ready session A of 100,000 quanta and no tokens, a plain
 * session P of 10,000 quanta and 49,999 tokens, floor R = 1. Past mu* = 100,000 x 49,999 / 10,000 =
 * 499,990, A comes first, P takes the 1 quantum left, and L(mu) = mu + 4.9999 - mu x 1 = 4.9999, the least;
 * below mu*, L is larger. The multipliers tried past mu* are at least mu*, so the raised value is at least
 * 4.9999 + 10^-6 + 10^-9 x (2 x 499,990 + 4.9999) > 5.0009: the bound is 5. A slack of 10^-9 x |L| alone
 * would leave it below 5 and round it to 4.
 */
import { describe, expect, it } from 'vitest';
import { nestedBound, prepare, type Problem } from './helpers/internals.js';

const problem: Problem = {
  nodes: [{ id: 'n0', capacity: 100_001 }],
  sessions: [
    { id: 'A', weight: 100_000, tokens: 0, ready: true },
    { id: 'P', weight: 10_000, tokens: 49_999, ready: false },
  ],
};

describe("the nested-rooms bound's rounding slack", () => {
  it('grows with the multiplier term mu x R: an LP value of 4.9999 at mu near 5 x 10^5 rounds to 5', () => {
    const { packed } = prepare(problem, { quantum: 1 });
    expect(Array.from(packed.qweight)).toEqual([100_000, 10_000]);
    const bound = nestedBound(packed, 1);
    expect(bound.ready).toBe(1);
    expect(bound.tokens).toBe(5);
    // At R = 0 the multiplier is not tried: P alone and A's last quantum, 49,999 tokens.
    expect(nestedBound(packed, 0).tokens).toBe(49_999);
  });
});
