/**
 * The WASM DP against HiGHS on medium instances (10-40 sessions, 2-4 nodes) where enumeration is out of
 * reach: the optimal value equals HiGHS's three-stage lexicographic MILP optimum.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../src/examples.js';
import { loadSolver, type Solver } from '../src/solver.js';
import type { Problem, ProblemSession } from '../src/types.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { highsOptimum, loadHighs } from './oracles/highs.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

/** Capacities keep sessions x states under 2^25 so the DP runs within a raised budget. */
function mediumProblem(seed: number): { problem: Problem; quantum: number } {
  const rnd = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const m = int(2, 4);
  const n = int(10, 40);
  const unitsPerNode = m === 2 ? 250 : m === 3 ? 55 : 18;
  const quantum = int(1, 3);
  const nodes = Array.from({ length: m }, (_, b) => ({ id: `n${b}`, capacity: int(0, unitsPerNode) * quantum + int(0, quantum - 1) }));
  const meanWeight = (2 * unitsPerNode * m * quantum) / n; // about twice the capacity is waiting
  const sessions = Array.from({ length: n }, (_, i): ProblemSession => {
    const credit: Record<string, number> = {};
    for (const node of nodes) if (rnd() < 0.4) credit[node.id] = int(0, 6) * 5; // coarse: many ties
    const s: ProblemSession = {
      id: `s${i}`,
      weight: Math.max(1, Math.round(meanWeight * (0.2 + 1.6 * rnd()))),
      tokens: int(0, 9) * 10,
      ready: rnd() < 0.5,
      credit,
    };
    if (rnd() < 0.25) return { ...s, eligible: nodes.filter(() => rnd() < 0.6).map((node) => node.id) };
    return s;
  });
  return { problem: { nodes, sessions }, quantum };
}

describe('optimal value equals the HiGHS lexicographic optimum', () => {
  for (let seed = 1; seed <= 30; seed++) {
    it(`instance ${seed}`, async () => {
      const highs = await loadHighs();
      const { problem, quantum } = mediumProblem(seed);
      const plan = solver.solve(problem, { quantum, stateBudget: 2 ** 25 });
      expect(plan.status).toBe('optimal');
      expectFeasible(problem, plan);
      expect(plan.value).toEqual(highsOptimum(highs, problem, quantum));
    });
  }
});
