/**
 * The multiple-knapsack path's plans against HiGHS: standard multiple-knapsack instances of every
 * correlation class (the credit level decides some at the root, the search the others) and near-fitting
 * pools (uncredited, ready first, quantum 1024). The path's checks against brute force and enumeration are
 * in test/solve-multiple-knapsack.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkpProblem } from './helpers/internals.js';
import { nearFittingProblem } from './helpers/internals.js';
import { loadSolver, type Solver } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { highsOptimum, loadHighs } from './oracles/highs.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

describe('the solver against HiGHS', () => {
  it('standard multiple-knapsack instances (14 items x 2 and 3 knapsacks, every class): equal to HiGHS', async () => {
    const highs = await loadHighs();
    let solved = 0;
    let searched = 0;
    for (const [ci, cls] of (['uncorrelated', 'weak', 'strong', 'subset-sum'] as const).entries()) {
      for (let i = 0; i < 3; i++) {
        const problem = mkpProblem(7, ci * 4, cls, 14, 2 + (i % 2), i);
        const plan = solver.solve(problem, { quantum: 1 });
        expectFeasible(problem, plan);
        if (plan.status !== 'optimal') continue;
        // The credit level decides a few of these at the root (credit-split); the search the others.
        expect(['multiple-knapsack', 'credit-split']).toContain(plan.stats.path);
        expect(plan.value).toEqual(highsOptimum(highs, problem, 1));
        if (plan.stats.path === 'multiple-knapsack') searched++;
        solved++;
      }
    }
    expect(solved).toBeGreaterThanOrEqual(11);
    expect(searched).toBeGreaterThanOrEqual(6);
  });

  it('near-fitting pools (uncredited, ready first, 2 nodes, quantum 1024): equal to HiGHS', async () => {
    const highs = await loadHighs();
    let checked = 0;
    for (let i = 0; i < 4; i++) {
      const full = nearFittingProblem(5, 1, 2, i);
      // The first 30 sessions, the room scaled to keep demand above it.
      const sessions = full.sessions.slice(0, 30);
      const demand = sessions.reduce((a, s) => a + s.weight, 0);
      const total = full.nodes.reduce((a, n) => a + n.capacity, 0);
      const problem: Problem = {
        nodes: full.nodes.map((n) => ({ ...n, capacity: Math.floor((n.capacity * demand) / total / 1.15) })),
        sessions,
      };
      const plan = solver.solve(problem, { quantum: 1024 });
      expectFeasible(problem, plan);
      expect(plan.status).toBe('optimal');
      expect(plan.value).toEqual(highsOptimum(highs, problem, 1024));
      checked++;
    }
    expect(checked).toBe(4);
  });
});
