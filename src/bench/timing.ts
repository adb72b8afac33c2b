/**
 * Times one runner over a corpus: untimed warm-up solves first, then a pause until the process is quiet,
 * then the timed run with tinybench, one iteration per problem, cycling through the corpus, high-resolution
 * timer. Each iteration measures its own solve with `process.hrtime` and hands the duration to tinybench as
 * `overriddenDuration`, so the retained samples are exactly the solve times and we also keep them in corpus
 * order (tinybench sorts its own copy), which lets the report say which problems were slow.
 *
 * Why the pause: V8 compiles hot JavaScript with TurboFan on background threads, and a corpus that reaches
 * new code paths keeps them busy for several passes (measured: 30-120 ms of compiler CPU during the first
 * pass over a stress family, 3-20 ms during the second). On a machine with two cores those threads take the
 * core the solving thread needs, and the wall clock of a solve grows by their work while its CPU time does
 * not. A scheduler that has been running for a while sees none of it; the timed run should not either.
 * Synchronous runs also record, per sample, the solving thread's CPU time and its run-queue wait, and the
 * CPU the process's other threads used during the run, so what remains of a tail can be attributed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Bench, hrtimeNow } from 'tinybench';
import type { Plan, Problem } from '../types.js';
import { openThreadClock, type ThreadTimes } from './thread-clock.js';

export interface TimingOptions {
  /** Timed iterations; problem k of the run is corpus entry (start + k) mod n. */
  iterations: number;
  /** Untimed iterations first, on the same cycle (JIT, caches, pool threads). */
  warmupIterations: number;
  /** Whether `solve` returns a Promise (timed awaited, end to end). */
  async: boolean;
  /** Called with each timed sample's plan, outside the timed window. */
  inspect?: (plan: Plan, sample: number) => void;
}

/**
 * Collects garbage now if the process was started with `--expose-gc` (the npm scripts do). Called before
 * each warm-up so one runner's garbage (the reference DP allocates its tables per solve, the validation
 * pass its oracles' models) is not collected inside the next runner's timed solves. Returns whether it could.
 */
export function collectGarbage(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') return false;
  gc();
  return true;
}

/** The quiet wait before a timed run: polled in windows of `windowMs`, given up after `maxMs`. */
export const SETTLE = Object.freeze({
  windowMs: 10,
  /** A window is quiet when the whole process used at most this share of one core during it. */
  quietShare: 0.05,
  maxMs: 1000,
});

/**
 * Waits, with this thread idle, until the process's other threads (background compilation, GC helpers,
 * pool workers finishing) have gone quiet: one window of `SETTLE.windowMs` in which the process used at
 * most `SETTLE.quietShare` of a core, or `SETTLE.maxMs` in all.
 */
export async function settle(): Promise<void> {
  const t0 = performance.now();
  for (;;) {
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    await sleep(SETTLE.windowMs);
    const c = process.cpuUsage(c0);
    const window = performance.now() - w0;
    if ((c.user + c.system) / 1000 <= SETTLE.quietShare * window || performance.now() - t0 >= SETTLE.maxMs) return;
  }
}

export interface Timing {
  /** Solve times in milliseconds, in run order. */
  samplesMs: number[];
  /** Corpus index solved by each sample. */
  problemIndex: number[];
  /**
   * Synchronous runs: CPU time of each sample, ms, by `cpuClock`: the solving thread's own ('thread'), or
   * the whole process's where the platform has no thread clock ('process'). Null for asynchronous runs.
   */
  cpuMs: number[] | null;
  cpuClock: 'thread' | 'process' | null;
  /** Synchronous runs with a thread clock: time each sample spent runnable but waiting for a core, ms. */
  waitMs: number[] | null;
  /**
   * Synchronous runs with a thread clock: CPU time the process's other threads used during the timed run
   * (JIT compiler, GC helpers), ms; what they took from the solving thread shows in `waitMs`.
   */
  otherThreadsCpuMs: number | null;
}

