/** The multiple-knapsack classes are held to the solver's own proofs, and oracles that finish must agree. */
import { beforeAll, describe, expect, it } from 'vitest';
import { runFamilies, type GroupReport } from './helpers/internals.js';
import { goalMisses } from './helpers/internals.js';
import { FAMILY_GOALS } from './helpers/internals.js';

let g: GroupReport;
beforeAll(async () => {
  const options = {
    families: ['mkp'],
    seed: 1,
    count: 1,
    mkpCount: 1,
    bigCount: 1,
    warmupPasses: 0,
    highsSample: 0,
    highsTimeLimitSec: 1,
    cycles: 1,
    pool: false,
    stateBudget: 1_000_000,
  };
  const report = await runFamilies(options, 'test', { log: () => {} });
  g = report.groups.find((x) => x.key === 'mkp/weak-50x5')!;
});

/** The group as measured, with the times, fallbacks and wrong answers given. */
function asMeasured(p95: number, fallbackPct: number, wrong: string[] = []): GroupReport {
  return { ...g, inThread: { ...g.inThread, p95 }, fallbackPct, exactness: { ...g.exactness, wrong } };
}

describe('the multiple-knapsack goal', () => {
  it('is met by proven-optimal plans within the time even where no oracle finished', () => {
    expect(g.goal).toEqual(FAMILY_GOALS.mkp);
    expect(g.exactness.checked).toBe(0);
    expect(goalMisses(asMeasured(1, 0))).toEqual([]);
    expect(goalMisses(asMeasured(1, 5))).toEqual([]);
  });

  it('counts fallbacks against the proven share', () => {
    expect(goalMisses(asMeasured(1, 10))).toEqual(['proven optimal 90.0% < 95%']);
  });

  it('is missed past the time limit', () => {
    expect(goalMisses(asMeasured(12.5, 0))).toEqual(['P95 12.5 > 10 ms']);
  });

  it('is missed by any plan an oracle found wrong', () => {
    expect(goalMisses(asMeasured(1, 0, ['#0: solver (1, 0, 0), HiGHS (2, 0, 0)']))).toEqual(['1 wrong answers']);
  });
});
