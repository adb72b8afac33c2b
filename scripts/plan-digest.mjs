#!/usr/bin/env node
// Prints one sha256 per pinned corpus over every plan the built solver returns for it (assignments, value,
// status, path), at default options and at quantum 1, so two builds can be compared for identical plans.
// Usage: node scripts/plan-digest.mjs [corpus-dir]   (run `npm run build` first)
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadSolver } from '../dist/index.js';

const dir = process.argv[2] ?? new URL('../bench/corpus/', import.meta.url).pathname;
const solver = await loadSolver();
let total = 0;
for (const name of readdirSync(dir).filter((f) => f.endsWith('.jsonl.gz')).sort()) {
  const lines = gunzipSync(readFileSync(join(dir, name))).toString('utf8').split('\n').filter(Boolean).slice(1);
  const hash = createHash('sha256');
  for (const line of lines) {
    const problem = JSON.parse(line);
    for (const options of [{}, { quantum: 1 }]) {
      const plan = solver.solve(problem, options);
      hash.update(JSON.stringify([plan.status, plan.value, plan.assignments, plan.stats.path]));
      total++;
    }
  }
  console.log(`${name} ${lines.length} ${hash.digest('hex').slice(0, 16)}`);
}
console.log(`${total} plans`);
