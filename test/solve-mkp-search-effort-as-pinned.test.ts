/**
 * The multiple-knapsack search's plans, ends, counters and work on a corpus that reaches every part of it
 * (test/helpers/mkp-effort-corpus.ts: 323 searches of tied problems, pools of 1-8 nodes with small, large
 * and edge rooms, budgets too small to bound the root, solves stopped by the halting check; 12 budget
 * sweeps; one solver's scratch for all, as its solves share it) are the ones pinned in
 * test/fixtures/mkp-search-effort.txt. Exactness is checked against brute force and HiGHS elsewhere; this
 * test says that the search's effort and its choices among tied plans did not change without being meant
 * to: a change to a pruning rule, a tie-break, a share or a work charge shows here, by case. After an
 * intended change: `npx vitest run test/solve-mkp-search-effort-as-pinned.test.ts -u`, and say in the
 * commit which cases changed and why (more work or less, on which shapes).
 */
import { describe, expect, it } from 'vitest';
import type { MkpScratchStore } from './helpers/internals.js';
import { effortCorpus, effortLine, sweepLine } from './helpers/mkp-effort-corpus.js';

describe('the multiple-knapsack search on its effort corpus', () => {
  it('gives the plans, ends, counters and work pinned in test/fixtures/mkp-search-effort.txt', async () => {
    const corpus = effortCorpus();
    expect(corpus.length).toBe(323);
    const store: MkpScratchStore = { mkp: null };
    const lines = corpus.map((c) => effortLine(c, store));
    for (let seed = 0; seed < 12; seed++) lines.push(sweepLine(seed, store));
    // The corpus reaches what it is for: halts and proofs, the aimed searches, regrouping, the ceiling.
    expect(lines.filter((l) => l.includes(' optimal ')).length).toBeGreaterThan(40);
    expect(lines.filter((l) => l.includes(' budget bound ')).length).toBeGreaterThan(40);
    expect(lines.some((l) => l.includes(' at ceiling '))).toBe(true);
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot('fixtures/mkp-search-effort.txt');
  });
});
