/**
 * Spreading one command's runs over machines: `--shard I/N` runs every N-th run of the command's run list
 * (those whose index k has k mod N = I - 1) and writes them to a shard file with the command's report
 * header; `mergeShards` checks that the N files are the N shards of one command and puts the runs back
 * in order, so the merged report equals the unsharded one bit for bit.
 *
 * Shard files are JSON, with the numbers JSON cannot write (NaN, Infinity, -0) written as
 * `{"$float": "NaN"}` so that every result comes back exactly.
 */
import { isRecord } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { PACKAGE_VERSION } from '../version.js';
import { runAll, type RunAllOptions, type RunDescription } from './parallel.js';
import type { RunResult } from './simulation.js';

/** Version of the shard file's shape. */
export const SHARD_FORMAT_VERSION = 1;
/** Most shards one command may be split into. */
export const MAX_SHARDS = 10_000;
/** Most bytes a shard file may hold when merged: 256 MiB. */
export const MAX_SHARD_BYTES = 256 * 2 ** 20;

export interface ShardSpec {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

/** What a shard file holds. */
export interface ShardFile<H> {
  readonly kind: 'tao-shard';
  readonly formatVersion: typeof SHARD_FORMAT_VERSION;
  readonly packageVersion: string;
  /** The command whose runs these are (`simulate`, `sweep`). */
  readonly command: string;
  readonly shard: ShardSpec;
  readonly totalRuns: number;
  /** The command's report without its runs: the same in every shard of one command. */
  readonly header: H;
  readonly runs: readonly { readonly k: number; readonly result: RunResult }[];
}

/** `I/N` with 1 <= I <= N <= MAX_SHARDS; `flag` names it in errors. */
export function parseShardSpec(text: string, flag = '--shard'): ShardSpec {
  const m = /^([0-9]+)\/([0-9]+)$/.exec(text);
  if (m === null) throw new InvalidTypeError(`${flag} must be I/N, e.g. 2/4 (got "${text}")`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (!(count >= 1 && count <= MAX_SHARDS && index >= 1 && index <= count)) {
    throw new InvalidValueError(`${flag} must be I/N with 1 <= I <= N <= ${MAX_SHARDS} (got "${text}")`);
  }
  return { index, count };
}

/** The run indices (into a command's run list of `total`) that shard `s` runs. */
export function shardIndices(total: number, s: ShardSpec): number[] {
  const out: number[] = [];
  for (let k = s.index - 1; k < total; k += s.count) out.push(k);
  return out;
}

function replacer(_key: string, v: unknown): unknown {
  if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)))
    return { $float: Object.is(v, -0) ? '-0' : String(v) };
  return v;
}

function reviver(_key: string, v: unknown): unknown {
  if (isRecord(v) && typeof v.$float === 'string' && Object.keys(v).length === 1) {
    return v.$float === '-0' ? -0 : Number(v.$float);
  }
  return v;
}

/** The text of a shard file. */
export function shardFileText<H>(
  command: string,
  shard: ShardSpec,
  totalRuns: number,
  header: H,
  runs: readonly { k: number; result: RunResult }[],
): string {
  const file: ShardFile<H> = {
    kind: 'tao-shard',
    formatVersion: SHARD_FORMAT_VERSION,
    packageVersion: PACKAGE_VERSION,
    command,
    shard,
    totalRuns,
    header,
    runs,
  };
  return JSON.stringify(file, replacer) + '\n';
}

/** The header written the way shard files write it: equal text means the same command. */
function headerText(header: unknown): string {
  return JSON.stringify(header, replacer);
}

/**
 * Checks that `files` are every shard of one command, each once, and returns the command, its header and
 * its results in run order. Errors name the file and the field.
 */
