/**
 * The multiple-knapsack search stopping at a proven ceiling (stage 4 of searchMultipleKnapsack), on the
 * seeds whose resumed search records plans below the ceiling before one worth it: at every budget that
 * takes the path, the outcome says so (`reachedCeiling`), is proven optimal (not a halt; the ceiling came
 * from the aimed searches), and its plan is feasible and worth the brute-force optimum. The sweep over
 * 2,000 seeds, with HiGHS beside brute force, is test/mkp-search-stops-at-proven-ceiling.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { expectFeasible } from './helpers/plan-checks.js';
import { BUDGETS, CLIMBING, searchPlan, tiedProblem } from './helpers/tied-mkp.js';
import { bruteForceOptimum } from './oracles/brute-force.js';

describe('the multiple-knapsack search climbing to its ceiling', () => {
  it('stops at the first plan worth the ceiling, the brute-force optimum, on every climbing seed', () => {
    for (const seed of CLIMBING) {
      const problem = tiedProblem(seed);
      const optimum = bruteForceOptimum(problem, 1);
      let reached = 0;
      for (const budget of BUDGETS) {
        const { plan, out } = searchPlan(problem, budget);
        if (out?.reachedCeiling !== true) continue;
        reached++;
        expect(out.optimal).toBe(true);
        expect(out.reason).toBeUndefined();
        expect(out.counters.aims).toBeGreaterThan(0);
        expectFeasible(problem, plan);
        expect(plan.value, `seed ${seed}, budget ${budget}`).toEqual(optimum);
      }
      expect(reached, `seed ${seed}`).toBeGreaterThan(0);
    }
  });
});
