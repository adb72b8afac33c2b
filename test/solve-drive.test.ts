/**
 * `drive()` (src/solve/pipeline/run-dp.ts), the one loop the dense and frontier DPs run in, with scripted
 * engines: each status a kernel can return ends the run as the protocol says (memory: the labelled
 * fallback with the engine's reason and its work charged; an unknown status: SolverTrapError naming it;
 * the incumbent at the start: the `bound` path), and the work cap abandons a run that reached it, not one
 * unit before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DpCounters,
  type DpEngine,
  DpStatus,
  type Drive,
  drive,
  loadSolver,
  MEMORY_CAP_BYTES,
  prepare,
  type Problem,
  runDense,
  type Solver,
  type SolveContext,
  SolveBudget,
  SolverTrapError,
  SolveScratch,
  WasmKernels,
} from './helpers/internals.js';
import { threeOnTwoRooms } from './helpers/solve-context.js';

/** 3 sessions on two rooms of 10 quanta: 3 x 121 cells at quantum 1, not all fitting. */
const problem = threeOnTwoRooms();

function context(options: { stateBudget?: number } = {}, kernels?: WasmKernels): SolveContext {
  const { packed, options: resolved } = prepare(problem, { quantum: 1, ...options });
  return {
    // The scripted engines run no kernel.
    kernels: kernels ?? (undefined as unknown as WasmKernels),
    packed,
    options: resolved,
    budget: SolveBudget.of(resolved, performance.now(), undefined),
    scratch: new SolveScratch(),
  };
}

/** An engine that returns `statuses` in turn (start first), then `done`, its work growing by `perStep` a step. */
function scripted(statuses: number[], perStep = 10, start = 0): DpEngine & { quotas: number[] } {
  const counters: DpCounters = { layers: 0, work: start };
  const quotas: number[] = [];
  let next = 0;
  return {
    path: 'frontier',
    boundedSteps: true,
    quotas,
    start: () => (statuses[next++] ?? DpStatus.done) as DpStatus,
    step(quota: number) {
      quotas.push(quota);
      counters.work += perStep;
      counters.layers++;
      return (statuses[next++] ?? DpStatus.done) as DpStatus;
    },
    counters: () => ({ ...counters }),
    finish: () => Int32Array.of(0, 1, -1),
  };
}

const plainDrive = (cap = Number.POSITIVE_INFINITY): Drive<DpCounters> => ({
  cap,
  chunk: 25,
  memoryReason: (c) => `out of memory after ${c.work}`,
  stats: (c, outcome) => ({
    outcome,
    layers: c.layers,
    generated: 0,
    kept: 0,
    maxLayer: 0,
    prunedBound: 0,
    prunedDominance: 0,
    comparisons: 0,
    prunedCredit: 0,
    nodeClasses: 0,
  }),
});

describe('drive, the loop of the dense and frontier DPs', () => {
  it('ends a run whose kernel runs out of memory in the labelled fallback, its reason and work reported', () => {
    const ctx = context();
    const out = drive(ctx, scripted([DpStatus.paused, DpStatus.memory]), plainDrive());
    expect('abandoned' in out).toBe(false);
    if ('abandoned' in out) return;
    expect(out.status).toBe('fallback');
    expect(out.reason).toBe('out of memory after 10');
    expect(out.stats.frontier?.outcome).toBe('abandoned');
    expect(out.stats.frontier?.layers).toBe(1);
    expect(ctx.budget.spent).toBeGreaterThanOrEqual(10);
  });

  it('throws SolverTrapError naming a status the protocol does not have, and where the run was', () => {
    expect(() => drive(context(), scripted([DpStatus.paused, DpStatus.emptyLayer]), plainDrive())).toThrow(
      new SolverTrapError('frontier DP stopped with status 4 after 1 of 3 sessions'),
    );
  });

  it('takes the incumbent a kernel proves optimal at its start as the `bound` plan', () => {
    const out = drive(context(), scripted([DpStatus.incumbent]), plainDrive());
    if ('abandoned' in out) throw new Error('abandoned');
    expect(out.status).toBe('optimal');
    expect(out.stats.path).toBe('bound');
    expect(out.stats.frontier?.outcome).toBe('solved');
  });

  it('abandons a run once its work reaches the cap, not before; a step never asks past the cap', () => {
    const below = scripted([DpStatus.paused, DpStatus.paused, DpStatus.done], 10, 0);
    const solved = drive(context(), below, plainDrive(21));
    expect('abandoned' in solved).toBe(false);
    // Work 0, then 10: each step's quota is the chunk or what is left below the cap.
    expect(below.quotas).toEqual([21, 11]);
    const at = scripted([DpStatus.paused, DpStatus.paused, DpStatus.done], 10, 0);
    const out = drive(context(), at, plainDrive(10));
    expect(out).toMatchObject({ abandoned: true, work: 10, layers: 1 });
    expect(at.quotas).toEqual([10]);
  });
});

