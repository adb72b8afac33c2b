/**
 * The DP driver: validation -> options -> packing -> (trivial | budget fallback | WASM dense |
 * TS dense-wide) -> Plan. The work is split so a worker pool can run the middle part off-thread:
 * `prepare` (pure TS) on the caller's thread, `runPacked` in the worker (structured-cloneable in and
 * out), `finishPlan` back on the caller's thread.
 */
import { bfdPacked } from './bfd.js';
import { ClosedError, InvalidTypeError, InvalidValueError } from './errors.js';
import { MEMORY_CAP_BYTES } from './limits.js';
import { resolveSolveOptions, type ResolvedSolveOptions, type SolveOptions } from './options.js';
import { nodesKept, packProblem, sessionsKept, unpackNodes, type PackedProblem } from './pack.js';
import { buildPlan, elapsedMicros, trivialStats, type RawStats } from './plan.js';
import { startReference, wideBytes } from './reference.js';
import type { Plan, Problem } from './types.js';
import { validateProblem, type IndexedProblem } from './validate.js';
import { TaoKernel, type WasmBuild } from './wasm.js';

/** DP cells per chunk between deadline checks (~0.1-1 ms of work). Only used when a deadline is set. */
const CHUNK_CELLS = 1 << 18;

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

function bfdSolution(packed: PackedProblem, reason: string, cells: number): RawSolution {
  return {
    status: 'fallback',
    reason,
    node: unpackNodes(packed, bfdPacked(packed)),
    stats: { ...trivialStats(packed), path: 'bfd', cells },
  };
}

/** A labelled BFD plan for a prepared problem (e.g. when the worker that held it crashed). */
export function fallbackPlan(prepared: Prepared, reason: string): Plan {
  const t0 = performance.now();
  const raw =
    sessionsKept(prepared.packed) === 0 ? trivialSolution(prepared.packed) : bfdSolution(prepared.packed, reason, 0);
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

function runDense(
  kernel: TaoKernel,
  packed: PackedProblem,
  options: ResolvedSolveOptions,
  startedAt: number,
): RawSolution {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const S = packed.states;
  const bytes = kernel.bytesNeeded(n, m, S);
  if (bytes > MEMORY_CAP_BYTES) {
    return bfdSolution(packed, `memory cap exceeded: the dense DP needs ${bytes} bytes > ${MEMORY_CAP_BYTES}`, 0);
  }
  const radix = Array.from(packed.capacity, (c) => c + 1);
  if (!kernel.load(radix, packed.qweight, packed.key)) {
    return bfdSolution(packed, `memory cap exceeded: WASM memory could not grow to ${bytes} bytes`, 0);
  }
  const chunk = chunkSessions(packed, options);
  for (let j = 0; j < n; j += chunk) {
    if (performance.now() - startedAt > options.deadlineMs) {
      return bfdSolution(packed, deadlineReason(options, j, n), j * S);
    }
    kernel.step(j, Math.min(n, j + chunk));
  }
  const { node } = kernel.finish();
  return {
    status: 'optimal',
    node: unpackNodes(packed, node),
    stats: { ...trivialStats(packed), path: 'dense', cells: packed.cells },
  };
}

function runWide(packed: PackedProblem, options: ResolvedSolveOptions, startedAt: number): RawSolution {
  const n = sessionsKept(packed);
  const S = packed.states;
  const bytes = wideBytes(n, S);
  if (bytes > MEMORY_CAP_BYTES) {
    return bfdSolution(packed, `memory cap exceeded: the dense-wide DP needs ${bytes} bytes > ${MEMORY_CAP_BYTES}`, 0);
  }
  const run = startReference(packed);
  const chunk = chunkSessions(packed, options);
  while (run.done < n) {
    if (performance.now() - startedAt > options.deadlineMs) {
      return bfdSolution(packed, deadlineReason(options, run.done, n), run.done * S);
    }
    run.step(run.done + chunk);
  }
  return {
    status: 'optimal',
    node: unpackNodes(packed, run.finish()),
    stats: { ...trivialStats(packed), path: 'dense-wide', cells: packed.cells },
  };
}

/**
 * The decision on a packed problem: trivial when nothing fits, BFD fallback when the DP would exceed
 * the state budget or the memory cap or misses the deadline, else the exact dense DP (WASM when the
 * packed key fits, TypeScript planes otherwise).
 */
function decide(
  kernel: TaoKernel,
  packed: PackedProblem,
  options: ResolvedSolveOptions,
  startedAt: number,
): RawSolution {
  const n = sessionsKept(packed);
  if (n === 0) return trivialSolution(packed);
  if (packed.cells > options.stateBudget) {
    const reason =
      `state budget exceeded: ${formatCount(packed.cells)} cells (${n} sessions x ${formatCount(packed.states)} states) > ` +
      `stateBudget ${options.stateBudget}`;
    return bfdSolution(packed, reason, 0);
  }
  return packed.keyFits ? runDense(kernel, packed, options, startedAt) : runWide(packed, options, startedAt);
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
