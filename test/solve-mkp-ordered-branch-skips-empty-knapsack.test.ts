/**
 * The aimed searches branch knapsack by knapsack (branchInOrder in src/solve/mkp/search.ts): the first
 * knapsack in order with a free item that is a candidate there and fits. A knapsack with room left but no
 * such item (its room above TIGHTEN_MAX_CAPACITY quanta, so never tightened to zero; its candidates barred
 * from it by earlier branches, ineligible or too heavy) is passed over without a knapsack solve. Three
 * pools of 5 nodes with rooms of 52,432-139,938 quanta and 10-15 sessions of 20,975-89,354 quanta
 * (tokens: weight + 97), some limited to part of the nodes, searched within 2,000,000 units (every one
 * halts at the budget, after 6-100 aimed searches) reach such a knapsack 1, 4 and 1 times: each would add
 * one knapsack solve over no item to the `knapsacks` counter. Their lines (plan, value, how the search
 * ended, counters and work, as in test/solve-mkp-search-effort-as-pinned.test.ts) are pinned.
 */
import { describe, expect, it } from 'vitest';
import { effortLine } from './helpers/mkp-effort-corpus.js';
import type { Problem } from './helpers/internals.js';

/** Nodes n0.. of the given capacities; sessions s0.. as [weight, ready, eligible node indices?], tokens weight + 97. */
function pool(capacities: readonly number[], sessions: readonly (readonly [number, number, number[]?])[]): Problem {
  return {
    nodes: capacities.map((capacity, b) => ({ id: `n${b}`, capacity })),
    sessions: sessions.map(([weight, ready, eligible], i) => ({
      id: `s${i}`,
      weight,
      tokens: weight + 97,
      ready: ready === 1,
      ...(eligible === undefined ? {} : { eligible: eligible.map((b) => `n${b}`) }),
    })),
  };
}

const CASES: readonly { name: string; problem: Problem; line: string }[] = [
  {
    name: 'pool 2599',
    problem: pool(
      [87785, 123631, 72727, 139651, 139938],
      [
        [47429, 1, [1, 3, 4]],
        [34246, 0],
        [29765, 0],
        [79606, 1, [1, 2, 3, 4]],
        [80601, 1, [0, 1, 3, 4]],
        [73079, 1],
        [70671, 0, [3, 4]],
        [73262, 1],
        [83829, 0, [2, 4]],
        [26855, 0, [1, 3]],
        [48218, 1, [3]],
        [22203, 0],
        [73640, 1],
        [39631, 0, [0, 2, 3]],
        [81897, 1, [0, 1, 3]],
      ],
    ),
    line: 'pool 2599: value 5736534 budget bound 5763157 work 1999200 counters nodes=356 knapsacks=494 states=15726 ceilingStops=0 splits=248 splitHits=0 tightened=59 aims=6 regroups=18 regroupGains=0 plan 2,0,4,0,1,-1,-1,-1,-1,-1,1,0,2,4,3',
  },
  {
    name: 'pool 3667',
    problem: pool(
      [78957, 52432, 97697, 64957, 67802],
      [
        [76217, 0],
        [76724, 0, [0, 2]],
        [89354, 0],
        [20975, 0],
        [85497, 0],
        [85091, 0, [1, 2, 3, 4]],
        [83823, 1],
        [38700, 0, [0, 1, 2, 3]],
        [23173, 0, [1, 2]],
        [58637, 1],
        [85438, 1],
        [83059, 1, [2]],
      ],
    ),
    line: 'pool 3667: value 1918320 budget bound 1964532 work 1999995 counters nodes=732 knapsacks=1156 states=23412 ceilingStops=3 splits=430 splitHits=2 tightened=210 aims=100 regroups=5 regroupGains=0 plan -1,1,-1,3,-1,-1,0,3,4,2,-1,-1',
  },
  {
    name: 'pool 5303',
    problem: pool(
      [86502, 56588, 76348, 64032, 88607],
      [
        [29091, 0, [0, 1, 3, 4]],
        [68004, 0, [2, 3]],
        [69887, 0, [4]],
        [35121, 0],
        [88204, 1],
        [87022, 1],
        [53387, 1, [1, 2, 3, 4]],
        [87450, 1],
        [24127, 1],
        [43438, 0, [0, 1, 3, 4]],
      ],
    ),
    line: 'pool 5303: value 2102157 budget bound 2124874 work 1999996 counters nodes=481 knapsacks=753 states=4456 ceilingStops=0 splits=273 splitHits=0 tightened=108 aims=50 regroups=4 regroupGains=0 plan 1,2,-1,3,0,-1,4,-1,3,1',
  },
];

describe('the aimed searches passing over a knapsack with room but no candidate that fits', () => {
  for (const c of CASES)
    it(`${c.name}: the plan, end, counters and work pinned`, () => {
      expect(effortLine({ name: c.name, problem: c.problem, budget: 2_000_000 }, { mkp: null })).toBe(c.line);
    });
});
