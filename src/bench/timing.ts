/**
 * Times one runner over a corpus with tinybench: one iteration per problem, cycling through the corpus,
 * warm-up on, high-resolution timer. Each iteration measures its own solve with `process.hrtime` and hands
 * the duration to tinybench as `overriddenDuration`, so the retained samples are exactly the solve times and
 * we also keep them in corpus order (tinybench sorts its own copy), which lets the report say which
 * problems were slow.
 */
import { Bench, hrtimeNow } from 'tinybench';
import type { Plan, Problem } from '../types.js';

export interface TimingOptions {
  /** Timed iterations; problem k of the run is corpus entry (start + k) mod n. */
  iterations: number;
  /** Untimed iterations first, on the same cycle (JIT, caches, pool threads). */
  warmupIterations: number;
  /** Whether `solve` returns a Promise (timed awaited, end to end). */
  async: boolean;
}

/**
 * Collects garbage now if the process was started with `--expose-gc` (the npm scripts do). Called before
 * each timed run so one runner's garbage (the reference DP allocates its tables per solve) is not
 * collected inside the next runner's timed solves. Returns whether it could.
 */
export function collectGarbage(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') return false;
  gc();
  return true;
}

export interface Timing {
  /** Solve times in milliseconds, in run order. */
  samplesMs: number[];
  /** Corpus index solved by each sample. */
  problemIndex: number[];
}

/** Runs the timed loop. `solve` must already have been validated on the corpus. */
export async function timeSolves(
  name: string,
  problems: readonly Problem[],
  solve: (problem: Problem) => Plan | Promise<Plan>,
  options: TimingOptions,
): Promise<Timing> {
  const n = problems.length;
  if (n === 0) return { samplesMs: [], problemIndex: [] };
  let cursor = 0;
  let recording = false;
  const samplesMs: number[] = [];
  const problemIndex: number[] = [];
  const record = (index: number, ms: number): { overriddenDuration: number } => {
    if (recording) {
      samplesMs.push(ms);
      problemIndex.push(index);
    }
    return { overriddenDuration: ms };
  };
  const next = (): number => {
    const i = cursor;
    cursor = cursor + 1 === n ? 0 : cursor + 1;
    return i;
  };
  const syncFn = (): { overriddenDuration: number } => {
    const i = next();
    const p = problems[i] as Problem;
    const t0 = hrtimeNow();
    solve(p);
    return record(i, hrtimeNow() - t0);
  };
  const asyncFn = async (): Promise<{ overriddenDuration: number }> => {
    const i = next();
    const p = problems[i] as Problem;
    const t0 = hrtimeNow();
    await solve(p);
    return record(i, hrtimeNow() - t0);
  };
  const bench = new Bench({
    name,
    timestampProvider: 'hrtimeNow',
    retainSamples: true,
    // Iteration counts, not a time budget, decide the run length: every problem is timed once per cycle.
    time: 0,
    iterations: options.iterations,
    warmup: options.warmupIterations > 0,
    warmupTime: 0,
    warmupIterations: options.warmupIterations,
    throws: true,
  });
  bench.add(name, options.async ? asyncFn : syncFn, {
    // Declared, so tinybench does not call the function once to detect it (an unrecorded extra solve).
    async: options.async,
    beforeAll(mode) {
      recording = mode === 'run';
    },
  });
  collectGarbage();
  await bench.run();
  const task = bench.tasks[0];
  const result = task?.result;
  if (result === undefined || result.state === 'errored') {
    const err = result !== undefined && result.state === 'errored' ? result.error : undefined;
    throw new Error(`timing ${name} failed${err !== undefined ? `: ${err.message}` : ''}`, { cause: err });
  }
  if (samplesMs.length !== options.iterations) {
    throw new Error(`timing ${name}: ${samplesMs.length} samples recorded, ${options.iterations} expected`);
  }
  return { samplesMs, problemIndex };
}
