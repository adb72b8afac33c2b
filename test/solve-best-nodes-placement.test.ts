/**
 * Where the best-nodes plan (`bestNodesPlan`, the closed form taken when every session fits on one of its
 * best-credit nodes) puts each session: sessions by weight descending (ties: input order), each to the
 * best-credit candidate node with the most quantized capacity left (ties: the lower original node index,
 * also when packing has put the nodes in another order); no plan (null) as soon as one session finds no
 * best-credit node with room, even if another node has room. Expected placements worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { bestNodesPlan, prepare, type Problem, type ProblemSession } from './helpers/internals.js';

/** The plan as session id -> node id (null: no best-nodes plan), and the kept node order. */
function place(capacities: Record<string, number>, sessions: ProblemSession[], quantum = 1) {
  const problem: Problem = { nodes: Object.entries(capacities).map(([id, capacity]) => ({ id, capacity })), sessions };
  const { packed, problem: indexed } = prepare(problem, { quantum });
  const plan = bestNodesPlan(packed);
  const keptOrder = Array.from(packed.nodeIndex, (b) => indexed.nodeIds[b]!);
  if (plan === null) return { plan: null, keptOrder };
  const out: Record<string, string> = {};
  plan.forEach((b, j) => {
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

describe('best-nodes plan: the node of each session', () => {
  it('takes the node with the most room', () => {
    expect(place({ r: 10, p: 20, q: 30 }, [s('x', 6)])).toEqual({ plan: { x: 'q' }, keptOrder: ['r', 'p', 'q'] });
  });

  it('takes the node with the most room when a node with less room and a lower index comes later', () => {
    // y (on q only) raises q's usable capacity: packing puts q first, then r and p.
    const got = place({ r: 10, p: 20, q: 30 }, [s('x', 6), s('y', 2, { eligible: ['q'] })]);
    expect(got).toEqual({ plan: { x: 'q', y: 'q' }, keptOrder: ['q', 'r', 'p'] });
  });

  it('breaks a tie of room by the lower original node index, in either packing order', () => {
    expect(place({ r: 10, p: 20, q: 20 }, [s('x', 6)])).toEqual({ plan: { x: 'p' }, keptOrder: ['r', 'p', 'q'] });
    const got = place({ r: 10, p: 20, q: 20 }, [s('x', 6), s('y', 2, { eligible: ['q'] })]);
    expect(got.keptOrder).toEqual(['q', 'r', 'p']);
    // x (heavier) first: p and q have 20 each, p has the lower index; then y on q.
    expect(got.plan).toEqual({ x: 'p', y: 'q' });
  });

  it('places heavier sessions first', () => {
    // b first takes q (12), then a takes p (10 > 4); light first would give a q, b p.
    expect(place({ p: 10, q: 12 }, [s('a', 4), s('b', 8)]).plan).toEqual({ a: 'p', b: 'q' });
  });

  it('places sessions of equal weight in input order', () => {
    expect(place({ p: 10, q: 10 }, [s('a', 5), s('b', 5)]).plan).toEqual({ a: 'p', b: 'q' });
    expect(place({ p: 10, q: 10 }, [s('b', 5), s('a', 5)]).plan).toEqual({ b: 'p', a: 'q' });
  });

  it('orders by quantized weight: equal after rounding up, input order decides', () => {
    // quantum 4: weights 5 and 8 are both 2 quanta, so a (first) goes first.
    expect(place({ p: 40, q: 40 }, [s('a', 5), s('b', 8)], 4).plan).toEqual({ a: 'p', b: 'q' });
  });

  it('uses only best-credit nodes, whatever the room elsewhere', () => {
    expect(place({ r: 10, p: 30 }, [s('x', 6, { credit: { r: 5 } })]).plan).toEqual({ x: 'r' });
    expect(place({ r: 10, p: 30 }, [s('x', 6, { credit: { r: 5, p: 5 } })]).plan).toEqual({ x: 'p' });
  });
});

describe('best-nodes plan: none', () => {
  it('is null when a session finds no best-credit node with room, though another node has room', () => {
    const sessions = [s('a', 6, { credit: { r: 5 } }), s('b', 6, { credit: { r: 5 } })];
    expect(place({ r: 10, p: 30 }, sessions).plan).toBeNull();
  });

  it('is null when the room runs out only for the last session', () => {
    expect(place({ p: 10 }, [s('a', 4), s('b', 3), s('c', 4)]).plan).toBeNull();
    expect(place({ p: 11 }, [s('a', 4), s('b', 3), s('c', 4)]).plan).toEqual({ a: 'p', b: 'p', c: 'p' });
  });

  it('places every session of a large problem, spread (its working arrays grow)', () => {
    const sessions = Array.from({ length: 600 }, (_, i) => s(`s${i}`, 1 + (i % 3)));
    const nodes: Record<string, number> = {};
    for (let b = 0; b < 60; b++) nodes[`n${b}`] = 40;
    const { plan } = place(nodes, sessions);
    expect(Object.keys(plan!)).toHaveLength(600);
    const used = new Map(Object.keys(nodes).map((id) => [id, 0]));
    for (const x of sessions) used.set(plan![x.id]!, used.get(plan![x.id]!)! + x.weight);
    // Heaviest first, each to the node with the most room: the loads end within one largest weight (3).
    const loads = [...used.values()];
    expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(3);
    expect(loads.reduce((a, b) => a + b, 0)).toBe(1200);
  });
});
