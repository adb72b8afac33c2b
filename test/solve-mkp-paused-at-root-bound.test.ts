/**
 * The multiple-knapsack search (src/solve/mkp/search.ts) whose first search pauses at its share holding a
 * plan already worth its root bound: that plan is optimal by the bound, so the solve ends there, proven
 * optimal, with no aimed search (none aims above the plan), no regrouping and no resumed first search. The
 * seeds are tied problems with the two-tier values the pipeline passes (found by a sweep of 740,000
 * searches of tied problems at six budgets, where this path is rare). The search's nodes and work are
 * pinned, as in test/fixtures/mkp-search-effort.txt: they are the first search's up to its pause, and any
 * stage run after it (a regrouping, which spends a unit per item at once, or the resumed search) adds to
 * them. After an intended change to the search's effort, update them and say why in the commit.
 */
import { describe, expect, it } from 'vitest';
import { expectFeasible } from './helpers/plan-checks.js';
import { searchPlan, tiedProblem } from './helpers/tied-mkp.js';
import { bruteForceOptimum } from './oracles/brute-force.js';

/**
 * Tied-problem seeds, the budget at which their first search pauses on a plan worth the root bound, and
 * the search's nodes and work.
 */
const PAUSED_AT_BOUND: readonly (readonly [number, number, number, number])[] = [
  [37_167, 6400, 3, 183],
  [51_674, 6400, 3, 161],
  [54_945, 6400, 3, 177],
  [59_088, 12_800, 2, 352],
  [107_282, 12_800, 3, 328],
  [120_287, 12_800, 3, 355],
];

describe('a first search paused on a plan worth its root bound', () => {
  it.each(PAUSED_AT_BOUND)(
    'tied problem %i at %i units ends proven optimal, without aiming, regrouping or resuming',
    (seed, budget, nodes, pinnedWork) => {
      const problem = tiedProblem(seed);
      const { plan, out: o, work } = searchPlan(problem, budget, true);
      expect(o).not.toBeNull();
      expect(o!.optimal).toBe(true);
      expect(o!.reason).toBeUndefined();
      expect(o!.counters.aims).toBe(0);
      expect(o!.counters.regroups).toBe(0);
      // The first search's share is budget / 40 units: it paused past it, and nothing ran after it.
      expect(work).toBeGreaterThan(budget / 40);
      expect(work).toBe(pinnedWork);
      expect(o!.counters.nodes).toBe(nodes);
      expectFeasible(problem, plan);
      expect(plan.value).toEqual(bruteForceOptimum(problem, 1));
    },
  );
});
