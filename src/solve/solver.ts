/**
 * The DP driver: validation -> options -> packing -> a path -> Plan. The work is split so a worker pool
 * can run the middle part off-thread: `prepare` (pure TS) on the caller's thread, `runPacked` in the
 * worker (structured-cloneable in and out), `finishPlan` back on the caller's thread.
 *
 * Paths (option `path`, default `auto`), in the order `auto` tries them:
 * 1. `trivial`: no session fits anywhere.
 * 2. `best-nodes`: every session on one of its best-credit nodes fits (src/solve/incumbent.ts: optimal by the
 *    sum-of-maxima bound). O(n m).
 * 3. `bound`: a heuristic plan (BFD, credit greedy) meets the LP upper bound of the whole problem,
 *    found when the frontier starts; optimal without folding a session.
 * 4. `dense` for grids of at most DENSE_FIRST_CELLS cells, where the SIMD kernel's ~1 ns per cell beats
 *    the frontier's set-up; else `frontier`, with a work cap tied to the dense cost when the dense DP is
 *    within the state budget (FRONTIER_CELL_RATIO): a frontier that passes it is abandoned for the dense
 *    DP, so a bad frontier case costs at most about 1.5 times the dense one.
 * The packed i64 key not fitting switches `dense` to `dense-wide` and `frontier` to `frontier-wide`
 * (both TypeScript, exact). The state budget bounds every DP's work (dense cells, frontier work units),
 * the memory cap its memory, the deadline its wall time; past any of them the plan is the labelled
 * heuristic fallback (never worse than BFD). Every plan then goes through `spreadTies` (src/solve/ties.ts),
 * which moves sessions between nodes they value alike toward the emptier one without changing the value.
 */
import { ClosedError, InvalidTypeError, InvalidValueError, SolverTrapError } from '../errors.js';
import { frontierApplies, frontierInput, frontierSetup, slotsToNodes, type FrontierSetup } from './frontier.js';
import { FrontierReference } from './ts/frontier.js';
import { bestNodesPlan, heuristicPlan } from './incumbent.js';
import { MEMORY_CAP_BYTES } from '../limits.js';
import { resolveSolveOptions, type ResolvedSolveOptions, type SolveOptions } from './options.js';
import { bestCredits, nodesKept, packProblem, sessionsKept, unpackNodes, type PackedProblem } from './pack.js';
import { buildPlan, elapsedMicros, trivialStats, type RawStats } from './plan.js';
import { startReference, wideBytes } from './ts/dense.js';
import { spreadTies } from './ties.js';
import type { FrontierStats, Plan, Problem, SolvePath } from '../types.js';
import { validateProblem, type IndexedProblem } from './validate.js';
import {
  FRONTIER_DONE,
  FRONTIER_INCUMBENT,
  FRONTIER_MEMORY,
  FRONTIER_PAUSED,
  TaoKernel,
  type FrontierKernelCounters,
  type WasmBuild,
} from './wasm.js';

/** DP cells per chunk between deadline checks (~0.1-1 ms of work). Only used when a deadline is set. */
const CHUNK_CELLS = 1 << 18;

/** Frontier work units per step between deadline checks (~0.1-0.5 ms). Only used when a deadline is set. */
const CHUNK_WORK = 1 << 17;

/**
 * `auto` runs the dense DP directly on grids up to this many cells (kept sessions x states): below it the
 * dense DP (~7 us + ~1 ns per cell) beats the frontier's fixed set-up (~11-31 us). Measured on the
 * recorded corpora: of the thresholds 0, 2^12, 2^14, 2^15, 2^16, 2^17 this one gives the lowest mean and
 * P95 solve time (README "How a problem is solved").
 */
export const DENSE_FIRST_CELLS = 1 << 15;

/**
 * When the dense DP is within the state budget, the frontier may spend at most this fraction of its cell
 * count in work units before it is abandoned for the dense DP (a work unit and a dense cell cost about the
 * same, ~1 ns), and at least FRONTIER_MIN_WORK.
 */
