/**
 * The WASM frontier DP against its TypeScript mirror (src/solve/dp/frontier/mirror.ts, BigInt keys, plain
 * arrays) bit for bit on thousands of random instances: the same status, the same plan, the same value
 * and the same counters (states generated, kept, pruned by bound and by dominance, dominance tests),
 * in the release and the debug build. Shapes cover interchangeable nodes (twins), indifferent tails
 * (uncredited sessions), several words of packed usage (many nodes, fine quanta), and stepping in small
 * work quotas (resuming in the middle of a layer).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frontierInput, frontierSetup } from './helpers/internals.js';
import { DpStatus } from './helpers/internals.js';
import { FrontierMirror, solveFrontierReference } from './helpers/internals.js';
import { heuristicPlan } from './helpers/internals.js';
import { sessionsKept, type PackedProblem } from './helpers/internals.js';
import { loadSolver, prepare } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import type { WasmKernels } from './helpers/internals.js';
import { problemArb, quantizedCaseArb, type ShapeLimits } from './helpers/arbitraries.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { withTwins } from './helpers/twins.js';
import { bruteForceOptimum } from './oracles/brute-force.js';
import { useKernels } from './helpers/kernels.js';

const kernels = useKernels();

interface Outcome {
  status: DpStatus;
  node: number[];
  value: bigint;
  counters: Record<string, number>;
}

function viaMirror(packed: PackedProblem, quota: number): Outcome {
  const setup = frontierSetup(packed, heuristicPlan(packed));
  const run = new FrontierMirror(packed, setup);
  let status = run.start();
  while (status === DpStatus.paused) status = run.step(quota);
  return { status, node: Array.from(run.finish()), value: run.value(), counters: run.counters() };
}

function viaKernel(kernels: WasmKernels, packed: PackedProblem, quota: number): Outcome {
  const incumbent = heuristicPlan(packed);
  const setup = frontierSetup(packed, incumbent);
  const kernel = kernels.frontier;
  let status = kernel.start(frontierInput(packed, setup, incumbent));
  while (status === DpStatus.paused) status = kernel.step(quota);
  expect([DpStatus.done, DpStatus.incumbent]).toContain(status);
  const counters = kernel.counters();
  const { node, value } = kernel.finish();
  return { status, node: Array.from(node), value, counters: { ...counters } };
}

const shapes: { name: string; runs: number; limits: Partial<ShapeLimits>; quanta: number[]; twins: boolean }[] = [
  {
    name: '1-3 nodes, up to 12 sessions',
    runs: 1500,
    limits: { maxNodes: 3, maxSessions: 12, maxCapacity: 60, maxWeight: 20 },
    quanta: [1, 2, 3],
    twins: false,
  },
  {
    name: 'twin nodes (interchangeable classes)',
    runs: 800,
    limits: { minNodes: 1, maxNodes: 3, maxSessions: 12, maxCapacity: 40, maxWeight: 15 },
    quanta: [1, 2],
    twins: true,
  },
  {
    name: '4-8 nodes (several usage words at quantum 1)',
    runs: 400,
    limits: { minNodes: 4, maxNodes: 8, maxSessions: 10, maxCapacity: 5000, maxWeight: 2000 },
    quanta: [1, 7],
    twins: false,
  },
];

describe('WASM frontier == TypeScript mirror (plan, value, counters)', () => {
  for (const shape of shapes) {
    it(shape.name, () => {
      const seen = { done: 0, incumbent: 0, classes: 0, tail: 0, credit: 0 };
      const base = problemArb(shape.limits);
      const arb = shape.twins ? base.chain((p) => withTwins(p)) : base.map((p): Problem => p);
      fc.assert(
        fc.property(arb, fc.constantFrom(...shape.quanta), fc.constantFrom(1, 7, 1e9), (problem, quantum, quota) => {
          const { packed } = prepare(problem, { quantum });
          if (sessionsKept(packed) === 0 || !packed.keyFits) return;
          const expected = viaMirror(packed, 1e12);
          // A small quota pauses and resumes inside layers; the outcome must not depend on it.
          expect(viaKernel(kernels.release, packed, quota)).toEqual(expected);
          seen[expected.status === DpStatus.done ? 'done' : 'incumbent']++;
          if (expected.counters.prunedCredit! > 0) seen.credit++;
          const setup = frontierSetup(packed);
          if (setup.classes < packed.nodeIndex.length) seen.classes++;
          if (setup.tailStart < sessionsKept(packed) && packed.nodeIndex.length > 1) seen.tail++;
        }),
        { numRuns: shape.runs, seed: shape.runs + 17 },
      );
      expect(seen.done).toBeGreaterThan(shape.runs / 10);
      expect(seen.incumbent).toBeGreaterThan(0);
      expect(seen.tail).toBeGreaterThan(shape.runs / 20);
      // The per-node credit bound pruned what the total-capacity LP kept.
      expect(seen.credit).toBeGreaterThan(0);
      if (shape.twins) expect(seen.classes).toBeGreaterThan(shape.runs / 4);
    });
  }

  it('solveFrontierReference: the brute-force optimum, and the value and counters of the WASM frontier path', async () => {
    const solver = await loadSolver();
    fc.assert(
      fc.property(
        quantizedCaseArb({ maxNodes: 3, maxSessions: 8, maxCapacity: 30, maxWeight: 12 }, [1, 2, 3]),
        ({ problem, quantum }) => {
          const ref = solveFrontierReference(problem, { quantum });
          expect(ref.status).toBe('optimal');
          expect(ref.value).toEqual(bruteForceOptimum(problem, quantum));
          expectFeasible(problem, ref);
          const wasm = solver.solve(problem, { quantum, path: 'frontier' });
          if (wasm.stats.keyFits === true) {
            expect(wasm.value).toEqual(ref.value);
            expect(wasm.stats.frontier).toEqual(ref.stats.frontier);
          }
        },
      ),
      { numRuns: 400, seed: 99 },
    );
    solver.close();
  });

  it('the debug build (ABI assertions on) agrees too', () => {
    fc.assert(
      fc.property(
        problemArb({ maxNodes: 4, maxSessions: 10, maxCapacity: 40, maxWeight: 15 }),
        fc.constantFrom(1, 2),
        (problem, quantum) => {
          const { packed } = prepare(problem, { quantum });
          if (sessionsKept(packed) === 0 || !packed.keyFits) return;
          expect(viaKernel(kernels.debug, packed, 5)).toEqual(viaMirror(packed, 1e12));
        },
      ),
      { numRuns: 300, seed: 4242 },
    );
  });
});
