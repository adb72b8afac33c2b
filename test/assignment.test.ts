/**
 * The solver on problems the assignment path (src/solve/assignment/) closes, against HiGHS: 6-8
 * single-session nodes with dozens of sessions, and the credit-split remainders of big-cluster bursts at
 * 8 nodes. The matching and the path's plans against enumeration and brute force are in
 * test/solve-assignment-brute-force.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { burstProblem, loadSolver, type Problem, type ProblemSession, type Solver } from './helpers/internals.js';
import { expectFeasible, valueOf as planValue } from './helpers/plan-checks.js';
import { compareValues } from './oracles/brute-force.js';
import { highsOptimum, loadHighs } from './oracles/highs.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});

describe('the solver on problems the assignment path closes', () => {
  it('equals HiGHS on 6-8 single-session nodes with dozens of sessions', async () => {
    const highs = await loadHighs();
    let viaAssignment = 0;
    for (let seed = 0; seed < 12; seed++) {
      let x = seed * 7919 + 1;
      const rand = (): number => {
        x = (x * 48271) % 2147483647;
        return x / 2147483647;
      };
      const m = 6 + (seed % 3);
      const ids = Array.from({ length: m }, (_, b) => `n${b}`);
      const problem: Problem = {
        nodes: ids.map((id) => ({ id, capacity: Math.floor(3000 + rand() * 5000) })),
        sessions: Array.from({ length: 40 }, (_, i) => {
          const tokens = Math.floor(2000 + rand() * 5000);
          const s: ProblemSession = { id: `s${i}`, weight: tokens + 512, tokens, ready: rand() < 0.3 };
          if (rand() < 0.5) s.credit = { [ids[Math.floor(rand() * m)]!]: Math.floor(rand() * tokens) + 1 };
          return s;
        }),
      };
      const plan = solver.solve(problem);
      expect(plan.status).toBe('optimal');
      expectFeasible(problem, plan);
      if (plan.stats.path === 'assignment' || plan.stats.creditLevel?.remainderPath === 'assignment') viaAssignment++;
      expect(compareValues(planValue(problem, plan), highsOptimum(highs, problem, 16))).toBe(0);
    }
    expect(viaAssignment).toBeGreaterThan(3);
  });

  it('big-cluster bursts at 8 nodes: the credit-split remainders it closes equal HiGHS', async () => {
    const highs = await loadHighs();
    let closed = 0;
    for (let i = 0; i < 6; i++) {
      const problem = burstProblem(1, 3, 8, 256, i);
      const plan = solver.solve(problem);
      if (plan.stats.creditLevel?.remainderPath !== 'assignment') continue;
      closed++;
      expect(plan.status).toBe('optimal');
      expectFeasible(problem, plan);
      expect(compareValues(planValue(problem, plan), highsOptimum(highs, problem, 16))).toBe(0);
    }
    expect(closed).toBeGreaterThan(0);
  });
});
