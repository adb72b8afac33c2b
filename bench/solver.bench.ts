/**
 * DP kernel benchmark, two parts.
 * 1. Dense kernel: WASM (SIMD and scalar kernels) against the TypeScript reference, on random tick-shaped
 *    instances of 2 and 4 nodes at a few sizes; ns per DP cell.
 * 2. Frontier: the WASM frontier (`path: 'frontier'`) against the dense DP (`path: 'dense'`, where its
 *    grid fits the budget) and against the frontier's TypeScript reference, on the same kind of
 *    instances and on 6-8 node ones the dense grid cannot hold; ns per unit of frontier work.
 * Every runner's answer is checked against a reference before anything is timed. Reports median and P95
 * per pass over a workload's instances and the speed ratios measured in the same run; writes the numbers
 * as JSON too.
 *
 * Run: `npm run bench:solver` (builds the WASM, compiles this file with tsconfig.bench.json, runs it).
 * Options: `--quick` (shorter time budget), `--json FILE` (default .bench-cache/solver-bench.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Bench } from 'tinybench';
import { randomTickProblem, type TickShape } from '../src/commands/examples.js';
import { frontierSetup } from '../src/solve/dp/frontier/setup.js';
import { FrontierMirror } from '../src/solve/dp/frontier/mirror.js';
import { DpStatus } from '../src/solve/dp/protocol.js';
import { heuristicPlan } from '../src/solve/incumbent.js';
import type { ResolvedSolveOptions } from '../src/solve/options.js';
import type { PackedProblem } from '../src/solve/pack.js';
import { solveReferencePacked } from '../src/solve/dp/dense/mirror.js';
import { loadSolver, prepare, type Solver } from '../src/solve/solver.js';
import { WasmKernels } from '../src/solve/dp/kernels.js';

interface Workload {
  name: string;
  shape: Partial<TickShape>;
  instances: number;
}

const WORKLOADS: Workload[] = [
  { name: '2 nodes, 16 sessions, 64k', shape: { nodes: 2, sessions: 16, capacity: 64_000 }, instances: 8 },
  { name: '2 nodes, 32 sessions, 96k', shape: { nodes: 2, sessions: 32, capacity: 96_000 }, instances: 8 },
  { name: '2 nodes, 48 sessions, 300k', shape: { nodes: 2, sessions: 48, capacity: 300_000 }, instances: 2 },
  {
    name: '4 nodes, 8 sessions, 16k',
    shape: { nodes: 4, sessions: 8, capacity: 16_000, minTokens: 2_000, maxTokens: 10_000 },
    instances: 8,
  },
  {
    name: '4 nodes, 12 sessions, 24k',
    shape: { nodes: 4, sessions: 12, capacity: 24_000, minTokens: 2_000, maxTokens: 12_000 },
    instances: 2,
  },
];

const QUANTUM = 1024;
const STATE_BUDGET = 2 ** 26;

/**
 * Frontier workloads: the dense ones above plus shapes beyond the dense grid (quantum 1024). On the
 * latter the instances are the first that the frontier solves within STATE_BUDGET work units (random
 * ticks with many nodes and tight capacity are not all solvable; the skipped count is printed).
 */
