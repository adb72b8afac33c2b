import { describe, expect, it } from 'vitest';
import { compareReports } from './helpers/internals.js';
import { defaultGateThresholds } from './helpers/internals.js';
import { REPORT_SCHEMA_VERSION, type BenchReport, type RunnerReport, type SettingReport } from './helpers/internals.js';
import { PAPER_TABLE9, type SettingName } from './helpers/internals.js';
import { emptyCounts } from './helpers/internals.js';

function runner(name: string, p50: number, p95: number, fallbackPct = 0, ratio: number | null = null): RunnerReport {
  return {
    runner: name,
    description: name,
    problems: 100,
    validation: { ...emptyCounts(), solved: 100, exact: 100 - fallbackPct, fallback: fallbackPct },
    fallbackPct,
    fallbackReasons: {},
    paths: {},
    cells: { median: 1000, p95: 5000, max: 9000 },
    time: { n: 100, mean: p50, min: p50 / 2, p50, p95, p99: p95 * 1.5, max: p95 * 2 },
    ratioToReference: ratio === null ? null : { median: ratio, over: 'all', problems: 100, sum: ratio },
  };
}

function setting(name: SettingName, wasmP50: number, refP50: number): SettingReport {
  return {
    setting: name,
    model: 'm',
    nodes: 2,
    workers: 16,
    paper: PAPER_TABLE9[name],
    corpus: { hash: `hash-${name}`, origin: 'cache', file: 'f', generateMs: 0 },
    shape: {
      nodes: { n: 1, mean: 2, min: 2, p50: 2, p95: 2, p99: 2, max: 2 },
      sessions: { n: 1, mean: 9, min: 9, p50: 9, p95: 9, p99: 9, max: 9 },
      states: { n: 1, mean: 9, min: 9, p50: 9, p95: 9, p99: 9, max: 9 },
    },
    oracle: { referenceOptimal: 100, referenceFallback: 0, highsSolved: 3, highsFailed: [], disagreements: [] },
    runners: {
      wasm: runner('wasm', wasmP50, wasmP50 * 3, 0, wasmP50 / refP50),
      reference: runner('reference', refP50, refP50 * 3),
      bfd: runner('bfd', 0.01, 0.02, 40),
    },
  };
}

function report(settings: SettingReport[]): BenchReport {
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'tao-bench-report',
    createdAt: '2026-01-01T00:00:00.000Z',
    command: 'tao bench --quick',
    package: { name: 'tao-solver', version: '0.1.0' },
    wasm: { path: 'build/tao.wasm', sha256: 'abc' },
    machine: {
      cpus: { model: 'cpu', count: 2 },
      parallelism: 2,
      memoryGiB: 24,
      node: 'v20',
      os: { platform: 'linux', release: 'r', arch: 'x64' },
      loadAverage1m: 0,
    },
    timing: { timer: 'hrtime', unit: 'ms', warmupIterations: 20, cycles: 1, pairedRepeats: 3, gcBetweenRuns: true },
    workload: {
      settings: settings.map((s) => s.setting),
      window: 'steady-state',
      seed: 1,
      count: 100,
      runners: ['wasm', 'reference', 'bfd', 'highs'],
      solveOptions: { quantum: 1024, stateBudget: 4194304, deadlineMs: null },
      highsSample: 3,
      corpora: Object.fromEntries(settings.map((s) => [s.setting, { hash: s.corpus.hash, fingerprint: 'fp' }])),
    },
    settings,
    skipped: [],
    goal: { targets: { inThreadP95Ms: 0.5, poolP95Ms: 1, fallbackPct: 0.5, exact: true }, met: true, misses: [] },
    elapsedSec: 1,
  };
}

const base = (): BenchReport => report([setting('ds-16', 0.01, 0.1), setting('ds-64', 0.2, 2)]);

