/**
 * Family `mkp`: the standard multiple-knapsack instance classes (Martello and Toth; Pisinger, EJOR 1999),
 * mapped to a Problem: item j is a session of weight w_j with credit p_j on every node (tokens 0, not
 * ready), knapsack i a node of capacity c_i, solved at quantum 1, so the credit level is the MKP optimum.
 *
 * Parameters per instance: items n and knapsacks m (group: 25x2, 50x5, 100x10, 200x10); weights w_j
 * uniform integers in [10, 1000]; profits by class:
 * - `uncorrelated`: p_j uniform in [10, 1000];
 * - `weak` (weakly correlated): p_j uniform in [w_j - 100, w_j + 100], at least 1;
 * - `strong` (strongly correlated): p_j = w_j + 100;
 * - `subset-sum`: p_j = w_j.
 * Capacities ("similar", Pisinger's convention): c_i uniform integers in [0.4 W/m, 0.6 W/m] for i < m and
 * c_m = floor(W/2) - (c_1 + ... + c_{m-1}), W the total weight: about half the items fit. When c_m would
 * fall below 0.4 W/m (possible from about 5 knapsacks), c_1..c_{m-1} are drawn again (from the same stream).
 */
import type { Rng } from '../../sim/rng.js';
import type { Problem } from '../../types.js';
import { between, instanceRng, nodeIds } from './draw.js';
import type { Family, FamilyGroup } from './family.js';

export const MKP_CLASSES = ['uncorrelated', 'weak', 'strong', 'subset-sum'] as const;
export type MkpClass = (typeof MKP_CLASSES)[number];

export const MKP = Object.freeze({
  sizes: [
    [25, 2],
    [50, 5],
    [100, 10],
    [200, 10],
  ],
  weight: [10, 1000],
  profit: [10, 1000],
  weakSpread: 100,
  strongOffset: 100,
  capacityShare: [0.4, 0.6],
} as const);

function profit(rng: Rng, cls: MkpClass, w: number): number {
  switch (cls) {
    case 'uncorrelated':
      return between(rng, MKP.profit[0], MKP.profit[1]);
    case 'weak':
      return Math.max(1, between(rng, w - MKP.weakSpread, w + MKP.weakSpread));
    case 'strong':
      return w + MKP.strongOffset;
    case 'subset-sum':
      return w;
  }
}

export function mkpProblem(
  seed: number,
  groupIndex: number,
  cls: MkpClass,
  n: number,
  m: number,
  index: number,
): Problem {
  const rng = instanceRng(seed, 4, groupIndex, index);
  const ids = nodeIds(m);
  const items = Array.from({ length: n }, () => {
    const w = between(rng, MKP.weight[0], MKP.weight[1]);
    return { w, p: profit(rng, cls, w) };
  });
  const total = items.reduce((a, x) => a + x.w, 0);
  const lo = Math.ceil((MKP.capacityShare[0] * total) / m);
  const hi = Math.floor((MKP.capacityShare[1] * total) / m);
  let caps: number[];
  do {
    caps = Array.from({ length: m - 1 }, () => between(rng, lo, hi));
    caps.push(Math.floor(total / 2) - caps.reduce((a, c) => a + c, 0));
  } while ((caps[m - 1] as number) < lo);
  return {
    nodes: ids.map((id, i) => ({ id, capacity: caps[i] as number })),
    sessions: items.map((x, j) => ({
      id: `i${j}`,
      weight: x.w,
      tokens: 0,
      ready: false,
      credit: Object.fromEntries(ids.map((id) => [id, x.p])),
    })),
  };
}

export const mkpFamily: Family = {
  name: 'mkp',
  description:
    'standard multiple-knapsack classes (weights 10..1000; uncorrelated, weak, strong, subset-sum profits; capacities ~W/2 split), quantum 1',
  groups: MKP_CLASSES.flatMap((cls, ci) =>
    MKP.sizes.map(
      ([n, m], si): FamilyGroup => ({
        family: 'mkp',
        name: `${cls}-${n}x${m}`,
        nodes: m,
        quantum: 1,
        generate: async (seed, count) =>
          Array.from({ length: count }, (_, i) => mkpProblem(seed, ci * MKP.sizes.length + si, cls, n, m, i)),
      }),
    ),
  ),
};
