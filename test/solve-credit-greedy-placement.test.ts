/**
 * The credit greedy among the fallback heuristics (`heuristicPlan`: the best of BFD in two orders and the
 * credit greedy in two): where BFD loses credit by filling the tightest node, the greedy's plan is the
 * best, and it puts a session on its highest-credit candidate node with room; ties: the least capacity
 * left over, then the lower original node index (also when packing has put the nodes in another order).
 * Expected placements worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { heuristicPlan, prepare, type Problem, type ProblemSession } from './helpers/internals.js';

/** The best heuristic plan as session id -> node id ('-': not admitted), and the kept node order. */
function place(capacities: Record<string, number>, sessions: ProblemSession[]) {
  const problem: Problem = { nodes: Object.entries(capacities).map(([id, capacity]) => ({ id, capacity })), sessions };
  const { packed, problem: indexed } = prepare(problem, { quantum: 1 });
  const keptOrder = Array.from(packed.nodeIndex, (b) => indexed.nodeIds[b]!);
  const out: Record<string, string> = {};
  heuristicPlan(packed).forEach((b, j) => {
    out[indexed.sessionIds[packed.sessionIndex[j]!]!] = b < 0 ? '-' : keptOrder[b]!;
  });
  return { plan: out, keptOrder };
}

const s = (id: string, weight: number, extra: Partial<ProblemSession> = {}): ProblemSession => ({
  id,
  weight,
  tokens: 1,
  ready: true,
  ...extra,
});

describe('credit greedy: the node of a session', () => {
  // BFD puts x on a (1 left over, the least): credit 0. The greedy's plans put it where its credit is.
  it('takes the highest-credit node, not the tightest', () => {
    expect(place({ a: 6, b: 20 }, [s('x', 5, { credit: { b: 10 } })]).plan).toEqual({ x: 'b' });
  });

  it('takes the node of higher credit over one of lower, non-zero credit', () => {
    expect(place({ a: 6, b: 20, c: 20 }, [s('x', 5, { credit: { a: 1, b: 4, c: 9 } })]).plan).toEqual({ x: 'c' });
  });

  it('breaks a tie of credit by the least capacity left over', () => {
    expect(place({ a: 6, b: 20, c: 15 }, [s('x', 5, { credit: { b: 10, c: 10 } })]).plan).toEqual({ x: 'c' });
    expect(place({ a: 6, b: 15, c: 20 }, [s('x', 5, { credit: { b: 10, c: 10 } })]).plan).toEqual({ x: 'b' });
  });

  it('breaks a tie of credit and room by the lower original node index, in either packing order', () => {
    expect(place({ a: 6, b: 20, c: 20 }, [s('x', 5, { credit: { b: 10, c: 10 } })])).toEqual({
      plan: { x: 'b' },
      keptOrder: ['a', 'b', 'c'],
    });
    // y (on c only) raises c's usable capacity, so packing puts c first; x still goes to b, then y to c.
    const got = place({ a: 6, b: 20, c: 20 }, [
      s('x', 5, { credit: { b: 10, c: 10 } }),
      s('y', 2, { eligible: ['c'] }),
    ]);
    expect(got).toEqual({ plan: { x: 'b', y: 'c' }, keptOrder: ['c', 'a', 'b'] });
  });

  it('breaks a tie of credit by the least room left over when the roomier node has the lower index and comes later', () => {
    // y (on c only) raises c's usable capacity: packing puts c first, then a and b. x (credit 10 on b and
    // c) goes to c (15 - 5 left over), not to b (20 - 5), though b's index is lower.
    const got = place({ a: 6, b: 20, c: 15 }, [
      s('x', 5, { credit: { b: 10, c: 10 } }),
      s('y', 2, { eligible: ['c'] }),
    ]);
    expect(got).toEqual({ plan: { x: 'c', y: 'c' }, keptOrder: ['c', 'a', 'b'] });
  });

  it('skips a node whose room an earlier session took, however high its credit', () => {
    // z (credit 20, placed first) takes c; x no longer fits there (5 > 8 - 4) and goes to b.
    const sessions = [s('x', 5, { credit: { b: 3, c: 10 } }), s('z', 4, { credit: { c: 20 } })];
    expect(place({ a: 6, b: 20, c: 8 }, sessions).plan).toEqual({ x: 'b', z: 'c' });
  });

  it('takes a node the session fills exactly', () => {
    // z takes 4 of c's 9; x (5) fills the rest.
    const sessions = [s('x', 5, { credit: { b: 3, c: 10 } }), s('z', 4, { credit: { c: 20 } })];
    expect(place({ a: 6, b: 20, c: 9 }, sessions).plan).toEqual({ x: 'c', z: 'c' });
  });
});
