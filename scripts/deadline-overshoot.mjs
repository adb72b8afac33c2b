#!/usr/bin/env node
// Measures how far past its deadline a solve returns, in-thread (`solver.solve`) and through the pool
// (`pool.solve`, the caller's wall time), at 1, 4, 16 and 64 nodes x 100 to 4096 sessions, and how long a
// solve at the default state budget takes there. Prints a markdown table of medians and P95s.
// The problems are random scheduler ticks (360k tokens free per node, sessions of 2k-40k tokens, 70% with
// cache credit on one node, 30% ready): many sessions compete for every node, the DP's hard case.
// Usage: node scripts/deadline-overshoot.mjs [--runs N] [--deadline MS]   (run `npm run build` first)
import { parseArgs } from 'node:util';
import { createSolverPool, loadSolver } from '../dist/index.js';
import { randomTickProblem } from '../dist/commands/examples.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, deadline: { type: 'string', default: '1' } },
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
const fmt = (xs) => `${quantile(xs, 0.5).toFixed(1)} / ${quantile(xs, 0.95).toFixed(1)}`;

const solver = await loadSolver();
const pool = createSolverPool();
await pool.ready();

console.log(`Deadline ${deadlineMs} ms, ${runs} runs per cell; each cell: median / P95 in ms.\n`);
console.log(
  `| nodes | sessions | in-thread: time past the deadline | pool: time past the deadline | in-thread, default budget: time | default budget: outcome |`,
);
console.log(`|---:|---:|---:|---:|---:|---|`);
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
    const viaPool = [];
    const budget = [];
    const outcomes = new Map();
    // One warm-up solve per shape, not measured.
    solver.solve(problems[0], { deadlineMs });
    for (const problem of problems) {
      let t0 = performance.now();
      const a = solver.solve(problem, { deadlineMs });
      inThread.push(Math.max(0, performance.now() - t0 - deadlineMs));
      t0 = performance.now();
      const b = await pool.solve(problem, { deadlineMs });
      viaPool.push(Math.max(0, performance.now() - t0 - deadlineMs));
      t0 = performance.now();
      const c = solver.solve(problem);
      budget.push(performance.now() - t0);
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
    console.log(`| ${nodes} | ${sessions} | ${fmt(inThread)} | ${fmt(viaPool)} | ${fmt(budget)} | ${outcome} |`);
  }
}
await pool.close();
solver.close();
