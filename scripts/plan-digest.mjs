#!/usr/bin/env node
// Prints one sha256 per pinned corpus over every plan the built solver returns for it (assignments, value,
// status, path), at default options and at quantum 1, so two builds can be compared for identical plans;
// a second digest covers the work counters (PlanStats.work and the per-path counters) too
// (src/bench/plan-digest.ts). With --write, pins them in bench/plan-digests.json, which
// test/solver-plans-as-pinned.test.ts checks: run it after an intended change to plans or work.
// Usage: node scripts/plan-digest.mjs [--write] [corpus-dir...]   (run `npm run build` first; by default
// every pinned corpus: bench/corpus, bench/corpus/warm-up and bench/corpus/families)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDigests, PINNED_CORPUS_DIRS, PINNED_DIGESTS_FILE } from '../dist/bench/plan-digest.js';
import { loadSolver } from '../dist/index.js';

const root = new URL('../', import.meta.url).pathname;
const args = process.argv.slice(2);
const write = args.includes('--write');
const dirs = args.filter((a) => a !== '--write');
const solver = await loadSolver();
const digests = corpusDigests((p, o) => solver.solve(p, o), root, dirs.length > 0 ? dirs : PINNED_CORPUS_DIRS);
for (const d of digests) console.log(`${d.corpus} ${d.problems} ${d.plans} work ${d.work}`);
console.log(`${2 * digests.reduce((a, d) => a + d.problems, 0)} plans`);
if (write) {
  writeFileSync(join(root, PINNED_DIGESTS_FILE), `${JSON.stringify(digests, null, 2)}\n`);
  console.log(`pinned in ${PINNED_DIGESTS_FILE}`);
}
solver.close();
