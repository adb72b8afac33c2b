/**
 * Every simulator flag has a range that keeps a run's memory bounded (src/sim/run-limits.ts): a value out
 * of it is refused before anything runs, with exit 2 and one line naming the flag. `--sample 0.000001`
 * used to grow a run's series to 2.6 GB and abort V8; a task run whose series would pass its cap is now
 * stopped with the same kind of one-line refusal.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isOneLineError } from './helpers/cli.js';
import { simulateCmd, sweepCmd, InvalidTypeError, InvalidValueError, simulate } from './helpers/internals.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('simulator flag ranges', () => {
  const simulateCases: [string[], typeof InvalidTypeError | typeof InvalidValueError, string][] = [
    [['--sample', '0.000001'], InvalidValueError, '--sample must be at least 0.001 seconds (got "0.000001")'],
    [
      ['--sample', '0.01', '--duration', '100000'],
      InvalidValueError,
      '--sample 0.01 over --duration 100000 records more than 1000000 samples per run: sample less often',
    ],
    [['--tasks', '1000000000'], InvalidValueError, '--tasks must be an integer from 1 to 1000000 (got "1000000000")'],
    [['--duration', '1e15'], InvalidValueError, '--duration must be at most 10000000 seconds (got "1e15")'],
    [['--seeds', '5000'], InvalidValueError, '--seeds must give at most 1000 seeds (got 5000)'],
    [['--horizon', '0.0000001'], InvalidValueError, '--horizon must be a number of seconds of at least 0.001'],
    [['--jobs', '0'], InvalidValueError, '--jobs must be an integer from 1 to 256 (got "0")'],
    [['--jobs', '257'], InvalidValueError, '--jobs must be an integer from 1 to 256 (got "257")'],
    [['--jobs', 'all'], InvalidTypeError, '--jobs must be an integer (got "all")'],
    [
      ['--shard', '3/2', '--json', '/tmp/x.json'],
      InvalidValueError,
      '--shard must be I/N with 1 <= I <= N <= 10000 (got "3/2")',
    ],
    [['--shard', '1/2'], InvalidValueError, '--shard needs --json FILE (the shard file that tao merge reads)'],
    [
      ['--shard', '1/2', '--json', '/tmp/x.json', '--svg', '/tmp/x.svg'],
      InvalidValueError,
      '--shard cannot be combined with --svg',
    ],
    [
      ['--record', '/tmp/x.jsonl', '--jobs', '2'],
      InvalidValueError,
      '--record runs in one thread: drop --jobs (or give --jobs 1)',
    ],
    [
      ['--write-trace', '/tmp/x.jsonl', '--duration', '100'],
      InvalidValueError,
      '--write-trace needs a task count: it cannot be combined with --duration',
    ],
  ];
  it.each(simulateCases)('tao simulate %j is refused naming the flag', async (flags, cls, message) => {
    const err = await simulateCmd(flags).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(cls);
    expect((err as Error).message).toBe(message);
  });

  const sweepCases: [string[], string][] = [
    [['--param', 'H=0.00001'], '--param H must be a number of seconds of at least 0.001'],
    [['--param', 'h=5', '--seeds', '2000'], '--seeds must give at most 1000 seeds (got 2000)'],
    [['--param', 'h=5', '--tasks', '2000000'], '--tasks must be an integer from 1 to 1000000 (got "2000000")'],
    [['--param', 'h=5', '--jobs', '999'], '--jobs must be an integer from 1 to 256 (got "999")'],
    [
      ['--param', 'h=5', '--shard', '1/0', '--json', '/tmp/x.json'],
      '--shard must be I/N with 1 <= I <= N <= 10000 (got "1/0")',
    ],
  ];
  it.each(sweepCases)('tao sweep %j is refused naming the flag', async (flags, message) => {
    await expect(sweepCmd(flags)).rejects.toThrow(message);
  });

  it('the library refuses the same ranges, naming the option', async () => {
    await expect(simulate({ setting: 'ds-16', policies: ['round-robin'], sampleEvery: 1e-6 })).rejects.toThrow(
      'sampleEvery must be 0 (no series) or a finite number of seconds of at least 0.001 (got 0.000001)',
    );
    await expect(simulate({ setting: 'ds-16', policies: ['round-robin'], mode: { tasks: 1e9 } })).rejects.toThrow(
      'mode.tasks must be an integer from 1 to 1000000',
    );
    await expect(simulate({ setting: 'ds-16', policies: ['round-robin'], mode: { duration: 1e15 } })).rejects.toThrow(
      'mode.duration must be a positive number of seconds of at most 10000000',
    );
    await expect(
      simulate({ setting: 'ds-16', policies: ['round-robin'], seeds: Array.from({ length: 1001 }, (_, i) => i) }),
    ).rejects.toThrow('seeds must have at most 1000 seeds (got 1001)');
  });

  it('a process given --sample 0.000001 exits 2 with one line, at once', () => {
    const r = spawnSync(process.execPath, [CLI, 'simulate', '--sample', '0.000001'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(isOneLineError({ code: r.status, stderr: r.stderr })).toBe(true);
    expect(r.stderr).toBe('tao simulate: --sample must be at least 0.001 seconds (got "0.000001")\n');
  });

  it('a task run whose series passes its cap stops with one line naming --sample, in bounded memory', () => {
    const r = spawnSync(
      process.execPath,
      [
        CLI,
        'simulate',
        '--setting',
        'ds-16',
        '--policy',
        'round-robin',
        '--seeds',
        '1',
        '--tasks',
        '400',
        '--sample',
        '0.001',
        '--jobs',
        '1',
      ],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(isOneLineError({ code: r.status, stderr: r.stderr })).toBe(true);
    expect(r.stderr).toMatch(
      /^tao simulate: the sample interval \(--sample, sampleEvery\) 0\.001 s records more than 1000000 samples in one run \(simulated time reached 1000(\.\d+)? s\): sample less often\n$/,
    );
  });
});
