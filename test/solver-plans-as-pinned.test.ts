/**
 * The solver's plans and work on the pinned corpora (the nine settings' steady-state and warm-up ticks, the
 * hard families: 3,852 problems, each at default options and at quantum 1) are the ones pinned in
 * bench/plan-digests.json: a change to any plan (assignments, value, status, path) or to the work a solve
 * reports shows here, by corpus. Exactness is checked against the oracles elsewhere; this test says that
 * nothing changed that was not meant to. After an intended change: `npm run build && node
 * scripts/plan-digest.mjs --write`, and say in the commit which corpora changed and why.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CorpusDigest, corpusDigests, loadSolver, PINNED_DIGESTS_FILE, type Solver } from './helpers/internals.js';

const root = join(import.meta.dirname, '..');
let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

describe('the pinned corpora', () => {
  it('give the plans and work pinned in bench/plan-digests.json', () => {
    const pinned = JSON.parse(readFileSync(join(root, PINNED_DIGESTS_FILE), 'utf8')) as CorpusDigest[];
    const now = corpusDigests((p, o) => solver.solve(p, o), root);
    expect(now.map((d) => d.corpus)).toEqual(pinned.map((d) => d.corpus));
    expect(now.reduce((a, d) => a + d.problems, 0)).toBeGreaterThan(3000);
    const changed = now.filter((d, i) => d.plans !== pinned[i]!.plans || d.work !== pinned[i]!.work);
    expect(changed.map((d) => `${d.corpus}: plans ${d.plans}, work ${d.work}`)).toEqual([]);
  });
});
