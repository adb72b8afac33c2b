/**
 * The multiple-knapsack stage's shares (src/solve/pipeline/stages.ts, docs/solver.md "Paths" and "The
 * frontier after the search"):
 * - when the dense DP fits the budget, the search gets the frontier's share of the dense cost: it sizes its
 *   phases on max(FRONTIER_MIN_WORK, FRONTIER_CELL_RATIO x cells) units (in its own units: `searchUnitWeight`
 *   budget units each) and halts where its charges (`searchUnitCost` each) pass that share; otherwise it sizes
 *   them on the limit the searches left;
 * - on at most 8 kept nodes, a search past its share gives way to the frontier when the room still holds the
 *   frontier's set-up (`frontierSetupWork`), and not when it is one unit short: then it is the labelled
 *   fallback.
 * - a search stopped by anything but its share (the deadline, the stop flag, the memory cap) ends the solve
 *   in the labelled fallback with its reason, even when the dense DP fits: it is not abandoned.
 * The search itself runs unchanged (a spy on the meter's `spend` records the meter the stage gives it), but
 * for the last case, where its meter is scripted.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  defaultSolveOptions,
  FRONTIER_CELL_RATIO,
  FRONTIER_MIN_WORK,
  frontierSetupWork,
  mkpProblem,
  MkpHalt,
  nodesKept,
  type Problem,
  randomTickProblem,
  type SolveContext,
  STAGES,
  searchUnitCost,
  searchUnitWeight,
  WorkMeter,
  WORK_CEILING,
} from './helpers/internals.js';
import { useReleaseKernels } from './helpers/kernels.js';
import { solveContext } from './helpers/solve-context.js';

const k = useReleaseKernels();
afterEach(() => {
  vi.restoreAllMocks();
});

const L = defaultSolveOptions.stateBudget;
const stage = STAGES.auto.find((s) => s.name === 'multiple-knapsack')!;

/** A fresh context on `problem` at the default budget, `charged` preparation units already spent. */
const context = (problem: Problem, quantum: number, charged = 0): SolveContext =>
  solveContext(problem, { quantum }, k.release, { charged });

/** Records the meters work is spent on (the stage's first, then its phases' shares), spending as usual. */
function recordMeters(): WorkMeter[] {
  const meters: WorkMeter[] = [];
  const spend = WorkMeter.prototype.spend;
  vi.spyOn(WorkMeter.prototype, 'spend').mockImplementation(function (this: WorkMeter, units: number) {
    if (!meters.includes(this)) meters.push(this);
    return spend.call(this, units);
  });
  return meters;
}

/** A credit-free tick of 24 sessions on 2 nodes whose dense DP fits the default budget at quantum 512. */
const denseFitTick = (): Problem =>
  randomTickProblem(1, { nodes: 2, sessions: 24, capacity: 80_000, minTokens: 2000, maxTokens: 20_000, cachedRate: 0 });

describe('the multiple-knapsack search', () => {
  it('sizes its phases on the frontier share of the dense cost when the dense DP fits the budget', () => {
    // A credit-free 2-node tick at quantum 512: 591,576 dense cells, within the default budget.
    const problem = denseFitTick();
    const ctx = context(problem, 512);
    const { cells } = ctx.packed;
    const m = nodesKept(ctx.packed);
    expect(cells).toBeLessThanOrEqual(L);
    const share = Math.max(FRONTIER_MIN_WORK, FRONTIER_CELL_RATIO * cells);
    expect(share).toBeLessThan(L);
    const meters = recordMeters();
    stage.run(ctx);
    const meter = meters[0]!;
    expect(meter.budget).toBe(Math.floor(share / searchUnitWeight(m)));
    expect(meter.limit).toBe(Math.floor(share / searchUnitCost(m)));
  });

  it('sizes its phases on the limit when the dense DP is past the budget', () => {
    const problem = mkpProblem(1, 5, 'weak', 50, 8, 3);
    const ctx = context(problem, 1);
    expect(ctx.packed.cells).toBeGreaterThan(L);
    const meters = recordMeters();
    stage.run(ctx);
    const meter = meters[0]!;
    expect(meter.budget).toBe(Math.floor(L / searchUnitWeight(8)));
    expect(meter.limit).toBe(Math.floor(L / searchUnitCost(8)));
  });

  it("gives way to the frontier past its share when the room holds the frontier's set-up, not when it is one unit short", () => {
    // The 8-node weak instance: the search passes its share of the limit. A first run measures what it
    // charges (the searches' charge: `planned` falls by it); the next runs leave the room at exactly that
    // plus the frontier's set-up, then one unit less. The search charges the same in all three runs.
    const problem = mkpProblem(1, 5, 'weak', 50, 8, 3);
    const first = context(problem, 1);
    expect(stage.run(first)).toBe('abandoned');
    expect(first.frontierToRoom).toBe(true);
    const spent = L - first.budget.planned;
    const setup = frontierSetupWork(first.packed);
    const room = spent + setup;

    const holds = context(problem, 1, WORK_CEILING * L - room);
    expect(holds.budget.room).toBe(room);
    expect(stage.run(holds)).toBe('abandoned');
    expect(L - holds.budget.planned).toBe(spent);
    expect(holds.frontierToRoom).toBe(true);
    expect(holds.multipleKnapsack?.outcome).toBe('abandoned');

    const short = context(problem, 1, WORK_CEILING * L - room + 1);
    const out = short.budget.room === room - 1 ? stage.run(short) : undefined;
    if (out === undefined || typeof out === 'string') throw new Error(`expected a plan, got ${out}`);
    expect(L - short.budget.planned).toBe(spent);
    expect(out.status).toBe('fallback');
    expect(out.reason).toBe(
      `state budget exceeded: the multiple-knapsack search passed stateBudget ${L} units of work`,
    );
    expect(out.stats.multipleKnapsack?.outcome).toBe('stopped');
    expect(short.frontierToRoom).toBeUndefined();
  });

  it('ends the solve when something other than its share stops it, even when the dense DP fits', () => {
    // The 2-node tick above; its meter is scripted to halt at the first units spent, as the deadline halts it
    // (not at its share).
    const problem = denseFitTick();
    const ctx = context(problem, 512);
    expect(ctx.packed.cells).toBeLessThanOrEqual(L);
    const reason = 'deadline exceeded: 5 ms passed after 0 of 24 sessions of the DP';
    vi.spyOn(WorkMeter.prototype, 'spend').mockImplementation(function (this: WorkMeter) {
      return this.stop(new MkpHalt(reason));
    });
    const out = stage.run(ctx);
    if (typeof out === 'string') throw new Error(out);
    expect(out.status).toBe('fallback');
    expect(out.reason).toBe(reason);
    expect(out.stats.multipleKnapsack?.outcome).toBe('stopped');
    expect(ctx.multipleKnapsack).toBeUndefined();
  });
});
