/**
 * Family `single-credit`: paper-shaped ticks. Each waiting session is credited on exactly one node, the one
 * it last ran on (uniform over the nodes), with decayed prefix credit (src/bench/families/draw.ts).
 *
 * Parameters per instance: nodes m (group: 2 or 4); waiting sessions n uniform in [50, 120]; sizes as in
 * draw.ts; readiness: each session ready with probability q, q uniform in [0.3, 0.7] per instance (mixed
 * readiness); room per node uniform in [1, 4] sessions of the pool's mean weight. Quantum: the default.
 * The pool is far larger than the room, so the solver must choose, and most sessions' credit exists on
 * one node only.
 */
import type { Problem } from '../../types.js';
import { between, drawCredit, drawSessions, instanceRng, nodeIds, roomInSessions, uniform } from './draw.js';
import { nodeCountGroups, type Family } from './family.js';

export const SINGLE_CREDIT = Object.freeze({
  nodes: [2, 4],
  sessions: [50, 120],
  readyRate: [0.3, 0.7],
  roomSessions: [1, 4],
} as const);

export function singleCreditProblem(seed: number, groupIndex: number, m: number, index: number): Problem {
  const rng = instanceRng(seed, 0, groupIndex, index);
  const ids = nodeIds(m);
  const sessions = drawSessions(
    rng,
    between(rng, SINGLE_CREDIT.sessions[0], SINGLE_CREDIT.sessions[1]),
    uniform(rng, ...SINGLE_CREDIT.readyRate),
  );
  for (const s of sessions) Object.assign(s, { credit: { [ids[rng.int(m)] as string]: drawCredit(rng, s.tokens) } });
  return { nodes: roomInSessions(rng, ids, sessions, ...SINGLE_CREDIT.roomSessions), sessions };
}

export const singleCreditFamily: Family = {
  name: 'single-credit',
  description:
    'paper-shaped ticks: 50-120 waiting, room for 1-4 per node, each session credited on its last node, mixed readiness',
  groups: nodeCountGroups('single-credit', SINGLE_CREDIT.nodes, singleCreditProblem),
};
