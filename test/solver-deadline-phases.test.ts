/**
 * The deadline at the largest supported shape (64 nodes x 4096 sessions): it is checked between the
 * phases before the DP (heuristics, frontier set-up) as well as between DP steps, so a solve past its
 * deadline stops there with a labelled BFD fallback and no DP work, in-thread and through the pool
 * (whose deadline also counts the time spent on the caller's thread). No wall-clock assertion: the
 * measured overshoot is in docs/results/time-and-memory.md (scripts/deadline-overshoot.mjs).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  bestHeuristic,
  bfd,
  boundWork,
  heuristicWork,
  packWork,
  prepare,
  relaxationBound,
} from './helpers/internals.js';
import { burstProblem, type Plan, seededRandom } from './helpers/internals.js';
import type { RawSolution } from './helpers/internals.js';
import { randomTickProblem } from './helpers/internals.js';
import { createSolverPool, type SolverPool } from './helpers/internals.js';
import { loadSolver, type Solver } from './helpers/internals.js';
import {
  FRONTIER_CHILD_WORK,
  FRONTIER_LAYER_WORK,
  FRONTIER_MIRROR_FACTOR,
  FRONTIER_WEIGHT_NODES,
  frontierSetupWork,
  frontierUnitWeight,
} from './helpers/internals.js';
import { onHeldClock } from './helpers/held-clock.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { compareValues } from './oracles/brute-force.js';
import { builtWorker } from './pool-support.js';

const LARGEST = randomTickProblem(64_4096, {
  nodes: 64,
  sessions: 4096,
  capacity: 360_000,
  minTokens: 2000,
  maxTokens: 40_000,
  cachedRate: 0.7,
});
const DEADLINE = /^deadline exceeded: 1 ms passed after 0 of 4096 sessions of the DP$/;
/** The work of a solve stopped before its first stage: what no solve skips (packing, BFD, the bound), no DP. */
const BFD_WORK = (() => {
  const { packed } = prepare(LARGEST);
  return packWork(packed) + heuristicWork(packed) + boundWork(packed);
})();

let solver: Solver;
let pool: SolverPool;
beforeAll(async () => {
  solver = await loadSolver();
  pool = createSolverPool({ workerFile: builtWorker() });
  await pool.ready();
});
afterAll(async () => {
  solver.close();
  await pool.close();
});

describe('deadlineMs: 1 at 64 nodes x 4096 sessions', () => {
  it('in-thread: stops before the DP with a labelled fallback, never worse than BFD', () => {
    const plan = solver.solve(LARGEST, { deadlineMs: 1 });
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toMatch(DEADLINE);
    expect(plan.stats.path).toBe('bfd');
    expect(plan.stats.work).toBe(BFD_WORK);
    expectFeasible(LARGEST, plan);
    expect(compareValues(plan.value, bfd(LARGEST).value)).toBeGreaterThanOrEqual(0);
  });

  it("past the deadline the plan's bound leaves out the refinement by its credit; within it, a fallback's is refined", () => {
    // Credit on every node (the same per session): the heuristic plan keeps most of it, so the
    // refinement by the plan's credit tightens the ready bound.
    const base = randomTickProblem(7, { nodes: 4, sessions: 200, capacity: 360_000, cachedRate: 0 });
    const problem = {
      nodes: base.nodes,
      sessions: base.sessions.map((x, i) => ({
        ...x,
        credit: Object.fromEntries(base.nodes.map((node) => [node.id, 1000 + ((i * 7919) % 5000)])),
      })),
    };
    const { problem: indexed } = prepare(problem);
    // The clock passes the deadline after its first reading: the fallback is made past it.
    const late = onHeldClock(solver, problem, { deadlineMs: 1 }, 1).plan;
    expect(late.reason).toMatch(/^deadline exceeded/);
    const lean = relaxationBound(indexed, late.quantum, late.stats);
    expect(relaxationBound(indexed, late.quantum, late.stats, late.value).ready).toBeLessThan(lean.ready);
    expect(late.bound).toEqual(lean);
    // The same fallback within its deadline (the clock held): its bound is refined.
    const intime = onHeldClock(solver, problem, { deadlineMs: 1, stateBudget: 1 }).plan;
    expect(intime.reason).toMatch(/^state budget exceeded/);
    expect(intime.bound).toEqual(relaxationBound(indexed, intime.quantum, intime.stats, intime.value));
    expect(intime.bound.ready).toBeLessThan(relaxationBound(indexed, intime.quantum, intime.stats).ready);
  });

  it('a multiple-knapsack search halted by the deadline falls back on BFD in value order alone', () => {
    // 4 nodes x 300 uncredited sessions, room for 40% of their weight: the search runs, and the clock
    // jumps while it does. The whole heuristic suite would pick the credit greedy here.
    const rnd = seededRandom(6);
    const sessions = Array.from({ length: 300 }, (_, i) => {
      const tokens = 3000 + Math.floor(rnd() * 87_000);
      return { id: `s${i}`, weight: tokens + 512, tokens, ready: rnd() < 0.3 };
    });
    const total = sessions.reduce((a, y) => a + y.weight, 0);
    const nodes = Array.from({ length: 4 }, (_, b) => ({ id: `n${b}`, capacity: Math.round((0.4 * total) / 4) }));
    const problem = { nodes, sessions };
    expect(bestHeuristic(prepare(problem).packed).heuristic).not.toBe('bfd');
    const options = { deadlineMs: 1000 };
    const reads = onHeldClock(solver, problem, options).reads;
    let halted: Plan | undefined;
    for (let still = 1; still < reads && halted === undefined; still++) {
      const plan = onHeldClock(solver, problem, options, still).plan;
      if (plan.stats.multipleKnapsack?.outcome === 'stopped' && plan.reason?.startsWith('deadline exceeded'))
        halted = plan;
    }
    expect(halted?.stats.heuristic).toBe('bfd');
    expect(halted!.stats.path).toBe('bfd');
    expectFeasible(problem, halted!);
  });

  it('a credit-split fallback made past the deadline is marked for the lean bound; one made within it is not', () => {
    const prepared = prepare(burstProblem(1, 1, 4, 160, 2));
    const run = (still: number, stateBudget?: number) => {
      let reads = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => (++reads > still ? 1e9 : 0));
      try {
        const options = {
          ...prepared.options,
          deadlineMs: 1000,
          ...(stateBudget !== undefined ? { stateBudget } : {}),
        };
        return { raw: solver.runPacked(prepared.packed, options), reads };
      } finally {
        vi.restoreAllMocks();
      }
    };
    const all = run(Number.POSITIVE_INFINITY);
    expect(all.raw.stats.path).toBe('credit-split');
    let late: RawSolution | undefined;
    for (let still = 1; still < all.reads && late === undefined; still++) {
      const { raw } = run(still);
      if (raw.status === 'fallback' && raw.stats.creditLevel?.remainderPath !== undefined) late = raw;
    }
    expect(late?.reason).toMatch(/^deadline exceeded/);
    expect(late!.halted).toBe(true);
    const budgeted = run(Number.POSITIVE_INFINITY, 100_000).raw;
    expect(budgeted.status).toBe('fallback');
    expect(budgeted.stats.creditLevel?.remainderPath).toBeDefined();
    expect(budgeted.halted).toBeUndefined();
  });

  it('through the pool: the time spent validating and packing on the caller thread counts', async () => {
    const plan = await pool.solve(LARGEST, { deadlineMs: 1 });
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toMatch(DEADLINE);
    expect(plan.stats.work).toBe(BFD_WORK);
    expectFeasible(LARGEST, plan);
  });
});