describe('runDense', () => {
  let kernels: WasmKernels;
  let solver: Solver;
  beforeAll(async () => {
    kernels = await WasmKernels.create('release');
    solver = await loadSolver();
  });
  afterAll(() => {
    kernels.close();
    solver.close();
  });

  it('says which limit the cells pass: the state budget, or the room the searches before it left', () => {
    // 3 sessions x (10 + 1)^2 states at quantum 1.
    const cells = prepare(problem, { quantum: 1 }).packed.cells;
    expect(cells).toBe(363);
    const over = runDense(context({ stateBudget: cells - 1 }));
    expect(over.status).toBe('fallback');
    expect(over.reason).toBe(`state budget exceeded: 363 cells (3 sessions x 121 states) > stateBudget ${cells - 1}`);
    const ctx = context({ stateBudget: cells });
    ctx.budget.charge(ctx.budget.room - (cells - 1));
    const spent = runDense(ctx);
    expect(spent.reason).toBe(
      `state budget exceeded: 363 cells (3 sessions x 121 states) > the ${cells - 1} units stateBudget ${cells} leaves`,
    );
  });

  it('says how many cells past the double range a grid needs', () => {
    // 40 rooms of 2^30 quanta: (2^30 + 1)^40 states, past 1.8e308.
    const huge: Problem = {
      nodes: Array.from({ length: 40 }, (_, b) => ({ id: `n${b}`, capacity: 2 ** 30 })),
      sessions: [
        { id: 's0', weight: 2 ** 30, tokens: 1, ready: false },
        { id: 's1', weight: 2 ** 30, tokens: 2, ready: false },
      ],
    };
    const { packed, options } = prepare(huge, { quantum: 1 });
    expect(packed.cells).toBe(Number.POSITIVE_INFINITY);
    const out = runDense({
      kernels: undefined as unknown as WasmKernels,
      packed,
      options,
      budget: SolveBudget.of(options, performance.now(), undefined),
      scratch: new SolveScratch(),
    });
    expect(out.reason).toBe(
      `state budget exceeded: more than 1.8e308 cells (2 sessions x more than 1.8e308 states) > stateBudget ${options.stateBudget}`,
    );
  });

  it('reports the counters of a frontier abandoned for it', () => {
    const ctx = context({}, kernels);
    const abandoned = { ...plainDrive().stats({ layers: 2, work: 5 }, 'abandoned')! };
    ctx.frontier = abandoned;
    const out = runDense(ctx);
    expect(out.status).toBe('optimal');
    expect(out.stats.path).toBe('dense');
    expect(out.stats.frontier).toBe(abandoned);
  });

  it('refuses a grid whose memory would pass the cap before allocating it: the labelled fallback', () => {
    // One session on two rooms of 8,191 quanta: 2^26 states, within the largest state budget. Its key
    // does not fit 64 bits (credit and tokens near 2^32), so the TypeScript planes run: 24 bytes a state,
    // more than MEMORY_CAP_BYTES. (The WebAssembly grid needs about 9 bytes a state: at most about 600 MB
    // within the largest state budget.)
    const big: Problem = {
      nodes: [
        { id: 'a', capacity: 8191 },
        { id: 'b', capacity: 8191 },
      ],
      sessions: [{ id: 's', weight: 8191, tokens: 2 ** 32 - 1, ready: true, credit: { a: 2 ** 32 - 1 } }],
    };
    const plan = solver.solve(big, { quantum: 1, path: 'dense', stateBudget: 2 ** 26 });
    expect(plan.status).toBe('fallback');
    expect(plan.stats.keyFits).toBe(false);
    expect(plan.reason).toMatch(
      new RegExp(`^memory cap exceeded: the dense-wide DP needs \\d+ bytes > ${MEMORY_CAP_BYTES}$`),
    );
  });
});