const FRONTIER_WORKLOADS: Workload[] = [
  ...WORKLOADS,
  {
    name: '6 nodes, 30 sessions, 30k',
    shape: { nodes: 6, sessions: 30, capacity: 30_000, minTokens: 2_000, maxTokens: 12_000 },
    instances: 6,
  },
  {
    name: '8 nodes, 24 sessions, 40k',
    shape: { nodes: 8, sessions: 24, capacity: 40_000, minTokens: 2_000, maxTokens: 12_000 },
    instances: 6,
  },
];

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function argValue(flag: string): string | undefined {
  const k = process.argv.indexOf(flag);
  return k >= 0 ? process.argv[k + 1] : undefined;
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const jsonPath = argValue('--json') ?? '.bench-cache/solver-bench.json';
  const kernel = await WasmKernels.create('release');
  const solver = await loadSolver();

  const runKernel = (packed: PackedProblem, simd: boolean): bigint => {
    kernel.instance.setSimd(simd);
    const input = { radix: Array.from(packed.capacity, (c) => c + 1), weight: packed.qweight, keys: packed.key };
    if (kernel.dense.start(input) !== DpStatus.paused) throw new Error('the dense kernel refused the layout');
    kernel.dense.step(Number.POSITIVE_INFINITY);
    return kernel.dense.finish().value;
  };

  const results = [];
  for (const w of WORKLOADS) {
    const prepared = Array.from({ length: w.instances }, (_, k) =>
      prepare(randomTickProblem(1000 + 97 * k, w.shape), { quantum: QUANTUM, stateBudget: STATE_BUDGET }),
    );
    const packs = prepared.map((p) => p.packed);
    const cells = packs.reduce((sum, p) => sum + p.cells, 0);

    // Validate before timing: WASM (both kernels, and the solver's path) against the reference.
    for (const p of prepared) {
      if (!p.packed.keyFits) throw new Error(`${w.name}: packed key does not fit; pick smaller values`);
      const refNodes = solveReferencePacked(p.packed);
      let refKey = 0n;
      refNodes.forEach((b, j) => {
        if (b >= 0) refKey += p.packed.key[j * p.packed.nodeIndex.length + b]!;
      });
      const simd = runKernel(p.packed, true);
      const scalar = runKernel(p.packed, false);
      const raw = solver.runPacked(p.packed, p.options);
      if (simd !== refKey || scalar !== refKey || raw.status !== 'optimal') {
        throw new Error(`${w.name}: WASM ${simd}/${scalar} (${raw.status}) != reference ${refKey}`);
      }
    }

    // The time budget bounds fast tasks; `iterations` is the minimum sample count, kept small so the
    // reference on the largest workloads (~0.2 s per pass) does not dominate the run.
    const bench = new Bench({
      time: quick ? 300 : 1500,
      iterations: quick ? 5 : 15,
      warmupTime: quick ? 50 : 200,
      warmupIterations: 2,
      retainSamples: true,
    });
    bench
      .add('wasm-simd', () => {
        for (const p of packs) runKernel(p, true);
      })
      .add('wasm-scalar', () => {
        for (const p of packs) runKernel(p, false);
      })
      .add('reference', () => {
        for (const p of packs) solveReferencePacked(p);
      });
    await bench.run();

    const row: Record<string, { medianMs: number; p95Ms: number; nsPerCell: number; samples: number }> = {};
    for (const task of bench.tasks) {
      const r = task.result;
      if (r.state !== 'completed') throw new Error(`${w.name} ${task.name}: ${r.state}`);
      const samples = [...(r.latency.samples ?? [])].sort((a, b) => a - b);
      const median = percentile(samples, 0.5);
      row[task.name] = {
        medianMs: median,
        p95Ms: percentile(samples, 0.95),
        nsPerCell: (median * 1e6) / cells,
        samples: samples.length,
      };
    }
    const simd = row['wasm-simd']!;
    const scalar = row['wasm-scalar']!;
    const ref = row['reference']!;
    results.push({
      workload: w.name,
      instances: w.instances,
      cells,
      meanStates: Math.round(packs.reduce((s, p) => s + p.states, 0) / packs.length),
      runners: row,
      speedupVsReference: ref.medianMs / simd.medianMs,
      simdVsScalar: scalar.medianMs / simd.medianMs,
    });
    process.stdout.write(
      `${w.name.padEnd(28)} ${String(cells).padStart(9)} cells | ` +
        `wasm ${simd.nsPerCell.toFixed(2)} ns/cell (median ${simd.medianMs.toFixed(3)} ms, p95 ${simd.p95Ms.toFixed(3)} ms) | ` +
        `scalar ${scalar.nsPerCell.toFixed(2)} | reference ${ref.nsPerCell.toFixed(2)} ns/cell | ` +
        `wasm/reference speed x${(ref.medianMs / simd.medianMs).toFixed(1)}, simd/scalar x${(scalar.medianMs / simd.medianMs).toFixed(2)}\n`,
    );
  }
  const frontier = await frontierSection(solver, quick);
  kernel.close();
  solver.close();

  const report = {
    schemaVersion: 2,
    benchmark: 'solver-kernels',
    settings: { quantum: QUANTUM, quick, node: process.version, timePerTaskMs: quick ? 300 : 1500 },
    results,
    frontier,
  };
  mkdirSync(dirname(jsonPath), { recursive: true });
  writeFileSync(jsonPath, JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(`wrote ${jsonPath}\n`);
}

/** Sum of packed keys of a per-kept-session node choice. */
function keyValue(packed: PackedProblem, node: ArrayLike<number>): bigint {
  let v = 0n;
  for (let j = 0; j < node.length; j++) {
    const b = node[j]!;
    if (b >= 0) v += packed.key[j * packed.nodeIndex.length + b]!;
  }
  return v;
}

/** Runs the TypeScript frontier reference to completion; its optimal key sum. */
function referenceFrontier(packed: PackedProblem): bigint {
  const run = new FrontierMirror(packed, frontierSetup(packed, heuristicPlan(packed)));
  for (let status = run.start(); status === DpStatus.paused; status = run.step(1e9));
  return run.value();
}

async function frontierSection(solver: Solver, quick: boolean): Promise<unknown[]> {
  process.stdout.write('\nfrontier DP (WASM) vs dense DP (WASM) vs frontier reference (TypeScript)\n');
  const results = [];
  for (const w of FRONTIER_WORKLOADS) {
    const prepared: ReturnType<typeof prepare>[] = [];
    let skipped = 0;
    for (let k = 0; prepared.length < w.instances; k++) {
      const p = prepare(randomTickProblem(1000 + 97 * k, w.shape), {
        quantum: QUANTUM,
        stateBudget: STATE_BUDGET,
        path: 'frontier',
      });
      if (solver.runPacked(p.packed, p.options).status === 'optimal') prepared.push(p);
      else skipped++;
    }
    const packs = prepared.map((p) => p.packed);
    const denseFits = packs.every((p) => p.cells <= STATE_BUDGET);
    const options = (path: 'dense' | 'frontier'): ResolvedSolveOptions => ({ ...prepared[0]!.options, path });
    let work = 0;
    for (const p of packs) {
      const f = solver.runPacked(p, options('frontier'));
      if (f.status !== 'optimal') throw new Error(`${w.name}: the frontier fell back (${f.reason ?? ''})`);
      work += f.stats.work;
      const value = keyValue(p, unpackToKept(p, f.node));
      if (value !== referenceFrontier(p)) throw new Error(`${w.name}: frontier ${value} != frontier reference`);
      if (denseFits) {
        const d = solver.runPacked(p, options('dense'));
        if (keyValue(p, unpackToKept(p, d.node)) !== value) throw new Error(`${w.name}: frontier != dense`);
      }
    }
    const bench = new Bench({
      time: quick ? 300 : 1500,
      iterations: quick ? 5 : 15,
      warmupTime: quick ? 50 : 200,
      warmupIterations: 2,
      retainSamples: true,
    });
    bench.add('frontier', () => {
      for (const p of packs) solver.runPacked(p, options('frontier'));
    });
    if (denseFits) {
      bench.add('dense', () => {
        for (const p of packs) solver.runPacked(p, options('dense'));
      });
    }
    bench.add('frontier-reference', () => {
      for (const p of packs) referenceFrontier(p);
    });
    await bench.run();
    const row: Record<string, { medianMs: number; p95Ms: number }> = {};
    for (const task of bench.tasks) {
      const r = task.result;
      if (r.state !== 'completed') throw new Error(`${w.name} ${task.name}: ${r.state}`);
      const samples = [...(r.latency.samples ?? [])].sort((a, b) => a - b);
      row[task.name] = { medianMs: percentile(samples, 0.5), p95Ms: percentile(samples, 0.95) };
    }
    const f = row['frontier']!;
    const d = row['dense'];
    const ref = row['frontier-reference']!;
    results.push({
      workload: w.name,
      instances: w.instances,
      skipped,
      denseCells: packs.reduce((a, p) => a + p.cells, 0),
      frontierWork: work,
      runners: row,
      nsPerWorkUnit: (f.medianMs * 1e6) / work,
      denseOverFrontier: d === undefined ? null : d.medianMs / f.medianMs,
      referenceOverFrontier: ref.medianMs / f.medianMs,
    });
    process.stdout.write(
      `${w.name.padEnd(28)} frontier ${f.medianMs.toFixed(3)} ms (p95 ${f.p95Ms.toFixed(3)}), ${work} work units ` +
        `(${((f.medianMs * 1e6) / work).toFixed(2)} ns/unit) | ` +
        (d === undefined
          ? 'dense over budget'
          : `dense ${d.medianMs.toFixed(3)} ms (x${(d.medianMs / f.medianMs).toFixed(1)})`) +
        ` | TS reference x${(ref.medianMs / f.medianMs).toFixed(1)}` +
        (skipped > 0 ? ` (${skipped} instances skipped: frontier over budget)` : '') +
        '\n',
    );
  }
  return results;
}

/** A RawSolution's node (original indices) back to kept indices. */
function unpackToKept(packed: PackedProblem, node: Int32Array): Int32Array {
  const keptOf = new Map<number, number>();
  packed.nodeIndex.forEach((b, k) => keptOf.set(b, k));
  return Int32Array.from(packed.sessionIndex, (i) => {
    const b = node[i]!;
    return b < 0 ? -1 : keptOf.get(b)!;
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
