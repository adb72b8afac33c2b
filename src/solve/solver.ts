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
 * 3a. `multiple-knapsack`: past DENSE_FIRST_CELLS cells, when the credit level does not decide the tick
 *    and no kept session's value depends on the node: the bound-and-bound search of src/solve/mkp/search.ts.
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
import { recordAt, rejectUnknownKeys } from '../checks.js';
import { ClosedError, InvalidTypeError, InvalidValueError, SolverTrapError } from '../errors.js';
import { DpStatus, type DpCounters, type DpEngine, type FrontierCounters } from './engine.js';
import { frontierApplies, frontierSetup, type FrontierSetup } from './frontier.js';
import { creditDecision, type CreditDecision } from './credit-branch.js';
import { creditLevel, creditReduction, solverIncumbent, type CreditLevel } from './credit-level.js';
import { bestNodesPlan, fallbackPath, lexBetter, planTriple, type HeuristicResult } from './incumbent.js';
import { MEMORY_CAP_BYTES } from '../limits.js';
import { resolveSolveOptions, type ResolvedSolveOptions, type SolveOptions } from './options.js';
import { bfdPacked } from './bfd.js';
import { bestCredits, nodesKept, sessionsKept, unpackNodes, type PackedProblem } from './pack.js';
import { elapsedMicros, pathStats } from './plan.js';
import { finishPlan, prepare, trivialSolution, type Prepared, type RawSolution } from './prepared.js';
import { denseTwin } from './ts/dense.js';
import { WorkMeter } from './mkp/meter.js';
import { searchMultipleKnapsack } from './mkp/search.js';
import { nodeIndependentValues } from './mkp/values.js';
import { FrontierTwin } from './ts/frontier.js';
import { spreadTies } from './ties.js';
import type { FrontierStats, MultipleKnapsackStats, Plan, Problem, SolvePath } from '../types.js';
import { denseWasm, frontierWasm } from './wasm-engines.js';
import { TaoKernel, type WasmBuild, type WasmSource } from './wasm.js';

export { checkPrepared, finishPlan, prepare, type Prepared, type RawSolution } from './prepared.js';

/** DP cells per chunk between deadline checks (~0.1-1 ms of work). Only used when a deadline is set. */
const CHUNK_CELLS = 1 << 18;

/** Frontier work units per step between deadline checks (~0.1-0.5 ms). Only used when a deadline is set. */
const CHUNK_WORK = 1 << 17;
/** The smallest frontier step, however many nodes (each step has a fixed cost at the WASM boundary). */
const CHUNK_WORK_MIN = 1 << 11;

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

/** How to load a solver. */
export interface LoadSolverOptions {
  /**
   * Which WASM build to run: `release` (optimized, unchecked) or `debug` (unoptimized, with the ABI's
   * argument assertions).
   * @default 'release'
   */
  build?: WasmBuild;
  /**
   * The module itself instead of a bundled build: its bytes (ArrayBuffer or Uint8Array), or a URL to
   * read them from (`file:`, `http:`, `https:`, `data:`), e.g. where the package's files are not on disk.
   * It must be this version's `build/tao.wasm` (or `tao.debug.wasm`); excludes `build`.
   */
  wasm?: WasmSource;
}

/** An in-thread solver over one WASM instance. */
export interface Solver {
  /** Solves synchronously on the calling thread. Throws only for invalid input, a trap, or use after close. */
  solve(problem: Problem, options?: SolveOptions): Plan;
  /**
   * Runs the decision part on an already prepared problem (the pool's worker entry). The deadline is
   * measured from `startedAt` (a `performance.now()` reading of this thread), by default from the call.
   * `stop`, when given, is read between phases and between DP steps: once its element 0 is non-zero
   * (another thread sets it with `Atomics.store`), the solve ends with a labelled fallback plan. Throws
   * InvalidValueError for options outside their limits.
   */
  runPacked(packed: PackedProblem, options: ResolvedSolveOptions, startedAt?: number, stop?: Int32Array): RawSolution;
  /** Bytes of WASM linear memory the instance holds now (never above MEMORY_CAP_BYTES). */
  memoryBytes(): number;
  /** Releases the instance; later calls throw ClosedError. */
  close(): void;
}