export const FRONTIER_CELL_RATIO = 0.5;
export const FRONTIER_MIN_WORK = 1 << 15;

/** A validated, resolved and packed problem: what `runPacked` needs, plus what `finishPlan` needs. */
export interface Prepared {
  readonly problem: IndexedProblem;
  readonly options: ResolvedSolveOptions;
  readonly packed: PackedProblem;
}

/**
 * The outcome of `runPacked`, structured-cloneable (transfer `node.buffer`).
 * `node[i]` is the original node index session i is admitted to, or -1.
 */
export interface RawSolution {
  status: Plan['status'];
  reason?: string;
  node: Int32Array;
  stats: RawStats;
}

/** How to load a solver. */
export interface LoadSolverOptions {
  /**
   * Which WASM build to run: `release` (optimized, unchecked) or `debug` (unoptimized, with the ABI's
   * argument assertions).
   * @default 'release'
   */
  build?: WasmBuild;
}

/** An in-thread solver over one WASM instance. */
export interface Solver {
  /** Solves synchronously on the calling thread. Throws only for invalid input, a trap, or use after close. */
  solve(problem: Problem, options?: SolveOptions): Plan;
  /**
   * Runs the decision part on an already prepared problem (the pool's worker entry). The deadline is
   * measured from `startedAt` (a `performance.now()` reading of this thread), by default from the call.
   */
  runPacked(packed: PackedProblem, options: ResolvedSolveOptions, startedAt?: number): RawSolution;
  /** Bytes of WASM linear memory the instance holds now (never above MEMORY_CAP_BYTES). */
  memoryBytes(): number;
  /** Releases the instance; later calls throw ClosedError. */
  close(): void;
}

/** Validates, resolves options and packs. Pure TypeScript: no WASM, safe on any thread. */
export function prepare(problem: Problem, options?: SolveOptions): Prepared {
  const indexed = validateProblem(problem);
  const resolved = resolveSolveOptions(options);
  return { problem: indexed, options: resolved, packed: packProblem(indexed, resolved) };
}

/** Builds the Plan of a RawSolution; `micros` is the wall time the caller measured for the whole solve. */
export function finishPlan(prepared: Prepared, raw: RawSolution, micros: number): Plan {
  return buildPlan(
    prepared.problem,
    raw.node,
    {
      status: raw.status,
      ...(raw.reason !== undefined ? { reason: raw.reason } : {}),
      quantum: prepared.options.quantum,
      stats: raw.stats,
    },
    micros,
  );
}

function fallbackSolution(packed: PackedProblem, reason: string, cells: number, incumbent?: Int32Array, frontier?: FrontierStats): RawSolution {
  return {
    status: 'fallback',
    reason,
    node: unpackNodes(packed, spreadTies(packed, incumbent ?? heuristicPlan(packed))),
    stats: { ...trivialStats(packed), path: 'bfd', cells, ...(frontier !== undefined ? { frontier } : {}) },
  };
}

/** A labelled heuristic plan (never worse than BFD) for a prepared problem, e.g. when the worker that held it crashed. */
export function fallbackPlan(prepared: Prepared, reason: string): Plan {
  const t0 = performance.now();
  const raw =
    sessionsKept(prepared.packed) === 0 ? trivialSolution(prepared.packed) : fallbackSolution(prepared.packed, reason, 0);
  return finishPlan(prepared, raw, elapsedMicros(t0));
}

/** A count for a message: exact when finite, else past the double range. */
function formatCount(x: number): string {
  return Number.isFinite(x) ? String(x) : 'more than 1.8e308';
}

function trivialSolution(packed: PackedProblem): RawSolution {
  return { status: 'optimal', node: new Int32Array(packed.sessionCount).fill(-1), stats: trivialStats(packed) };
}

function deadlineReason(options: ResolvedSolveOptions, done: number, n: number): string {
  return `deadline exceeded: ${options.deadlineMs} ms passed after ${done} of ${n} sessions of the DP`;
}