/** Runs the warm-up and the timed loop. `solve` must already have been validated on the corpus. */
export async function timeSolves(
  name: string,
  problems: readonly Problem[],
  solve: (problem: Problem) => Plan | Promise<Plan>,
  options: TimingOptions,
): Promise<Timing> {
  const n = problems.length;
  if (n === 0)
    return { samplesMs: [], problemIndex: [], cpuMs: null, cpuClock: null, waitMs: null, otherThreadsCpuMs: null };
  let cursor = 0;
  const next = (): number => {
    const i = cursor;
    cursor = cursor + 1 === n ? 0 : cursor + 1;
    return i;
  };
  // Garbage is collected before the warm-up, not after it: a full collection discards optimized code that
  // embeds objects it finds dead (V8 deoptimizes it, 'weak objects'), and the timed run would then pay for
  // compiling it again (measured: packProblem, the JS knapsack and validateProblem recompiled inside it).
  collectGarbage();
  for (let k = 0; k < options.warmupIterations; k++) await solve(problems[next()] as Problem);
  await settle();

  const clock = options.async ? null : openThreadClock();
  const samplesMs: number[] = [];
  const problemIndex: number[] = [];
  const cpuMs: number[] = [];
  const waitMs: number[] = [];
  const before: ThreadTimes = { cpuNs: 0, waitNs: 0 };
  const after: ThreadTimes = { cpuNs: 0, waitNs: 0 };
  const inspect = options.inspect;
  const record = (index: number, ms: number, plan: Plan): { overriddenDuration: number } => {
    if (inspect !== undefined) inspect(plan, samplesMs.length);
    samplesMs.push(ms);
    problemIndex.push(index);
    return { overriddenDuration: ms };
  };
  const syncThread = (): { overriddenDuration: number } => {
    const i = next();
    const p = problems[i] as Problem;
    clock!.read(before);
    const t0 = hrtimeNow();
    const plan = solve(p) as Plan;
    const t1 = hrtimeNow();
    clock!.read(after);
    cpuMs.push((after.cpuNs - before.cpuNs) / 1e6);
    waitMs.push((after.waitNs - before.waitNs) / 1e6);
    return record(i, t1 - t0, plan);
  };
  const syncProcess = (): { overriddenDuration: number } => {
    const i = next();
    const p = problems[i] as Problem;
    const c0 = process.cpuUsage();
    const t0 = hrtimeNow();
    const plan = solve(p) as Plan;
    const t1 = hrtimeNow();
    const c = process.cpuUsage(c0);
    cpuMs.push((c.user + c.system) / 1000);
    return record(i, t1 - t0, plan);
  };
  const asyncFn = async (): Promise<{ overriddenDuration: number }> => {
    const i = next();
    const p = problems[i] as Problem;
    const t0 = hrtimeNow();
    const plan = await solve(p);
    return record(i, hrtimeNow() - t0, plan);
  };
  const bench = new Bench({
    name,
    timestampProvider: 'hrtimeNow',
    retainSamples: true,
    // Iteration counts, not a time budget, decide the run length: every problem is timed once per cycle.
    time: 0,
    iterations: options.iterations,
    // Warmed up above, before the quiet wait.
    warmup: false,
    throws: true,
  });
  // Declared, so tinybench does not call the function once to detect it (an unrecorded extra solve).
  bench.add(name, options.async ? asyncFn : clock !== null ? syncThread : syncProcess, { async: options.async });
  const process0 = process.cpuUsage();
  const thread0 = clock?.read({ cpuNs: 0, waitNs: 0 });
  let otherThreadsCpuMs: number | null = null;
  try {
    await bench.run();
  } finally {
    if (clock !== null && thread0 !== undefined) {
      const p = process.cpuUsage(process0);
      const t = clock.read({ cpuNs: 0, waitNs: 0 });
      otherThreadsCpuMs = Math.max(0, (p.user + p.system) / 1000 - (t.cpuNs - thread0.cpuNs) / 1e6);
    }
    clock?.close();
  }
  const task = bench.tasks[0];
  const result = task?.result;
  if (result === undefined || result.state === 'errored') {
    const err = result !== undefined && result.state === 'errored' ? result.error : undefined;
    throw new Error(`timing ${name} failed${err !== undefined ? `: ${err.message}` : ''}`, { cause: err });
  }
  if (samplesMs.length !== options.iterations) {
    throw new Error(`timing ${name}: ${samplesMs.length} samples recorded, ${options.iterations} expected`);
  }
  return {
    samplesMs,
    problemIndex,
    cpuMs: options.async ? null : cpuMs,
    cpuClock: options.async ? null : clock !== null ? 'thread' : 'process',
    waitMs: clock !== null ? waitMs : null,
    otherThreadsCpuMs,
  };
}
