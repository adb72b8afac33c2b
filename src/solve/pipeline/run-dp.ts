/**
 * Running one DP engine within the solve's budget: the one loop every engine runs in (`drive`), and the
 * dense and the frontier DP as the stages call them.
 */
import { SolverTrapError } from '../../errors.js';
import { MEMORY_CAP_BYTES } from '../../limits.js';
import type { FrontierStats } from '../../types.js';
import { denseMirror } from '../dp/dense/mirror.js';
import { denseWasm } from '../dp/dense/wasm.js';
import type { FrontierCounters } from '../dp/frontier/engine.js';
import { FrontierMirror } from '../dp/frontier/mirror.js';
import type { FrontierSetup } from '../dp/frontier/setup.js';
import { frontierWasm } from '../dp/frontier/wasm.js';
import { type DpCounters, type DpEngine, DpStatus } from '../dp/protocol.js';
import { nodesKept, sessionsKept, type PackedProblem } from '../pack.js';
import type { RawSolution } from '../prepared.js';
import { fallbackOf, formatCount, haltedAt, solved, type SolveContext } from './context.js';

/**
 * Dense DP cells per step between deadline checks (well under a ms of work). Only used when a deadline
 * or a stop flag is set: otherwise the dense DP runs in one step.
 */
export const CHUNK_CELLS = 1 << 18;

/**
 * Frontier work units per step between the checks of the deadline and of the work cap (under a ms), at
 * up to four nodes; less in proportion above. The frontier always runs in steps (it has a cap).
 */
export const CHUNK_WORK = 1 << 17;
/** The smallest frontier step, however many nodes (each step has a fixed cost at the WASM boundary). */
export const CHUNK_WORK_MIN = 1 << 11;

/**
 * A frontier state holds one usage per kept node, so a frontier unit of work (a child generated, a
 * dominance test) costs more the more nodes there are (docs/threat-model.md). Each raw unit counts as
 * FRONTIER_UNIT_WORK x ceil(m / FRONTIER_WEIGHT_NODES) units against the state budget and in
 * `PlanStats.work`, and FRONTIER_MIRROR_FACTOR times that in the TypeScript mirror with BigInt keys, so
 * that one budget bounds about the same time at every size and in both (the costs measured per raw unit:
 * docs/threat-model.md, "The solver: problems and solve options").
 */
export const FRONTIER_WEIGHT_NODES = 16;
export const FRONTIER_UNIT_WORK = 4;
export const FRONTIER_MIRROR_FACTOR = 12;

/** Units of work one raw frontier unit counts for at m kept nodes (in the mirror with `mirror`). */
export function frontierUnitWeight(m: number, mirror = false): number {
  return FRONTIER_UNIT_WORK * Math.max(1, Math.ceil(m / FRONTIER_WEIGHT_NODES)) * (mirror ? FRONTIER_MIRROR_FACTOR : 1);
}

/**
 * What a frontier run costs besides its raw units, counted in its work (not in the kernel's counters,
 * which the mirror matches bit for bit): per layer, its start and end (the lists' heads, the bounds'
 * restriction, the history of its states), and per child generated, the two LP bounds it is tested against
 * (a descent of O(log n) each). At one node a run's raw units (a child, a dominance test) are few per layer,
 * so without these its time was out of proportion to its units (docs/history.md, "Time at the caps").
 */
export const FRONTIER_LAYER_WORK = 1024;
export const FRONTIER_CHILD_WORK = 32;

/**
 * Units of work the frontier's set-up costs per kept session and per kept (session, node) pair (its
 * order, its node classes; docs/history.md, "One budget"), and per pair more in the mirror (its credit
 * table and BigInt keys): `frontierSetupWork`, charged before the run.
 */
export const FRONTIER_SETUP_SESSION_WORK = 400;
export const FRONTIER_SETUP_PAIR_WORK = 40;
export const FRONTIER_MIRROR_PAIR_WORK = 320;

/** The units the frontier's set-up on `packed` is charged. */
export function frontierSetupWork(packed: PackedProblem): number {
  const n = sessionsKept(packed);
  const pairs = n * nodesKept(packed);
  return (
    FRONTIER_SETUP_SESSION_WORK * n +
    FRONTIER_SETUP_PAIR_WORK * pairs +
    (packed.keyFits ? 0 : FRONTIER_MIRROR_PAIR_WORK * pairs)
  );
}

/** The run passed its work cap: the caller may try the dense DP. */
export interface Abandoned {
  readonly abandoned: true;
  readonly work: number;
  readonly layers: number;
  readonly frontier: FrontierStats;
}

/** How one engine run is driven and reported. */
export interface Drive<C extends DpCounters> {
  /** Most units of work before the run is abandoned (Infinity: never). */
  readonly cap: number;
  /** Units of work per step when steps are bounded. */
  readonly chunk: number;
  /** Why the run stopped with status `memory`. */
  memoryReason(c: C): string;
  /** The frontier stats to report with this outcome, if any. */
  stats(c: C, outcome: FrontierStats['outcome']): FrontierStats | undefined;
}

/**
 * The one loop every DP engine runs in: start, then steps of at most `chunk` units (when a deadline is
 * set or the engine asks for bounded steps) until done, checking the deadline and the work cap before
 * each step. Ends in a plan (solved or a labelled fallback) or, past the cap, Abandoned.
 */