/** Sessions per step: everything at once without a deadline, else about CHUNK_CELLS cells. */
function chunkSessions(packed: PackedProblem, options: ResolvedSolveOptions): number {
  const n = sessionsKept(packed);
  if (options.deadlineMs === Number.POSITIVE_INFINITY) return n;
  return Math.max(1, Math.floor(CHUNK_CELLS / packed.states));
}

/** One solve's context: what every path needs, and what an earlier abandoned path left behind. */
interface Attempt {
  readonly kernel: TaoKernel;
  readonly packed: PackedProblem;
  readonly options: ResolvedSolveOptions;
  readonly startedAt: number;
  /** The heuristic plan, once computed: the fallback, and the frontier's incumbent. */
  incumbent?: Int32Array;
  /** Work units an abandoned frontier spent before the path that finishes. */
  priorWork: number;
  /** The abandoned frontier's counters. */
  frontier?: FrontierStats;
}

function fail(a: Attempt, reason: string, cells: number, frontier: FrontierStats | undefined = a.frontier): RawSolution {
  return fallbackSolution(a.packed, reason, a.priorWork + cells, a.incumbent, frontier);
}

function solved(a: Attempt, node: Int32Array, path: SolvePath, cells: number, frontier: FrontierStats | undefined = a.frontier): RawSolution {
  return {
    status: 'optimal',
    node: unpackNodes(a.packed, spreadTies(a.packed, node)),
    stats: { ...trivialStats(a.packed), path, cells: a.priorWork + cells, ...(frontier !== undefined ? { frontier } : {}) },
  };
}

function runDense(a: Attempt): RawSolution {
  const { kernel, packed, options } = a;
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const S = packed.states;
  const bytes = kernel.bytesNeeded(n, m, S);
  if (bytes > MEMORY_CAP_BYTES) {
    return fail(a, `memory cap exceeded: the dense DP needs ${bytes} bytes > ${MEMORY_CAP_BYTES}`, 0);
  }
  const radix = Array.from(packed.capacity, (c) => c + 1);
  if (!kernel.load(radix, packed.qweight, packed.key)) {
    return fail(a, `memory cap exceeded: WASM memory could not grow to ${bytes} bytes`, 0);
  }
  const chunk = chunkSessions(packed, options);
  for (let j = 0; j < n; j += chunk) {
    if (performance.now() - a.startedAt > options.deadlineMs) return fail(a, deadlineReason(options, j, n), j * S);
    kernel.step(j, Math.min(n, j + chunk));
  }
  return solved(a, kernel.finish().node, 'dense', packed.cells);
}

function runWide(a: Attempt): RawSolution {
  const { packed, options } = a;
  const n = sessionsKept(packed);
  const S = packed.states;
  const bytes = wideBytes(n, S);
  if (bytes > MEMORY_CAP_BYTES) {
    return fail(a, `memory cap exceeded: the dense-wide DP needs ${bytes} bytes > ${MEMORY_CAP_BYTES}`, 0);
  }
  const run = startReference(packed);
  const chunk = chunkSessions(packed, options);
  while (run.done < n) {
    if (performance.now() - a.startedAt > options.deadlineMs) return fail(a, deadlineReason(options, run.done, n), run.done * S);
    run.step(run.done + chunk);
  }
  return solved(a, run.finish(), 'dense-wide', packed.cells);
}

/** The dense DP within the state budget (packed key: WASM; else the TypeScript planes), or a labelled fallback. */
function runDenseWithinBudget(a: Attempt): RawSolution {
  const { packed, options } = a;
  if (packed.cells > options.stateBudget) {
    const n = sessionsKept(packed);
    const reason =
      `state budget exceeded: ${formatCount(packed.cells)} cells (${n} sessions x ${formatCount(packed.states)} states) > ` +
      `stateBudget ${options.stateBudget}`;
    return fail(a, reason, 0);
  }
  return packed.keyFits ? runDense(a) : runWide(a);
}

