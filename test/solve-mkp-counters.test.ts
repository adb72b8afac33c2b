/**
 * The multiple-knapsack search's work, pinned: over seeded instances (the four correlation classes at
 * 14-40 items x 2-5 knapsacks, and small tied problems with interchangeable nodes, identical sessions and
 * eligibility limits, each within a few budgets) the outcome, the plan's value and every counter of the
 * search hash to the digest below. The plans are checked against brute force, enumeration and HiGHS
 * elsewhere (test/solve-multiple-knapsack.test.ts, test/solve-mkp-climbs-to-ceiling.test.ts,
 * test/multiple-knapsack-matches-highs.test.ts); this test pins what they cost, which `PlanStats.work`
 * reports: a change to the search's order, its symmetry classes, its bounds or its stages shows here.
 * After an intended change, print the digest (`DIGEST=1`), check those tests pass, and pin it again.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mkpProblem, nodeIndependentValues, prepare, searchMultipleKnapsack } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import { meterWithin } from './helpers/meter.js';
import { tiedProblem } from './helpers/tied-mkp.js';

const PINNED = '13e5cab5b000f567';

function* instances(): Generator<{ name: string; problem: Problem; budget: number }> {
  const classes = ['uncorrelated', 'weak', 'strong', 'subset-sum'] as const;
  for (const [ci, cls] of classes.entries()) {
    for (let i = 0; i < 6; i++) {
      const n = 14 + 5 * i;
      const m = 2 + (i % 4);
      for (const budget of [1 << 14, 1 << 20])
        yield { name: `${cls} ${n}x${m} #${i} @${budget}`, problem: mkpProblem(11, ci, cls, n, m, i), budget };
    }
  }
  for (let seed = 0; seed < 120; seed++)
    for (const budget of [800, 6400, 1 << 20])
      yield { name: `tied ${seed} @${budget}`, problem: tiedProblem(seed), budget };
}

describe("the multiple-knapsack search's work", () => {
  it('is the same on seeded instances of every class and on tied problems, within several budgets', () => {
    const hash = createHash('sha256');
    let optimal = 0;
    let stopped = 0;
    for (const { name, problem, budget } of instances()) {
      const { packed } = prepare(problem, { quantum: 1 });
      const values = nodeIndependentValues(packed);
      if (values === null) continue;
      const out = searchMultipleKnapsack(packed, values, meterWithin(budget));
      if (out.optimal) optimal++;
      else stopped++;
      hash.update(JSON.stringify([name, out.optimal, out.value, out.reachedCeiling ?? false, out.counters]));
    }
    const digest = hash.digest('hex').slice(0, 16);
    if (process.env.DIGEST === '1') console.log(`multiple-knapsack search digest ${digest}`);
    expect(optimal).toBeGreaterThan(200);
    expect(stopped).toBeGreaterThan(20);
    expect(digest).toBe(PINNED);
  });
});