export function drive<C extends DpCounters>(
  ctx: SolveContext,
  engine: DpEngine<C>,
  d: Drive<C>,
): RawSolution | Abandoned {
  const n = sessionsKept(ctx.packed);
  const chunk = engine.boundedSteps || ctx.budget.stepped ? d.chunk : Number.POSITIVE_INFINITY;
  let status = engine.start();
  if (status === DpStatus.incumbent)
    return solved(ctx, engine.finish(), 'bound', 0, d.stats(engine.counters(), 'solved'));
  while (status !== DpStatus.done) {
    if (status === DpStatus.memory) {
      const c = engine.counters();
      return fallbackOf(ctx, d.memoryReason(c), c.work, d.stats(c, 'abandoned'));
    }
    if (status !== DpStatus.paused) {
      throw new SolverTrapError(
        `${engine.path} DP stopped with status ${status} after ${engine.counters().layers} of ${n} sessions`,
      );
    }
    const c = engine.counters();
    const why = haltedAt(ctx, c.layers);
    if (why !== undefined) return fallbackOf(ctx, why, c.work, d.stats(c, 'abandoned'));
    if (c.work >= d.cap) return { abandoned: true, work: c.work, layers: c.layers, frontier: d.stats(c, 'abandoned')! };
    status = engine.step(Math.min(chunk, d.cap - c.work));
  }
  const c = engine.counters();
  return solved(ctx, engine.finish(), engine.path, c.work, d.stats(c, 'solved'));
}

/** The dense DP's cells fit within the state budget and the room its ceiling leaves. */
export function denseFits(ctx: SolveContext): boolean {
  return ctx.packed.cells <= Math.min(ctx.budget.limit, ctx.budget.room);
}

/** The dense DP within the state budget (packed key: WASM; else the TypeScript planes), or a labelled fallback. */
export function runDense(ctx: SolveContext): RawSolution {
  const { packed, budget } = ctx;
  const n = sessionsKept(packed);
  if (!denseFits(ctx)) {
    const reason =
      `state budget exceeded: ${formatCount(packed.cells)} cells (${n} sessions x ${formatCount(packed.states)} states) > ` +
      (packed.cells <= budget.limit
        ? `the ${budget.room} units stateBudget ${budget.limit} leaves`
        : `stateBudget ${budget.limit}`);
    return fallbackOf(ctx, reason, 0);
  }
  const engine = packed.keyFits ? denseWasm(ctx.kernels.dense, packed) : denseMirror(packed);
  if (engine.bytes > MEMORY_CAP_BYTES) {
    return fallbackOf(
      ctx,
      `memory cap exceeded: the ${engine.path} DP needs ${engine.bytes} bytes > ${MEMORY_CAP_BYTES}`,
      0,
    );
  }
  const r = drive(ctx, engine, {
    cap: Number.POSITIVE_INFINITY,
    chunk: CHUNK_CELLS,
    memoryReason: () => `memory cap exceeded: WASM memory could not grow to ${engine.bytes} bytes`,
    stats: () => ctx.frontier,
  });
  // The dense DP has no cap, so it is never abandoned.
  return r as RawSolution;
}

function frontierStats(c: FrontierCounters, outcome: FrontierStats['outcome'], classes: number): FrontierStats {
  const { work: _, ...counters } = c;
  return { outcome, ...counters, nodeClasses: classes };
}

/**
 * The frontier engine with its work counted as the budget sees it: `weight` units per raw unit, plus
 * FRONTIER_LAYER_WORK per layer and FRONTIER_CHILD_WORK per child generated. Its steps are always
 * bounded (quotas divided by the most a raw unit may count, as every child generated is a raw unit), so
 * the driver sees the layers' and the children's charges between steps and stops the run at its cap.
 */
function frontierMetered(engine: DpEngine<FrontierCounters>, weight: number): DpEngine<FrontierCounters> {
  return {
    path: engine.path,
    boundedSteps: true,
    start: () => engine.start(),
    step: (quota) => engine.step(Math.max(1, Math.ceil(quota / (weight + FRONTIER_CHILD_WORK)))),
    counters: () => {
      const c = engine.counters();
      return {
        ...c,
        work: c.work * weight + c.layers * FRONTIER_LAYER_WORK + c.generated * FRONTIER_CHILD_WORK,
      };
    },
    finish: () => engine.finish(),
  };
}

/**
 * Runs a frontier (WASM when the packed key fits, else the TypeScript mirror with BigInt keys) with at
 * most `cap` work units, from the context's incumbent.
 */
export function runFrontier(ctx: SolveContext, setup: FrontierSetup, cap: number): RawSolution | Abandoned {
  const { packed } = ctx;
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const raw = packed.keyFits
    ? frontierWasm(ctx.kernels.frontier, packed, setup, ctx.incumbent!.node)
    : new FrontierMirror(packed, setup);
  const engine = frontierMetered(raw, frontierUnitWeight(m, !packed.keyFits));
  return drive(ctx, engine, {
    cap,
    // Steps shrink with the node count too, so the deadline checks stay about as far apart in time.
    chunk: Math.max(CHUNK_WORK_MIN, Math.floor(CHUNK_WORK / Math.max(1, m / 4))),
    memoryReason: (c) =>
      `memory cap exceeded: the ${engine.path} DP could not hold its states within ${MEMORY_CAP_BYTES} bytes after ${c.layers} of ${n} sessions`,
    stats: (c, outcome) => frontierStats(c, outcome, setup.classes),
  });
}
