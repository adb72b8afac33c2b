#!/usr/bin/env node
// Measures how far past its deadline a solve returns, in-thread (`solver.solve`) and through the pool
// (`pool.solve`, the caller's wall time), at 1, 4, 16 and 64 nodes x 100 to 4096 sessions, and how long a
// solve at the default state budget takes there. Prints a markdown table of medians and P95s.
// The problems are random scheduler ticks (360k tokens free per node, sessions of 2k-40k tokens, 70% with
// cache credit on one node, 30% ready): many sessions compete for every node, the DP's hard case.
// With --before DIR (a built checkout of another version) a second table times that build's in-thread
// solves beside this one's, problem by problem in this one process; both tables add the solving thread's
// CPU time and the largest value of each cell.
// Usage: node scripts/deadline-overshoot.mjs [--runs N] [--deadline MS] [--before DIR]   (run `npm run build` first)
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { threadCpuMs } from '../dist/bench/thread-clock.js';
import { createSolverPool, loadSolver } from '../dist/index.js';
import { randomTickProblem } from '../dist/commands/examples.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    deadline: { type: 'string', default: '1' },
    before: { type: 'string' },
  },
});
const runs = Number(values.runs);
const deadlineMs = Number(values.deadline);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
if (!(deadlineMs > 0)) throw new Error('--deadline must be a positive number of milliseconds');

const NODES = [1, 4, 16, 64];
const SESSIONS = [100, 512, 1024, 4096];

function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
}
const fmt = (xs) =>
  `${quantile(xs, 0.5).toFixed(1)} / ${quantile(xs, 0.95).toFixed(1)} / ${Math.max(...xs).toFixed(1)}`;

const solver = await loadSolver();
const before =
  values.before === undefined
    ? undefined
    : await (await import(pathToFileURL(resolve(values.before, 'dist/index.js')).href)).loadSolver();
const pool = createSolverPool();
await pool.ready();
const beforeRows = [];

console.log(
  `Deadline ${deadlineMs} ms, ${runs} runs per cell; each cell: median / P95 / max in ms; load average at the start ${loadavg()[0].toFixed(1)}.\n`,
);
console.log(
  `| nodes | sessions | in-thread: time past the deadline | in-thread: thread CPU at the deadline | pool: time past the deadline | in-thread, default budget: thread CPU | default budget: outcome |`,
);
console.log(`|---:|---:|---:|---:|---:|---:|---|`);
for (const nodes of NODES) {
  for (const sessions of SESSIONS) {
    const problems = Array.from({ length: runs }, (_, r) =>
      randomTickProblem(1000 * nodes + sessions + r, {
        nodes,
        sessions,
        capacity: 360_000,
        minTokens: 2000,
        maxTokens: 40_000,
        cachedRate: 0.7,
      }),
    );
    const inThread = [];
    const inThreadCpu = [];
    const viaPool = [];
    const budget = [];
    const outcomes = new Map();
    const was = { inThread: [], inThreadCpu: [], budget: [] };
    // One warm-up solve per shape, not measured.
    solver.solve(problems[0], { deadlineMs });
    before?.solve(problems[0], { deadlineMs });
    for (const problem of problems) {
      let c0 = threadCpuMs();
      let t0 = performance.now();
      const a = solver.solve(problem, { deadlineMs });
      inThread.push(Math.max(0, performance.now() - t0 - deadlineMs));
      inThreadCpu.push(threadCpuMs() - c0);
      t0 = performance.now();
      const b = await pool.solve(problem, { deadlineMs });
      viaPool.push(Math.max(0, performance.now() - t0 - deadlineMs));
      c0 = threadCpuMs();
      const c = solver.solve(problem);
      budget.push(threadCpuMs() - c0);
      if (before !== undefined) {
        c0 = threadCpuMs();
        t0 = performance.now();
        before.solve(problem, { deadlineMs });
        was.inThread.push(Math.max(0, performance.now() - t0 - deadlineMs));
        was.inThreadCpu.push(threadCpuMs() - c0);
        c0 = threadCpuMs();
        before.solve(problem);
        was.budget.push(threadCpuMs() - c0);
      }
      const label =
        c.status === 'optimal'
          ? `optimal (${c.stats.path})`
          : c.reason.startsWith('state budget')
            ? 'budget fallback'
            : c.reason.slice(0, 24);
      outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
      for (const plan of [a, b]) {
        if (plan.status === 'fallback' && !/^(deadline exceeded|state budget exceeded)/.test(plan.reason))
          throw new Error(`unexpected fallback: ${plan.reason}`);
      }
    }
    const outcome = [...outcomes].map(([k, v]) => `${v}x ${k}`).join(', ');
    console.log(
      `| ${nodes} | ${sessions} | ${fmt(inThread)} | ${fmt(inThreadCpu)} | ${fmt(viaPool)} | ${fmt(budget)} | ${outcome} |`,
    );
    if (before !== undefined)
      beforeRows.push(
        `| ${nodes} | ${sessions} | ${fmt(was.inThread)} | ${fmt(was.inThreadCpu)} | ${fmt(was.budget)} |`,
      );
  }
}
if (before !== undefined) {
  console.log(`\nThe build in ${values.before}, the same problems in the same process:\n`);
  console.log(
    '| nodes | sessions | in-thread: time past the deadline | in-thread: thread CPU at the deadline | in-thread, default budget: thread CPU |',
  );
  console.log('|---:|---:|---:|---:|---:|');
  for (const r of beforeRows) console.log(r);
  before.close();
}
console.log(`\nLoad average at the end ${loadavg()[0].toFixed(1)}.`);
await pool.close();
solver.close();
