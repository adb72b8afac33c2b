/**
 * The tie spreading (`spreadTies`) keeps moving sessions until none can move: a move that only becomes
 * possible once a lighter session, visited later, has left a node is made in a later pass. Checked on a
 * hand-made case (its spread plan worked out by hand) and against the fixed-point rule itself: no admitted
 * session has a candidate node of equal credit with residual - weight > its own node's residual. Where a
 * session moves: the node with the most room, ties to the lower original node index, also when packing
 * has put the nodes in another order (by their usable capacity).
 */
import { describe, expect, it } from 'vitest';
import { MAX_SPREAD_PASSES, type PackedProblem, prepare, type Problem, spreadTies } from './helpers/internals.js';

/** Whether no admitted session of `node` can move under the spreading rule (checked over every pair). */
function isFixedPoint(packed: PackedProblem, node: Int32Array): boolean {
  const m = packed.qcapacity.length;
  const residual = Array.from(packed.qcapacity);
  node.forEach((b, j) => {
    if (b >= 0) residual[b] = residual[b]! - packed.qweight[j]!;
  });
  for (let j = 0; j < node.length; j++) {
    const a = node[j]!;
    if (a < 0) continue;
    for (let b = 0; b < m; b++) {
      const e = j * m + b;
      if (b === a || packed.candidate[e] !== 1 || packed.credit[e] !== packed.credit[j * m + a]) continue;
      if (residual[b]! - packed.qweight[j]! > residual[a]!) return false;
    }
  }
  return true;
}

describe('spreadTies: more than one pass', () => {
  // j (weight 5) cannot go to z and has no move at first (12 - 4 - 5 = 3 is not above 10 - 5 = 5); k
  // (weight 4, visited after the heavier j) moves y -> z (13 - 4 = 9 > 12 - 4 = 8), which leaves y room
  // for j (12 - 5 = 7 > 5): only a second pass makes that move.
  const problem: Problem = {
    nodes: [
      { id: 'x', capacity: 10 },
      { id: 'y', capacity: 12 },
      { id: 'z', capacity: 13 },
    ],
    sessions: [
      { id: 'j', weight: 5, tokens: 1, ready: true, eligible: ['x', 'y'] },
      { id: 'k', weight: 4, tokens: 1, ready: true },
    ],
  };

  it('makes the move an earlier move opened, ending at a fixed point', () => {
    const { packed } = prepare(problem, { quantum: 1 });
    expect([Array.from(packed.nodeIndex), Array.from(packed.sessionIndex)]).toEqual([
      [0, 1, 2],
      [0, 1],
    ]);
    const start = Int32Array.of(0, 1); // j on x, k on y
    expect(isFixedPoint(packed, start)).toBe(false);
    const spread = spreadTies(packed, start.slice());
    expect(Array.from(spread)).toEqual([1, 2]); // j on y, k on z
    expect(isFixedPoint(packed, spread)).toBe(true);
  });

  it('leaves a plan that is already a fixed point as it is', () => {
    const { packed } = prepare(problem, { quantum: 1 });
    expect(Array.from(spreadTies(packed, Int32Array.of(1, 2)))).toEqual([1, 2]);
    expect(Array.from(spreadTies(packed, Int32Array.of(-1, -1)))).toEqual([-1, -1]);
  });
});

describe('spreadTies: where a session moves', () => {
  const ids = ['r', 'p', 'q'];
  /** Nodes r, p, q (original indices 0, 1, 2); s (weight 6) on r; t (weight 2, on q only) not admitted. */
  function moveOfS(capacities: [number, number, number], tOnQ: boolean): { target: string; keptOrder: string[] } {
    const problem: Problem = {
      nodes: ids.map((id, b) => ({ id, capacity: capacities[b]! })),
      sessions: [
        { id: 's', weight: 6, tokens: 1, ready: true },
        ...(tOnQ ? [{ id: 't', weight: 2, tokens: 1, ready: true, eligible: ['q'] }] : []),
      ],
    };
    const { packed } = prepare(problem, { quantum: 1 });
    const keptOrder = Array.from(packed.nodeIndex, (b) => ids[b]!);
    const start = new Int32Array(packed.sessionIndex.length).fill(-1);
    start[0] = keptOrder.indexOf('r');
    const spread = spreadTies(packed, start);
    expect(spread.slice(1).every((b) => b === -1)).toBe(true);
    return { target: keptOrder[spread[0]!]!, keptOrder };
  }

  it('goes to the node with the most room', () => {
    expect(moveOfS([10, 20, 30], false)).toEqual({ target: 'q', keptOrder: ['r', 'p', 'q'] });
  });

  it('goes to the node with the most room when a node with less room but a lower index comes later', () => {
    // t raises q's usable capacity, so packing puts q first.
    expect(moveOfS([10, 20, 30], true)).toEqual({ target: 'q', keptOrder: ['q', 'r', 'p'] });
  });

  it('breaks a tie of room by the lower original node index', () => {
    expect(moveOfS([10, 20, 20], false)).toEqual({ target: 'p', keptOrder: ['r', 'p', 'q'] });
  });

  it('breaks a tie of room by the lower original node index when packing put the higher one first', () => {
    expect(moveOfS([10, 20, 20], true)).toEqual({ target: 'p', keptOrder: ['q', 'r', 'p'] });
  });

  it('the first move takes the most room, which decides where the next session can go', () => {
    // Residuals a 9, b 18, c 1. u (weight 7, visited first) moves c -> b (the most room), after which v
    // (weight 6) has no move. Taking a instead (room 9) would have left v a move to b: another plan.
    const problem: Problem = {
      nodes: [
        { id: 'a', capacity: 15 },
        { id: 'b', capacity: 18 },
        { id: 'c', capacity: 8 },
      ],
      sessions: [
        { id: 'v', weight: 6, tokens: 1, ready: true },
        { id: 'u', weight: 7, tokens: 1, ready: true },
      ],
    };
    const { packed } = prepare(problem, { quantum: 1 });
    expect([Array.from(packed.nodeIndex), Array.from(packed.sessionIndex)]).toEqual([
      [0, 1, 2],
      [0, 1],
    ]);
    expect(Array.from(spreadTies(packed, Int32Array.of(0, 2)))).toEqual([0, 1]);
  });
});

