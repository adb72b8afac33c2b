/**
 * The planner's production backend: small solves on the calling thread with the WASM solver, larger ones
 * in the worker pool, routed by an estimate of the solve's work (`estimateWork`) and by what the planner
 * measures (the pool reports each solve's worker time: route.ts).
 */
import { recordAt } from '../checks.js';
import { InvalidTypeError, InvalidValueError, SolverTrapError } from '../errors.js';
import { CREDIT_STATE_WORK, creditLevel, creditLevelShare, creditReduction } from '../solve/credit-level.js';
import { SolveBudget } from '../solve/pipeline/budget.js';
import { bestNodesPlan } from '../solve/incumbent.js';
import { nodesKept, sessionsKept } from '../solve/pack.js';
import { Planner, resolvePlannerOptions, type PlannerBackend, type PlannerOptions } from './planner.js';
import { createSolverPool, workerMicrosOf, type SolverPool } from '../pool/pool.js';
import { resolvePoolOptions, type PoolOptions } from '../pool/options.js';
import { elapsedMicros } from '../solve/plan.js';
import { fallbackPlan, finishPlan, loadSolver, prepare, type Prepared, type Solver } from '../solve/solver.js';
import type { WasmBuild } from '../solve/wasm/abi.js';

/**
 * The wide paths (TypeScript, taken when the packed i64 key cannot hold the value sums) cost several
 * times a WASM unit of work; their work is weighted by this when routing.
 */
const WIDE_WORK_WEIGHT = 8;

/** Options of `createPlanner`. */
export interface CreatePlannerOptions extends PlannerOptions {
  /** A pool to solve large problems in; not closed by the planner. By default the planner creates one. */
  pool?: SolverPool;
  /** Options of the pool the planner creates (ignored when `pool` is given). */
  poolOptions?: PoolOptions;
  /** The in-thread solver; not closed by the planner. By default the planner loads one (unless `inThreadMaxWork` is 0). */
  solver?: Solver;
  /**
   * WASM build of the solver the planner loads.
   * @default 'release'
   */
  build?: WasmBuild;
}

/**
 * Estimated in-thread work of a prepared problem, in units of work (see `SolveOptions.stateBudget`; wide
 * paths weighted by their cost relative to WASM): the most the solver may spend on
 * it. A problem the solver closes on its `best-nodes` path (every session fits on a best node; checked the
 * same way, in O(sessions x nodes)) costs about one pass over its pairs; one whose credit level is decided
 * at the root (src/solve/credit-level.ts) costs its knapsack states plus the remainder's estimate.
 * Otherwise the exact DP may run
 * to its dense cell count or, above the state budget, to the budget (the frontier DP's work cap), so
 * routing stays conservative: a solve that may block the loop for long goes to the pool.
 */
export function estimateWork(prepared: Prepared): number {
  const { packed, options } = prepared;
  const n = sessionsKept(packed);
  if (n === 0) return 0;
  const pairs = n * Math.max(1, nodesKept(packed));
  if (options.path === 'auto' && bestNodesPlan(packed) !== null) return pairs;
  if (options.path === 'auto') {
    // The credit level decided at the root: its knapsacks, then the remainder's own estimate.
    // A level the solve decides only by branching (src/solve/credit-branch.ts) keeps the DP's estimate
    // below: the branching would run here, on the caller's thread, just to route the solve.
    // Within the share the solve gives it (src/solve/pipeline/context.ts `levelOf`).
    const share = creditLevelShare(packed, SolveBudget.of(options, 0, undefined));
    const level = creditLevel(packed, share.stepsOf(CREDIT_STATE_WORK));
    if (level !== null && level.bound > 0 && level.decided) {
      return (
        pairs +
        level.states * CREDIT_STATE_WORK +
        estimateWork({ ...prepared, packed: creditReduction(packed, level.sets, options).remainder })
      );
    }
  }
  const work = Math.min(packed.cells, options.stateBudget);
  return packed.keyFits ? work : work * WIDE_WORK_WEIGHT;
}

/** @deprecated The old name of `estimateWork`. */
export const estimateCells = estimateWork;

/** Wires a solver (in-thread) and a pool (off-thread) into a PlannerBackend. */
export function solverBackend(
  solver: Solver | undefined,
  pool: SolverPool,
  onClose: () => Promise<void>,
): PlannerBackend<Prepared> {
  return {
    prepare: (problem, options) => prepare(problem, options),
    work: estimateWork,
    solveInThread(prepared) {
      if (solver === undefined)
        throw new InvalidValueError('options.inThreadMaxWork is 0 but an in-thread solve was routed: no solver loaded');
      const t0 = performance.now();
      try {
        return finishPlan(prepared, solver.runPacked(prepared.packed, prepared.options, t0), elapsedMicros(t0));
      } catch (err) {
        // The solver discards a trapped instance and instantiates a fresh one on its next call; this
        // solve still gets an answer, labelled, like a pool solve whose worker trapped.
        if (!(err instanceof SolverTrapError)) throw err;
        return fallbackPlan(prepared, `in-thread ${err.message}`);
      }
    },
    solveOffThread: (prepared, signal) => pool.solvePrepared(prepared, signal === undefined ? {} : { signal }),
    workerMicros: workerMicrosOf,
    close: onClose,
  };
}

/** `x` has the methods the planner calls, so a wrong object fails here rather than at its first solve. */
function checkMethods(x: unknown, path: string, what: string, methods: readonly string[]): void {
  if (
    typeof x !== 'object' ||
    x === null ||
    methods.some((name) => typeof (x as Record<string, unknown>)[name] !== 'function')
  ) {
    throw new InvalidTypeError(`${path} must be ${what}`);
  }
}

/**
 * Creates a planner over the WASM solver and a warm worker pool (created and owned unless given).
 * Rejects with InvalidTypeError/InvalidValueError for invalid options, or if the pool's workers cannot
 * start (e.g. `dist/` not built).
 */
export async function createPlanner(options?: CreatePlannerOptions): Promise<Planner<Prepared>> {
  const given = options === undefined ? {} : (recordAt(options, 'options') as CreatePlannerOptions);
  const { pool: givenPool, poolOptions, solver: givenSolver, build, ...plannerOptions } = given;
  const resolved = resolvePlannerOptions(plannerOptions);
  if (givenPool !== undefined)
    checkMethods(givenPool, 'options.pool', 'a pool made by createSolverPool()', ['solvePrepared', 'ready', 'close']);
  if (givenSolver !== undefined)
    checkMethods(givenSolver, 'options.solver', 'a solver made by loadSolver()', ['runPacked', 'close']);
  if (givenPool !== undefined && poolOptions !== undefined) {
    throw new InvalidValueError('options.poolOptions must be absent when options.pool is given');
  }
  // Validated here first so errors name their place in these options (`options.poolOptions.minThreads`).
  if (poolOptions !== undefined) resolvePoolOptions(poolOptions, 'options.poolOptions');
  const pool = givenPool ?? createSolverPool(poolOptions);
  let solver = givenSolver;
  try {
    if (solver === undefined && resolved.inThreadMaxWork > 0)
      solver = await loadSolver(build === undefined ? {} : { build });
    await pool.ready();
  } catch (err) {
    if (givenPool === undefined) await pool.close();
    if (givenSolver === undefined) solver?.close();
    throw err;
  }
  const close = async (): Promise<void> => {
    if (givenSolver === undefined) solver?.close();
    if (givenPool === undefined) await pool.close();
  };
  return new Planner(solverBackend(solver, pool, close), resolved);
}
