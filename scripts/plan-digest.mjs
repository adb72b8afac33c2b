#!/usr/bin/env node
// Prints one sha256 per pinned corpus over every plan the built solver returns for it (assignments, value,
// status, path), at default options and at quantum 1, so two builds can be compared for identical plans;
// a second digest covers the work counters (PlanStats.work and the per-path counters) too.
// Usage: node scripts/plan-digest.mjs [corpus-dir...]   (run `npm run build` first; by default every
// pinned corpus: bench/corpus, bench/corpus/warm-up and bench/corpus/families)
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadSolver } from '../dist/index.js';

const root = new URL('../', import.meta.url).pathname;
const dirs =
  process.argv.length > 2
    ? process.argv.slice(2)
    : ['bench/corpus', 'bench/corpus/warm-up', 'bench/corpus/families'].map((d) => join(root, d));
const solver = await loadSolver();
let total = 0;
for (const dir of dirs) {
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl.gz'))
    .sort()) {
    const lines = gunzipSync(readFileSync(join(dir, name)))
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .slice(1);
    const plans = createHash('sha256');
    const work = createHash('sha256');
    for (const line of lines) {
      const problem = JSON.parse(line);
      for (const options of [{}, { quantum: 1 }]) {
        const plan = solver.solve(problem, options);
        const { micros: _, ...stats } = plan.stats;
        plans.update(JSON.stringify([plan.status, plan.value, plan.assignments, plan.stats.path]));
        work.update(JSON.stringify([plan.status, plan.reason ?? null, stats]));
        total++;
      }
    }
    console.log(
      `${relative(root, join(dir, name))} ${lines.length} ${plans.digest('hex').slice(0, 16)} work ${work.digest('hex').slice(0, 16)}`,
    );
  }
}
console.log(`${total} plans`);
