/**
 * The TypeScript DPs' answers are the ones pinned in test/fixtures/mirrors-answers.txt: the dense mirror
 * (the `dense-wide` path) and the frontier mirror (the `frontier-wide` path) on 240 small ticks full of
 * ties (credits, weights and tokens from short lists), and the subset sums' mirror on 200 item lists. The
 * values are checked against the kernels and brute force elsewhere; this test says which of tied optimal
 * plans (or subsets) the mirrors choose did not change without being meant to: a change to a tie-break
 * shows here, by case. After an intended change: `npx vitest run test/solve-mirrors-answers-as-pinned.test.ts
 * -u`, and say in the commit which cases changed and why.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantizedCaseArb } from './helpers/arbitraries.js';
import {
  foldMirror,
  type Plan,
  seededRandom,
  solveFrontierReference,
  solveReference,
  SubsetSumScratch,
} from './helpers/internals.js';
import { meterWithin } from './helpers/meter.js';

const planLine = (plan: Plan) =>
  `${plan.status} ${plan.value.credit}/${plan.value.ready}/${plan.value.tokens} ${plan.assignments.map((a) => `${a.session}>${a.node}`).join(' ')}`;

describe("the TypeScript DPs' answers", () => {
  it('are those pinned in test/fixtures/mirrors-answers.txt', async () => {
    const ticks = fc.sample(
      quantizedCaseArb({ minNodes: 1, maxNodes: 3, maxSessions: 9, maxCapacity: 24, maxWeight: 8 }, [1, 2]),
      { seed: 11, numRuns: 240 },
    );
    const lines: string[] = [];
    ticks.forEach(({ problem, quantum }, k) => {
      lines.push(`dense ${k}: ${planLine(solveReference(problem, { quantum }))}`);
      lines.push(`frontier ${k}: ${planLine(solveFrontierReference(problem, { quantum }))}`);
    });
    const scratch = new SubsetSumScratch();
    for (let seed = 0; seed < 200; seed++) {
      const rnd = seededRandom(seed + 40);
      const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
      // Few weights, many equal subsets; some lists past a word (32 quanta) and past the log's first size.
      const w = Array.from({ length: int(1, 24) }, () => int(1, 6) * int(1, 9));
      const cap = int(
        1,
        w.reduce((a, b) => a + b, 0),
      );
      const items = w.map((_, x) => x);
      const s = foldMirror(items, items.length, w, cap, meterWithin(), scratch, null);
      lines.push(`subset sums ${seed}: ${s === null ? 'halted' : `${s.sum} of ${cap}: ${s.chosen.join(',')}`}`);
    }
    expect(lines.length).toBe(680);
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot('fixtures/mirrors-answers.txt');
  });
});
