import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runSimulateCommand as simulateCmd } from './helpers/internals.js';
import { runSweepCommand as sweepCmd } from './helpers/internals.js';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { defaultTaoBoundedParams } from './helpers/internals.js';
import { POLICY_NAMES } from './helpers/internals.js';

function quiet(): { out: () => string } {
  let text = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  return { out: () => text };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('tao simulate flags', () => {
  const bad: [string[], typeof InvalidTypeError | typeof InvalidValueError, string][] = [
    [['--bogus'], InvalidValueError, 'unknown option "--bogus"'],
    [['--seeds'], InvalidTypeError, '--seeds needs a value'],
    [['--seeds', '0'], InvalidValueError, '--seeds must be an integer from 1 to 10000 (got "0")'],
    [['--seeds', 'x'], InvalidTypeError, '--seeds must be an integer (got "x")'],
    [['--policy', 'fifo'], InvalidValueError, '--policy must be one of'],
    [['--setting', 'ds-99'], InvalidValueError, '--setting must be one of'],
    [['--duration=-3'], InvalidValueError, '--duration must be a positive number of seconds (got "-3")'],
    // A negative separate value reaches the flag's own range check, as --duration=-3 does.
    [['--duration', '-3'], InvalidValueError, '--duration must be a positive number of seconds (got "-3")'],
    [['--tasks', '5', '--duration', '10'], InvalidValueError, '--tasks and --duration are exclusive'],
    [['--delta', '1.5'], InvalidValueError, '--delta must be in (0, 1)'],
    [
      ['--workload', 'chat'],
      InvalidValueError,
      '--workload must be one of swe-lite-ds, swe-lite-qwen, swe-lite-glm, swe-bench, claude-code, decode-heavy (got "chat")',
    ],
    [
      ['--policy', 'dynamo', '--record', '/tmp/x.jsonl'],
      InvalidValueError,
      '--record needs a policy that builds solver Problems',
    ],
    [['--policy', 'tao,fifo'], InvalidValueError, '--policy must be one of tao, '],
    [['--policy', 'tao,all'], InvalidValueError, 'or a comma-separated list of them (got "tao,all")'],
    [['--policy', 'tao,tao-bfd,tao'], InvalidValueError, '--policy must not repeat a policy (got "tao,tao-bfd,tao")'],
    [
      ['--policy', 'thunderagent,dynamo', '--record', '/tmp/x.jsonl'],
      InvalidValueError,
      '--record with several policies needs tao among them',
    ],
    [
      ['--policy', 'tao,dynamo', '--baseline', 'greedy'],
      InvalidValueError,
      '--baseline must be one of the policies run (tao, dynamo); got "greedy"',
    ],
    [['--credit-source', 'guess'], InvalidValueError, '--credit-source must be observed or live (got "guess")'],
    [['--wait-threshold', 'soon'], InvalidTypeError, '--wait-threshold must be a decimal number (got "soon")'],
    [
      ['--hold-horizon=-1'],
      InvalidValueError,
      '--hold-horizon must be a non-negative number of seconds or Infinity (got "-1")',
    ],
  ];
  it.each(bad)('%j is rejected with a typed error naming the flag', async (args, type, message) => {
    quiet();
    await expect(simulateCmd(args)).rejects.toThrow(type);
    await expect(simulateCmd(args)).rejects.toThrow(message);
  });

  it('--wait-threshold, --hold-horizon and --tick-admission reach tao-bounded and are recorded in the JSON, Infinity as a string', async () => {
    quiet();
    const dir = mkdtempSync(join(tmpdir(), 'sim-cli-'));
    const args = ['--setting', 'ds-16', '--policy', 'tao-bounded', '--seeds', '1', '--tasks', '12'];
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    await simulateCmd([...args, '--json', a]);
    await simulateCmd([
      ...args,
      '--wait-threshold',
      '0',
      '--hold-horizon',
      'Infinity',
      '--tick-admission',
      '--json',
      b,
    ]);
    const ra = JSON.parse(readFileSync(a, 'utf8')) as {
      taoBounded: Record<string, unknown>;
      runs: { metrics: unknown }[];
    };
    const rb = JSON.parse(readFileSync(b, 'utf8')) as {
      taoBounded: Record<string, unknown>;
      runs: { metrics: unknown }[];
    };
    expect(ra.taoBounded).toEqual({ ...defaultTaoBoundedParams });
    expect(rb.taoBounded).toEqual({
      ...defaultTaoBoundedParams,
      waitThreshold: 0,
      holdHorizon: 'Infinity',
      eventAdmission: false,
    });
    expect(rb.runs[0]!.metrics).not.toEqual(ra.runs[0]!.metrics);
  });

  it('a setting file that fails validation names its field', async () => {
    quiet();
    const dir = mkdtempSync(join(tmpdir(), 'sim-cli-'));
    const file = join(dir, 's.json');
    writeFileSync(file, JSON.stringify({ name: 'x', extends: 'ds-16', workers: -1 }));
    await expect(simulateCmd(['--setting-file', file])).rejects.toThrow(
      'setting.workers must be an integer from 1 to 4096',
    );
  });

  it('--policy a,b runs exactly those policies, in that order', async () => {
    const io = quiet();
    const dir = mkdtempSync(join(tmpdir(), 'sim-cli-'));
    const json = join(dir, 'r.json');
    const code = await simulateCmd([
      '--setting',
      'ds-16',
      '--policy',
      'thunderagent, tao',
      '--seeds',
      '1',
      '--tasks',
      '8',
      '--json',
      json,
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { runs: { policy: string }[] };
    expect(report.runs.map((r) => r.policy)).toEqual(['thunderagent', 'tao']);
    expect(io.out()).toMatch(/^thunderagent /m);
  });

  it('runs every policy on the same seeds and writes the table, JSON, SVG and the recorded problems', async () => {
    const io = quiet();
    const dir = mkdtempSync(join(tmpdir(), 'sim-cli-'));
    const json = join(dir, 'r.json');
    const svg = join(dir, 'r.svg');
    const rec = join(dir, 'r.jsonl');
    const code = await simulateCmd([
      '--setting',
      'ds-16',
      '--policy',
      'all',
      '--seeds',
      '2',
      '--tasks',
      '24',
      '--json',
      json,
      '--svg',
      svg,
      '--record',
      rec,
    ]);
    expect(code).toBe(0);
    const text = io.out();
    expect(text).toContain('setting ds-16');
    expect(text).toContain('profile swe-lite-ds');
    for (const p of ['tao', 'thunderagent', 'dynamo', 'round-robin']) expect(text).toMatch(new RegExp(`^${p} `, 'm'));
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      runs: { policy: string; seed: number }[];
      profile: { name: string };
    };
    expect(report.runs).toHaveLength(2 * POLICY_NAMES.length);
    expect(report.profile.name).toBe('swe-lite-ds');
    const svgText = readFileSync(svg, 'utf8');
    expect(svgText.startsWith('<svg')).toBe(true);
    expect(svgText.match(/<polyline/g)).toHaveLength(POLICY_NAMES.length);
    const lines = readFileSync(rec, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) {
      const r = JSON.parse(line) as Record<string, unknown>;
      expect(Object.keys(r)).toEqual(['setting', 'seed', 'tick', 'time', 'problem']);
      expect(r.setting).toBe('ds-16');
      expect((r.problem as { sessions: unknown[] }).sessions.length).toBeGreaterThan(0);
    }
  });
});

describe('tao sweep', () => {
  it('rejects unknown parameters and bad values naming --param', async () => {
    quiet();
    await expect(sweepCmd(['--param', 'alpha=1'])).rejects.toThrow(
      '--param name must be one of h, H, delta, quantum, stateBudget, creditUnit (got "alpha")',
    );
    await expect(sweepCmd(['--param', 'quantum=0'])).rejects.toThrow('--param quantum must be a positive integer');
    await expect(sweepCmd(['--param', 'creditUnit=0.5'])).rejects.toThrow(
      '--param creditUnit must be a positive integer',
    );
    await expect(sweepCmd(['--param', 'h=abc'])).rejects.toThrow(InvalidTypeError);
    await expect(sweepCmd([])).rejects.toThrow('--param is required');
  });

  it('runs the grid on the same seeds and writes a row per point, JSON and SVG plots', async () => {
    const io = quiet();
    const dir = mkdtempSync(join(tmpdir(), 'sim-sweep-'));
    const prefix = join(dir, 'sw');
    const code = await sweepCmd([
      '--setting',
      'ds-32',
      '--param',
      'h=5,20',
      '--param',
      'quantum=512,2048',
      '--seeds',
      '2',
      '--tasks',
      '20',
      '--json',
      `${prefix}.json`,
      '--svg',
      prefix,
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(`${prefix}.json`, 'utf8')) as {
      points: { label: string; runs: unknown[] }[];
    };
    expect(report.points.map((p) => p.label)).toEqual([
      'h=5 quantum=512',
      'h=5 quantum=2048',
      'h=20 quantum=512',
      'h=20 quantum=2048',
    ]);
    for (const p of report.points) expect(p.runs).toHaveLength(2);
    expect(io.out()).toContain('h=20 quantum=2048');
    for (const m of ['latency', 'ttft', 'decode']) expect(existsSync(`${prefix}.${m}.svg`)).toBe(true);
  });
});
