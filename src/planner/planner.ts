/**
 * The asynchronous planner of paper section 4: a scheduler loop submits evaluated snapshots, solving
 * happens off the loop with at most one solve in flight and the latest submission winning the queue, and
 * each tick the loop applies the newest plan against live state through revalidation.
 *
 * The planner is generic over a backend (how to prepare, estimate and solve); `createPlanner` in
 * `planner-backend.ts` wires the WASM solver (small problems, on the calling thread) and the worker pool.
 */
import { anyNumber, checkOptionsObject, optionalSignal, recordAt } from '../checks.js';
import { AbortedError, ClosedError, InvalidTypeError, InvalidValueError } from '../errors.js';
import type { SolveOptions } from '../solve/options.js';
import { elapsedMicros } from '../solve/plan.js';
import { AdaptiveRoute } from './route.js';
import { PlannerCounters, type PlannerStats } from './stats.js';
import { revalidate, signaturesOf, type Revalidation, type SignatureIndex } from './revalidate.js';
import type { Plan, Problem } from '../types.js';

/**
 * How the planner solves. `P` is whatever `prepare` returns (validated, packed input); the planner never
 * looks inside it.
 */
export interface PlannerBackend<P> {
  /** Validates and packs. Throws InvalidTypeError/InvalidValueError for invalid input. */
  prepare(problem: Problem, options: SolveOptions): P;
  /**
   * Estimated work of an in-thread solve, in the solver's units of work (see `SolveOptions.stateBudget`).
   * A backend defines this or its deprecated name `cells`.
   */
  work?(prepared: P): number;
  /** @deprecated The old name of `work`, still called when `work` is absent. */
  cells?(prepared: P): number;
  /** Solves on the calling thread. */
  solveInThread(prepared: P): Plan;
  /** Solves off the thread. Rejects with AbortedError when `signal` fires first. */
  solveOffThread(prepared: P, signal: AbortSignal | undefined): Promise<Plan>;
  /**
   * The time, in microseconds, the off-thread solve of `plan` spent solving (in its worker), if known:
   * with it the route measures the pool's round-trip overhead and learns which larger estimates are
   * cheap (the adaptive route, docs/planner.md). Without it the route is the fixed threshold.
   */
  workerMicros?(plan: Plan): number | undefined;
  /** Releases what the backend owns; called once by `planner.close()`. */
  close(): Promise<void>;
}

/** Planner options. */
export interface PlannerOptions {
  /**
   * Solves whose estimated work (in the solver's units of work, see `SolveOptions.stateBudget`) is at
   * most this run on the calling thread. Below it a direct solve costs less than a worker round trip
   * (measured, see IN_THREAD_MAX_WORK). Larger ones go to the pool, unless solves estimated alike were
   * measured to take less than the pool's round trip adds (the adaptive route, docs/planner.md).
   * `0` sends every solve to the pool, even trivial ones; `Infinity` keeps every solve in-thread.
   * @default 32768
   */
  inThreadMaxWork?: number;
  /** @deprecated The old name of `inThreadMaxWork`, still accepted (not together with it). */
  inThreadMaxCells?: number;
}

/** Planner options with every field filled in (under its current name). */
export interface ResolvedPlannerOptions {
  inThreadMaxWork: number;
}

/**
 * Measured on the 2-core VM this package is developed on (Node 20, `npm run bench:pool`): a pool solve
 * costs ~35-55 us more than the same solve in-thread (validation and plan building are on the caller's
 * thread either way), and an in-thread dense solve takes that long at ~38k-68k DP cells (~0.8 ns per
 * cell plus ~13 us fixed). 2^15 sits just below the crossover: smaller solves return sooner in-thread
 * and block the loop for less than a round trip would add; larger ones go to the pool, which keeps the
 * loop free for a relative cost that shrinks with size.
 */
export const IN_THREAD_MAX_WORK = 32_768;

/** @deprecated The old name of IN_THREAD_MAX_WORK. */
export const IN_THREAD_MAX_CELLS = IN_THREAD_MAX_WORK;

