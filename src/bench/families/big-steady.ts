/**
 * Family `big-steady`: a big cluster in steady state: every node's KV cache is nearly full and each has
 * room for 1-4 more sessions, while hundreds to thousands wait. The same sessions as `burst`
 * (cluster.ts); only the room differs.
 *
 * Parameters per instance: group `<m>x<n>` (m nodes, n waiting sessions, CLUSTER.sizes); room per node
 * uniform in [1, 4] sessions of the pool's mean weight (draw.ts). Quantum: the default.
 */
import type { Problem } from '../../types.js';
import { CLUSTER, clusterTick } from './cluster.js';
import { instanceRng, roomInSessions } from './draw.js';
import { sizeGroups, type Family } from './family.js';

export const BIG_STEADY = Object.freeze({ roomSessions: [1, 4] } as const);

export function bigSteadyProblem(seed: number, groupIndex: number, m: number, n: number, index: number): Problem {
  return clusterTick(instanceRng(seed, 6, groupIndex, index), m, n, (rng, ids, sessions) =>
    roomInSessions(rng, ids, sessions, ...BIG_STEADY.roomSessions),
  );
}

export const bigSteadyFamily: Family = {
  name: 'big-steady',
  description:
    'big clusters in steady state: 2-64 nodes x 64-4096 waiting (sessions as in burst), room for 1-4 sessions per node',
  groups: sizeGroups('big-steady', CLUSTER.sizes, bigSteadyProblem),
};