describe('spreadTies: the first pick, then a better one', () => {
  /** The spread plan of `problem` from `start` (node id per session), as node ids ('-': not admitted). */
  function spreadOf(problem: Problem, start: (string | null)[]): string[] {
    const { packed, problem: indexed } = prepare(problem, { quantum: 1 });
    const kept = Array.from(packed.nodeIndex, (b) => indexed.nodeIds[b]!);
    const node = Int32Array.from(start, (id) => (id === null ? -1 : kept.indexOf(id)));
    return Array.from(spreadTies(packed, node), (b) => (b < 0 ? '-' : kept[b]!));
  }

  it('keeps the first node it found (packed first) when a later one has less room', () => {
    // Packing orders the nodes n0, n2, n1. u (4, on n1: 2 left) has moves to n0 (19 left) and n2 (14,
    // after v's move n0 -> n2): it takes n0, the first it finds and the roomiest.
    const problem: Problem = {
      nodes: [
        { id: 'n0', capacity: 19 },
        { id: 'n1', capacity: 6 },
        { id: 'n2', capacity: 20 },
      ],
      sessions: [
        { id: 'v', weight: 6, tokens: 1, ready: true },
        { id: 'u', weight: 4, tokens: 1, ready: true },
      ],
    };
    expect(spreadOf(problem, ['n0', 'n1'])).toEqual(['n2', 'n0']);
  });

  it('does not take a node of lower index and less room', () => {
    // Packing orders the nodes n1, n2, n0. v (5, on n2 with u: 9 left) can go to n1 (21 left) or n0 (16):
    // n1, though n0 has the lower index; then u has no move.
    const problem: Problem = {
      nodes: [
        { id: 'n0', capacity: 16 },
        { id: 'n1', capacity: 21 },
        { id: 'n2', capacity: 18 },
      ],
      sessions: [
        { id: 'v', weight: 5, tokens: 1, ready: true },
        { id: 'u', weight: 4, tokens: 1, ready: true },
        { id: 'w', weight: 8, tokens: 1, ready: true, eligible: ['n1', 'n2'] },
      ],
    };
    expect(spreadOf(problem, ['n2', 'n2', null])).toEqual(['n1', 'n2', '-']);
  });
});

describe('spreadTies: the pass limit', () => {
  it('makes at most MAX_SPREAD_PASSES passes: of a chain needing one pass more, the last move is not made', () => {
    // Sessions s1..sk (k = MAX_SPREAD_PASSES + 1), s_i on n_i and eligible on n_i and n_(i+1), weights
    // falling with i; n_(i+1)'s residual is n_i's plus s_i's weight, so s_i can move only once s_(i+1) has
    // left n_(i+1): one move per pass, from the end of the chain (s_k to the empty n_(k+1)) back to s1.
    const k = MAX_SPREAD_PASSES + 1;
    const w = (i: number): number => 20 + k - i;
    const residual: number[] = [];
    residual[k] = 1000;
    for (let i = k - 1; i >= 1; i--) residual[i] = residual[i + 1]! - w(i);
    const problem: Problem = {
      nodes: [
        ...Array.from({ length: k }, (_, t) => ({ id: `n${t + 1}`, capacity: residual[t + 1]! + w(t + 1) })),
        { id: `n${k + 1}`, capacity: residual[k]! + w(k) + 1 },
      ],
      sessions: Array.from({ length: k }, (_, t) => ({
        id: `s${t + 1}`,
        weight: w(t + 1),
        tokens: 1,
        ready: true,
        eligible: [`n${t + 1}`, `n${t + 2}`],
      })),
    };
    const { packed, problem: indexed } = prepare(problem, { quantum: 1 });
    const kept = Array.from(packed.nodeIndex);
    const start = Int32Array.from(packed.sessionIndex, (i) => kept.indexOf(i));
    const spread = spreadTies(packed, start);
    const nodeOf = Array.from(spread, (b) => indexed.nodeIds[kept[b]!]);
    // Every session but s1 has moved one node on; s1 would have needed pass k.
    expect(nodeOf).toEqual(['n1', ...Array.from({ length: k - 1 }, (_, t) => `n${t + 3}`)]);
    expect(isFixedPoint(packed, spread)).toBe(false);
  });
});