export const defaultPlannerOptions: Readonly<ResolvedPlannerOptions> = Object.freeze({
  inThreadMaxWork: IN_THREAD_MAX_WORK,
});

/** The option names a caller may give: the current ones and the deprecated aliases. */
const KNOWN_PLANNER_OPTIONS: Readonly<Record<keyof PlannerOptions, true>> = {
  inThreadMaxWork: true,
  inThreadMaxCells: true,
};

export function resolvePlannerOptions(options: PlannerOptions | undefined, path = 'options'): ResolvedPlannerOptions {
  if (options === undefined) return { ...defaultPlannerOptions };
  checkOptionsObject(options, KNOWN_PLANNER_OPTIONS, path);
  const out: ResolvedPlannerOptions = { ...defaultPlannerOptions };
  if (options.inThreadMaxWork !== undefined && options.inThreadMaxCells !== undefined) {
    throw new InvalidValueError(
      `${path}.inThreadMaxCells is the deprecated name of ${path}.inThreadMaxWork: give only one of them`,
    );
  }
  const name =
    options.inThreadMaxWork === undefined && options.inThreadMaxCells !== undefined
      ? 'inThreadMaxCells'
      : 'inThreadMaxWork';
  const given = options[name];
  if (given !== undefined) {
    const c = anyNumber(given, `${path}.${name}`);
    if (Number.isNaN(c) || c < 0 || (Number.isFinite(c) && !Number.isInteger(c))) {
      throw new InvalidValueError(`${path}.${name} must be a non-negative integer or Infinity`);
    }
    out.inThreadMaxWork = c;
  }
  return out;
}

/** Options of one submission: the solve options plus a signal that drops it while it waits. */
export interface SubmitOptions extends SolveOptions {
  /**
   * Aborting settles the submission as `aborted`: a queued one never runs; a pool solve already running
   * is stopped at the solver's next check in its worker and its result is discarded. An in-thread solve,
   * once started, is synchronous and completes.
   */
  signal?: AbortSignal;
}

/** A plan solved on a snapshot, ready for `apply()`. */
export interface Planned {
  status: 'planned';
  plan: Plan;
  /** The Problem as submitted. Revalidation uses the signatures read at `submit()` time. */
  snapshot: Problem;
  /** Where it was solved. */
  path: 'in-thread' | 'pool';
  /** `submit()` to solve start, microseconds. */
  queueMicros: number;
  /** Solve start to plan, microseconds. */
  solveMicros: number;
}

/** How a submission settled. Every `submit()` promise settles with one of these, or rejects. */
export type SubmitResult =
  | Planned
  /** A newer submission replaced it while it waited. */
  | { status: 'superseded' }
  /** Its signal fired, or the planner closed while it waited. */
  | { status: 'aborted'; reason: 'signal' | 'closed' };

interface Job<P> {
  readonly snapshot: Problem;
  readonly signatures: SignatureIndex;
  readonly prepared: P;
  readonly signal: AbortSignal | undefined;
  readonly submittedAt: number;
  readonly resolve: (r: SubmitResult) => void;
  readonly reject: (e: unknown) => void;
  settled: boolean;
  onAbort: (() => void) | undefined;
}

function splitSubmitOptions(options: SubmitOptions | undefined): [AbortSignal | undefined, SolveOptions] {
  if (options === undefined) return [undefined, {}];
  const { signal, ...solve } = recordAt(options, 'options') as SubmitOptions;
  return [optionalSignal(signal, 'options.signal'), solve];
}

/**
 * Solves snapshots off the scheduler loop and revalidates their plans against live state.
 *
 * Invariants: at most one solve in flight; at most one submission queued (a newer one supersedes it);
 * every promise `submit()` returns settles.
 */
