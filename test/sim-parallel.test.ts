/**
 * Parallel runs and shards (src/sim/parallel.ts, src/sim/shard.ts, `tao merge`): the same runs on worker
 * threads, or split into shards and merged, give the serial report bit for bit; shard files that are not
 * the N shards of one command are refused, naming the file.
 *
 * The worker threads load the compiled dist/sim/parallel-worker.js: these tests need `npm run build` first.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { isOneLineError } from './helpers/cli.js';
import {
  InvalidValueError,
  PARALLEL_WORKER_FILE,
  runAll,
  assembleReport,
  planSimulation,
  simulate,
  type SimulateOptions,
  type SimulationHeader,
  mergeShards,
  parseShardSpec,
  runShard,
  shardIndices,
  sweep,
  generatedTraceLines,
  SETTINGS,
} from './helpers/internals.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

beforeAll(() => {
  if (!existsSync(PARALLEL_WORKER_FILE))
    throw new Error('dist/sim/parallel-worker.js is missing: run `npm run build` first');
});

const options: SimulateOptions = {
  setting: 'ds-16',
  policies: ['round-robin', 'thunderagent', 'tao', 'tao-bounded'],
  seeds: [1, 2],
  mode: { tasks: 20 },
};

describe('parallel runs', () => {
  it('give the serial report bit for bit, whatever the number of threads', async () => {
    const serial = JSON.stringify(await simulate({ ...options, jobs: 1 }));
    for (const jobs of [2, 3]) expect(JSON.stringify(await simulate({ ...options, jobs }))).toBe(serial);
  });

  it('give the serial sweep bit for bit', async () => {
    const sw = { setting: 'ds-16', grid: { h: [5, 20], H: [1, 2] }, seeds: [1], mode: { tasks: 16 } } as const;
    expect(JSON.stringify(await sweep({ ...sw, jobs: 2 }))).toBe(JSON.stringify(await sweep({ ...sw, jobs: 1 })));
  });

  it('report a run that fails in a thread with its typed error', async () => {
    const plan = planSimulation({
      setting: 'ds-16',
      policies: ['round-robin', 'tao'],
      seeds: [1],
      mode: { tasks: 200 },
      sampleEvery: 0.001,
    });
    await expect(runAll(plan.runs, { jobs: 2 })).rejects.toThrow(InvalidValueError);
    await expect(runAll(plan.runs, { jobs: 2 })).rejects.toThrow(
      /^the sample interval \(--sample, sampleEvery\) 0\.001 s records more than 1000000 samples in one run/,
    );
  });

  it('refuses a Problem callback with threads, and a thread count out of range', async () => {
    const plan = planSimulation({ ...options, mode: { tasks: 4 } });
    await expect(runAll(plan.runs, { jobs: 2, onProblem: () => {} })).rejects.toThrow(
      'options.onProblem is called in this thread: it needs options.jobs 1',
    );
    await expect(runAll(plan.runs, { jobs: 0 })).rejects.toThrow('options.jobs must be an integer from 1 to 256');
  });

  it('refuses a missing compiled worker with the command that builds it', async () => {
    const plan = planSimulation({ ...options, mode: { tasks: 4 } });
    await expect(
      runAll(plan.runs, { jobs: 2, workerFile: '/nonexistent/dist/sim/parallel-worker.js' }),
    ).rejects.toThrow(
      '/nonexistent/dist/sim/parallel-worker.js is missing: parallel runs load the compiled package, run `npm run build` first',
    );
  });
});

describe('shards', () => {
  it('split the runs round-robin and parse I/N', () => {
    expect(shardIndices(7, { index: 2, count: 3 })).toEqual([1, 4]);
    expect(shardIndices(2, { index: 3, count: 3 })).toEqual([]);
    expect(parseShardSpec('2/4')).toEqual({ index: 2, count: 4 });
    expect(() => parseShardSpec('0/4')).toThrow('--shard must be I/N with 1 <= I <= N <= 10000 (got "0/4")');
    expect(() => parseShardSpec('5/4')).toThrow('--shard must be I/N with 1 <= I <= N <= 10000 (got "5/4")');
    expect(() => parseShardSpec('2-4')).toThrow('--shard must be I/N, e.g. 2/4 (got "2-4")');
  });

  it('merge, in any order, into the unsharded report bit for bit (numbers JSON cannot write included)', async () => {
    const opts: SimulateOptions = {
      ...options,
      baseline: 'round-robin',
      taoBounded: { holdHorizon: Number.POSITIVE_INFINITY },
    };
    const plan = planSimulation(opts);
    const serial = await simulate(opts);
    const texts = [];
    for (let i = 1; i <= 3; i++)
      texts.push({
        name: `p${i}`,
        text: (await runShard('simulate', plan, { index: i, count: 3 }, { jobs: i === 2 ? 2 : 1 })).text,
      });
    expect(texts[0]!.text).toContain('"holdHorizon":{"$float":"Infinity"}');
    const merged = mergeShards([texts[2]!, texts[0]!, texts[1]!]);
    expect(merged.command).toBe('simulate');
    expect(JSON.stringify(assembleReport(merged.header as SimulationHeader, merged.results))).toBe(
      JSON.stringify(serial),
    );
  });

  it('refuse files that are not the shards of one command, naming the file', async () => {
    const plan = planSimulation({ ...options, mode: { tasks: 4 } });
    const other = planSimulation({ ...options, mode: { tasks: 5 } });
    const part = async (p: typeof plan, index: number, count = 2): Promise<string> =>
      (await runShard('simulate', p, { index, count })).text;
    const a1 = { name: 'a1', text: await part(plan, 1) };
    const a2 = { name: 'a2', text: await part(plan, 2) };
    const b2 = { name: 'b2', text: await part(other, 2) };
    const c = { name: 'c', text: await part(plan, 2, 3) };
    expect(() => mergeShards([a1])).toThrow('shards 2/2 are missing');
    expect(() => mergeShards([a1, { ...a1, name: 'copy' }])).toThrow('copy: shard 1/2 is also given as a1');
    expect(() => mergeShards([a1, b2])).toThrow('b2 is a shard of another run than a1');
    expect(() => mergeShards([a1, c])).toThrow('c: shard count 3 differs from 2 of a1');
    expect(() => mergeShards([a1, { name: 'r', text: '{"schemaVersion": 2}' }])).toThrow('r is not a shard file');
    expect(() => mergeShards([a1, { name: 'j', text: '{' }])).toThrow('j is not valid JSON');
    const edited = JSON.parse(a2.text) as { runs: unknown[] };
    edited.runs.pop();
    expect(() => mergeShards([a1, { name: 'cut', text: JSON.stringify(edited) }])).toThrow(
      'cut: runs must be runs 1, 3, ... of shard 2/2',
    );
    expect(mergeShards([a2, a1]).results).toHaveLength(plan.runs.length);
  });

  it('tao sweep --shard and tao merge write the file the unsharded sweep writes, byte for byte', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tao-shard-'));
    const common = ['sweep', '--param', 'h=5,20', '--setting', 'ds-16', '--seeds', '2', '--tasks', '12'];
    const whole = join(dir, 'whole.json');
    const out = execFileSync(process.execPath, [CLI, ...common, '--jobs', '2', '--json', whole], { encoding: 'utf8' });
    const parts = [1, 2, 3].map((i) => join(dir, `part${i}.json`));
    parts.forEach((p, i) =>
      execFileSync(process.execPath, [CLI, ...common, '--jobs', '1', '--shard', `${i + 1}/3`, '--json', p]),
    );
    const merged = join(dir, 'merged.json');
    const mergedOut = execFileSync(process.execPath, [CLI, 'merge', ...parts.reverse(), '--json', merged], {
      encoding: 'utf8',
    });
    expect(readFileSync(merged, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    expect(mergedOut).toBe(out);
  });

  it('tao simulate --trace --shard and tao merge give the unsharded report; merge refuses an incomplete set with one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tao-shard-'));
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, [...generatedTraceLines(SETTINGS['ds-16']!.workload, 4, 10)].join(''));
    const common = [
      'simulate',
      '--setting',
      'ds-16',
      '--trace',
      trace,
      '--policy',
      'round-robin,dynamo,tao',
      '--baseline',
      'round-robin',
    ];
    const whole = join(dir, 'whole.json');
    execFileSync(process.execPath, [CLI, ...common, '--json', whole]);
    const parts = [1, 2].map((i) => join(dir, `part${i}.json`));
    parts.forEach((p, i) => execFileSync(process.execPath, [CLI, ...common, '--shard', `${i + 1}/2`, '--json', p]));
    const merged = join(dir, 'merged.json');
    execFileSync(process.execPath, [CLI, 'merge', ...parts, '--json', merged]);
    expect(readFileSync(merged, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    const r = spawnSync(process.execPath, [CLI, 'merge', parts[1]!], { encoding: 'utf8' });
    expect(isOneLineError({ code: r.status, stderr: r.stderr })).toBe(true);
    expect(r.stderr).toBe('tao merge: shards 1/2 are missing\n');
    const none = spawnSync(process.execPath, [CLI, 'merge'], { encoding: 'utf8' });
    expect(none.stderr).toBe('tao merge: tao merge needs the shard files (e.g. tao merge part*.json)\n');
  });
});