describe('frontier work at many nodes', () => {
  it('counts FRONTIER_UNIT_WORK x ceil(m / FRONTIER_WEIGHT_NODES) units per raw unit, FRONTIER_MIRROR_FACTOR times more in the mirror', () => {
    expect([1, 4, 16, 17, 32, 33, 64].map((m) => frontierUnitWeight(m))).toEqual([4, 4, 4, 8, 8, 12, 16]);
    expect(frontierUnitWeight(64, true)).toBe(16 * FRONTIER_MIRROR_FACTOR);
    expect(FRONTIER_WEIGHT_NODES).toBe(16);
  });

  it('counts FRONTIER_LAYER_WORK units per layer and FRONTIER_CHILD_WORK per child on top: at one node x 4096 sessions the budget stops the run', () => {
    // Few raw units per layer at one node: counted by its raw units alone, this run finished all 4096
    // layers within the default budget, at 30-80 ns per unit counted.
    const problem = randomTickProblem(1000 + 4096 + 1, {
      nodes: 1,
      sessions: 4096,
      capacity: 360_000,
      minTokens: 2000,
      maxTokens: 40_000,
      cachedRate: 0.7,
    });
    const plan = solver.solve(problem, { path: 'frontier' });
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toMatch(/^state budget exceeded: the frontier DP passed stateBudget 4194304 units of work/);
    const f = plan.stats.frontier!;
    expect(f.layers).toBeLessThan(4096);
    expect(plan.stats.work).toBeGreaterThanOrEqual(
      f.layers * FRONTIER_LAYER_WORK + f.generated * FRONTIER_CHILD_WORK + f.generated * frontierUnitWeight(1),
    );
  });

  it('a 64-node solve stops at the budget, its raw units counted frontierUnitWeight times', () => {
    const problem = randomTickProblem(64_1000, {
      nodes: 64,
      sessions: 1000,
      capacity: 120_000,
      minTokens: 2000,
      maxTokens: 40_000,
      cachedRate: 0.7,
    });
    const { packed } = prepare(problem);
    const weight = frontierUnitWeight(64, !packed.keyFits);
    const plan = solver.solve(problem, { path: 'frontier', stateBudget: 2 ** 26 });
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toMatch(/^state budget exceeded: the frontier DP passed stateBudget 67108864 units of work/);
    expect(plan.stats.work).toBeGreaterThanOrEqual(2 ** 26 - frontierSetupWork(packed));
    // Generated states and dominance tests (raw units) are about 1 / weight of the work counted.
    expect(plan.stats.frontier!.generated + plan.stats.frontier!.comparisons).toBeLessThanOrEqual(
      plan.stats.work / weight,
    );
  });
});