/** The frontier passed its work cap: the caller may try the dense DP. */
interface Abandoned {
  readonly abandoned: true;
  readonly work: number;
  readonly layers: number;
  readonly frontier: FrontierStats;
}

function frontierStats(c: FrontierKernelCounters | FrontierReference['counters'], outcome: FrontierStats['outcome'], classes: number): FrontierStats {
  return {
    outcome,
    layers: c.layers,
    generated: c.generated,
    kept: c.kept,
    maxLayer: c.maxLayer,
    prunedBound: c.prunedBound,
    prunedDominance: c.prunedDominance,
    comparisons: c.comparisons,
    nodeClasses: classes,
  };
}

/** Bytes the TypeScript frontier holds for `kept` history entries and `layer` live states over m slots (an estimate from above). */
function wideFrontierBytes(kept: number, layer: number, m: number): number {
  return kept * 16 + layer * (m * 8 + 96);
}

/**
 * Runs a frontier (WASM when the packed key fits, else the TypeScript reference with BigInt keys) with
 * at most `cap` work units, checking the deadline between steps.
 */
function runFrontier(a: Attempt, setup: FrontierSetup, cap: number): RawSolution | Abandoned {
  const { kernel, packed, options } = a;
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const incumbent = a.incumbent!;
  const wide = !packed.keyFits;
  const path: SolvePath = wide ? 'frontier-wide' : 'frontier';
  const chunk = wide || options.deadlineMs !== Number.POSITIVE_INFINITY ? CHUNK_WORK : Number.POSITIVE_INFINITY;

  let reference: FrontierReference | undefined;
  let status: number;
  if (wide) {
    reference = new FrontierReference(packed, setup);
    status = reference.step(0) === 'incumbent' ? FRONTIER_INCUMBENT : FRONTIER_PAUSED;
  } else {
    status = kernel.frontierStart(frontierInput(packed, setup, incumbent));
  }
  const counters = (): FrontierKernelCounters =>
    reference !== undefined ? { ...reference.counters, work: reference.work } : kernel.frontierCounters();
  const stats = (outcome: FrontierStats['outcome']): FrontierStats => frontierStats(counters(), outcome, setup.classes);
  const memoryReason = (): string =>
    `memory cap exceeded: the ${path} DP could not hold its states within ${MEMORY_CAP_BYTES} bytes after ${counters().layers} of ${n} sessions`;

  if (status === FRONTIER_MEMORY) return fail(a, memoryReason(), counters().work, stats('abandoned'));
  if (status === FRONTIER_INCUMBENT) return solved(a, incumbent, 'bound', 0, stats('solved'));
  for (;;) {
    const c = counters();
    if (performance.now() - a.startedAt > options.deadlineMs) {
      return fail(a, deadlineReason(options, c.layers, n), c.work, stats('abandoned'));
    }
    if (c.work >= cap) return { abandoned: true, work: c.work, layers: c.layers, frontier: stats('abandoned') };
    if (reference !== undefined && wideFrontierBytes(c.kept, c.maxLayer * 2, m) > MEMORY_CAP_BYTES) {
      return fail(a, memoryReason(), c.work, stats('abandoned'));
    }
    const quota = Math.min(chunk, cap - c.work);
    if (reference !== undefined) {
      status = reference.step(quota) === 'done' ? FRONTIER_DONE : FRONTIER_PAUSED;
    } else {
      status = kernel.frontierStep(quota);
    }
    if (status === FRONTIER_DONE) break;
    if (status === FRONTIER_MEMORY) return fail(a, memoryReason(), counters().work, stats('abandoned'));
    if (status !== FRONTIER_PAUSED) throw new SolverTrapError(`frontier DP stopped with status ${status} after ${counters().layers} of ${n} sessions`);
  }
  const work = counters().work;
  const node = reference !== undefined ? slotsToNodes(setup, reference.finish()) : kernel.frontierFinish().node;
  return solved(a, node, path, work, stats('solved'));
}

