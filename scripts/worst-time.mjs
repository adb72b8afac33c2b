#!/usr/bin/env node
// The solver's time on constructed shapes at the documented caps (64 nodes, 4,096 sessions), at default
// options and with deadlineMs 1 and 2: per shape, the largest and the median thread CPU time of a
// default solve (the least of --runs runs per problem, the thread clock of src/bench/thread-clock.ts,
// so the machine's scheduling noise is removed), with deadlineMs the largest CPU time of a solve and the
// largest wall time past the deadline (each the least over the runs, after one untimed solve at that
// deadline), and the outcomes. Prints a Markdown table (with the date and the load average at the start).
// With --before DIR (a checkout of another version, built), both solvers run in this one process, each
// problem timed on one then the other, and every shape has a row per version.
// Usage: node scripts/worst-time.mjs [--count N] [--runs R] [--before DIR]   (run `npm run build` first)
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { burstProblem } from '../dist/bench/families/burst.js';
import { bigSteadyProblem } from '../dist/bench/families/big-steady.js';
import { threadCpuMs } from '../dist/bench/thread-clock.js';
import { randomTickProblem, seededRandom } from '../dist/commands/examples.js';
import { loadSolver } from '../dist/index.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '4' },
    runs: { type: 'string', default: '3' },
    before: { type: 'string' },
  },
});
const count = Number(values.count);
const runs = Number(values.runs);
if (!Number.isInteger(count) || count < 1) throw new Error('--count must be a positive integer');
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');

/** m nodes x n sessions, uncredited, one shared capacity: a whole-problem multiple knapsack. */
function uncredited(seed, m, n, room) {
  const rnd = seededRandom(seed);
  const sessions = Array.from({ length: n }, (_, i) => {
    const tokens = 3000 + Math.floor(rnd() * 87_000);
    return { id: `s${i}`, weight: tokens + 512, tokens, ready: rnd() < 0.3 };
  });
  const total = sessions.reduce((a, s) => a + s.weight, 0);
  return {
    nodes: Array.from({ length: m }, (_, b) => ({ id: `n${b}`, capacity: Math.round((room * total) / m) })),
    sessions,
  };
}

/**
 * Every session credited on `per` nodes (all of them by default) with distinct credits: the credit level's
 * widest case, and the most credit entries validation and packing read.
 */
function creditedEverywhere(seed, m, n, per = m) {
  const rnd = seededRandom(seed);
  const ids = Array.from({ length: m }, (_, b) => `n${b}`);
  const sessions = Array.from({ length: n }, (_, i) => {
    const tokens = 3000 + Math.floor(rnd() * 87_000);
    const credit = {};
    for (let k = 0; k < per; k++) credit[ids[(i + k) % m]] = 1 + Math.floor(rnd() * tokens);
    return { id: `s${i}`, weight: tokens + 512, tokens, ready: rnd() < 0.3, credit };
  });
  const total = sessions.reduce((a, s) => a + s.weight, 0);
  return { nodes: ids.map((id) => ({ id, capacity: Math.round((0.4 * total) / m) })), sessions };
}

const SHAPES = [
  ['burst 64 x 4096', (i) => burstProblem(1, 7, 64, 4096, i)],
  ['burst 64 x 2048', (i) => burstProblem(1, 6, 64, 2048, i)],
  ['big-steady 64 x 4096', (i) => bigSteadyProblem(1, 7, 64, 4096, i)],
  ['big-steady 32 x 1024', (i) => bigSteadyProblem(1, 5, 32, 1024, i)],
  ['uncredited 64 x 4096, room 40%', (i) => uncredited(100 + i, 64, 4096, 0.4)],
  ['uncredited 16 x 4096, room 40%', (i) => uncredited(200 + i, 16, 4096, 0.4)],
  ['credit on every node 64 x 4096', (i) => creditedEverywhere(300 + i, 64, 4096)],
  ['credit on 8 nodes per session 64 x 4096', (i) => creditedEverywhere(400 + i, 64, 4096, 8)],
  ['credit on every node 16 x 1024', (i) => creditedEverywhere(500 + i, 16, 1024)],
  ['uncredited 4 x 120, room 40% (near-fitting)', (i) => uncredited(600 + i, 4, 120, 0.9)],
  [
    'random ticks 64 x 4096 (360k tokens per node)',
    (i) =>
      randomTickProblem(64_000 + 4096 + i, {
        nodes: 64,
        sessions: 4096,
        capacity: 360_000,
        minTokens: 2000,
        maxTokens: 40_000,
        cachedRate: 0.7,
      }),
  ],
];

