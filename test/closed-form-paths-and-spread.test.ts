/**
 * The paths that need no DP and the value-preserving spread:
 * - `best-nodes` is reported exactly when its plan attains the sum of per-session best triples (the
 *   upper bound every plan is under), and then equals brute force;
 * - the frontier bound's f64 fractional term is never below the exact floor(p * rem / w), up to keys
 *   of 2^63 - 1 (the soundness every pruning decision rests on);
 * - `spreadTies` never changes a plan's value or feasibility, ends at a fixed point (no session can move
 *   to a node it values alike that would keep more room), and undoes the dense DP's stacking.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bfdPacked } from './helpers/internals.js';
import { fractionalUpper } from './helpers/internals.js';
import { BEST_NODES_PAIR_WORK, bestNodesPlan, packWork, planTriple } from './helpers/internals.js';
import { bestCredits } from './helpers/internals.js';
import { nodesKept, sessionsKept, type PackedProblem } from './helpers/internals.js';
import { loadSolver, prepare, type Solver } from './helpers/internals.js';
import { MAX_SPREAD_PASSES, spreadTies } from './helpers/internals.js';
import type { Plan, Problem } from './helpers/internals.js';
import { DpStatus, WasmKernels } from './helpers/internals.js';
import { quantizedCaseArb } from './helpers/arbitraries.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { bruteForceOptimum } from './oracles/brute-force.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

/** Sum over kept sessions of (best credit, ready, tokens): the value no plan exceeds. */
function sumOfBest(packed: PackedProblem): [number, number, number] {
  const best = bestCredits(packed);
  let credit = 0;
  let ready = 0;
  let tokens = 0;
  for (let j = 0; j < sessionsKept(packed); j++) {
    credit += best[j]!;
    ready += packed.ready[j]!;
    tokens += packed.tokens[j]!;
  }
  return [credit, ready, tokens];
}

describe('best-nodes', () => {
  it('is reported iff every session on a best-credit node fits, and is then the brute-force optimum', () => {
    let hits = 0;
    fc.assert(
      fc.property(
        quantizedCaseArb({ maxSessions: 8, maxNodes: 3, maxCapacity: 40, maxWeight: 12 }),
        ({ problem, quantum }) => {
          const { packed } = prepare(problem, { quantum });
          if (sessionsKept(packed) === 0) return;
          const plan = solver.solve(problem, { quantum });
          const fits = bestNodesPlan(packed);
          expect(plan.stats.path === 'best-nodes').toBe(fits !== null);
          if (fits === null) return;
          hits++;
          expect(planTriple(packed, fits)).toEqual(sumOfBest(packed));
          const [credit, ready, tokens] = sumOfBest(packed);
          expect(plan.value).toEqual({ credit, ready, tokens });
          expect(plan.value).toEqual(bruteForceOptimum(problem, quantum));
          // Validation and packing, then the check's pass over the pairs, no DP.
          expect(plan.stats.work).toBe(
            packWork(packed) + BEST_NODES_PAIR_WORK * sessionsKept(packed) * nodesKept(packed),
          );
          expectFeasible(problem, plan);
        },
      ),
      { numRuns: 600, seed: 31 },
    );
    expect(hits).toBeGreaterThan(100);
  });
});

describe('the bound of the frontier', () => {
  const p63 = fc.oneof(
    fc.constantFrom(0n, 1n, (1n << 63n) - 1n, (1n << 63n) - 2n, 1n << 53n, (1n << 53n) + 1n, (1n << 62n) + 12345n),
    fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }),
  );
  const w32 = fc.oneof(
    fc.constantFrom(1, 2, 3, 0xffff_ffff, 0xffff_fffe, 2 ** 31),
    fc.integer({ min: 1, max: 0xffff_ffff }),
  );

  it('fractionalUpper(p, rem, w) >= floor(p * rem / w) and <= p, exactly, for keys up to 2^63 - 1', () => {
    fc.assert(
      fc.property(p63, w32, fc.double({ min: 0, max: 1, noNaN: true }), (p, w, f) => {
        const rem = Math.min(w - 1, Math.floor(f * w));
        const exact = (p * BigInt(rem)) / BigInt(w);
        const up = fractionalUpper(p, rem, w);
        expect(up >= exact).toBe(true);
        expect(up <= p).toBe(true);
      }),
      { numRuns: 20_000, seed: 63 },
    );
  });
});

