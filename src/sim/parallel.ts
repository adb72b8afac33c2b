/**
 * Runs many (setting, policy, seed) runs on worker threads, one run at a time per thread, and returns
 * their results in the order of the descriptions: each run is a pure function of its description, so the
 * results equal a serial run's bit for bit whatever the number of threads and the order they finish in.
 *
 * The threads load the compiled `dist/sim/parallel-worker.js` (Node 20 cannot run TypeScript): from the
 * sources (tests), the build must exist (`npm run build`).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { integerIn } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { loadTaoDeps, type TaoDeps } from './deps.js';
import { executeRun, type RunDescription, runsNeedDeps } from './parallel-run.js';
import type { ProblemTick } from './policy.js';
import { MAX_JOBS } from './run-limits.js';
import type { RunResult } from './simulation.js';

export type { RunDescription } from './parallel-run.js';

/** The compiled worker next to this module, or in `dist/` when this module runs from the sources. */
export const PARALLEL_WORKER_FILE = fileURLToPath(
  new URL(
    fileURLToPath(import.meta.url).endsWith('.ts') ? '../../dist/sim/parallel-worker.js' : './parallel-worker.js',
    import.meta.url,
  ),
);

/** Threads used when `jobs` is not given by the CLI: one per core. */
export function defaultJobs(): number {
  return Math.min(MAX_JOBS, availableParallelism());
}

export interface RunAllOptions {
  /** Worker threads; 1 runs every run in this thread. @default 1 */
  readonly jobs?: number;
  /** Already loaded solver and evaluation, for the runs in this thread. */
  readonly deps?: TaoDeps;
  /** Every Problem a Problem-building policy decides (in this thread only: needs `jobs` 1). */
  readonly onProblem?: (run: RunDescription, tick: ProblemTick) => void;
  /** After each run, in the order they finish (progress). */
  readonly onRun?: (result: RunResult, done: number, total: number) => void;
  /** The compiled worker. @default PARALLEL_WORKER_FILE */
  readonly workerFile?: string;
}

/** A message from a worker. */
export type WorkerReply =
  | { readonly k: number; readonly result: RunResult }
  | { readonly k: number; readonly error: { name: string; message: string } };

function revive(e: { name: string; message: string }): Error {
  if (e.name === 'InvalidValueError') return new InvalidValueError(e.message);
  if (e.name === 'InvalidTypeError') return new InvalidTypeError(e.message);
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}

/** Runs every description and returns the results in their order. */
export async function runAll(runs: readonly RunDescription[], options: RunAllOptions = {}): Promise<RunResult[]> {
  const jobs = options.jobs === undefined ? 1 : integerIn(options.jobs, 'options.jobs', 1, MAX_JOBS);
  const total = runs.length;
  if (jobs === 1 || total <= 1) {
    const deps = runsNeedDeps(runs) ? (options.deps ?? (await loadTaoDeps())) : options.deps;
    const out: RunResult[] = [];
    for (const run of runs) {
      const onProblem = options.onProblem;
      const result = executeRun(run, deps, onProblem === undefined ? undefined : (tick) => onProblem(run, tick));
      out.push(result);
      options.onRun?.(result, out.length, total);
    }
    return out;
  }
  if (options.onProblem !== undefined)
    throw new InvalidValueError('options.onProblem is called in this thread: it needs options.jobs 1');
  const file = options.workerFile ?? PARALLEL_WORKER_FILE;
  if (!existsSync(file))
    throw new Error(`${file} is missing: parallel runs load the compiled package, run \`npm run build\` first`);
  return new Promise<RunResult[]>((resolve, reject) => {
    const results = new Array<RunResult | undefined>(total);
    const workers: Worker[] = [];
    const retired = new Set<Worker>();
    let next = 0;
    let done = 0;
    let failed = false;
    const stop = (err: Error): void => {
      if (failed) return;
      failed = true;
      for (const w of workers) void w.terminate();
      reject(err);
    };
    const feed = (w: Worker): void => {
      if (next < total) {
        const k = next++;
        w.postMessage({ k, run: runs[k] });
      } else retire(w);
    };
    // A finished thread is retired by a message and exits once idle, not terminated mid-flight:
    // terminating a thread while V8 still compiles its code in the background can abort the process.
    const retire = (w: Worker): void => {
      if (retired.has(w)) return;
      retired.add(w);
      w.postMessage(null);
    };
    for (let i = 0; i < Math.min(jobs, total); i++) {
      const w = new Worker(file);
      workers.push(w);
      w.on('message', (reply: WorkerReply) => {
        if (failed) return;
        if ('error' in reply) {
          stop(revive(reply.error));
          return;
        }
        results[reply.k] = reply.result;
        done++;
        options.onRun?.(reply.result, done, total);
        if (done === total) {
          for (const x of workers) retire(x);
          resolve(results as RunResult[]);
        } else {
          feed(w);
        }
      });
      w.on('error', (err) => stop(err));
      w.on('exit', (code) => {
        if (!failed && !retired.has(w) && done < total) stop(new Error(`a simulation worker exited with code ${code}`));
      });
      feed(w);
    }
  });
}
