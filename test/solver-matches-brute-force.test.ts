/**
 * The WASM dense DP against exhaustive enumeration on every shape up to 8 sessions x 3 nodes: an
 * `optimal` plan has the lexicographic maximum over all plans feasible after quantization, and every
 * plan (DP, reference, BFD) is feasible with the exact, unquantized weights.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bfd } from '../src/bfd.js';
import { solveReference } from '../src/reference.js';
import { loadSolver, type Solver } from '../src/solver.js';
import { quantizedCaseArb } from './helpers/arbitraries.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { bruteForceOptimum } from './oracles/brute-force.js';

let solver: Solver;
let debugSolver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
  debugSolver = await loadSolver({ build: 'debug' });
});
afterAll(() => {
  solver.close();
  debugSolver.close();
});

describe('optimal value equals the brute-force maximum', () => {
  for (let m = 1; m <= 3; m++) {
    for (let n = 0; n <= 8; n++) {
      it(`${n} sessions x ${m} nodes`, () => {
        fc.assert(
          fc.property(
            quantizedCaseArb({ minSessions: n, maxSessions: n, minNodes: m, maxNodes: m }),
            ({ problem, quantum }) => {
              const expected = bruteForceOptimum(problem, quantum);
              const plan = solver.solve(problem, { quantum });
              expect(plan.status).toBe('optimal');
              expect(plan.quantum).toBe(quantum);
              expect(plan.value).toEqual(expected);
              expectFeasible(problem, plan);

              const checked = debugSolver.solve(problem, { quantum });
              expect(checked.value).toEqual(expected);
              expectFeasible(problem, checked);

              const ref = solveReference(problem, { quantum });
              expect(ref.value).toEqual(expected);
              expectFeasible(problem, ref);

              expectFeasible(problem, bfd(problem, { quantum }));
              expectFeasible(problem, bfd(problem, { quantum, order: 'tokens' }));
            },
          ),
          { numRuns: n <= 2 ? 30 : 40, seed: 1000 * m + n },
        );
      });
    }
  }
});

describe('plans are feasible with exact weights when quantization rounds', () => {
  it('weights just above a quantum multiple and capacities just below one', () => {
    fc.assert(
      fc.property(quantizedCaseArb({ maxSessions: 7, maxCapacity: 60, maxWeight: 30 }, [7, 10, 16]), ({ problem, quantum }) => {
        const plan = solver.solve(problem, { quantum });
        expect(plan.value).toEqual(bruteForceOptimum(problem, quantum));
        expectFeasible(problem, plan);
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});
