/**
 * The off-thread counterpart of `solver.solve`: a Piscina pool whose workers each hold one WASM solver. The main
 * thread validates and packs (`prepare`), the packed typed arrays are transferred to a worker, the worker
 * returns per-session node indices on a transferred Int32Array, and the main thread builds the Plan
 * (`finishPlan`). The Plan equals what `solver.solve` returns for the same problem and options, except
 * `stats.micros`, which here is the caller's wall time including the round trip.
 *
 * Queueing is the pool's own, in front of Piscina: at most `maxThreads` tasks are handed to Piscina at a
 * time, so a task still in our queue can be dropped by its signal without Piscina aborting (and so
 * killing) a worker that is running something.
 * A running task is stopped through a SharedArrayBuffer flag its worker's solver reads (abort, close);
 * only `close()` past its timeout, or forced, terminates workers.
 *
 * Failure handling: a worker that traps or throws answers `failed` and is terminated (Piscina starts a
 * replacement); a worker that dies mid-task rejects the Piscina promise. Either way the caller gets a BFD
 * plan, status `fallback`, with the reason, computed on the calling thread.
 */
import { createRequire } from 'node:module';
import { type Worker } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import { checkOptionsObject, optionalSignal, recordAt } from '../checks.js';
import { AbortedError, ClosedError, InvalidTypeError } from '../errors.js';
import type { SolveOptions } from '../solve/options.js';
import { packedTransferList, packProblem } from '../solve/pack.js';
import { resolvePoolOptions, type PoolOptions, type ResolvedPoolOptions } from './options.js';
import { POOL_PROTOCOL, type PoolWorkerData, type WorkerReply, type WorkerTask } from './protocol.js';
import { elapsedMicros } from '../solve/plan.js';
import { checkPrepared, fallbackPlan, finishPlan, prepare, type Prepared } from '../solve/solver.js';
import type { Plan, Problem } from '../types.js';

/** Options of one `pool.solve`. */
export interface PoolSolveOptions extends SolveOptions {
  /**
   * Aborting rejects the solve with AbortedError (`name` 'AbortError', code ERR_TAO_ABORTED) at once. A
   * queued solve is removed and never runs. A running one is told to stop through a flag shared with its
   * worker, which the solver reads between the phases of its decision and between the steps of its DP:
   * the worker is free again within about one step, without being killed, and the result is discarded.
   * Any number of solves may share one signal.
   */
  signal?: AbortSignal;
}

/** A plain copy of the pool's counters. */
export interface PoolStats {
  /** Worker threads alive now. */
  threads: number;
  /** Solves waiting for a free worker. */
  queued: number;
  /** Solves handed to a worker and not yet answered. */
  running: number;
  /** Solves that resolved with a plan (including fallbacks). */
  solves: number;
  /** Of `solves`, plans with status `fallback`, whatever the reason. */
  fallbacks: number;
  /** Solves whose worker trapped, threw or died; each got the heuristic fallback plan. */
  workerFailures: number;
  /** Workers the pool terminated after a failure (Piscina replaces them up to `minThreads`). */
  workersRetired: number;
  /**
   * Times the last worker was gone while solves waited for one, and the pool had a thread started for them
   * (Piscina itself stops replacing workers once one has failed to start).
   */
  revivals: number;
  /** Solves rejected with AbortedError. */
  aborted: number;
  /** Errors Piscina reported outside any task (e.g. a worker failing at start-up). */
  poolErrors: number;
  /** The last such error's message, if any. */
  lastPoolError: string | undefined;
}

/** The time each pool plan's worker spent solving it, microseconds (see workerMicrosOf). */
const workerMicros = new WeakMap<Plan, number>();

/**
 * How long the worker spent on the solve behind `plan` (a plan a pool of this module returned from its
 * worker), microseconds; undefined for any other plan (a fallback computed on the calling thread).
 * The rest of `plan.stats.micros` is the round trip: packing aside, the pool's overhead.
 */
export function workerMicrosOf(plan: Plan): number | undefined {
  return workerMicros.get(plan);
}

/** Options of `pool.close`. */
export interface PoolCloseOptions {
  /**
   * Terminate the workers now instead of letting running solves finish.
   * @default false
   */
  force?: boolean;
}

const defaultCloseOptions: Readonly<Required<PoolCloseOptions>> = Object.freeze({ force: false });
/** The option names `solvePrepared` takes. */
const SOLVE_PREPARED_OPTIONS: Readonly<Record<'signal', true>> = Object.freeze({ signal: true });