const builds = [['this build', await loadSolver()]];
if (values.before !== undefined) {
  const other = await import(pathToFileURL(resolve(values.before, 'dist/index.js')).href);
  builds.unshift(['before', await other.loadSolver()]);
}
const startedAt = new Date();
const load = loadavg()[0];
const rows = [];
const f = (x) => x.toFixed(1);
for (const [name, make] of SHAPES) {
  const per = builds.map(() => ({ cpu: [], past: { 1: [], 2: [] }, pastCpu: { 1: [], 2: [] }, outcomes: new Map() }));
  for (let i = 0; i < count; i++) {
    const problem = make(i);
    builds.forEach(([, solver], k) => {
      const m = per[k];
      solver.solve(problem);
      let best = Infinity;
      let plan;
      for (let r = 0; r < runs; r++) {
        const t0 = threadCpuMs();
        plan = solver.solve(problem);
        best = Math.min(best, threadCpuMs() - t0);
      }
      m.cpu.push(best);
      const label =
        plan.status === 'optimal' ? `optimal (${plan.stats.path})` : `fallback (${plan.reason.split(':')[0]})`;
      m.outcomes.set(label, (m.outcomes.get(label) ?? 0) + 1);
      for (const d of [1, 2]) {
        let least = Infinity;
        let leastCpu = Infinity;
        // One solve at this deadline first, not timed: the code past a deadline is compiled by then.
        solver.solve(problem, { deadlineMs: d });
        for (let r = 0; r < runs; r++) {
          const c0 = threadCpuMs();
          const t0 = performance.now();
          solver.solve(problem, { deadlineMs: d });
          least = Math.min(least, performance.now() - t0 - d);
          leastCpu = Math.min(leastCpu, threadCpuMs() - c0);
        }
        m.past[d].push(Math.max(0, least));
        m.pastCpu[d].push(leastCpu);
      }
    });
  }
  builds.forEach(([build], k) => {
    const { cpu, past, pastCpu, outcomes } = per[k];
    cpu.sort((a, b) => a - b);
    const outcome = [...outcomes].map(([o, v]) => `${v}x ${o}`).join(', ');
    const label = builds.length > 1 ? `${name} (${build})` : name;
    rows.push(
      `| ${label} | ${count} | ${f(cpu[cpu.length >> 1])} / ${f(cpu.at(-1))} | ${f(Math.max(...pastCpu[1]))} / ${f(Math.max(...past[1]))} | ${f(Math.max(...pastCpu[2]))} / ${f(Math.max(...past[2]))} | ${outcome} |`,
    );
    console.error(rows.at(-1));
  });
}
console.log(
  `Generated by \`node scripts/worst-time.mjs ${process.argv.slice(2).join(' ')}\` on ${startedAt.toISOString().slice(0, 10)}: the least of ${runs} runs per problem; load average at the start ${load.toFixed(1)}, at the end ${loadavg()[0].toFixed(1)}.\n`,
);
console.log(
  '| shape | problems | default options: thread CPU median / max ms | deadlineMs 1: most thread CPU ms / most wall ms past it | deadlineMs 2: most thread CPU ms / most wall ms past it | default outcome |',
);
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
