/**
 * The solver is never worse than BFD: an optimal plan's value is at least BFD's (either order), and a
 * fallback plan is BFD's plan (value order) itself. Budgets are drawn so both outcomes occur.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bfd } from '../src/bfd.js';
import { loadSolver, type Solver } from '../src/solver.js';
import { quantizedCaseArb } from './helpers/arbitraries.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { compareValues } from './oracles/brute-force.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

it('optimal >= BFD, fallback == BFD', () => {
  const seen = { optimal: 0, fallback: 0, strictlyBetter: 0 };
  fc.assert(
    fc.property(
      quantizedCaseArb({ maxNodes: 4, maxSessions: 14, maxCapacity: 60, maxWeight: 20 }, [1, 2, 3]),
      fc.oneof(fc.integer({ min: 1, max: 2000 }), fc.constant(2 ** 22)),
      ({ problem, quantum }, stateBudget) => {
        const plan = solver.solve(problem, { quantum, stateBudget });
        const byValue = bfd(problem, { quantum });
        const byTokens = bfd(problem, { quantum, order: 'tokens' });
        expectFeasible(problem, plan);
        if (plan.status === 'optimal') {
          seen.optimal++;
          expect(compareValues(plan.value, byValue.value)).toBeGreaterThanOrEqual(0);
          expect(compareValues(plan.value, byTokens.value)).toBeGreaterThanOrEqual(0);
          if (compareValues(plan.value, byValue.value) > 0) seen.strictlyBetter++;
        } else {
          seen.fallback++;
          expect(plan.reason).toMatch(/^state budget exceeded: /);
          expect(plan.assignments).toEqual(byValue.assignments);
          expect(plan.value).toEqual(byValue.value);
        }
      },
    ),
    { numRuns: 800, seed: 5 },
  );
  expect(seen.optimal).toBeGreaterThan(100);
  expect(seen.fallback).toBeGreaterThan(100);
  expect(seen.strictlyBetter).toBeGreaterThan(10);
});
