/**
 * The messages between the pool (main thread) and its workers. Only typed arrays, numbers and strings
 * cross: the main thread validates and packs, the worker decides, the main thread builds the Plan.
 */
import type { ResolvedSolveOptions } from '../solve/options.js';
import type { PackedProblem } from '../solve/pack.js';
import type { RawSolution } from '../solve/solver.js';
import type { WasmBuild } from '../solve/wasm/abi.js';

/**
 * Bumped whenever a message shape below changes. Tests import the pool from `src/` but its workers run
 * `dist/pool/worker.js`; a stale build is reported by this number instead of failing in odd ways.
 */
export const POOL_PROTOCOL = 3;

/** What the pool passes to each worker at start (Piscina `workerData`). */
export interface PoolWorkerData {
  build: WasmBuild;
}

export type WorkerTask =
  /** Answers with the worker's identity once its solver is loaded: warm-up and build check. */
  | { kind: 'ping' }
  /**
   * `stop` is shared with the pool: element 0 turns non-zero when the solve must stop (abort, close).
   * `elapsedMs` is the time the solve already took on the caller's thread (validation, packing, queue),
   * counted against its deadline.
   */
  | { kind: 'solve'; packed: PackedProblem; options: ResolvedSolveOptions; stop: Int32Array; elapsedMs: number };

export type WorkerReply =
  | { kind: 'pong'; protocol: number; threadId: number }
  /** `micros`: the time the worker spent on the task, from receiving it to answering. */
  | { kind: 'solved'; protocol: number; threadId: number; raw: RawSolution; micros: number }
  /**
   * The solve failed inside the worker (a trap, an unexpected exception). The worker must not be reused:
   * the pool terminates it, Piscina starts a replacement, and the caller gets the heuristic fallback plan.
   */
  | { kind: 'failed'; protocol: number; threadId: number; failure: 'trap' | 'error'; reason: string };