/** Residual quantized capacity per kept node under a plan. */
function residuals(packed: PackedProblem, node: Int32Array): number[] {
  const r = Array.from(packed.qcapacity);
  node.forEach((b, j) => {
    if (b >= 0) r[b] = r[b]! - packed.qweight[j]!;
  });
  return r;
}

describe('spreadTies', () => {
  it('keeps value and feasibility and ends at a fixed point', () => {
    let moved = 0;
    fc.assert(
      fc.property(
        quantizedCaseArb({ maxSessions: 14, maxNodes: 4, maxCapacity: 60, maxWeight: 12 }, [1, 2, 3]),
        ({ problem, quantum }) => {
          const { packed } = prepare(problem, { quantum });
          const m = nodesKept(packed);
          const before = bfdPacked(packed);
          const after = spreadTies(packed, before.slice());
          expect(planTriple(packed, after)).toEqual(planTriple(packed, before));
          const r = residuals(packed, after);
          for (const x of r) expect(x).toBeGreaterThanOrEqual(0);
          after.forEach((a, j) => {
            if (a < 0) return;
            expect(before[j]).toBeGreaterThanOrEqual(0); // nobody admitted or dropped
            expect(packed.candidate[j * m + a]).toBe(1);
            for (let b = 0; b < m; b++) {
              const e = j * m + b;
              if (b === a || packed.candidate[e] !== 1 || packed.credit[e] !== packed.credit[j * m + a]) continue;
              // A fixed point (the pass limit is far above what these sizes need).
              expect(r[b]! - packed.qweight[j]! > r[a]!).toBe(false);
            }
          });
          if (after.some((b, j) => b !== before[j])) moved++;
          expect(spreadTies(packed, before.slice())).toEqual(after); // deterministic
        },
      ),
      { numRuns: 800, seed: 8 },
    );
    expect(moved).toBeGreaterThan(50);
    expect(MAX_SPREAD_PASSES).toBeGreaterThanOrEqual(2);
  });

  it('undoes the dense DP stacking uncredited sessions on one node, at the same optimum', async () => {
    // Two equal nodes of 20 units, six uncredited sessions of 2 units: everything fits anywhere.
    const problem: Problem = {
      nodes: [
        { id: 'a', capacity: 20 },
        { id: 'b', capacity: 20 },
      ],
      sessions: Array.from({ length: 6 }, (_, i) => ({ id: `s${i}`, weight: 2, tokens: 10 + i, ready: true })),
    };
    const { packed } = prepare(problem, { quantum: 1 });
    const kernel = await WasmKernels.create('release');
    expect(
      kernel.dense.start({
        radix: Array.from(packed.capacity, (c) => c + 1),
        weight: packed.qweight,
        keys: packed.key,
      }),
    ).toBe(DpStatus.paused);
    kernel.dense.fold(0, sessionsKept(packed));
    const raw = Array.from(kernel.dense.finish().node);
    kernel.close();
    // The DP's tie-breaking alone puts all six on one node.
    expect(new Set(raw).size).toBe(1);
    const perNode = (plan: Plan, id: string): number => plan.assignments.filter((x) => x.node === id).length;
    for (const path of ['dense', 'frontier', 'auto'] as const) {
      const plan = solver.solve(problem, { quantum: 1, path });
      expect(plan.value).toEqual(bruteForceOptimum(problem, 1));
      expect([perNode(plan, 'a'), perNode(plan, 'b')]).toEqual([3, 3]);
    }
  });
});
