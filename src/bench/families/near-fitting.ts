/**
 * Family `near-fitting`: uncredited pools whose demand slightly exceeds the room (cold starts, credit
 * decayed to zero). Values follow the weights (tokens = weight - reserve), so the credit level is empty and
 * the problem is a multiple subset-sum with a ready-first priority.
 *
 * Parameters per instance: nodes m (group: 1, 2, 4); waiting sessions n uniform in [40, 120]; sizes as in
 * draw.ts; readiness probability uniform in [0.3, 0.7]; no credit; total room = demand / rho with rho
 * (demand over room) uniform in [1.02, 1.3], split over the nodes in proportions uniform in [0.5, 1.5].
 * Quantum: the default.
 */
import type { Problem } from '../../types.js';
import { between, drawSessions, instanceRng, nodeIds, uniform } from './draw.js';
import { nodeCountGroups, type Family } from './family.js';

export const NEAR_FITTING = Object.freeze({
  nodes: [1, 2, 4],
  sessions: [40, 120],
  readyRate: [0.3, 0.7],
  demandOverRoom: [1.02, 1.3],
  share: [0.5, 1.5],
} as const);

export function nearFittingProblem(seed: number, groupIndex: number, m: number, index: number): Problem {
  const rng = instanceRng(seed, 2, groupIndex, index);
  const sessions = drawSessions(
    rng,
    between(rng, NEAR_FITTING.sessions[0], NEAR_FITTING.sessions[1]),
    uniform(rng, ...NEAR_FITTING.readyRate),
  );
  const demand = sessions.reduce((a, s) => a + s.weight, 0);
  const room = demand / uniform(rng, ...NEAR_FITTING.demandOverRoom);
  const shares = nodeIds(m).map(() => uniform(rng, ...NEAR_FITTING.share));
  const total = shares.reduce((a, x) => a + x, 0);
  const nodes = nodeIds(m).map((id, b) => ({ id, capacity: Math.floor((room * (shares[b] as number)) / total) }));
  return { nodes, sessions };
}

export const nearFittingFamily: Family = {
  name: 'near-fitting',
  description: 'uncredited pools of 40-120 sessions, demand 1.02-1.3x the room (multiple subset-sum, ready first)',
  groups: nodeCountGroups('near-fitting', NEAR_FITTING.nodes, nearFittingProblem),
};
