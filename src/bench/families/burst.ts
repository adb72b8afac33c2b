/**
 * Family `burst`: a big cluster right after a burst of arrivals (a cluster starts, a replica joins, a batch
 * of RL rollouts arrives): the nodes together have room for about 40% of the pool's weight, so the solver
 * chooses among hundreds to thousands of sessions per node.
 *
 * Parameters per instance: group `<m>x<n>` (m nodes, n waiting sessions, CLUSTER.sizes); sessions as in
 * cluster.ts; room: node b gets roomShare * (pool weight) / m * u_b, u_b uniform in [0.75, 1.25].
 * Quantum: the default.
 */
import type { Rng } from '../../sim/rng.js';
import type { Problem, ProblemNode, ProblemSession } from '../../types.js';
import { CLUSTER, clusterTick } from './cluster.js';
import { instanceRng, uniform } from './draw.js';
import { sizeGroups, type Family } from './family.js';

export const BURST = Object.freeze({ roomShare: 0.4, spread: [0.75, 1.25] } as const);

function burstRoom(rng: Rng, ids: readonly string[], sessions: readonly ProblemSession[]): ProblemNode[] {
  const weight = sessions.reduce((a, s) => a + s.weight, 0);
  return ids.map((id) => ({
    id,
    capacity: Math.round(((BURST.roomShare * weight) / ids.length) * uniform(rng, ...BURST.spread)),
  }));
}

export function burstProblem(seed: number, groupIndex: number, m: number, n: number, index: number): Problem {
  return clusterTick(instanceRng(seed, 5, groupIndex, index), m, n, burstRoom);
}

export const burstFamily: Family = {
  name: 'burst',
  description:
    "big clusters after a burst: 2-64 nodes x 64-4096 waiting (contexts 3k-90k, 70% credited on their last node, 30% ready), room for ~40% of the pool's weight",
  groups: sizeGroups('burst', CLUSTER.sizes, burstProblem),
};
