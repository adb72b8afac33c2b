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
 * - "hand-off": the transport's floor, side by side in one run (a bare postMessage echo to a worker thread, an
 *   Atomics.wait / Atomics.waitAsync ping, Piscina's run() of a no-op, the pool's solve of a 1-session
 *   problem), then the pool beside a shared-memory hand-off on real solves: the packed problem copied as
 *   flat typed arrays into a SharedArrayBuffer per worker, the worker blocked in Atomics.wait (no spin),
 *   the answer written back into the buffer and the caller woken by Atomics.waitAsync, or by a message.
 *   Beside them, the parts of a pool solve that do work: the worker's own time, the caller's share
 *   (validation, packing, the Plan) and the structured clone of the pool's message; what remains of the
 *   round trip is the two threads' wake-ups. Also the busiest thread's CPU time over an idle second (a
 *   worker that spins would show). Prints one JSON object (docs/results/pool-handoff.md).
 *   Run it alone: `npx vitest bench --run bench/pool.bench.ts -t hand-off`.
 */
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, bench, describe } from 'vitest';
import { createSolverPool, workerMicrosOf } from '../src/pool/pool.js';
import { finishPlan, loadSolver, prepare, type RawSolution } from '../src/solve/solver.js';
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

/** The pinned steady-state corpus of a setting (seed 1, 200 ticks). */
function steadyCorpus(setting: (typeof SETTING_NAMES)[number]): Problem[] {
  const file = new URL(`corpus/${pinnedFileName(setting, 1, 200)}`, import.meta.url);
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => JSON.parse(l) as Problem);
}

/** Rounds of the steady-state pass: each tick is solved this many times each way. */
const STEADY_ROUNDS = 3;

