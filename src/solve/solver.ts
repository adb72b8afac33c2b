/**
 * The solver: validation -> options -> packing -> the stages of src/solve/pipeline/stages.ts -> Plan. The
 * work is split so a worker pool can run the middle part off-thread: `prepare` (pure TS) on the caller's
 * thread, `runPacked` in the worker (structured-cloneable in and out), `finishPlan` back on the caller's
 * thread.
 */
import { recordAt, rejectUnknownKeys } from '../checks.js';
import { ClosedError, InvalidTypeError, InvalidValueError } from '../errors.js';
import type { Plan, Problem } from '../types.js';
import { resolveSolveOptions, type ResolvedSolveOptions, type SolveOptions } from './options.js';
import { sessionsKept, type PackedProblem } from './pack.js';
import { SolveBudget } from './pipeline/budget.js';
import { fallbackSolution } from './pipeline/context.js';
import { decide } from './pipeline/stages.js';
import { SolveScratch } from './scratch.js';
import { elapsedMicros } from './plan.js';
import { finishPlan, prepare, trivialSolution, type Prepared, type RawSolution } from './prepared.js';
import { WasmKernels } from './dp/kernels.js';
import type { WasmBuild, WasmSource } from './wasm/abi.js';
import { WARM_UP_ROUNDS, warmUpProblems } from './warm-up.js';

export { checkPrepared, finishPlan, prepare, type Prepared, type RawSolution } from './prepared.js';

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
  /**
   * Solve a fixed set of small tick-shaped problems a few times before returning (tens of milliseconds),
   * so that the first real solves do not pay for compiling the solver's code: a cold process otherwise
   * has millisecond tails over its first few hundred solves.
   * @default false
   */
  warmUp?: boolean;
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

/** A labelled heuristic plan (never worse than BFD) for a prepared problem, e.g. when the worker that held it crashed. */
export function fallbackPlan(prepared: Prepared, reason: string): Plan {
  const t0 = performance.now();
  const raw =
    sessionsKept(prepared.packed) === 0
      ? trivialSolution(prepared.packed)
      : fallbackSolution(prepared.packed, reason, SolveBudget.of(prepared.options, t0, undefined));
  return finishPlan(prepared, raw, elapsedMicros(t0));
}

class WasmSolver implements Solver {
  #kernels: WasmKernels | null;
  /** The working arrays of this solver's solves (one at a time). */
  readonly #scratch = new SolveScratch();

  constructor(kernels: WasmKernels) {
    this.#kernels = kernels;
  }

  #live(): WasmKernels {
    if (this.#kernels === null) throw new ClosedError('solver is closed');
    return this.#kernels;
  }

  solve(problem: Problem, options?: SolveOptions): Plan {
    const kernels = this.#live();
    const t0 = performance.now();
    const scratch = this.#scratch;
    // The packed problem lives only through this call: its arrays reuse the scratch's buffer.
    const prepared = prepare(problem, options, scratch, true);
    const raw = decide({
      kernels,
      packed: prepared.packed,
      options: prepared.options,
      budget: SolveBudget.of(prepared.options, t0, undefined),
      scratch,
    });
    return finishPlan(prepared, raw, elapsedMicros(t0), scratch.plan);
  }

  runPacked(packed: PackedProblem, options: ResolvedSolveOptions, startedAt?: number, stop?: Int32Array): RawSolution {
    const kernels = this.#live();
    const t0 = startedAt ?? performance.now();
    if (stop !== undefined && !(stop instanceof Int32Array && stop.length >= 1))
      throw new InvalidTypeError('stop must be an Int32Array');
    const resolved = resolveSolveOptions(options, 'options');
    return decide({
      kernels,
      packed,
      options: resolved,
      budget: SolveBudget.of(resolved, t0, stop),
      scratch: this.#scratch,
    });
  }

  memoryBytes(): number {
    return this.#live().instance.memoryBytes();
  }

  close(): void {
    this.#kernels?.close();
    this.#kernels = null;
  }
}

// A record over the interface's keys, so a new option cannot be left out of the check.
const LOAD_SOLVER_KEYS: ReadonlySet<string> = new Set(
  Object.keys({ build: true, wasm: true, warmUp: true } satisfies Record<keyof LoadSolverOptions, true>),
);

/** Compiles the WASM (once per thread) and instantiates a solver. */
export async function loadSolver(options?: LoadSolverOptions): Promise<Solver> {
  if (options !== undefined) rejectUnknownKeys(recordAt(options, 'options'), LOAD_SOLVER_KEYS, 'options', 'option');
  const build = options?.build ?? 'release';
  if (build !== 'release' && build !== 'debug') {
    throw new InvalidValueError('options.build must be "release" or "debug"');
  }
  const warmUp = options?.warmUp ?? false;
  if (typeof warmUp !== 'boolean') throw new InvalidTypeError('options.warmUp must be a boolean');
  const wasm = options?.wasm;
  let solver: Solver;
  if (wasm === undefined) solver = new WasmSolver(await WasmKernels.create(build));
  else {
    if (!(wasm instanceof ArrayBuffer || wasm instanceof Uint8Array || wasm instanceof URL)) {
      throw new InvalidTypeError('options.wasm must be an ArrayBuffer, a Uint8Array or a URL');
    }
    if (options?.build !== undefined) throw new InvalidValueError('options.build and options.wasm exclude each other');
    solver = new WasmSolver(await WasmKernels.create(build, wasm, 'options.wasm'));
  }
  if (warmUp) {
    const problems = warmUpProblems();
    for (let r = 0; r < WARM_UP_ROUNDS; r++) for (const problem of problems) solver.solve(problem);
  }
  return solver;
}
