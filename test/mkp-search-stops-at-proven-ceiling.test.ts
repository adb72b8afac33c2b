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
import {
  type MkpOutcome,
  nodeIndependentValues,
  type Plan,
  type PlanValue,
  type Problem,
  type ProblemSession,
  searchMultipleKnapsack,
  seededRandom,
  solvePrepared,
  WorkMeter,
} from './helpers/internals.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { bruteForceOptimum } from './oracles/brute-force.js';
import { highsOptimum, loadHighs } from './oracles/highs.js';

let highs: Awaited<ReturnType<typeof loadHighs>>;
beforeAll(async () => {
  highs = await loadHighs();
});

/** Two or three nodes, eight or nine sessions whose tokens equal their weight, ties of every kind. */
function tiedProblem(seed: number): Problem {
  const rnd = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const m = int(2, 3);
  const n = int(8, 9);
  const equal = rnd() < 0.4;
  const cap = int(15, 45);
  const nodes = Array.from({ length: m }, (_, b) => ({ id: `n${b}`, capacity: equal ? cap : int(15, 45) }));
  const sessions: ProblemSession[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0 && rnd() < 0.3) {
      sessions.push({ ...sessions[i - 1]!, id: `s${i}` });
      continue;
    }
    const weight = int(3, 25);
    const s: ProblemSession = { id: `s${i}`, weight, tokens: weight, ready: rnd() < 0.3 };
    if (rnd() < 0.3) s.eligible = nodes.filter(() => rnd() < 0.7).map((node) => node.id);
    sessions.push(s);
  }
  return { nodes, sessions };
}

const BUDGETS = [400, 800, 1600, 3200, 6400, 12_800];
/**
 * Seeds past the sweep's whose resumed search records plans one below the ceiling (or more) before one
 * worth it: there, stopping at any value short of the ceiling itself would return a plan below the optimum.
 */
const CLIMBING = [3281, 9549, 10_488, 11_716, 14_285, 14_654];
const SEEDS = [...Array.from({ length: 2000 }, (_, seed) => seed), ...CLIMBING];

/** The search's plan of `problem` at quantum 1 within `budget` units of work, and its outcome (null: nothing fits). */
function searchPlan(problem: Problem, budget: number): { plan: Plan; out: MkpOutcome | null } {
  let out: MkpOutcome | null = null;
  const plan = solvePrepared(problem, { quantum: 1 }, (packed, base) => {
    const meter = new WorkMeter(
      budget,
      () => undefined,
      () => 'budget',
    );
    out = searchMultipleKnapsack(packed, nodeIndependentValues(packed)!, meter);
    return { node: out.node, stats: base };
  });
  return { plan, out };
}

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
