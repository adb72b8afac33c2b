/**
 * When the work meter halts inside the root's fill (src/solve/mkp/search.ts: the knapsacks filled one by one
 * with an optimal single knapsack each), the search returns at once, as every frame does on a halt
 * (src/solve/mkp/meter.ts): the knapsacks the fill had already filled are not recorded as a plan, and the
 * search's plan is the incumbent it had before the fill (the split completed greedily). Three tied problems
 * (test/helpers/tied-mkp.ts) whose budget ends inside the fill's last knapsack, where the filled ones are
 * worth more than that incumbent; their lines (plan, value, how the search ended, counters and work, as in
 * test/solve-mkp-search-effort-as-pinned.test.ts) are pinned.
 */
import { describe, expect, it } from 'vitest';
import { effortLine } from './helpers/mkp-effort-corpus.js';
import { tiedProblem } from './helpers/tied-mkp.js';

const CASES: readonly { seed: number; budget: number; line: string }[] = [
  {
    seed: 78,
    budget: 180,
    line: 'tied 78 @180: value 94 budget bound 234 work 179 counters nodes=1 knapsacks=4 states=84 ceilingStops=0 splits=1 splitHits=0 tightened=0 aims=0 regroups=0 regroupGains=0 plan 1,1,2,-1,0,-1,0,2',
  },
  {
    seed: 117,
    budget: 182,
    line: 'tied 117 @182: value 61 budget bound 250 work 181 counters nodes=1 knapsacks=3 states=116 ceilingStops=0 splits=1 splitHits=0 tightened=0 aims=0 regroups=0 regroupGains=0 plan 0,1,-1,-1,-1,-1,0,-1,1',
  },
  {
    seed: 339,
    budget: 56,
    line: 'tied 339 @56: value 47 budget bound 191 work 55 counters nodes=1 knapsacks=3 states=12 ceilingStops=1 splits=1 splitHits=0 tightened=0 aims=0 regroups=0 regroupGains=0 plan 0,-1,-1,1,0,-1,-1,0',
  },
];

describe('a halt inside the fill of the root', () => {
  for (const c of CASES)
    it(`tied ${c.seed} @${c.budget}: returns the incumbent from before the fill`, () => {
      expect(
        effortLine(
          { name: `tied ${c.seed} @${c.budget}`, problem: tiedProblem(c.seed), budget: c.budget },
          { mkp: null },
        ),
      ).toBe(c.line);
    });
});