export class Planner<P = unknown> {
  readonly #backend: PlannerBackend<P>;
  readonly #options: ResolvedPlannerOptions;
  /** The backend's work estimate (`work`, or its deprecated name `cells`). */
  readonly #estimate: (prepared: P) => number;
  readonly #counters = new PlannerCounters();
  readonly #route: AdaptiveRoute;
  /** Snapshot signatures of every plan this planner returned; weak so unapplied plans are collected. */
  readonly #snapshots = new WeakMap<Plan, SignatureIndex>();
  #inFlight: Job<P> | undefined;
  #inFlightDone: Promise<void> = Promise.resolve();
  #queued: Job<P> | undefined;
  #pumpScheduled = false;
  #latest: Planned | undefined;
  #closing: Promise<void> | undefined;

  constructor(backend: PlannerBackend<P>, options?: PlannerOptions) {
    this.#backend = backend;
    this.#options = resolvePlannerOptions(options);
    this.#route = new AdaptiveRoute(this.#options.inThreadMaxWork);
    const estimate = backend.work ?? backend.cells;
    if (typeof estimate !== 'function') throw new InvalidTypeError('backend.work must be a function');
    this.#estimate = (prepared) => estimate.call(backend, prepared);
  }

  /**
   * Queues a solve of `snapshot` (an evaluated Problem whose sessions carry `signature`s). Resolves with
   * the plan, or `superseded`/`aborted`; rejects with InvalidTypeError/InvalidValueError for invalid input
   * and ClosedError after `close()`. Never throws synchronously.
   */
  submit(snapshot: Problem, options?: SubmitOptions): Promise<SubmitResult> {
    return new Promise<SubmitResult>((resolve, reject) => {
      if (this.#closing !== undefined) throw new ClosedError('planner.submit() after close()');
      const [signal, solveOptions] = splitSubmitOptions(options);
      // Prepared now, not when the solve starts: the snapshot is frozen at submit time even if the caller
      // mutates its objects afterwards, and invalid input rejects the caller that sent it.
      const prepared = this.#backend.prepare(snapshot, solveOptions);
      const signatures = signaturesOf(snapshot);
      this.#counters.add('submitted');
      const job: Job<P> = {
        snapshot,
        signatures,
        prepared,
        signal,
        submittedAt: performance.now(),
        resolve,
        reject,
        settled: false,
        onAbort: undefined,
      };
      if (signal?.aborted === true) {
        this.#settle(job, { status: 'aborted', reason: 'signal' });
        return;
      }
      if (signal !== undefined) {
        job.onAbort = () => this.#abortQueued(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      if (this.#queued !== undefined) {
        this.#counters.add('superseded');
        this.#settle(this.#queued, { status: 'superseded' });
      }
      this.#queued = job;
      this.#schedulePump();
    });
  }

  /**
   * Revalidates `plan` (returned by this planner's `submit()`) against `live`, the current Problem, and
   * returns the applicable prefix, the cut and why. Does not admit anything: the caller does, with
   * `applied`. Throws InvalidValueError for a plan from elsewhere, ClosedError after `close()`.
   */
  apply(plan: Plan, live: Problem): Revalidation {
    if (this.#closing !== undefined) throw new ClosedError('planner.apply() after close()');
    const signatures = this.#snapshots.get(recordAt(plan, 'plan') as unknown as Plan);
    if (signatures === undefined) {
      throw new InvalidValueError('plan was not returned by this planner: apply() needs the snapshot it was solved on');
    }
    const r = revalidate(plan, signatures, live);
    this.#counters.recordApply(r);
    return r;
  }

  /**
   * The newest plan completed since the last call, once; `undefined` if none. A scheduler tick calls this
   * and applies what it gets, so it never applies a plan older than one it already has.
   */
  takeLatest(): Planned | undefined {
    const p = this.#latest;
    this.#latest = undefined;
    return p;
  }

  /** A plain-object copy of the counters and latency summaries. */
  stats(): PlannerStats {
    return this.#counters.snapshot({
      inFlight: this.#inFlight !== undefined,
      queued: this.#queued !== undefined,
      inThreadMaxWork: this.#options.inThreadMaxWork,
      poolOverheadMicros: Number.isNaN(this.#route.overheadMicros()) ? null : this.#route.overheadMicros(),
    });
  }

  /**
   * Stops accepting work: a queued submission settles `aborted` (reason `closed`), the running solve
   * completes and settles normally, then the backend is closed. Idempotent: every call returns the same
   * promise.
   */
  close(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    const queued = this.#queued;
    this.#queued = undefined;
    if (queued !== undefined) {
      this.#counters.add('aborted');
      this.#settle(queued, { status: 'aborted', reason: 'closed' });
    }
    this.#closing = this.#inFlightDone.then(() => this.#backend.close());
    return this.#closing;
  }

  #abortQueued(job: Job<P>): void {
    // A running pool solve sees the same signal through the backend; only a queued job is ours to drop.
    if (this.#queued !== job) return;
    this.#queued = undefined;
    this.#counters.add('aborted');
    this.#settle(job, { status: 'aborted', reason: 'signal' });
  }

  #settle(job: Job<P>, result: SubmitResult | { error: unknown }): void {
    if (job.settled) return;
    job.settled = true;
    if (job.onAbort !== undefined) job.signal?.removeEventListener('abort', job.onAbort);
    if ('error' in result) job.reject(result.error);
    else job.resolve(result);
  }

