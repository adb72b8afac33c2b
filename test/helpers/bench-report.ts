/** A small settings-benchmark report (every setting, wasm and pool runners) for rendering tests. */
import {
  BENCH_SETTING_NAMES as SETTING_NAMES,
  type BenchReport,
  emptyCounts,
  PAPER_TABLE9,
  REPORT_SCHEMA_VERSION,
  type RunnerReport,
  settingInfo,
} from './internals.js';

export function runner(name: string, p95: number): RunnerReport {
  return {
    runner: name,
    description: name,
    problems: 10,
    validation: { ...emptyCounts(), solved: 10, exact: 10 },
    fallbackPct: 0,
    fallbackReasons: {},
    paths: { dense: 10 },
    cells: { median: 1, p95: 2, max: 3 },
    time: { n: 10, mean: p95 / 2, min: 0, p50: p95 / 2, p95, p99: p95, max: p95 },
    ratioToReference: null,
    samplesMs: [p95],
    sampleProblems: [0],
  };
}

export function report(): BenchReport {
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'tao-bench-report',
    createdAt: 'now',
    command: 'tao bench',
    package: { name: 'tao-solver', version: '0.1.0' },
    wasm: { path: 'build/tao.wasm', sha256: null },
    machine: {
      cpus: { model: 'c', count: 2 },
      parallelism: 2,
      memoryGiB: 1,
      node: 'v20',
      os: { platform: 'linux', release: 'r', arch: 'x64' },
      loadAverage1m: 0,
    },
    timing: { timer: 't', unit: 'ms', warmupIterations: 1, cycles: 1, pairedRepeats: 1, gcBetweenRuns: false },
    workload: {
      settings: [...SETTING_NAMES],
      window: 'steady-state',
      seed: 1,
      count: 10,
      runners: ['wasm', 'pool'],
      solveOptions: { quantum: 1024, stateBudget: 1, deadlineMs: null },
      highsSample: 0,
      corpora: {},
    },
    settings: SETTING_NAMES.map((s) => {
      const info = settingInfo(s);
      return {
        setting: s,
        model: info.model,
        nodes: info.nodes,
        workers: info.workers,
        paper: PAPER_TABLE9[s],
        corpus: { hash: 'h', origin: 'cache' as const, file: 'f', generateMs: 0 },
        shape: { nodes: runner('x', 1).time, sessions: runner('x', 1).time, states: runner('x', 1).time },
        oracle: { referenceOptimal: 0, referenceFallback: 0, highsSolved: 0, highsFailed: [], disagreements: [] },
        runners: { wasm: runner('wasm', 0.2), pool: runner('pool', 0.9) },
      };
    }),
    skipped: [],
    goal: { targets: { inThreadP95Ms: 0.5, poolP95Ms: 1, fallbackPct: 0.5, exact: true }, met: true, misses: [] },
    elapsedSec: 1,
  };
}