function fallbackSolution(packed: PackedProblem, reason: string, work: number, incumbent?: HeuristicResult, frontier?: FrontierStats): RawSolution {
  const { node, heuristic } = incumbent ?? solverIncumbent(packed);
  const stats = pathStats(packed, fallbackPath(heuristic), work);
  stats.heuristic = heuristic;
  if (frontier !== undefined) stats.frontier = frontier;
  return { status: 'fallback', reason, node: unpackNodes(packed, spreadTies(packed, node)), stats };
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

function deadlineReason(options: ResolvedSolveOptions, done: number, n: number): string {
  return `deadline exceeded: ${options.deadlineMs} ms passed after ${done} of ${n} sessions of the DP`;
}

/** Why the attempt must stop now (its deadline passed, or its stop flag is set), or undefined. */
function halted(a: Attempt, done: number): string | undefined {
  if (a.stop !== undefined && Atomics.load(a.stop, 0) !== 0) return `stopped: the solve was aborted after ${done} of ${sessionsKept(a.packed)} sessions of the DP`;
  if (performance.now() - a.startedAt > a.options.deadlineMs) return deadlineReason(a.options, done, sessionsKept(a.packed));
  return undefined;
}

/** One solve's context: what every path needs, and what an earlier abandoned path left behind. */
interface Attempt {
  readonly kernel: TaoKernel;
  readonly packed: PackedProblem;
  readonly options: ResolvedSolveOptions;
  readonly startedAt: number;
  /** The stop flag (see Solver.runPacked), if any. */
  readonly stop: Int32Array | undefined;
  /** The heuristic plan, once computed: the fallback, and the frontier's incumbent. */
  incumbent?: HeuristicResult;
  /** Work units an abandoned frontier spent before the path that finishes. */
  priorWork: number;
  /** The abandoned frontier's counters. */
  frontier?: FrontierStats;
  /** The credit level, when computed. */
  level?: CreditLevel;
  /** The counters of an abandoned multiple-knapsack search. */
  multipleKnapsack?: MultipleKnapsackStats;
}

/** The labelled fallback plan of an attempt that stopped after `work` units of work. */
function fallbackOf(a: Attempt, reason: string, work: number, frontier: FrontierStats | undefined = a.frontier): RawSolution {
  return withLevel(a, fallbackSolution(a.packed, reason, a.priorWork + work, a.incumbent, frontier));
}

function withLevel(a: Attempt, r: RawSolution): RawSolution {
  if (a.level !== undefined) r.stats.creditLevel = levelStats(a.level, 0);
  if (a.multipleKnapsack !== undefined) r.stats.multipleKnapsack = a.multipleKnapsack;
  return r;
}

/**
 * The fallback of an attempt halted before its DP started: the heuristic plan if it is computed, else
 * BFD alone (the cheapest plan the fallback promises, as time is already up).
 */
function haltedBeforeDp(a: Attempt, reason: string): RawSolution {
  a.incumbent ??= { node: bfdPacked(a.packed), heuristic: 'bfd' };
  return fallbackOf(a, reason, 0);
}

function solved(a: Attempt, node: Int32Array, path: SolvePath, work: number, frontier: FrontierStats | undefined = a.frontier): RawSolution {
  const stats = pathStats(a.packed, path, a.priorWork + work);
  if (frontier !== undefined) stats.frontier = frontier;
  return withLevel(a, { status: 'optimal', node: unpackNodes(a.packed, spreadTies(a.packed, node)), stats });
}

/** The run passed its work cap: the caller may try the dense DP. */
interface Abandoned {
  readonly abandoned: true;
  readonly work: number;
  readonly layers: number;
  readonly frontier: FrontierStats;
}

/** How one engine run is driven and reported. */
interface Drive<C extends DpCounters> {
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
function drive<C extends DpCounters>(a: Attempt, engine: DpEngine<C>, d: Drive<C>): RawSolution | Abandoned {
  const n = sessionsKept(a.packed);
  const deadlineMs = a.options.deadlineMs;
  const chunk = engine.boundedSteps || a.stop !== undefined || deadlineMs !== Number.POSITIVE_INFINITY ? d.chunk : Number.POSITIVE_INFINITY;
  let status = engine.start();
  if (status === DpStatus.incumbent) return solved(a, engine.finish(), 'bound', 0, d.stats(engine.counters(), 'solved'));
  while (status !== DpStatus.done) {
    if (status === DpStatus.memory) {
      const c = engine.counters();
      return fallbackOf(a, d.memoryReason(c), c.work, d.stats(c, 'abandoned'));
    }
    if (status !== DpStatus.paused) {
      throw new SolverTrapError(`${engine.path} DP stopped with status ${status} after ${engine.counters().layers} of ${n} sessions`);
    }
    const c = engine.counters();
    const why = halted(a, c.layers);
    if (why !== undefined) return fallbackOf(a, why, c.work, d.stats(c, 'abandoned'));
    if (c.work >= d.cap) return { abandoned: true, work: c.work, layers: c.layers, frontier: d.stats(c, 'abandoned')! };
    status = engine.step(Math.min(chunk, d.cap - c.work));
  }
  const c = engine.counters();
  return solved(a, engine.finish(), engine.path, c.work, d.stats(c, 'solved'));
}

/** The dense DP within the state budget (packed key: WASM; else the TypeScript planes), or a labelled fallback. */
function runDense(a: Attempt): RawSolution {
  const { packed, options } = a;
  const n = sessionsKept(packed);
  if (packed.cells > options.stateBudget) {
    const reason =
      `state budget exceeded: ${formatCount(packed.cells)} cells (${n} sessions x ${formatCount(packed.states)} states) > ` +
      `stateBudget ${options.stateBudget}`;
    return fallbackOf(a, reason, 0);
  }
  const engine = packed.keyFits ? denseWasm(a.kernel, packed) : denseTwin(packed);
  if (engine.bytes > MEMORY_CAP_BYTES) {
    return fallbackOf(a, `memory cap exceeded: the ${engine.path} DP needs ${engine.bytes} bytes > ${MEMORY_CAP_BYTES}`, 0);
  }
  const r = drive(a, engine, {
    cap: Number.POSITIVE_INFINITY,
    chunk: CHUNK_CELLS,
    memoryReason: () => `memory cap exceeded: WASM memory could not grow to ${engine.bytes} bytes`,
    stats: () => a.frontier,
  });
  // The dense DP has no cap, so it is never abandoned.
  return r as RawSolution;
}

function frontierStats(c: FrontierCounters, outcome: FrontierStats['outcome'], classes: number): FrontierStats {
  const { work: _, ...counters } = c;
  return { outcome, ...counters, nodeClasses: classes };
}

/**
 * A frontier state holds one usage per kept node, so a frontier unit of work (a child generated, a
 * dominance test) costs more the more nodes there are: measured on this package's development machine,
 * ~3-10 ns up to 16 nodes and ~12-25 ns at 32 to 64 nodes (docs/threat-model.md). Above this many kept
 * nodes each raw unit counts as ceil(m / FRONTIER_WEIGHT_NODES) units against the state budget and in
 * `PlanStats.work`, so that one budget bounds about the same time at every size.
 */
export const FRONTIER_WEIGHT_NODES = 16;

/** Units of work one raw frontier unit counts for at m kept nodes. */
export function frontierUnitWeight(m: number): number {
  return Math.max(1, Math.ceil(m / FRONTIER_WEIGHT_NODES));
}

/** The engine with its work counted `weight` times: quotas are divided, the work counter multiplied. */
function weighted<C extends DpCounters>(engine: DpEngine<C>, weight: number): DpEngine<C> {
  if (weight === 1) return engine;
  return {
    path: engine.path,
    boundedSteps: engine.boundedSteps,
    start: () => engine.start(),
    step: (quota) => engine.step(Math.max(1, Math.ceil(quota / weight))),
    counters: () => {
      const c = engine.counters();
      return { ...c, work: c.work * weight };
    },
    finish: () => engine.finish(),
  };
}

/**
 * Runs a frontier (WASM when the packed key fits, else the TypeScript twin with BigInt keys) with at
 * most `cap` work units.
 */
function runFrontier(a: Attempt, setup: FrontierSetup, cap: number): RawSolution | Abandoned {
  const { packed } = a;
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const raw = packed.keyFits ? frontierWasm(a.kernel, packed, setup, a.incumbent!.node) : new FrontierTwin(packed, setup);
  const engine = weighted(raw, frontierUnitWeight(m));
  return drive(a, engine, {
    cap,
    // Steps shrink with the node count too, so the deadline checks stay about as far apart in time.
    chunk: Math.max(CHUNK_WORK_MIN, Math.floor(CHUNK_WORK / Math.max(1, m / 4))),
    memoryReason: (c) =>
      `memory cap exceeded: the ${engine.path} DP could not hold its states within ${MEMORY_CAP_BYTES} bytes after ${c.layers} of ${n} sessions`,
    stats: (c, outcome) => frontierStats(c, outcome, setup.classes),
  });
}

function frontierBudgetReason(a: Attempt, r: Abandoned, withDense: boolean): string {
  const n = sessionsKept(a.packed);
  const dense = withDense
    ? `; the dense DP would need ${formatCount(a.packed.cells)} cells (${n} sessions x ${formatCount(a.packed.states)} states)`
    : '';
  return `state budget exceeded: the frontier DP passed stateBudget ${a.options.stateBudget} units of work after ${r.layers} of ${n} sessions${dense}`;
}

function levelStats(level: CreditLevel, fixed: number, decision?: CreditDecision, remainderPath?: SolvePath): NonNullable<RawSolution['stats']['creditLevel']> {
  return {
    bound: level.bound,
    decided: level.decided,
    fixed,
    states: level.states + (decision?.states ?? 0),
    ...(decision !== undefined ? { branchNodes: decision.branchNodes, leaves: decision.leaves.length } : {}),
    ...(remainderPath !== undefined ? { remainderPath } : {}),
  };
}

/**
 * The credit level decided (at the root: src/solve/credit-level.ts; by branching:
 * src/solve/credit-branch.ts): per leaf of optimal credit, its fixed sets plus its credit-free
 * remainder's decision (the same paths, the state budget the earlier leaves left, the deadline and the
 * stop flag), and the lexicographically best of them (ties: the earlier leaf). A remainder that falls back ends
 * the search with a fallback: the better of the best leaf plan so far (fixed sets plus the remainder's
 * plan, a credit decomposition) and the whole problem's heuristic plan.
 */
function solveReduced(a: Attempt, level: CreditLevel, decision: CreditDecision): RawSolution {
  const { packed, options } = a;
  let best: { node: Int32Array; value: [number, number, number]; fixed: number; path: SolvePath; frontier?: FrontierStats } | undefined;
  let work = 0;
  let reason: string | undefined;
  for (const leaf of decision.leaves) {
    const why = halted(a, 0);
    if (why !== undefined) {
      reason = why;
      break;
    }
    if (work >= options.stateBudget) {
      reason = `state budget exceeded: the remainders of ${decision.leaves.length} credit-optimal leaves passed stateBudget ${options.stateBudget} units of work`;
      break;
    }
    const r = creditReduction(packed, leaf, options);
    const sub = decide(a.kernel, r.remainder, { ...options, stateBudget: options.stateBudget - work }, a.startedAt, a.stop);
    work += sub.stats.work;
    const node = Int32Array.from(r.fixed);
    for (let j = 0; j < node.length; j++) if (sub.node[j]! >= 0) node[j] = sub.node[j]!;
    const value = planTriple(packed, node);
    if (best === undefined || lexBetter(value, best.value)) {
      best = { node, value, fixed: r.fixedCount, path: sub.stats.path, ...(sub.stats.frontier !== undefined ? { frontier: sub.stats.frontier } : {}) };
    }
    if (sub.status !== 'optimal') {
      reason = sub.reason;
      break;
    }
  }
  // A fallback names what produced it: the fixed credit sets plus a remainder's plan (a credit
  // decomposition), or the whole problem's incumbent when that is better.
  let fallback: HeuristicResult | undefined;
  let node = best?.node;
  if (reason !== undefined) {
    const h = solverIncumbent(packed, bestCredits(packed), level);
    fallback = best !== undefined && lexBetter(best.value, planTriple(packed, h.node)) ? { node: best.node, heuristic: 'credit-decomposition' } : h;
    node = fallback.node;
  }
  const stats = pathStats(packed, fallback === undefined ? 'credit-split' : fallbackPath(fallback.heuristic), work);
  if (fallback !== undefined) stats.heuristic = fallback.heuristic;
  if (best?.frontier !== undefined) stats.frontier = best.frontier;
  stats.creditLevel = levelStats(level, best?.fixed ?? 0, decision, best?.path);
  return {
    status: reason === undefined ? 'optimal' : 'fallback',
    ...(reason !== undefined ? { reason } : {}),
    node: unpackNodes(packed, spreadTies(packed, node!)),
    stats,
  };
}

/**
 * The multiple-knapsack path (src/solve/mkp/search.ts) when every kept session's value is the same on all
 * its candidate nodes, else null. When the dense DP is within the state budget the search gets the
 * frontier's share of its cost (FRONTIER_CELL_RATIO) and, past it, is abandoned for the other paths (null,
 * its work and counters kept on the attempt); otherwise past the state budget or the deadline the plan is
 * the labelled fallback, the better of the search's best plan and the heuristic plan.
 */
function runMultipleKnapsack(a: Attempt): RawSolution | null {
  const values = nodeIndependentValues(a.packed);
  if (values === null) return null;
  const budget = a.options.stateBudget;
  const denseFits = a.packed.cells <= budget;
  const cap = denseFits ? Math.min(budget, Math.max(FRONTIER_MIN_WORK, a.packed.cells * FRONTIER_CELL_RATIO)) : budget;
  const meter = new WorkMeter(cap, () => halted(a, 0), () => `state budget exceeded: the multiple-knapsack search passed stateBudget ${budget} units of work`);
  const out = searchMultipleKnapsack(a.packed, values, meter, a.kernel);
  if (!out.optimal && out.atBudget === true && denseFits) {
    a.priorWork = meter.work;
    a.multipleKnapsack = { outcome: 'abandoned', ...out.counters };
    return null;
  }
  let r: RawSolution;
  if (out.optimal) r = solved(a, out.node, 'multiple-knapsack', meter.work);
  else {
    const h = solverIncumbent(a.packed);
    a.incumbent = lexBetter(planTriple(a.packed, out.node), planTriple(a.packed, h.node)) ? { node: out.node, heuristic: 'surrogate-split' } : h;
    r = fallbackOf(a, out.reason!, meter.work);
  }
  r.stats.multipleKnapsack = { outcome: out.optimal ? 'solved' : 'stopped', ...out.counters };
  return r;
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
  stop?: Int32Array,
): RawSolution {
  const n = sessionsKept(packed);
  if (n === 0) return trivialSolution(packed);
  const a: Attempt = { kernel, packed, options, startedAt, stop, priorWork: 0 };
  // The deadline and the stop flag are checked between the phases before the DP too: each of them
  // costs milliseconds at 64 nodes x 4096 sessions.
  let why = halted(a, 0);
  if (why !== undefined) return haltedBeforeDp(a, why);
  if (options.path === 'dense') return runDense(a);

  const best = bestCredits(packed);
  if (options.path === 'auto') {
    const fits = bestNodesPlan(packed, best);
    if (fits !== null) return solved(a, fits, 'best-nodes', 0);
    if (packed.cells <= DENSE_FIRST_CELLS && packed.cells <= options.stateBudget) return runDense(a);
  }
  why = halted(a, 0);
  if (why !== undefined) return haltedBeforeDp(a, why);
  const level = creditLevel(packed);
  if (level !== null) {
    a.level = level;
    const decision = options.path === 'auto' && level.bound > 0 ? creditDecision(packed, level, () => halted(a, 0) !== undefined) : null;
    if (decision !== null) return solveReduced(a, level, decision);
  }
  if (options.path === 'auto') {
    // After the credit level: a tick it decides costs no search (measured on the steady-state ticks).
    const mkp = runMultipleKnapsack(a);
    if (mkp !== null) return mkp;
  }
  why = halted(a, 0);
  if (why !== undefined) return haltedBeforeDp(a, why);
  a.incumbent = solverIncumbent(packed, best, level, () => halted(a, 0) !== undefined);
  why = halted(a, 0);
  if (why !== undefined) return haltedBeforeDp(a, why);
  if (!frontierApplies(packed)) {
    if (options.path === 'auto') return runDense(a);
    return fallbackOf(a, `the frontier DP cannot represent a node capacity above 2^31 - 1 quanta`, 0);
  }
  const denseFits = packed.cells <= options.stateBudget;
  const cap =
    options.path === 'frontier' || !denseFits
      ? options.stateBudget
      : Math.min(options.stateBudget, Math.max(FRONTIER_MIN_WORK, packed.cells * FRONTIER_CELL_RATIO));
  const setup = frontierSetup(packed, a.incumbent.node);
  why = halted(a, 0);
  if (why !== undefined) return haltedBeforeDp(a, why);
  const r = runFrontier(a, setup, cap);
  if (!('abandoned' in r)) return r;
  if (options.path === 'auto' && denseFits) {
    a.priorWork += r.work;
    a.frontier = r.frontier;
    return runDense(a);
  }
  return fallbackOf(a, frontierBudgetReason(a, r, options.path === 'auto'), r.work, r.frontier);
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

  runPacked(packed: PackedProblem, options: ResolvedSolveOptions, startedAt?: number, stop?: Int32Array): RawSolution {
    const kernel = this.#live();
    const t0 = startedAt ?? performance.now();
    if (stop !== undefined && !(stop instanceof Int32Array && stop.length >= 1)) throw new InvalidTypeError('stop must be an Int32Array');
    return decide(kernel, packed, resolveSolveOptions(options, 'options'), t0, stop);
  }

  memoryBytes(): number {
    return this.#live().memoryBytes();
  }

  close(): void {
    this.#kernel?.close();
    this.#kernel = null;
  }
}

// A record over the interface's keys, so a new option cannot be left out of the check.
const LOAD_SOLVER_KEYS: ReadonlySet<string> = new Set(Object.keys({ build: true, wasm: true } satisfies Record<keyof LoadSolverOptions, true>));

/** Compiles the WASM (once per thread) and instantiates a solver. */
export async function loadSolver(options?: LoadSolverOptions): Promise<Solver> {
  if (options !== undefined) rejectUnknownKeys(recordAt(options, 'options'), LOAD_SOLVER_KEYS, 'options', 'option');
  const build = options?.build ?? 'release';
  if (build !== 'release' && build !== 'debug') {
    throw new InvalidValueError('options.build must be "release" or "debug"');
  }
  const wasm = options?.wasm;
  if (wasm === undefined) return new WasmSolver(await TaoKernel.create(build));
  if (!(wasm instanceof ArrayBuffer || wasm instanceof Uint8Array || wasm instanceof URL)) {
    throw new InvalidTypeError('options.wasm must be an ArrayBuffer, a Uint8Array or a URL');
  }
  if (options?.build !== undefined) throw new InvalidValueError('options.build and options.wasm exclude each other');
  return new WasmSolver(await TaoKernel.create(build, wasm, 'options.wasm'));
}