function frontierBudgetReason(a: Attempt, r: Abandoned, withDense: boolean): string {
  const n = sessionsKept(a.packed);
  const dense = withDense
    ? `; the dense DP would need ${formatCount(a.packed.cells)} cells (${n} sessions x ${formatCount(a.packed.states)} states)`
    : '';
  return `state budget exceeded: the frontier DP passed stateBudget ${a.options.stateBudget} units of work after ${r.layers} of ${n} sessions${dense}`;
}

/**
 * The decision on a packed problem: trivial when nothing fits, else the paths of the module comment
 * under the option `path`, each bounded by the state budget, the memory cap and the deadline.
 */
function decide(
  kernel: TaoKernel,
  packed: PackedProblem,
  options: ResolvedSolveOptions,
  startedAt: number,
): RawSolution {
  const n = sessionsKept(packed);
  if (n === 0) return trivialSolution(packed);
  const a: Attempt = { kernel, packed, options, startedAt, priorWork: 0 };
  if (options.path === 'dense') return runDenseWithinBudget(a);

  const best = bestCredits(packed);
  if (options.path === 'auto') {
    const fits = bestNodesPlan(packed, best);
    if (fits !== null) return solved(a, fits, 'best-nodes', 0);
    if (packed.cells <= DENSE_FIRST_CELLS && packed.cells <= options.stateBudget) return runDenseWithinBudget(a);
  }
  a.incumbent = heuristicPlan(packed, best);
  if (!frontierApplies(packed)) {
    if (options.path === 'auto') return runDenseWithinBudget(a);
    return fail(a, `the frontier DP cannot represent a node capacity above 2^31 - 1 quanta`, 0);
  }
  const denseFits = packed.cells <= options.stateBudget;
  const cap =
    options.path === 'frontier' || !denseFits
      ? options.stateBudget
      : Math.min(options.stateBudget, Math.max(FRONTIER_MIN_WORK, packed.cells * FRONTIER_CELL_RATIO));
  const r = runFrontier(a, frontierSetup(packed, a.incumbent), cap);
  if (!('abandoned' in r)) return r;
  if (options.path === 'auto' && denseFits) {
    a.priorWork = r.work;
    a.frontier = r.frontier;
    return runDenseWithinBudget(a);
  }
  return fail(a, frontierBudgetReason(a, r, options.path === 'auto'), r.work, r.frontier);
}

class WasmSolver implements Solver {
  #kernel: TaoKernel | null;

  constructor(kernel: TaoKernel) {
    this.#kernel = kernel;
  }

  #live(): TaoKernel {
    if (this.#kernel === null) throw new ClosedError('solver is closed');
    return this.#kernel;
  }

  solve(problem: Problem, options?: SolveOptions): Plan {
    const kernel = this.#live();
    const t0 = performance.now();
    const prepared = prepare(problem, options);
    const raw = decide(kernel, prepared.packed, prepared.options, t0);
    return finishPlan(prepared, raw, elapsedMicros(t0));
  }

  runPacked(packed: PackedProblem, options: ResolvedSolveOptions, startedAt?: number): RawSolution {
    const kernel = this.#live();
    return decide(kernel, packed, options, startedAt ?? performance.now());
  }

  memoryBytes(): number {
    return this.#live().memoryBytes();
  }

  close(): void {
    this.#kernel?.close();
    this.#kernel = null;
  }
}

/** Compiles the WASM (once per thread) and instantiates a solver. */
export async function loadSolver(options?: LoadSolverOptions): Promise<Solver> {
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) {
    throw new InvalidTypeError('options must be an object');
  }
  const build = options?.build ?? 'release';
  if (build !== 'release' && build !== 'debug') {
    throw new InvalidValueError('options.build must be "release" or "debug"');
  }
  return new WasmSolver(await TaoKernel.create(build));
}