export function mergeShards(files: readonly { readonly name: string; readonly text: string }[]): {
  command: string;
  header: unknown;
  results: RunResult[];
} {
  if (files.length === 0) throw new InvalidValueError('merge needs at least one shard file');
  let first: (ShardFile<unknown> & { name: string; headerText: string }) | undefined;
  const byIndex = new Map<number, string>();
  const results: (RunResult | undefined)[] = [];
  for (const { name, text } of files) {
    let x: unknown;
    try {
      x = JSON.parse(text, reviver);
    } catch (err) {
      throw new InvalidValueError(`${name} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!isRecord(x) || x.kind !== 'tao-shard')
      throw new InvalidValueError(
        `${name} is not a shard file (its kind must be "tao-shard"; write one with --shard I/N --json FILE)`,
      );
    if (x.formatVersion !== SHARD_FORMAT_VERSION)
      throw new InvalidValueError(
        `${name}: formatVersion must be ${SHARD_FORMAT_VERSION} (got ${JSON.stringify(x.formatVersion)})`,
      );
    const f = x as unknown as ShardFile<unknown>;
    if (!isRecord(f.shard) || !Number.isInteger(f.shard.index) || !Number.isInteger(f.shard.count))
      throw new InvalidTypeError(`${name}: shard must be { index, count }`);
    if (!Number.isInteger(f.totalRuns) || !Array.isArray(f.runs))
      throw new InvalidTypeError(`${name}: totalRuns must be an integer and runs an array`);
    const ht = headerText(f.header);
    if (first === undefined) {
      first = { ...f, name, headerText: ht };
    } else {
      if (f.command !== first.command)
        throw new InvalidValueError(`${name}: command "${f.command}" differs from "${first.command}" of ${first.name}`);
      if (f.shard.count !== first.shard.count)
        throw new InvalidValueError(
          `${name}: shard count ${f.shard.count} differs from ${first.shard.count} of ${first.name}`,
        );
      if (f.packageVersion !== first.packageVersion)
        throw new InvalidValueError(
          `${name}: packageVersion ${f.packageVersion} differs from ${first.packageVersion} of ${first.name}`,
        );
      if (f.totalRuns !== first.totalRuns || ht !== first.headerText) {
        throw new InvalidValueError(
          `${name} is a shard of another run than ${first.name} (its setting, policies, seeds, mode or parameters differ)`,
        );
      }
    }
    const seen = byIndex.get(f.shard.index);
    if (seen !== undefined)
      throw new InvalidValueError(`${name}: shard ${f.shard.index}/${f.shard.count} is also given as ${seen}`);
    byIndex.set(f.shard.index, name);
    const expected = shardIndices(f.totalRuns, f.shard);
    if (f.runs.length !== expected.length || f.runs.some((r, i) => r.k !== expected[i])) {
      throw new InvalidValueError(
        `${name}: runs must be runs ${expected.length === 0 ? '(none)' : `${expected[0]}, ${expected[0]! + f.shard.count}, ...`} of shard ${f.shard.index}/${f.shard.count}`,
      );
    }
    for (const r of f.runs) results[r.k] = r.result;
  }
  const count = first!.shard.count;
  const missing: number[] = [];
  for (let i = 1; i <= count && missing.length < 10; i++) if (!byIndex.has(i)) missing.push(i);
  if (missing.length > 0)
    throw new InvalidValueError(`shards ${missing.map((i) => `${i}/${count}`).join(', ')} are missing`);
  return { command: first!.command, header: first!.header, results: results as RunResult[] };
}

/** Runs shard `shard` of a command's plan and returns its shard file's text and how many runs it made. */
export async function runShard<H>(
  command: string,
  plan: { readonly header: H; readonly runs: readonly RunDescription[] },
  shard: ShardSpec,
  options: RunAllOptions = {},
): Promise<{ text: string; runs: number }> {
  const ks = shardIndices(plan.runs.length, shard);
  const results = await runAll(
    ks.map((k) => plan.runs[k]!),
    options,
  );
  return {
    text: shardFileText(
      command,
      shard,
      plan.runs.length,
      plan.header,
      ks.map((k, i) => ({ k, result: results[i]! })),
    ),
    runs: ks.length,
  };
}