describe('bench check (regression gate)', () => {
  it('passes an equal report', () => {
    const r = compareReports(base(), base(), defaultGateThresholds);
    expect(r.code).toBe(0);
    expect(r.lines[0]).toBe('bench check: no regression');
  });

  it('refuses a different problem count, naming both', () => {
    const cur = base();
    cur.workload.count = 50;
    const r = compareReports(base(), cur, defaultGateThresholds);
    expect(r.code).toBe(2);
    expect(r.lines).toContain('  problem count differs: baseline 100, this run 50');
  });

  it('refuses corpora of another window of the run (warm-up against steady state)', () => {
    const cur = base();
    cur.workload.window = 'warm-up';
    const r = compareReports(base(), cur, defaultGateThresholds);
    expect(r.code).toBe(2);
    expect(r.lines).toContain('  corpus window differs: baseline steady-state, this run warm-up');
  });

  it('refuses a different corpus (same settings and count, the simulator changed)', () => {
    const cur = base();
    cur.workload.corpora['ds-64'] = { hash: 'other-hash-000', fingerprint: 'fp2' };
    const r = compareReports(base(), cur, defaultGateThresholds);
    expect(r.code).toBe(2);
    expect(r.lines.join('\n')).toMatch(/corpus of ds-64 differs: baseline hash-ds-64, this run other-hash-0/);
  });

  it('refuses different settings', () => {
    const cur = report([setting('ds-16', 0.01, 0.1)]);
    const r = compareReports(base(), cur, defaultGateThresholds);
    expect(r.code).toBe(2);
    expect(r.lines.join('\n')).toContain('settings differ: baseline [ds-16, ds-64], this run [ds-16]');
  });

  it('compares when only the optional highs runner is missing', () => {
    const cur = base();
    cur.workload.runners = ['wasm', 'reference', 'bfd'];
    expect(compareReports(base(), cur, defaultGateThresholds).code).toBe(0);
  });

  it('flags a WASM/reference ratio regression with the setting, the metric and by how much', () => {
    const cur = report([setting('ds-16', 0.01, 0.1), setting('ds-64', 0.5, 2)]);
    const r = compareReports(base(), cur, defaultGateThresholds);
    expect(r.code).toBe(1);
    expect(r.lines[0]).toBe('bench check: 1 regression:');
    expect(r.lines[1]).toBe('  ds-64 wasm: wasm/reference time ratio 0.250 vs baseline 0.100 (2.50x, limit 1.5x)');
  });

  it('does not flag a ratio change within the limit (machine noise)', () => {
    const cur = report([setting('ds-16', 0.014, 0.1), setting('ds-64', 0.2, 2.5)]);
    expect(compareReports(base(), cur, defaultGateThresholds).code).toBe(0);
  });

  it('flags a fallback increase beyond the slack', () => {
    const cur = base();
    const s = cur.settings[1] as SettingReport;
    s.runners.wasm = { ...(s.runners.wasm as RunnerReport), fallbackPct: 2 };
    const r = compareReports(base(), cur, defaultGateThresholds);
    expect(r.code).toBe(1);
    expect(r.lines).toContain('  ds-64 wasm: fallback rate 2.00% vs baseline 0.00% (+2.00 points, limit +0.5)');
  });

  it('flags any mismatch, and a reference/HiGHS disagreement', () => {
    const cur = base();
    const s = cur.settings[0] as SettingReport;
    const w = s.runners.wasm as RunnerReport;
    w.validation = {
      ...w.validation,
      mismatch: 1,
      mismatches: [
        { index: 7, reason: 'value (credit 1, ready 0, tokens 0) but reference has (credit 2, ready 0, tokens 0)' },
      ],
    };
    s.oracle.disagreements.push({
      index: 3,
      reason: 'reference (credit 2, ready 0, tokens 0), highs (credit 3, ready 0, tokens 0)',
    });
    const r = compareReports(base(), cur, defaultGateThresholds);
    expect(r.code).toBe(1);
    expect(r.lines).toContain(
      '  ds-16 wasm: exactness: 1 mismatches (limit 0); first: value (credit 1, ready 0, tokens 0) but reference has (credit 2, ready 0, tokens 0)',
    );
    expect(r.lines).toContain(
      '  ds-16 reference: exactness: problem #3 disagrees with HiGHS: reference (credit 2, ready 0, tokens 0), highs (credit 3, ready 0, tokens 0)',
    );
  });

  it('flags a P95 above its absolute bound', () => {
    const cur = base();
    const s = cur.settings[1] as SettingReport;
    const w = s.runners.wasm as RunnerReport;
    w.time = { ...w.time, p95: 60 };
    const r = compareReports(base(), cur, { ...defaultGateThresholds, maxRatioGrowth: 1000 });
    expect(r.code).toBe(1);
    expect(r.lines).toContain('  ds-64 wasm: P95 60.000 ms exceeds the bound 40 ms (+20.000 ms, 1.5x)');
  });
});
