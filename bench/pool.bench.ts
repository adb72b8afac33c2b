/**
 * Pool round trip and the in-thread vs pool crossover that sets the planner's `inThreadMaxWork`.
 *
 *   npm run build && npm run bench:pool     (= vitest bench --run bench/pool.bench.ts)
 *
 * The workers run the compiled `dist/pool/worker.js`, so build first. Three groups:
 * - "round trip": a 1-session solve in-thread and through the pool; the difference is the cost of
 *   crossing threads (post, wake the worker, answer, build the plan).
 * - "crossover": a sweep over DP sizes, each problem validated first (pool plan == in-thread plan), then
 *   timed in both ways with a warm-up; prints one JSON object (schemaVersion 1) with the medians, P95 and
 *   P99 per size, the round-trip overhead and the crossover: the smallest size whose in-thread solve
 *   takes longer than the overhead. Below it a direct solve returns sooner and blocks the loop for less
 *   than a round trip would add; above it the pool keeps the loop free at little relative cost.
 * - "steady state": the pinned steady-state corpora of the nine settings (bench/corpus), each tick solved
 *   in-thread and through the pool alternately; prints one JSON object with P50/P95/P99 per setting and
 *   the load average, since a pool's tail is the time its threads wait for a core.
 */
import { availableParallelism, cpus, loadavg } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, bench, describe } from 'vitest';
import { createSolverPool } from '../src/pool/pool.js';
import { loadSolver, prepare } from '../src/solve/solver.js';
import { quantileSorted, sortedCopy } from '../src/stats.js';
import { SETTING_NAMES } from '../src/bench/settings.js';
import { pinnedFileName } from '../src/bench/corpus.js';
import type { Plan, Problem } from '../src/types.js';

const workerFile = fileURLToPath(new URL('../dist/pool/worker.js', import.meta.url));
if (!existsSync(workerFile))
  throw new Error('dist/pool/worker.js is missing: run `npm run build` before `npm run bench:pool`');

const pool = createSolverPool({ workerFile, minThreads: 1, maxThreads: 1 });
const solver = await loadSolver();
await pool.ready();
afterAll(async () => {
  solver.close();
  await pool.close();
});

const QUANTUM = 1_024;

/** Two nodes of `capacityQuanta` quanta each and `n` sessions of 1..8 quanta: cells ~ n x (C'+1)^2. */
function problemOf(n: number, capacityQuanta: number): Problem {
  return {
    nodes: [
      { id: 'a', capacity: capacityQuanta * QUANTUM },
      { id: 'b', capacity: capacityQuanta * QUANTUM },
    ],
    sessions: Array.from({ length: n }, (_, i) => ({
      id: `s${i}`,
      weight: QUANTUM * (1 + ((i * 7) % 8)),
      tokens: 1_000 + i * 37,
      ready: i % 3 === 0,
      credit: { a: (i * 53) % 700 },
    })),
  };
}

const tiny = problemOf(1, 1);

describe('round trip', () => {
  bench('in-thread solver.solve, 1 session', () => {
    solver.solve(tiny);
  });
  bench('pool.solve, 1 session', async () => {
    await pool.solve(tiny);
  });
});

interface Quantiles {
  p50: number;
  p95: number;
  p99: number;
}

