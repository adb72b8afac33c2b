/**
 * On at most FRONTIER_AFTER_SEARCH_NODES kept nodes, a multiple-knapsack search that passes its share of
 * the budget gives way to the frontier DP, which starts from the search's best plan and may spend what the
 * ceiling leaves: big-cluster remainders the search cannot close (its bound above the optimum's tokens)
 * are proven optimal, equal to HiGHS; past the node count the search falls back as before; a
 * frontier that passes the room too ends in the labelled fallback, never worse than BFD, its work within
 * the stated bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bfd, bigSteadyProblem, burstProblem, mkpProblem } from './helpers/internals.js';
import { FRONTIER_AFTER_SEARCH_NODES, WORK_CEILING, boundWork, heuristicWork, packWork } from './helpers/internals.js';
import { defaultSolveOptions, loadSolver, prepare, type Solver } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { compareValues } from './oracles/brute-force.js';
import { highsOptimum, loadHighs } from './oracles/highs.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

/** The stated bound on a solve's work (docs/solver.md, "The budget"), as test/solve-budget.test.ts states it. */
function workBound(problem: Problem, options: { quantum?: number; stateBudget?: number } = {}): number {
  const { packed } = prepare(problem, options);
  const unavoidable = packWork(packed) + 3 * heuristicWork(packed) + boundWork(packed);
  const limit = options.stateBudget ?? defaultSolveOptions.stateBudget;
  return WORK_CEILING * limit + unavoidable + packWork(packed) + 2 * heuristicWork(packed);
}

describe('the frontier after the multiple-knapsack search', () => {
  it('big-cluster ticks whose 8-node credit-free remainder the search cannot close: optimal through the frontier, equal to HiGHS', async () => {
    const highs = await loadHighs();
    // Seeded ticks of the bench families (group 2: 8 nodes x 64 sessions) whose remainder the search
    // bounds at the optimum's ready count but not at its tokens. The third falls back at the default
    // budget: its frontier needs a little more than the default ceiling leaves it, and closes at twice it.
    for (const [problem, stateBudget] of [
      [burstProblem(1, 2, 8, 64, 10), defaultSolveOptions.stateBudget],
      [bigSteadyProblem(1, 2, 8, 64, 17), defaultSolveOptions.stateBudget],
      [bigSteadyProblem(1, 2, 8, 64, 8), 2 * defaultSolveOptions.stateBudget],
    ] as const) {
      const plan = solver.solve(problem, { stateBudget });
      expectFeasible(problem, plan);
      expect(plan.status).toBe('optimal');
      expect(plan.stats.path).toBe('credit-split');
      expect(plan.stats.creditLevel?.remainderPath).toBe('frontier');
      expect(plan.stats.frontier?.outcome).toBe('solved');
      expect(plan.stats.work).toBeLessThanOrEqual(workBound(problem, { stateBudget }));
      expect(plan.value).toEqual(highsOptimum(highs, problem, defaultSolveOptions.quantum));
    }
  });

  it(`gives way on ${FRONTIER_AFTER_SEARCH_NODES} kept nodes, not on one more: a labelled fallback either way, never worse than BFD`, () => {
    // Weakly correlated 50 x m instances at quantum 1: the search passes its share on both, and the
    // frontier cannot represent the 8-node one within the room either.
    for (const m of [FRONTIER_AFTER_SEARCH_NODES, FRONTIER_AFTER_SEARCH_NODES + 1]) {
      const problem = mkpProblem(1, 5, 'weak', 50, m, 3);
      const plan = solver.solve(problem, { quantum: 1 });
      expectFeasible(problem, plan);
      expect(plan.status).toBe('fallback');
      expect(['bfd', 'heuristic']).toContain(plan.stats.path);
      expect(compareValues(plan.value, bfd(problem, { quantum: 1 }).value)).toBeGreaterThanOrEqual(0);
      expect(plan.stats.work).toBeLessThanOrEqual(workBound(problem, { quantum: 1 }));
      if (m <= FRONTIER_AFTER_SEARCH_NODES) {
        expect(plan.stats.multipleKnapsack?.outcome).toBe('abandoned');
        expect(plan.stats.frontier?.outcome).toBe('abandoned');
        expect(plan.reason).toMatch(/^state budget exceeded: the frontier DP passed stateBudget /);
      } else {
        expect(plan.stats.multipleKnapsack?.outcome).toBe('stopped');
        expect(plan.stats.frontier).toBeUndefined();
        expect(plan.reason).toMatch(/^state budget exceeded: the multiple-knapsack search passed stateBudget /);
      }
    }
  });
});
