/**
 * Every path against exhaustive enumeration on every shape up to 8 sessions x 3 nodes: with `path`
 * `auto`, `dense` and `frontier`, in the release and the debug build, an `optimal` plan has the
 * lexicographic maximum over all plans feasible after quantization, and every plan (each path,
 * reference, BFD) is feasible with the exact, unquantized weights. The runs must reach every path
 * (`best-nodes`, `bound`, `dense`, `frontier`), including interchangeable nodes and indifferent tails.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bfd } from './helpers/internals.js';
import { frontierSetup } from './helpers/internals.js';
import { solveReference } from './helpers/internals.js';
import { prepare } from './helpers/internals.js';
import { quantizedCaseArb } from './helpers/arbitraries.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { EXACT_PATHS, PATH_OPTIONS, useSolvers } from './helpers/solvers.js';
import { twinNodes } from './helpers/twins.js';
import { bruteForceOptimum } from './oracles/brute-force.js';

const solvers = useSolvers();

const seen = new Map<string, number>();
const count = (key: string): void => void seen.set(key, (seen.get(key) ?? 0) + 1);

describe('optimal value equals the brute-force maximum, on every path', () => {
  for (let m = 1; m <= 3; m++) {
    for (let n = 0; n <= 8; n++) {
      it(`${n} sessions x ${m} nodes`, () => {
        fc.assert(
          fc.property(
            quantizedCaseArb({ minSessions: n, maxSessions: n, minNodes: m, maxNodes: m }),
            ({ problem, quantum }) => {
              const expected = bruteForceOptimum(problem, quantum);
              for (const path of PATH_OPTIONS) {
                for (const s of [solvers.release(), solvers.debug()]) {
                  const plan = s.solve(problem, { quantum, path });
                  expect(plan.status).toBe('optimal');
                  expect(plan.quantum).toBe(quantum);
                  expect(plan.value).toEqual(expected);
                  expectFeasible(problem, plan);
                  if (plan.stats.path !== 'trivial') expect(EXACT_PATHS[path]).toContain(plan.stats.path);
                  count(plan.stats.path);
                }
              }
              const { packed } = prepare(problem, { quantum });
              if (packed.sessionIndex.length > 0) {
                const setup = frontierSetup(packed);
                if (packed.nodeIndex.length > 1 && setup.tailStart < packed.sessionIndex.length) count('tail');
              }

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

  it('twin nodes: merged classes give the brute-force optimum with real nodes', () => {
    fc.assert(
      fc.property(
        quantizedCaseArb({ minSessions: 3, maxSessions: 7, minNodes: 1, maxNodes: 2 }),
        fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }),
        ({ problem, quantum }, pick) => {
          const twinned = twinNodes(problem, pick.some((x) => x) ? pick : [true, false]);
          const expected = bruteForceOptimum(twinned, quantum);
          for (const path of ['auto', 'frontier'] as const) {
            const plan = solvers.release().solve(twinned, { quantum, path });
            expect(plan.value).toEqual(expected);
            expectFeasible(twinned, plan);
            count(`twin-${plan.stats.path}`);
            if (plan.stats.frontier !== undefined && plan.stats.frontier.nodeClasses < (plan.stats.nodesKept ?? 0))
              count('twin-merged');
          }
        },
      ),
      { numRuns: 300, seed: 77 },
    );
  });

  it('every path was exercised', () => {
    for (const key of ['best-nodes', 'bound', 'dense', 'frontier', 'trivial', 'tail', 'twin-frontier', 'twin-merged']) {
      expect(seen.get(key) ?? 0, key).toBeGreaterThan(10);
    }
  });
});

describe('plans are feasible with exact weights when quantization rounds', () => {
  it('weights just above a quantum multiple and capacities just below one', () => {
    fc.assert(
      fc.property(
        quantizedCaseArb({ maxSessions: 7, maxCapacity: 60, maxWeight: 30 }, [7, 10, 16]),
        fc.constantFrom(...PATH_OPTIONS),
        ({ problem, quantum }, path) => {
          const plan = solvers.release().solve(problem, { quantum, path });
          expect(plan.value).toEqual(bruteForceOptimum(problem, quantum));
          expectFeasible(problem, plan);
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });
});
