/**
 * Family `large`: beyond the paper's sizes, 8 and 16 nodes with 200-500 waiting sessions, credit spread as
 * in `spread-credit` (30% uncredited, the others on 1-3 nodes).
 *
 * Parameters per instance: nodes m (group: 8, 16); waiting sessions n uniform in [200, 500]; sizes as in
 * draw.ts; readiness probability uniform in [0.3, 0.7]; room per node uniform in [1, 4] sessions of the
 * pool's mean weight. Quantum: the default.
 */
import type { Problem } from '../../types.js';
import { instanceRng } from './draw.js';
import { nodeCountGroups, type Family } from './family.js';
import { spreadTick } from './spread-credit.js';

export const LARGE = Object.freeze({
  nodes: [8, 16],
  sessions: [200, 500],
  readyRate: [0.3, 0.7],
  roomSessions: [1, 4],
} as const);

export function largeProblem(seed: number, groupIndex: number, m: number, index: number): Problem {
  return spreadTick(instanceRng(seed, 3, groupIndex, index), m, LARGE);
}

export const largeFamily: Family = {
  name: 'large',
  description: '8 and 16 nodes x 200-500 waiting, credit on 1-3 nodes and 30% uncredited, room for 1-4 per node',
  groups: nodeCountGroups('large', LARGE.nodes, largeProblem),
};