/** The pool's public face. */
export interface SolverPool {
  /**
   * Solves off-thread. Resolves to the Plan `solver.solve(problem, options)` would return (`stats.micros`
   * aside), or to the labelled heuristic fallback when the worker failed. Rejects with InvalidTypeError /
   * InvalidValueError for invalid input, AbortedError when `signal` fires first, ClosedError after
   * `close()`. Never throws synchronously.
   */
  solve(problem: Problem, options?: PoolSolveOptions): Promise<Plan>;
  /**
   * Solves an already prepared problem. Its `packed` arrays are transferred to the worker, so they are
   * detached afterwards: a Prepared goes to the pool once.
   */
  solvePrepared(prepared: Prepared, options?: { signal?: AbortSignal }): Promise<Plan>;
  /** Resolves once `minThreads` workers have loaded their solver; rejects if they cannot (e.g. no build). */
  ready(): Promise<void>;
  /** Thread ids of the live workers. */
  threadIds(): number[];
  stats(): PoolStats;
  /**
   * Rejects queued solves with ClosedError, lets running ones finish for at most `closeTimeoutMs` (pool
   * option), then terminates the workers; running solves still unfinished then reject with ClosedError.
   * `{ force: true }` terminates at once (also when a gentle close is already waiting). Every call
   * returns the same promise, which resolves within `closeTimeoutMs` plus the time to terminate the
   * threads.
   */
  close(options?: PoolCloseOptions): Promise<void>;
  /** The resolved options. */
  readonly options: Readonly<ResolvedPoolOptions>;
}

interface Task {
  readonly prepared: Prepared;
  readonly signal: AbortSignal | undefined;
  /** Shared with the worker: set to 1 to make the running solve stop at its next check. */
  readonly stop: Int32Array;
  /** `performance.now()` when the caller asked. */
  readonly t0: number;
  readonly resolve: (plan: Plan) => void;
  readonly reject: (err: unknown) => void;
  state: 'queued' | 'running' | 'settled';
  /** Settles once the worker answered or died, even if the caller's promise settled earlier (abort). */
  done: Promise<void> | undefined;
  /** Handed to Piscina with a private abort signal (see #run): only when no worker was alive. */
  guarded: boolean;
}

/**
 * Piscina, loaded when the first pool is created, so that importing the package does not load it (the
 * ESM entry of piscina wraps this same CommonJS module, which the workers import).
 */
function loadPiscina(): typeof import('piscina') {
  return createRequire(import.meta.url)('piscina') as typeof import('piscina');
}

/** The message, with its cause's when there is one (Piscina's AbortError wraps the reason as cause). */
function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? `${err.message}: ${describeError(err.cause)}` : err.message;
}

function staleBuild(protocol: number, file: string): Error {
  return new Error(
    `${file} speaks pool protocol ${protocol}, this code expects ${POOL_PROTOCOL}: the compiled worker is stale, run \`npm run build:ts\``,
  );
}

