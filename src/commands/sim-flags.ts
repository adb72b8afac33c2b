/**
 * The flags `tao simulate` and `tao sweep` share beyond cli-args.ts, each with the range that keeps a
 * run's memory bounded (the limits are in src/sim/run-limits.ts): seeds, run mode, sampling, threads and
 * shards. A value out of range is an InvalidValueError naming the flag (exit 2, one line).
 */
import { InvalidValueError } from '../errors.js';
import { intFlag, positiveNumberFlag, seedsFlag } from './cli-args.js';
import { defaultJobs } from '../sim/parallel.js';
import type { RunMode } from '../sim/run.js';
import {
  MAX_JOBS,
  MAX_SEEDS,
  MAX_SERIES_SAMPLES,
  MAX_SIM_DURATION,
  MAX_SIM_TASKS,
  MIN_SAMPLE_EVERY,
} from '../sim/run-limits.js';
import type { SimSetting } from '../sim/settings.js';
import { parseShardSpec, type ShardSpec } from '../sim/shard.js';

/** `--seeds N` or a list, at most MAX_SEEDS seeds. */
export function simSeedsFlag(text: string): number[] {
  const seeds = seedsFlag('--seeds', text);
  if (seeds.length > MAX_SEEDS)
    throw new InvalidValueError(`--seeds must give at most ${MAX_SEEDS} seeds (got ${seeds.length})`);
  return seeds;
}

/** Run mode from --tasks / --duration (at most MAX_SIM_TASKS tasks, MAX_SIM_DURATION seconds). */
export function modeFromFlags(
  values: { tasks?: string | undefined; duration?: string | undefined },
  setting: SimSetting,
): RunMode {
  if (values.tasks !== undefined && values.duration !== undefined)
    throw new InvalidValueError('--tasks and --duration are exclusive');
  if (values.duration !== undefined) {
    const d = positiveNumberFlag('--duration', values.duration, 'seconds');
    if (d > MAX_SIM_DURATION)
      throw new InvalidValueError(`--duration must be at most ${MAX_SIM_DURATION} seconds (got "${values.duration}")`);
    return { duration: d };
  }
  if (values.tasks !== undefined) return { tasks: intFlag('--tasks', values.tasks, 1, MAX_SIM_TASKS) };
  return { tasks: setting.tasks };
}

/** `--sample S`: at least MIN_SAMPLE_EVERY seconds, and within MAX_SERIES_SAMPLES samples of a --duration run. */
export function sampleFlag(text: string, mode: RunMode): number {
  const s = positiveNumberFlag('--sample', text, 'seconds');
  if (s < MIN_SAMPLE_EVERY)
    throw new InvalidValueError(`--sample must be at least ${MIN_SAMPLE_EVERY} seconds (got "${text}")`);
  if ('duration' in mode && mode.duration / s > MAX_SERIES_SAMPLES) {
    throw new InvalidValueError(
      `--sample ${text} over --duration ${mode.duration} records more than ${MAX_SERIES_SAMPLES} samples per run: sample less often`,
    );
  }
  return s;
}

/** `--jobs N` (1 to MAX_JOBS worker threads), one per core by default. */
export function jobsFlag(text: string | undefined): number {
  return text === undefined ? defaultJobs() : intFlag('--jobs', text, 1, MAX_JOBS);
}

/** `--shard I/N`, which writes a shard file and so needs `--json`. */
export function shardFlag(
  text: string | undefined,
  json: string | undefined,
  exclusive: readonly [string, unknown][],
): ShardSpec | undefined {
  if (text === undefined) return undefined;
  const shard = parseShardSpec(text);
  if (json === undefined)
    throw new InvalidValueError('--shard needs --json FILE (the shard file that tao merge reads)');
  for (const [flag, value] of exclusive)
    if (value !== undefined) throw new InvalidValueError(`--shard cannot be combined with ${flag}`);
  return shard;
}
