/**
 * Family `spread-credit`: ticks whose credit is spread over several nodes. About 30% of the sessions carry
 * no credit at all; each other session is credited on k distinct nodes, k uniform in [1, min(3, m)], each
 * with its own decayed prefix credit (a prefix shared across nodes, cached at different ages).
 *
 * Parameters per instance: nodes m (group: 2, 4); waiting sessions n uniform in [50, 120]; sizes as in
 * draw.ts; readiness probability uniform in [0.3, 0.7]; uncredited share 0.3; room per node uniform in
 * [1, 4] sessions of the pool's mean weight. Quantum: the default.
 */
import type { Rng } from '../../sim/rng.js';
import type { Problem, ProblemSession } from '../../types.js';
import { between, drawCredit, drawSessions, instanceRng, nodeIds, roomInSessions, uniform } from './draw.js';
import { nodeCountGroups, type Family } from './family.js';

export const SPREAD_CREDIT = Object.freeze({
  nodes: [2, 4],
  sessions: [50, 120],
  readyRate: [0.3, 0.7],
  uncredited: 0.3,
  maxCreditNodes: 3,
  roomSessions: [1, 4],
} as const);

/** Credits `s` on k random distinct nodes of `ids` (k in [1, min(maxNodes, m)]), or not at all with probability `uncredited`. */
export function spreadCredit(
  rng: Rng,
  s: ProblemSession,
  ids: readonly string[],
  uncredited: number,
  maxNodes: number,
): void {
  if (rng.float() < uncredited) return;
  const k = between(rng, 1, Math.min(maxNodes, ids.length));
  const pool = [...ids];
  const credit: Record<string, number> = {};
  for (let j = 0; j < k; j++) {
    const id = pool.splice(rng.int(pool.length), 1)[0] as string;
    credit[id] = drawCredit(rng, s.tokens);
  }
  Object.assign(s, { credit });
}

/** The pool sizes, readiness and room of a spread-credit tick (the `large` family varies them). */
export interface SpreadShape {
  sessions: readonly [number, number];
  readyRate: readonly [number, number];
  roomSessions: readonly [number, number];
}

/** A tick with credit spread as in SPREAD_CREDIT, of the given shape, on `m` nodes. */
export function spreadTick(rng: Rng, m: number, shape: SpreadShape): Problem {
  const ids = nodeIds(m);
  const sessions = drawSessions(
    rng,
    between(rng, shape.sessions[0], shape.sessions[1]),
    uniform(rng, ...shape.readyRate),
  );
  for (const s of sessions) spreadCredit(rng, s, ids, SPREAD_CREDIT.uncredited, SPREAD_CREDIT.maxCreditNodes);
  return { nodes: roomInSessions(rng, ids, sessions, ...shape.roomSessions), sessions };
}

export function spreadCreditProblem(seed: number, groupIndex: number, m: number, index: number): Problem {
  return spreadTick(instanceRng(seed, 1, groupIndex, index), m, SPREAD_CREDIT);
}

export const spreadCreditFamily: Family = {
  name: 'spread-credit',
  description: 'ticks with credit on 1-3 nodes per session and 30% uncredited; 50-120 waiting, room for 1-4 per node',
  groups: nodeCountGroups('spread-credit', SPREAD_CREDIT.nodes, spreadCreditProblem),
};
