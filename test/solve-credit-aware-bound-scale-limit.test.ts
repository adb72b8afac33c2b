/**
 * The credit-aware refinement of the tokens bound (`withCredit` in src/solve/bound.ts) tries a multiplier L
 * per scale and keeps it only while (L + 1)(top + 1)(sessions + 1) < 2^53, top being the largest level or
 * credit: past that, the scale is skipped and the bound stays the plain one. Pinned at the edge: two
 * sessions on one node with room for one, A worth 1,000 tokens and no credit, B worth `bTokens` tokens and
 * credit 2^32 - 1, and a plan known to reach that credit (so it holds B, and the optimum's tokens are B's).
 * The smallest scale's multiplier is round(0.25 (2^32 - 1) / (1,000 + bTokens)): 699,051 for bTokens = 536,
 * just past the limit (699,052 * 2^32 * 3 >= 2^53 > 699,050 * 2^32 * 3), and 698,596
 * for bTokens = 537, below the limit. The larger scales are skipped in both. Taken, the scale bounds the
 * tokens by B's; skipped, the bound is A's 1,000.
 */
import { describe, expect, it } from 'vitest';
import { type Problem, relaxationBound, validateProblem } from './helpers/internals.js';

const CREDIT = 2 ** 32 - 1;

function problem(bTokens: number): Problem {
  return {
    nodes: [{ id: 'n0', capacity: 1 }],
    sessions: [
      { id: 'a', weight: 1, tokens: 1_000, ready: false },
      { id: 'b', weight: 1, tokens: bTokens, ready: false, credit: { n0: CREDIT } },
    ],
  };
}

const scaleOf = (bTokens: number) => Math.round((0.25 * CREDIT) / (1_000 + bTokens));

describe('the credit-aware tokens bound at its exactness limit', () => {
  it('skips the first scale whose multiplier reaches the limit and keeps the plain bound', () => {
    expect(scaleOf(536)).toBe(699_051);
    expect(BigInt(699_051 + 1) * 2n ** 32n * 3n >= 2n ** 53n).toBe(true);
    const bound = relaxationBound(validateProblem(problem(536)), 1, undefined, { credit: CREDIT });
    expect(bound).toEqual({ credit: CREDIT, ready: 0, tokens: 1_000 });
  });

  it('takes a scale below the limit and bounds the tokens by the credited session', () => {
    expect(scaleOf(537)).toBe(698_596);
    expect(BigInt(698_596 + 1) * 2n ** 32n * 3n < 2n ** 53n).toBe(true);
    const bound = relaxationBound(validateProblem(problem(537)), 1, undefined, { credit: CREDIT });
    expect(bound).toEqual({ credit: CREDIT, ready: 0, tokens: 537 });
  });

  it('without a known credit, bounds the tokens by the richer session alone', () => {
    expect(relaxationBound(validateProblem(problem(536)), 1)).toEqual({ credit: CREDIT, ready: 0, tokens: 1_000 });
  });
});
