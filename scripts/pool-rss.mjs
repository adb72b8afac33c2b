#!/usr/bin/env node
// Runs many solves through one pool and prints the process's memory every `--every` solves, to show
// whether it levels off. Problems: random scheduler ticks of 2 nodes x 16 sessions (a few hundred
// microseconds each), 8 in flight at a time, every 10th with an AbortSignal shared by the batch and every
// 1000th batch aborted while in flight. Usage: node scripts/pool-rss.mjs [--solves N] [--every N]
// (run `npm run build` first; add --expose-gc to collect garbage before each reading)
import { parseArgs } from 'node:util';
import { createSolverPool } from '../dist/index.js';
import { randomTickProblem } from '../dist/commands/examples.js';

const { values } = parseArgs({
  options: { solves: { type: 'string', default: '200000' }, every: { type: 'string', default: '20000' } },
});
const total = Number(values.solves);
const every = Number(values.every);
const BATCH = 8;

const problems = Array.from({ length: 64 }, (_, i) => randomTickProblem(i, { nodes: 2, sessions: 16 }));
const pool = createSolverPool();
await pool.ready();
const mb = (x) => (x / 2 ** 20).toFixed(1);
const rows = [];
function reading(done) {
  globalThis.gc?.();
  const m = process.memoryUsage();
  rows.push({ done, rss: m.rss });
  console.log(`| ${done} | ${mb(m.rss)} | ${mb(m.heapUsed)} | ${mb(m.external)} | ${mb(m.arrayBuffers)} |`);
}
console.log('| solves | RSS MB | heap used MB | external MB | array buffers MB |');
console.log('|---:|---:|---:|---:|---:|');
reading(0);
let done = 0;
let aborted = 0;
for (let batch = 0; done < total; batch++) {
  const controller = new AbortController();
  const work = [];
  for (let k = 0; k < BATCH; k++) {
    const problem = problems[(batch * BATCH + k) % problems.length];
    const options = k === 0 ? { signal: controller.signal } : {};
    work.push(
      pool.solve(problem, options).catch((err) => {
        if (err.name !== 'AbortError') throw err;
        aborted++;
      }),
    );
  }
  if (batch % 1000 === 999) controller.abort();
  await Promise.all(work);
  const before = done;
  done += BATCH;
  if (Math.floor(done / every) > Math.floor(before / every)) reading(done);
}
const s = pool.stats();
await pool.close();
console.log(`\n${done} solves, ${aborted} aborted, ${s.workerFailures} worker failures, ${s.fallbacks} fallbacks`);
const tail = rows.slice(Math.floor(rows.length / 2));
console.log(
  `RSS over the second half: ${mb(Math.min(...tail.map((r) => r.rss)))}-${mb(Math.max(...tail.map((r) => r.rss)))} MB`,
);
