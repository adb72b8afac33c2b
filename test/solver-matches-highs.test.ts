/**
 * Every path against HiGHS on medium instances where enumeration is out of reach: 10-40 sessions on 2-4
 * nodes (`auto`, `dense`, `frontier`), and 20-60 sessions on 5-8 nodes, some twinned (beyond the dense
 * grid: `auto`, `frontier`). The optimal value equals HiGHS's three-stage lexicographic MILP optimum.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from './helpers/internals.js';
import { loadSolver, type Solver } from './helpers/internals.js';
import type { Problem, ProblemSession } from './helpers/internals.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { twinNodes } from './helpers/twins.js';
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
  const nodes = Array.from({ length: m }, (_, b) => ({
    id: `n${b}`,
    capacity: int(0, unitsPerNode) * quantum + int(0, quantum - 1),
  }));
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

/** 5-8 nodes (twins on even seeds), 10-30 sessions, credits on one or two home nodes. */
function manyNodeProblem(seed: number): { problem: Problem; quantum: number } {
  const rnd = seededRandom(1000 + seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const m = int(5, 8);
  const n = int(10, 30);
  const quantum = 1024;
  const nodes = Array.from({ length: m }, (_, b) => ({
    id: `n${b}`,
    capacity: int(4, 16) * quantum + int(0, quantum - 1),
  }));
  const sessions = Array.from({ length: n }, (_, i): ProblemSession => {
    const credit: Record<string, number> = {};
    if (rnd() < 0.7) credit[nodes[int(0, m - 1)]!.id] = int(1, 40) * 100;
    if (rnd() < 0.2) credit[nodes[int(0, m - 1)]!.id] = int(1, 40) * 100;
    return {
      id: `s${i}`,
      weight: int(1, 12) * 1000 + int(0, 999),
      tokens: int(500, 12_000),
      ready: rnd() < 0.6,
      credit,
    };
  });
  const problem = { nodes, sessions };
  return {
    problem:
      seed % 2 === 0
        ? twinNodes(
            problem,
            nodes.map((_, b) => b % 3 === 0),
          )
        : problem,
    quantum,
  };
}

describe('optimal value equals the HiGHS lexicographic optimum', () => {
  for (let seed = 1; seed <= 30; seed++) {
    it(`instance ${seed}`, async () => {
      const highs = await loadHighs();
      const { problem, quantum } = mediumProblem(seed);
      const expected = highsOptimum(highs, problem, quantum);
      for (const path of ['auto', 'dense', 'frontier'] as const) {
        const plan = solver.solve(problem, { quantum, stateBudget: 2 ** 25, path });
        expect(plan.status).toBe('optimal');
        expectFeasible(problem, plan);
        expect(plan.value).toEqual(expected);
      }
    });
  }

  for (let seed = 1; seed <= 12; seed++) {
    it(`many nodes, instance ${seed}`, async () => {
      const highs = await loadHighs();
      const { problem, quantum } = manyNodeProblem(seed);
      const expected = highsOptimum(highs, problem, quantum);
      for (const path of ['auto', 'frontier'] as const) {
        const plan = solver.solve(problem, { quantum, stateBudget: 2 ** 25, path });
        expect(plan.status).toBe('optimal');
        expectFeasible(problem, plan);
        expect(plan.value).toEqual(expected);
      }
    });
  }
});