function quantiles(samples: number[]): Quantiles {
  const s = sortedCopy(samples);
  const at = (q: number): number => Math.round(quantileSorted(s, q) * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** Microseconds per call, after a warm-up, one sample per call. */
async function timeIt(fn: () => unknown, samples: number): Promise<Quantiles> {
  for (let i = 0; i < Math.min(100, samples); i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await fn();
    out.push((performance.now() - t0) * 1_000);
  }
  return quantiles(out);
}

const timeless = (p: Plan): unknown => ({ ...p, stats: { ...p.stats, micros: 0 } });

const SIZES: readonly [sessions: number, capacityQuanta: number][] = [
  [1, 1],
  [8, 4],
  [16, 8],
  [16, 16],
  [16, 24],
  [16, 32],
  [16, 40],
  [16, 48],
  [16, 56],
  [16, 64],
  [24, 96],
  [32, 128],
  [32, 256],
];

async function sweep(): Promise<void> {
  const rows: { sessions: number; cells: number; inThread: Quantiles; pool: Quantiles }[] = [];
  for (const [n, c] of SIZES) {
    const problem = problemOf(n, c);
    const cells = prepare(problem).packed.cells;
    if (!isDeepStrictEqual(timeless(await pool.solve(problem)), timeless(solver.solve(problem)))) {
      throw new Error(`pool and in-thread plans differ at ${cells} cells: not timing a wrong answer`);
    }
    const samples = cells > 200_000 ? 150 : 600;
    rows.push({
      sessions: n,
      cells,
      inThread: await timeIt(() => solver.solve(problem), samples),
      pool: await timeIt(() => pool.solve(problem), samples),
    });
  }
  // The round-trip overhead, from the sizes where the DP itself is negligible.
  const small = rows.filter((r) => r.cells <= 5_000).map((r) => r.pool.p50 - r.inThread.p50);
  const overhead = quantiles(small).p50;
  const crossover = rows.find((r) => r.inThread.p50 >= overhead);
  console.log(
    JSON.stringify({
      schemaVersion: 1,
      workload: 'pool-crossover',
      settings: { quantum: QUANTUM, nodes: 2, maxThreads: 1, build: pool.options.build },
      machine: { node: process.version, cores: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown' },
      unit: 'microseconds per solve, validation and plan building included',
      roundTripOverheadMicros: overhead,
      crossoverCells: crossover?.cells ?? null,
      rows,
    }),
  );
}

describe('crossover', () => {
  bench('sweep in-thread vs pool by DP cells (prints JSON)', sweep, {
    iterations: 1,
    time: 0,
    warmupIterations: 0,
    warmupTime: 0,
  });
});

/** Rounds of the steady-state pass: each tick is solved this many times each way. */
const STEADY_ROUNDS = 3;

async function steadyState(): Promise<void> {
  const load = loadavg()[0];
  const rows: { setting: string; problems: number; inThread: Quantiles; pool: Quantiles }[] = [];
  for (const setting of SETTING_NAMES) {
    const file = new URL(`corpus/${pinnedFileName(setting, 1, 200)}`, import.meta.url);
    const problems = gunzipSync(readFileSync(file))
      .toString('utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l) as Problem);
    const inThread: number[] = [];
    const pooled: number[] = [];
    for (let r = 0; r < STEADY_ROUNDS; r++) {
      for (const [i, problem] of problems.entries()) {
        // Alternate which goes first, so neither always finds the caches warm.
        for (const first of (i + r) % 2 === 0 ? [true, false] : [false, true]) {
          const t0 = performance.now();
          if (first) solver.solve(problem);
          else await pool.solve(problem);
          (first ? inThread : pooled).push((performance.now() - t0) * 1_000);
        }
      }
    }
    rows.push({ setting, problems: problems.length, inThread: quantiles(inThread), pool: quantiles(pooled) });
  }
  console.log(
    JSON.stringify({
      schemaVersion: 1,
      workload: 'pool-steady-state',
      machine: {
        node: process.version,
        cores: availableParallelism(),
        cpu: cpus()[0]?.model ?? 'unknown',
        loadAverage1mAtStart: load,
        loadAverage1mAtEnd: loadavg()[0],
      },
      unit: 'microseconds per solve, validation and plan building included',
      rows,
    }),
  );
}

describe('steady state', () => {
  bench('in-thread vs pool on the steady-state corpora (prints JSON)', steadyState, {
    iterations: 1,
    time: 0,
    warmupIterations: 0,
    warmupTime: 0,
  });
});