class PiscinaSolverPool implements SolverPool {
  readonly options: Readonly<ResolvedPoolOptions>;
  readonly #piscina: Piscina<WorkerTask, WorkerReply>;
  readonly #queue: Task[] = [];
  readonly #running = new Set<Task>();
  /** Tasks whose worker is being terminated; dispatch waits so nothing lands on a dying thread. */
  #retiring = 0;
  /** Private abort controllers of every Piscina task not yet answered (see #run). */
  readonly #stranded = new Set<AbortController>();
  /** Why stranded tasks were aborted, to report it rather than Piscina's generic abort message. */
  #strandReason: Error | undefined;
  #closing: Promise<void> | undefined;
  #ready: Promise<void> | undefined;
  readonly #counts = {
    solves: 0,
    fallbacks: 0,
    workerFailures: 0,
    workersRetired: 0,
    revivals: 0,
    aborted: 0,
    poolErrors: 0,
  };
  /**
   * The unsettled tasks of each signal: one 'abort' listener per signal, however many solves share it
   * (a listener per solve would pass Node's limit of 10 and warn).
   */
  readonly #bySignal = new Map<AbortSignal, Set<Task>>();
  readonly #onSignal = (event: Event): void => {
    const tasks = this.#bySignal.get(event.target as AbortSignal);
    if (tasks !== undefined) for (const task of [...tasks]) this.#abort(task);
  };
  /** Resolves when running solves are no longer waited for (close's timeout, or a forced close). */
  #stopWaiting: (() => void) | undefined;
  #destroyed: Promise<void> | undefined;
  #lastPoolError: string | undefined;

  constructor(options: Readonly<ResolvedPoolOptions>) {
    this.options = options;
    const workerData: PoolWorkerData = { build: options.build };
    const { Piscina } = loadPiscina();
    this.#piscina = new Piscina<WorkerTask, WorkerReply>({
      filename: options.workerFile,
      minThreads: options.minThreads,
      maxThreads: options.maxThreads,
      idleTimeout: options.idleTimeout,
      // One synchronous solve per thread: a second task on a busy worker would only wait behind it.
      concurrentTasksPerWorker: 1,
      // Piscina's run- and wait-time histograms: nothing reads them, and each task would pay for them.
      recordTiming: false,
      workerData,
    });
    // Piscina emits 'error' for a worker failure outside any task (start-up). Without a listener the
    // process would crash; with it, the failure is counted and reported by stats() and ready().
    this.#piscina.on('error', (err: unknown) => this.#onPoolError(err));
  }

  solve(problem: Problem, options?: PoolSolveOptions): Promise<Plan> {
    const t0 = performance.now();
    try {
      if (this.#closing !== undefined) throw new ClosedError('pool.solve() after close()');
      const { signal, ...solveOptions } =
        options === undefined ? {} : (recordAt(options, 'options') as PoolSolveOptions);
      return this.#enqueue(prepare(problem, solveOptions), optionalSignal(signal, 'options.signal'), t0);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  solvePrepared(prepared: Prepared, options?: { signal?: AbortSignal }): Promise<Plan> {
    const t0 = performance.now();
    try {
      if (this.#closing !== undefined) throw new ClosedError('pool.solvePrepared() after close()');
      if (options !== undefined) checkOptionsObject(options, SOLVE_PREPARED_OPTIONS, 'options');
      const signal = optionalSignal(options?.signal, 'options.signal');
      return this.#enqueue(checkPrepared(prepared, 'prepared', true), signal, t0);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  ready(): Promise<void> {
    this.#ready ??= this.#warm();
    return this.#ready;
  }

  async #warm(): Promise<void> {
    if (this.#closing !== undefined) throw new ClosedError('pool.ready() after close()');
    // Piscina gives a new task to an idle worker first, so minThreads pings in parallel reach every one.
    const pings = Array.from({ length: Math.max(1, this.options.minThreads) }, () => this.#run({ kind: 'ping' }, []));
    let replies: WorkerReply[];
    try {
      replies = await Promise.all(pings);
    } catch (err) {
      throw new Error(`solver pool could not start its workers (${this.options.workerFile}): ${describeError(err)}`, {
        cause: err,
      });
    }
    for (const r of replies) {
      if (r.protocol !== POOL_PROTOCOL) throw staleBuild(r.protocol, this.options.workerFile);
      if (r.kind !== 'pong') throw new Error(`worker answered a ping with "${r.kind}"`);
    }
  }

  threadIds(): number[] {
    return this.#piscina.threads.map((w: Worker) => w.threadId);
  }

  stats(): PoolStats {
    return {
      threads: this.#piscina.threads.length,
      queued: this.#queue.length,
      running: this.#running.size,
      ...this.#counts,
      lastPoolError: this.#lastPoolError,
    };
  }

  close(options?: PoolCloseOptions): Promise<void> {
    let force: boolean;
    try {
      if (options !== undefined) checkOptionsObject(options, defaultCloseOptions, 'options');
      const given = options?.force ?? false;
      if (typeof given !== 'boolean') throw new InvalidTypeError('options.force must be a boolean');
      force = given;
    } catch (err) {
      return Promise.reject(err);
    }
    if (this.#closing === undefined) {
      const queued = this.#queue.splice(0);
      for (const task of queued) this.#settle(task, { error: new ClosedError('pool closed before the solve started') });
      const running = Promise.all([...this.#running].map((task) => task.done));
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => {
        this.#stopWaiting = resolve;
        timer = setTimeout(resolve, this.options.closeTimeoutMs);
      });
      this.#closing = Promise.race([running, waited]).then(() => {
        clearTimeout(timer);
        return this.#destroy();
      });
    }
    if (force) this.#stopWaiting?.();
    return this.#closing;
  }

  /** Terminates every worker; running solves reject with ClosedError (see #complete). */
  #destroy(): Promise<void> {
    this.#destroyed ??= (async () => {
      for (const task of this.#running) Atomics.store(task.stop, 0, 1);
      await this.#piscina.destroy();
    })();
    return this.#destroyed;
  }

  #enqueue(prepared: Prepared, signal: AbortSignal | undefined, t0: number): Promise<Plan> {
    return new Promise<Plan>((resolve, reject) => {
      const stop = new Int32Array(new SharedArrayBuffer(4));
      const task: Task = {
        prepared,
        signal,
        stop,
        t0,
        resolve,
        reject,
        state: 'queued',
        done: undefined,
        guarded: false,
      };
      if (signal?.aborted === true) {
        this.#counts.aborted += 1;
        throw new AbortedError('pool.solve() aborted before it started');
      }
      if (signal !== undefined) {
        let tasks = this.#bySignal.get(signal);
        if (tasks === undefined) {
          tasks = new Set();
          this.#bySignal.set(signal, tasks);
          signal.addEventListener('abort', this.#onSignal, { once: true });
        }
        tasks.add(task);
      }
      this.#queue.push(task);
      this.#dispatch();
    });
  }

  /** Forgets a settled task's signal; the last task of a signal removes the pool's listener. */
  #release(task: Task): void {
    const signal = task.signal;
    if (signal === undefined) return;
    const tasks = this.#bySignal.get(signal);
    if (tasks === undefined) return;
    tasks.delete(task);
    if (tasks.size > 0) return;
    this.#bySignal.delete(signal);
    signal.removeEventListener('abort', this.#onSignal);
  }

  #abort(task: Task): void {
    if (task.state === 'settled') return;
    this.#counts.aborted += 1;
    if (task.state === 'queued') {
      const at = this.#queue.indexOf(task);
      if (at >= 0) this.#queue.splice(at, 1);
      this.#settle(task, { error: new AbortedError('pool.solve() aborted before it started') });
    } else {
      // Still running in its worker: the flag stops it at its next check; #complete ignores the answer
      // once the task is settled.
      Atomics.store(task.stop, 0, 1);
      this.#settle(task, {
        error: new AbortedError(
          'pool.solve() aborted while running: the worker stops it at its next check and the result is discarded',
        ),
      });
    }
  }

  #settle(task: Task, outcome: { plan: Plan } | { error: unknown }): void {
    if (task.state === 'settled') return;
    task.state = 'settled';
    this.#release(task);
    if ('plan' in outcome) {
      this.#counts.solves += 1;
      if (outcome.plan.status === 'fallback') this.#counts.fallbacks += 1;
      task.resolve(outcome.plan);
    } else {
      task.reject(outcome.error);
    }
  }

  #dispatch(): void {
    while (this.#retiring === 0 && this.#running.size < this.options.maxThreads && this.#queue.length > 0) {
      const task = this.#queue.shift()!;
      this.#start(task);
    }
  }

  #start(task: Task): void {
    task.state = 'running';
    this.#running.add(task);
    const { packed, options } = task.prepared;
    const message: WorkerTask = {
      kind: 'solve',
      packed,
      options,
      stop: task.stop,
      elapsedMs: performance.now() - task.t0,
    };
    let transferList: ArrayBuffer[];
    try {
      transferList = packedTransferList(packed);
    } catch (err) {
      // Unreachable for a Prepared that passed checkPrepared; kept so that no task can wedge the queue.
      this.#running.delete(task);
      this.#settle(task, { error: err });
      task.done = Promise.resolve();
      return;
    }
    task.guarded = this.#piscina.threads.length === 0;
    task.done = this.#run(message, transferList, task.guarded).then(
      (reply) => this.#complete(task, reply),
      (err: unknown) => this.#complete(task, { crashed: err }),
    );
  }

  /**
   * Piscina.run, with a private abort signal when `guarded`. The signal is for the case where no worker
   * is alive: then no task can be running, so aborting removes queued Piscina tasks that would otherwise
   * wait forever, and kills nothing. A signal costs every task Piscina's abort bookkeeping (measured:
   * about a third of a bare round trip), so tasks handed over while a worker is alive go without one;
   * #onPoolError settles those itself if every worker is gone.
   */
  #run(message: WorkerTask, transferList: ArrayBuffer[], guarded = true): Promise<WorkerReply> {
    if (!guarded) return this.#piscina.run(message, { transferList });
    const controller = new AbortController();
    this.#stranded.add(controller);
    return this.#piscina
      .run(message, { transferList, signal: controller.signal })
      .finally(() => this.#stranded.delete(controller));
  }

  #onPoolError(err: unknown): void {
    this.#counts.poolErrors += 1;
    this.#lastPoolError = describeError(err);
    if (this.#piscina.threads.length > 0) return;
    // Piscina stops replacing workers that fail while starting; without a worker, queued tasks would
    // never settle.
    this.#strandReason = new Error(`no worker could start: ${this.#lastPoolError}`);
    for (const controller of this.#stranded) controller.abort(this.#strandReason);
    // Tasks handed over without a signal while a worker was alive: with none left, they would wait in
    // Piscina's queue; they get their fallback now, and whatever Piscina does with them later is ignored.
    const stranded = new Error(this.#strandReason.message, { cause: this.#strandReason });
    for (const task of [...this.#running]) {
      if (task.guarded) continue;
      // Should a worker start after all and pick the task up, it stops at once.
      Atomics.store(task.stop, 0, 1);
      this.#complete(task, { crashed: stranded });
    }
  }

  #complete(task: Task, reply: WorkerReply | { crashed: unknown }): void {
    // Answered already (a task settled by #onPoolError, then answered or rejected by Piscina).
    if (!this.#running.delete(task)) return;
    let outcome: { plan: Plan } | { error: unknown };
    if ('crashed' in reply && this.#destroyed !== undefined) {
      outcome = { error: new ClosedError('pool closed while the solve was running: its worker was terminated') };
    } else if ('crashed' in reply) {
      // The thread died mid-task (Piscina already removed it and starts a replacement).
      const stranded =
        reply.crashed instanceof Error &&
        reply.crashed.cause === this.#strandReason &&
        this.#strandReason !== undefined;
      outcome = {
        plan: this.#fallback(
          task,
          stranded ? this.#strandReason!.message : `worker died: ${describeError(reply.crashed)}`,
        ),
      };
    } else if (reply.protocol !== POOL_PROTOCOL) {
      outcome = { error: staleBuild(reply.protocol, this.options.workerFile) };
    } else if (reply.kind === 'solved') {
      const plan = finishPlan(task.prepared, reply.raw, elapsedMicros(task.t0));
      workerMicros.set(plan, reply.micros);
      outcome = { plan };
    } else if (reply.kind === 'failed') {
      this.#retire(reply.threadId);
      outcome = { plan: this.#fallback(task, `worker ${reply.failure}: ${reply.reason}`) };
    } else {
      outcome = { error: new Error(`worker answered a solve with "${reply.kind}"`) };
    }
    this.#settle(task, outcome);
    this.#dispatch();
    if ('crashed' in reply) this.#revive();
  }

  /**
   * Piscina stops replacing workers for good once one has failed while starting. A worker that dies after
   * that (mid-task, or retired after a failure) leaves the tasks already handed to Piscina with no thread
   * and none coming: they would wait until close(). Whenever the last worker is gone while such tasks wait,
   * a ping makes Piscina start a thread (it does for new work below maxThreads), which runs them; should
   * that thread fail to start too, #onPoolError gives them their fallback. Each round settles at least one
   * task, so this cannot loop.
   */
  #revive(): void {
    if (this.#destroyed !== undefined || this.#piscina.threads.length > 0 || this.#running.size === 0) return;
    this.#counts.revivals += 1;
    this.#run({ kind: 'ping' }, []).catch(() => {
      // A ping that no thread answered: #onPoolError reports why.
    });
  }

  #fallback(task: Task, reason: string): Plan {
    this.#counts.workerFailures += 1;
    // The packed arrays went to the worker with the task (transferred, now detached): pack again from
    // the validated problem, which never left this thread.
    const packed = packProblem(task.prepared.problem, task.prepared.options);
    const plan = fallbackPlan(
      { ...task.prepared, packed },
      `${reason}; heuristic fallback plan (never worse than BFD) computed on the calling thread`,
    );
    return { ...plan, stats: { ...plan.stats, micros: elapsedMicros(task.t0) } };
  }

  /** Terminates a worker that failed; dispatch waits until Piscina has removed it. */
  #retire(threadId: number): void {
    const worker = this.#piscina.threads.find((w: Worker) => w.threadId === threadId);
    if (worker === undefined) return;
    this.#counts.workersRetired += 1;
    this.#retiring += 1;
    // Piscina's own 'exit' listener (registered first) removes the worker and starts a replacement
    // before this promise settles, so the next dispatch cannot pick the dying thread.
    worker.terminate().then(
      () => this.#retired(),
      (err: unknown) => {
        this.#lastPoolError = `terminating failed worker ${threadId}: ${describeError(err)}`;
        this.#counts.poolErrors += 1;
        this.#retired();
      },
    );
  }

  #retired(): void {
    this.#retiring -= 1;
    this.#dispatch();
    this.#revive();
  }
}

/**
 * Creates a pool of WASM solver workers and starts `minThreads` of them at once (each loads its solver
 * when its thread starts). Throws InvalidTypeError/InvalidValueError for invalid options, including a
 * `workerFile` that does not exist. `await pool.ready()` to wait until they are warm.
 */
export function createSolverPool(options?: PoolOptions): SolverPool {
  return new PiscinaSolverPool(Object.freeze(resolvePoolOptions(options)));
}