  #schedulePump(): void {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    // A macrotask, not a synchronous start: submit() returns at once, and submissions made in the same
    // scheduler tick coalesce to the latest before anything runs.
    setImmediate(() => {
      this.#pumpScheduled = false;
      this.#pump();
    });
  }

  #pump(): void {
    if (this.#inFlight !== undefined || this.#queued === undefined) return;
    const job = this.#queued;
    this.#queued = undefined;
    this.#inFlight = job;
    const start = performance.now();
    const queueMicros = elapsedMicros(job.submittedAt);
    this.#counters.queueWaitMicros.record(queueMicros);
    const estimate = this.#estimate(job.prepared);
    const inThread = this.#route.inThread(estimate);
    let solving: Promise<Plan>;
    if (inThread) {
      try {
        solving = Promise.resolve(this.#backend.solveInThread(job.prepared));
      } catch (err: unknown) {
        solving = Promise.reject(err);
      }
    } else {
      solving = this.#backend.solveOffThread(job.prepared, job.signal);
    }
    this.#inFlightDone = solving.then(
      (plan) => {
        const solveMicros = elapsedMicros(start);
        this.#counters.solveMicros.record(solveMicros);
        this.#counters.add('solves');
        this.#counters.add(inThread ? 'solvesInThread' : 'solvesPool');
        if (inThread && estimate > this.#options.inThreadMaxWork) this.#counters.add('solvesRouted');
        this.#observe(estimate, inThread, plan, solveMicros);
        if (plan.status === 'fallback') this.#counters.add('fallbacks');
        this.#snapshots.set(plan, job.signatures);
        const planned: Planned = {
          status: 'planned',
          plan,
          snapshot: job.snapshot,
          path: inThread ? 'in-thread' : 'pool',
          queueMicros,
          solveMicros,
        };
        if (this.#latest !== undefined) this.#counters.add('plansUnused');
        this.#latest = planned;
        this.#finish(job, planned);
      },
      (err: unknown) => {
        if (err instanceof AbortedError && job.signal?.aborted === true) {
          this.#counters.add('aborted');
          this.#finish(job, { status: 'aborted', reason: 'signal' });
        } else {
          this.#counters.add('failed');
          this.#finish(job, { error: err });
        }
      },
    );
  }

  /** Teaches the route what a solve took (see route.ts). */
  #observe(estimate: number, inThread: boolean, plan: Plan, solveMicros: number): void {
    if (inThread) {
      this.#route.record(estimate, solveMicros);
      return;
    }
    const worker = this.#backend.workerMicros?.(plan);
    if (worker !== undefined) this.#route.record(estimate, worker, solveMicros - worker);
  }

  #finish(job: Job<P>, result: SubmitResult | { error: unknown }): void {
    this.#inFlight = undefined;
    this.#settle(job, result);
    if (this.#queued !== undefined) this.#schedulePump();
  }
}