async function steadyState(): Promise<void> {
  const load = loadavg()[0];
  const rows: { setting: string; problems: number; inThread: Quantiles; pool: Quantiles }[] = [];
  for (const setting of SETTING_NAMES) {
    const problems = steadyCorpus(setting);
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

// ---------------------------------------------------------------------------------------------------------
// Hand-off: the transport's floor, and a shared-memory hand-off beside the pool.

/** Bytes of each shared-memory worker's buffer: requests from REQUEST_AT, answers from REPLY_AT. */
const RING_BYTES = 1 << 20;
const REQUEST_AT = 4_096;
const REPLY_AT = RING_BYTES / 2;
/** Int32 control words: request sequence (-1: exit), answer sequence, stop flag. */
const CTL_REQUEST = 0;
const CTL_REPLY = 1;
const CTL_STOP = 2;
/** Float64 slots: per packed field its value or byte offset and its length, then the options. */
const HEAD = 8;
const MAX_FIELDS = 32;
const OPTIONS_AT = HEAD + 2 * MAX_FIELDS;
const PATHS = ['auto', 'dense', 'frontier'] as const;

/**
 * The shared-memory worker (CommonJS, run with `eval`): loads one solver, then blocks in Atomics.wait until
 * the caller bumps the request sequence; solves on views of the packed problem in the buffer (the caller
 * writes the next one only after the answer), and answers through the buffer (node indices, then the rest
 * as JSON) and Atomics.notify, or by a message.
 */
const SHARED_WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
(async () => {
  const { loadSolver } = await import(workerData.solverUrl);
  const solver = await loadSolver();
  const { sab, schema, reply } = workerData;
  const ctl = new Int32Array(sab, 0, 8);
  const f64 = new Float64Array(sab);
  const i32 = new Int32Array(sab);
  const u8 = new Uint8Array(sab);
  const stop = new Int32Array(sab, ${4 * CTL_STOP}, 1);
  const kinds = { Int32Array, Float64Array, Uint8Array, BigInt64Array };
  const paths = ${JSON.stringify(PATHS)};
  const encoder = new TextEncoder();
  parentPort.postMessage('ready');
  let seen = 0;
  for (;;) {
    Atomics.wait(ctl, ${CTL_REQUEST}, seen);
    seen = Atomics.load(ctl, ${CTL_REQUEST});
    if (seen < 0) return;
    const t0 = performance.now();
    const packed = {};
    schema.forEach(([key, kind], k) => {
      const v = f64[${HEAD} + 2 * k];
      if (kind === 'number') packed[key] = v;
      else if (kind === 'boolean') packed[key] = v !== 0;
      else packed[key] = new kinds[kind](sab, v, f64[${HEAD} + 2 * k + 1]);
    });
    const o = ${OPTIONS_AT};
    const options = { quantum: f64[o], stateBudget: f64[o + 1], deadlineMs: f64[o + 2], path: paths[f64[o + 3]] };
    const raw = solver.runPacked(packed, options, t0 - f64[o + 4], stop);
    const micros = (performance.now() - t0) * 1000;
    const { node, ...rest } = raw;
    if (reply === 'message') {
      const own = node.slice();
      parentPort.postMessage({ raw: { ...rest, node: own }, micros }, [own.buffer]);
      continue;
    }
    const at = ${REPLY_AT / 4};
    i32[at] = node.length;
    i32.set(node, at + 2);
    i32[at + 1] = encoder.encodeInto(JSON.stringify({ ...rest, micros }), u8.subarray((at + 2 + node.length) * 4)).written;
    Atomics.store(ctl, ${CTL_REPLY}, seen);
    Atomics.notify(ctl, ${CTL_REPLY});
  }
})();
`;

type WaitAsync = (
  view: Int32Array,
  index: number,
  value: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** Resolves once `ctl[index]` is no longer `from`, without blocking the event loop. */
async function changed(ctl: Int32Array, index: number, from: number): Promise<void> {
  for (;;) {
    if (Atomics.load(ctl, index) !== from) return;
    const w = waitAsync(ctl, index, from);
    if (w.async) await w.value;
  }
}

interface Timed {
  plan: Plan;
  /** The worker's own time on the solve, microseconds. */
  workerMicros: number;
}

/** One shared-memory worker: `solve` hands a problem over as the pool would, with the answer as `reply` says. */
async function sharedWorker(schema: [string, string][], reply: 'waitAsync' | 'message') {
  const sab = new SharedArrayBuffer(RING_BYTES);
  const ctl = new Int32Array(sab, 0, 8);
  const f64 = new Float64Array(sab);
  const i32 = new Int32Array(sab);
  const u8 = new Uint8Array(sab);
  const solverUrl = pathToFileURL(fileURLToPath(new URL('../dist/solve/solver.js', import.meta.url))).href;
  const worker = new Worker(SHARED_WORKER, { eval: true, workerData: { sab, schema, reply, solverUrl } });
  await new Promise((resolve) => worker.once('message', resolve));
  const decoder = new TextDecoder();
  let seq = 0;
  async function solve(problem: Problem): Promise<Timed> {
    const t0 = performance.now();
    const prepared = prepare(problem);
    const packed = prepared.packed as unknown as Record<string, unknown>;
    let at = REQUEST_AT;
    schema.forEach(([key, kind], k) => {
      const v = packed[key];
      if (kind === 'number') f64[HEAD + 2 * k] = v as number;
      else if (kind === 'boolean') f64[HEAD + 2 * k] = v === true ? 1 : 0;
      else {
        const view = v as ArrayBufferView & { length: number };
        at = (at + 7) & ~7;
        if (at + view.byteLength > REPLY_AT) throw new Error('problem larger than the shared buffer');
        u8.set(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), at);
        f64[HEAD + 2 * k] = at;
        f64[HEAD + 2 * k + 1] = view.length;
        at += view.byteLength;
      }
    });
    const o = prepared.options;
    f64.set([o.quantum, o.stateBudget, o.deadlineMs, PATHS.indexOf(o.path), performance.now() - t0], OPTIONS_AT);
    Atomics.store(ctl, CTL_STOP, 0);
    seq += 1;
    const answered = reply === 'message' ? new Promise((resolve) => worker.once('message', resolve)) : undefined;
    Atomics.store(ctl, CTL_REQUEST, seq);
    Atomics.notify(ctl, CTL_REQUEST);
    let raw: RawSolution;
    let workerMicros: number;
    if (answered !== undefined) {
      ({ raw, micros: workerMicros } = (await answered) as { raw: RawSolution; micros: number });
    } else {
      await changed(ctl, CTL_REPLY, seq - 1);
      const r = REPLY_AT / 4;
      const n = i32[r]!;
      const node = i32.slice(r + 2, r + 2 + n);
      const from = (r + 2 + n) * 4;
      const { micros, ...rest } = JSON.parse(decoder.decode(u8.slice(from, from + i32[r + 1]!))) as Omit<
        RawSolution,
        'node'
      > & { micros: number };
      raw = { ...rest, node };
      workerMicros = micros;
    }
    return { plan: finishPlan(prepared, raw, Math.round((performance.now() - t0) * 1_000)), workerMicros };
  }
  return {
    solve,
    close: async (): Promise<void> => {
      Atomics.store(ctl, CTL_REQUEST, -1);
      Atomics.notify(ctl, CTL_REQUEST);
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}

/** The transport alone: echo and ping workers, and a Piscina pool of a no-op handler. */
async function floorWays(dir: string) {
  const echo = new Worker(
    "const { parentPort } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage(m));",
    { eval: true },
  );
  await new Promise((resolve) => echo.once('online', resolve));
  const ping = new Int32Array(new SharedArrayBuffer(8));
  const pinger = new Worker(
    `const { workerData } = require('node:worker_threads');
     const ctl = new Int32Array(workerData);
     for (let seen = 0; ; ) {
       Atomics.wait(ctl, 0, seen);
       seen = Atomics.load(ctl, 0);
       if (seen < 0) break;
       Atomics.store(ctl, 1, seen);
       Atomics.notify(ctl, 1);
     }`,
    { eval: true, workerData: ping.buffer },
  );
  await new Promise((resolve) => pinger.once('online', resolve));
  const noop = join(dir, 'noop-worker.mjs');
  writeFileSync(noop, 'export default function noop() { return 0; }\n');
  const { Piscina } = createRequire(import.meta.url)('piscina') as typeof import('piscina');
  const piscina = new Piscina({ filename: noop, minThreads: 1, maxThreads: 1, recordTiming: false });
  let seq = 0;
  return {
    ways: {
      'postMessage echo': () =>
        new Promise((resolve) => {
          echo.once('message', resolve);
          echo.postMessage(1);
        }),
      'Atomics.wait worker, Atomics.waitAsync caller': async () => {
        seq += 1;
        Atomics.store(ping, 0, seq);
        Atomics.notify(ping, 0);
        await changed(ping, 1, seq - 1);
      },
      'Piscina run() of a no-op': () => piscina.run(0),
    } as Record<string, () => Promise<unknown>>,
    close: async (): Promise<void> => {
      Atomics.store(ping, 0, -1);
      Atomics.notify(ping, 0);
      await Promise.all([echo.terminate(), piscina.destroy()]);
    },
  };
}

/** Times `ways` in blocks of `block` calls, rotating which goes first; microseconds per call. */
async function sideBySide(
  ways: Record<string, (i: number) => Promise<unknown> | unknown>,
  calls: number,
  block: number,
): Promise<Record<string, number[]>> {
  const names = Object.keys(ways);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const way of Object.values(ways)) for (let i = 0; i < Math.min(block * 4, calls); i++) await way(i);
  for (let b = 0; b * block < calls; b++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + b) % names.length]!;
      const way = ways[name]!;
      for (let i = 0; i < block; i++) {
        const t0 = performance.now();
        await way(b * block + i);
        samples[name]!.push((performance.now() - t0) * 1_000);
      }
    }
  }
  return samples;
}

/** utime + stime of every thread of this process, clock ticks (Linux /proc; empty elsewhere). */
function threadTicks(): Map<string, number> {
  const out = new Map<string, number>();
  if (!existsSync('/proc/self/task')) return out;
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, Number(f[11]) + Number(f[12]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

/**
 * CPU time per thread over an idle second, milliseconds (ticks of 10 ms): the busiest thread's and all
 * threads' together. A worker that spins shows about 1000 ms; one blocked in Atomics.wait, 0.
 */
async function idleThreadCpuMs(ms = 1_000): Promise<{ busiestThread: number; allThreads: number } | null> {
  const before = threadTicks();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = threadTicks();
  if (after.size === 0) return null;
  const deltas = [...after].map(([tid, t]) => t - (before.get(tid) ?? t));
  const tick = 10;
  return { busiestThread: Math.max(...deltas) * tick, allThreads: deltas.reduce((a, b) => a + b, 0) * tick };
}

/** The paper's largest setting of each model, and the smallest. */
const HAND_OFF_SETTINGS = ['ds-16', 'ds-64', 'qwen-160', 'glm-160'] as const;
const FLOOR_CALLS = 3_000;
const HAND_OFF_ROUNDS = 3;

async function handOff(): Promise<void> {
  const load = loadavg();
  const idleBefore = await idleThreadCpuMs();
  const dir = mkdtempSync(join(tmpdir(), 'tao-hand-off-'));
  const floor = await floorWays(dir);
  const tiny1 = problemOf(1, 1);
  const floorSamples = await sideBySide(
    {
      ...floor.ways,
      'pool.solve, 1 session': () => pool.solve(tiny1),
      'in-thread solver.solve, 1 session': () => solver.solve(tiny1),
    },
    FLOOR_CALLS,
    50,
  );
  await floor.close();
  rmSync(dir, { recursive: true, force: true });

  const corpora = Object.fromEntries(HAND_OFF_SETTINGS.map((s) => [s, steadyCorpus(s)]));
  const first = prepare(corpora['glm-160']![0]!).packed as unknown as Record<string, unknown>;
  const schema: [string, string][] = Object.entries(first).map(([k, v]) => [
    k,
    typeof v === 'number' || typeof v === 'boolean' ? typeof v : (v as object).constructor.name,
  ]);
  if (schema.length > MAX_FIELDS) throw new Error('PackedProblem has more fields than the shared header holds');
  const shared = await sharedWorker(schema, 'waitAsync');
  const messaged = await sharedWorker(schema, 'message');
  const ways: Record<string, (p: Problem) => Promise<Timed>> = {
    'pool.solve (Piscina)': async (p) => {
      const plan = await pool.solve(p);
      return { plan, workerMicros: workerMicrosOf(plan) ?? Number.NaN };
    },
    'shared memory, Atomics.waitAsync answer': shared.solve,
    'shared memory, message answer': messaged.solve,
  };
  // Every way gives the in-thread plan before anything is timed.
  for (const problems of Object.values(corpora)) {
    for (const p of problems) {
      const expected = timeless(solver.solve(p));
      for (const [name, way] of Object.entries(ways)) {
        if (!isDeepStrictEqual(timeless((await way(p)).plan), expected)) throw new Error(`${name}: plan differs`);
      }
    }
  }
  const rows = [];
  for (const setting of HAND_OFF_SETTINGS) {
    const problems = corpora[setting]!;
    const worker: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((n) => [n, []]));
    const timedWays = Object.fromEntries(
      Object.entries(ways).map(([name, way]) => [
        name,
        async (i: number) => worker[name]!.push((await way(problems[i % problems.length]!)).workerMicros),
      ]),
    );
    // What the caller's thread does on either path (validation, packing, the Plan), beside the solves.
    const raws = problems.map((p) => {
      const { packed, options } = prepare(p);
      return solver.runPacked(packed, options);
    });
    const callerShare = (i: number): Plan => {
      const k = i % problems.length;
      return finishPlan(prepare(problems[k]!), raws[k]!, 0);
    };
    // The structured clone of the pool's message alone, both ends on this thread (copied, not transferred).
    const messages = problems.map((p) => {
      const { packed, options } = prepare(p);
      return { kind: 'solve', packed, options, stop: new Int32Array(new SharedArrayBuffer(4)), elapsedMs: 0 };
    });
    const channel = new MessageChannel();
    const cloneOnly = (i: number): unknown => {
      channel.port1.postMessage(messages[i % problems.length]);
      return receiveMessageOnPort(channel.port2);
    };
    const samples = await sideBySide(
      {
        ...timedWays,
        'in-thread solver.solve': (i: number) => solver.solve(problems[i % problems.length]!),
        "caller's share (prepare, finishPlan)": callerShare,
        "structured clone of the pool's message": cloneOnly,
      },
      problems.length * HAND_OFF_ROUNDS,
      1,
    );
    channel.port1.close();
    rows.push({
      setting,
      problems: problems.length,
      ways: Object.fromEntries(
        Object.entries(samples).map(([name, s]) => [
          name,
          {
            total: quantiles(s),
            ...(worker[name] === undefined
              ? {}
              : { worker: quantiles(worker[name]!), handOff: quantiles(s.map((t, k) => t - worker[name]![k]!)) }),
          },
        ]),
      ),
    });
  }
  const idleShared = await idleThreadCpuMs();
  await Promise.all([shared.close(), messaged.close()]);
  console.log(
    JSON.stringify({
      schemaVersion: 1,
      workload: 'pool-hand-off',
      machine: {
        node: process.version,
        cores: availableParallelism(),
        cpu: cpus()[0]?.model ?? 'unknown',
        loadAverageAtStart: load,
        loadAverageAtEnd: loadavg(),
      },
      unit: 'microseconds per call, wall clock',
      floor: {
        calls: FLOOR_CALLS,
        ways: Object.fromEntries(Object.entries(floorSamples).map(([n, s]) => [n, quantiles(s)])),
      },
      idleThreadCpuMsPerSecond: { pool: idleBefore, poolAndSharedMemoryWorkers: idleShared },
      rounds: HAND_OFF_ROUNDS,
      rows,
    }),
  );
}

describe('hand-off', () => {
  bench('transport floor and a shared-memory hand-off beside the pool (prints JSON)', handOff, {
    iterations: 1,
    time: 0,
    warmupIterations: 0,
    warmupTime: 0,
  });
});
