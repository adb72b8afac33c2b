/**
 * The multiple-knapsack search stopping at a proven ceiling (src/solve/mkp/search.ts, stage 4 of
 * searchMultipleKnapsack), under independent oracles (brute force and HiGHS).
 *
 * The ceiling: the first search stops at its share of the budget with a root bound U; the aimed searches
 * then look for a plan worth U, then U - 1, and so on, and one that ends without such a plan proves the
 * optimum below its target. The ceiling is the target below the last one ruled out. When the next aimed
 * searches run out of their share and regrouping does not reach the ceiling either, the first search
 * resumes with it and stops at its first plan worth it (`reached`), through the same return path as a
 * halt; the outcome says so (`reachedCeiling`). The instances that take that path: U is out of reach (the
 * surrogate pools the capacities, the knapsacks one by one cannot hold as much), the optimum is exactly
 * the ceiling, and the searches before it run out of their shares first. Small problems full of ties do:
 * values equal to weights (every item equally efficient), identical sessions, equal capacities
 * (interchangeable nodes), eligibility limits and a ready level above the tokens, at budgets from 400 to
 * 12,800 units.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MkpOutcome, Plan, PlanValue, Problem } from './helpers/internals.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { BUDGETS, CLIMBING, searchPlan, tiedProblem } from './helpers/tied-mkp.js';
import { bruteForceOptimum } from './oracles/brute-force.js';
import { highsOptimum, loadHighs } from './oracles/highs.js';

let highs: Awaited<ReturnType<typeof loadHighs>>;
beforeAll(async () => {
  highs = await loadHighs();
});

const SEEDS = [...Array.from({ length: 2000 }, (_, seed) => seed), ...CLIMBING];

describe('the multiple-knapsack search at its proven ceiling', () => {
  it('small tied problems the first search cannot close: it stops at a plan worth the ceiling, the brute-force and HiGHS optimum', () => {
    const reached: { seed: number; problem: Problem; plan: Plan; out: MkpOutcome }[] = [];
    for (const seed of SEEDS) {
      const problem = tiedProblem(seed);
      for (const budget of BUDGETS) {
        const { plan, out } = searchPlan(problem, budget);
        if (out?.reachedCeiling === true) reached.push({ seed, problem, plan, out });
      }
    }
    const optimum = new Map<number, PlanValue>();
    for (const { seed, problem, plan, out } of reached) {
      // Proven optimal, not a halt; the ceiling came from the aimed searches.
      expect(out.optimal).toBe(true);
      expect(out.reason).toBeUndefined();
      expect(out.counters.aims).toBeGreaterThan(0);
      expectFeasible(problem, plan);
      if (!optimum.has(seed)) {
        const expected = bruteForceOptimum(problem, 1);
        expect(highsOptimum(highs, problem, 1)).toEqual(expected);
        optimum.set(seed, expected);
      }
      expect(plan.value, `seed ${seed}`).toEqual(optimum.get(seed));
    }
    // The path is taken, on the climbing seeds and on the shapes the search treats apart: three nodes,
    // interchangeable nodes, identical sessions.
    expect(reached.length).toBeGreaterThanOrEqual(8);
    for (const seed of CLIMBING)
      expect(
        reached.some((r) => r.seed === seed),
        `seed ${seed}`,
      ).toBe(true);
    expect(reached.some(({ problem }) => problem.nodes.length === 3)).toBe(true);
    const capacities = (p: Problem) => p.nodes.map((node) => node.capacity);
    expect(reached.some(({ problem }) => new Set(capacities(problem)).size < problem.nodes.length)).toBe(true);
    const kinds = (p: Problem) => new Set(p.sessions.map(({ id: _, ...s }) => JSON.stringify(s))).size;
    expect(reached.some(({ problem }) => kinds(problem) < problem.sessions.length)).toBe(true);
  });
});
