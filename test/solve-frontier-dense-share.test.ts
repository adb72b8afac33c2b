/**
 * The share of a frontier run abandoned for the dense DP (src/solve/pipeline/stages.ts, docs/solver.md
 * "Paths" and "The budget"): while the dense DP fits the budget, the `auto` frontier stage gets
 * max(FRONTIER_MIN_WORK, FRONTIER_CELL_RATIO x cells) units, never more than the searches left, and never
 * more than leaves the dense DP's cells (and FRONTIER_MIN_WORK) in the room; past them it is abandoned
 * (`stats.frontier.outcome: 'abandoned'`), charged what it spent, and the dense DP solves. What the run
 * spent is read from the budget as the searches' charge (`planned` falls by it); the last step passes the
 * share by a few raw units and the layer it ends at most.
 */
import { describe, expect, it } from 'vitest';
import {
  CHUNK_WORK_MIN,
  defaultSolveOptions,
  FRONTIER_CELL_RATIO,
  FRONTIER_LAYER_WORK,
  FRONTIER_MIN_WORK,
  frontierSetupWork,
  randomTickProblem,
  type SolveContext,
  STAGES,
} from './helpers/internals.js';
import { useReleaseKernels } from './helpers/kernels.js';
import { solveContext } from './helpers/solve-context.js';

const k = useReleaseKernels();

/** What the last frontier step may pass its share by. */
const SLACK = FRONTIER_LAYER_WORK + CHUNK_WORK_MIN;

/** A credited 2-node tick of 16 sessions at quantum 1024: 153,664 dense cells, a frontier that needs more than half of them. */
const problem = randomTickProblem(5, {
  nodes: 2,
  sessions: 16,
  capacity: 100_000,
  minTokens: 2000,
  maxTokens: 20_000,
  cachedRate: 0.5,
});

/** A context at the default budget with BFD as its incumbent, `charged` preparation units already spent. */
const context = (charged = 0): SolveContext =>
  solveContext(problem, { quantum: 1024 }, k.release, { charged, withBfd: true });

const stage = (name: string) => STAGES.auto.find((s) => s.name === name)!;

/** Runs the `auto` frontier stage on `ctx`: what it returned and the search work it was charged. */
function runFrontierStage(ctx: SolveContext): { out: ReturnType<ReturnType<typeof stage>['run']>; work: number } {
  const planned = ctx.budget.planned;
  const out = stage('frontier').run(ctx);
  return { out, work: planned - ctx.budget.planned };
}

describe('a frontier abandoned for the dense DP', () => {
  it(`spends FRONTIER_CELL_RATIO of the dense cells when that is above FRONTIER_MIN_WORK, then the dense DP solves`, () => {
    const ctx = context();
    const { cells } = ctx.packed;
    expect(cells).toBe(153_664);
    expect(cells).toBeLessThanOrEqual(defaultSolveOptions.stateBudget);
    const share = FRONTIER_CELL_RATIO * cells;
    expect(share).toBeGreaterThan(FRONTIER_MIN_WORK);
    const { out, work } = runFrontierStage(ctx);
    expect(out).toBe('abandoned');
    expect(ctx.frontier?.outcome).toBe('abandoned');
    expect(work).toBeGreaterThanOrEqual(share);
    expect(work).toBeLessThanOrEqual(share + SLACK);
    const plan = stage('dense').run(ctx);
    if (typeof plan === 'string') throw new Error(plan);
    expect([plan.status, plan.stats.path, plan.stats.frontier?.outcome]).toEqual(['optimal', 'dense', 'abandoned']);
  });

  it.each([20_000, 40_000])(
    'spends no more than leaves the dense cells and FRONTIER_MIN_WORK in the room (%i units past them)',
    (extra) => {
      // Charge the preparation so that, once the frontier's set-up is charged, the room is the cells plus
      // FRONTIER_MIN_WORK plus `extra`: the dense DP still fits, and the frontier gets `extra`.
      const probe = context();
      const room = probe.packed.cells + FRONTIER_MIN_WORK + extra + frontierSetupWork(probe.packed);
      const ctx = context(probe.budget.room - room);
      expect(ctx.budget.room).toBe(room);
      expect(extra).toBeLessThan(FRONTIER_CELL_RATIO * ctx.packed.cells);
      const { out, work } = runFrontierStage(ctx);
      expect(out).toBe('abandoned');
      expect(work).toBeGreaterThanOrEqual(extra);
      expect(work).toBeLessThanOrEqual(extra + SLACK);
    },
  );
});
