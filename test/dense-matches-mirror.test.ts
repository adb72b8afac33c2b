/**
 * Cross-path equality on thousands of random instances: the WASM dense DP (packed i64 keys, SIMD),
 * the same DP with the scalar kernel, the debug build, the WASM frontier DP and the `auto` choice, and
 * the independent TypeScript mirror (three Float64 planes, exact-usage recurrence) reach the same
 * optimal value. SIMD and scalar kernels share tie-breaking, so they also choose the same nodes.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionsKept } from './helpers/internals.js';
import { solveReference } from './helpers/internals.js';
import { loadSolver, prepare, type Solver } from './helpers/internals.js';
import { DpStatus, WasmKernels } from './helpers/internals.js';
import { quantizedCaseArb } from './helpers/arbitraries.js';
import { expectFeasible } from './helpers/plan-checks.js';

let solver: Solver;
let kernel: WasmKernels;
beforeAll(async () => {
  solver = await loadSolver();
  kernel = await WasmKernels.create('release');
});
afterAll(() => {
  solver.close();
  kernel.close();
});

const shapes = [
  {
    name: '1-2 nodes, up to 14 sessions',
    runs: 1500,
    limits: { maxNodes: 2, maxSessions: 14, maxCapacity: 150, maxWeight: 40 },
  },
  {
    name: '3-4 nodes, up to 10 sessions',
    runs: 600,
    limits: { minNodes: 3, maxNodes: 4, maxSessions: 10, maxCapacity: 25, maxWeight: 10 },
  },
  // Digits of radix 2-4: the SIMD plane's wrap-around of node 0's mask index.
  {
    name: 'tiny capacities, 2-4 nodes',
    runs: 600,
    limits: { minNodes: 2, maxNodes: 4, maxSessions: 10, maxCapacity: 3, maxWeight: 3 },
  },
];

describe('WASM and TS mirror agree on the optimal value', () => {
  for (const shape of shapes) {
    it(shape.name, () => {
      fc.assert(
        fc.property(quantizedCaseArb(shape.limits, [1, 2, 3, 5]), ({ problem, quantum }) => {
          const ref = solveReference(problem, { quantum });
          for (const path of ['dense', 'frontier', 'auto'] as const) {
            const plan = solver.solve(problem, { quantum, path, stateBudget: 2 ** 24 });
            expect(plan.status).toBe('optimal');
            expect(plan.value).toEqual(ref.value);
            expectFeasible(problem, plan);
          }
        }),
        { numRuns: shape.runs, seed: shape.runs },
      );
    });
  }
});

describe('SIMD and scalar kernels produce identical choices', () => {
  it('on random instances with long segments (large capacities)', () => {
    fc.assert(
      fc.property(
        quantizedCaseArb({ maxNodes: 4, maxSessions: 10, maxCapacity: 90, maxWeight: 30 }, [1, 2]),
        ({ problem, quantum }) => {
          const { packed } = prepare(problem, { quantum, stateBudget: 2 ** 24 });
          if (sessionsKept(packed) === 0 || !packed.keyFits) return;
          const radix = Array.from(packed.capacity, (c) => c + 1);
          const run = (simd: boolean) => {
            kernel.instance.setSimd(simd);
            expect(kernel.dense.start({ radix, weight: packed.qweight, keys: packed.key })).toBe(DpStatus.paused);
            kernel.dense.fold(0, sessionsKept(packed));
            return kernel.dense.finish();
          };
          const simd = run(true);
          const scalar = run(false);
          expect(scalar.value).toBe(simd.value);
          expect(Array.from(scalar.node)).toEqual(Array.from(simd.node));
        },
      ),
      { numRuns: 300, seed: 99 },
    );
    kernel.instance.setSimd(true);
  });
});
