/**
 * regroupPlan (src/solve/mkp/search.ts, src/solve/mkp/regroup.ts) moves only the items of positive value:
 * a plan that also holds items worth nothing keeps them where they are, and each knapsack's room for the
 * regrouping is its capacity less theirs. The sub-problems are searched in that room, so a knapsack can have
 * a candidate heavier than its room; the fill at a sub-search's root offers each knapsack only the free
 * items that fit its room. Two small problems (2-3 nodes, 8-10 sessions, three or four worth nothing) from
 * best-fit-decreasing plans that place every session they can: the valueless items stay, the plan is
 * feasible and worth its value, and the value and counters are pinned (offering the heavier candidates
 * too would show as more knapsack solves or states).
 */
import { describe, expect, it } from 'vitest';
import {
  bfdPacked,
  nodeIndependentValues,
  nodesKept,
  noCounters,
  type Problem,
  prepare,
  regroupPlan,
  WorkMeter,
} from './helpers/internals.js';

type Row = readonly [weight: number, tokens: number, ready: number, eligible?: readonly number[]];

function problem(capacities: readonly number[], rows: readonly Row[]): Problem {
  return {
    nodes: capacities.map((capacity, b) => ({ id: `n${b}`, capacity })),
    sessions: rows.map(([weight, tokens, ready, eligible], i) => ({
      id: `s${i}`,
      weight,
      tokens,
      ready: ready === 1,
      ...(eligible === undefined ? {} : { eligible: eligible.map((b) => `n${b}`) }),
    })),
  };
}

const CASES = [
  {
    name: '3 nodes, 8 sessions',
    problem: problem(
      [26, 22, 19],
      [
        [30, 36, 1],
        [11, 58, 1, [1]],
        [13, 0, 0],
        [19, 43, 0, [1, 2]],
        [3, 0, 0],
        [8, 90, 1, [0, 2]],
        [16, 0, 0],
        [18, 79, 0, [1]],
      ],
    ),
    value: 690,
    counters: {
      nodes: 7,
      knapsacks: 17,
      states: 2,
      ceilingStops: 1,
      splits: 4,
      splitHits: 0,
      tightened: 3,
      aims: 0,
      regroups: 3,
      regroupGains: 0,
    },
  },
  {
    name: '2 nodes, 10 sessions',
    problem: problem(
      [62, 66],
      [
        [22, 81, 1, [0]],
        [23, 0, 0, [0]],
        [3, 0, 0],
        [13, 57, 0, [0, 1]],
        [7, 50, 0],
        [4, 69, 1],
        [36, 94, 1],
        [21, 0, 0, [1]],
        [8, 0, 0],
        [20, 106, 1, [0]],
      ],
    ),
    value: 1750,
    counters: {
      nodes: 5,
      knapsacks: 9,
      states: 14,
      ceilingStops: 0,
      splits: 3,
      splitHits: 0,
      tightened: 1,
      aims: 0,
      regroups: 1,
      regroupGains: 0,
    },
  },
];

describe('regroupPlan from a plan that holds items worth nothing', () => {
  for (const c of CASES)
    it(`${c.name}: keeps them in place and regroups in the room they leave`, () => {
      const { packed } = prepare(c.problem, { quantum: 1 });
      const values = nodeIndependentValues(packed)!;
      const node = bfdPacked(packed);
      const valueless = [...node.keys()].filter((j) => values[j] === 0 && node[j]! >= 0);
      expect(valueless.length).toBeGreaterThan(0);
      const before = Int32Array.from(node);
      let start = 0;
      node.forEach((b, j) => {
        if (b >= 0) start += values[j]!;
      });
      const plan = { node, value: start };
      const counters = noCounters();
      regroupPlan(
        packed,
        values,
        plan,
        Number.POSITIVE_INFINITY,
        new WorkMeter(
          2 ** 30,
          () => undefined,
          () => 'budget',
        ),
        counters,
      );
      for (const j of valueless) expect(plan.node[j]).toBe(before[j]);
      const m = nodesKept(packed);
      const used = new Float64Array(m);
      let worth = 0;
      plan.node.forEach((b, j) => {
        if (b < 0) return;
        expect(packed.candidate[j * m + b]).toBe(1);
        used[b] = used[b]! + packed.qweight[j]!;
        worth += values[j]!;
      });
      used.forEach((u, b) => expect(u).toBeLessThanOrEqual(packed.capacity[b]!));
      expect(worth).toBe(plan.value);
      expect(plan.value).toBeGreaterThanOrEqual(start);
      expect(plan.value).toBe(c.value);
      expect(counters).toEqual(c.counters);
    });
});
