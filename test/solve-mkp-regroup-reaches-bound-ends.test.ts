/**
 * When regrouping (stage 3 of searchMultipleKnapsack, src/solve/mkp/search.ts) raises the first search's
 * plan to the bound the aimed searches left, the solve ends there, proven optimal: the paused first search
 * is not resumed (resumed, it would open at least one more node to close it). Instance 45 of the weakly
 * correlated 100 x 10 group (seed 1): the first search's incumbent is 54 below the root bound, 8 aimed
 * searches find no plan worth it, and regrouping (19 groups, 2 of them better) reaches it. That the value
 * is the surrogate bound and the plan feasible is checked in test/solve-multiple-knapsack.test.ts; here the
 * search's nodes, counters and work within 2^22 units are pinned.
 */
import { describe, expect, it } from 'vitest';
import { mkpProblem, nodeIndependentValues, prepare, searchMultipleKnapsack, WorkMeter } from './helpers/internals.js';

describe('a solve whose regrouping reaches the bound', () => {
  it('ends proven optimal without resuming the first search', () => {
    const { packed } = prepare(mkpProblem(1, 6, 'weak', 100, 10, 45), { quantum: 1 });
    const values = nodeIndependentValues(packed)!;
    const meter = new WorkMeter(
      1 << 22,
      () => undefined,
      () => 'budget',
    );
    const out = searchMultipleKnapsack(packed, values, meter);
    expect(out.optimal).toBe(true);
    expect(out.value).toBe(25_535);
    expect(out.counters).toEqual({
      nodes: 118,
      knapsacks: 364,
      states: 50_620,
      ceilingStops: 0,
      splits: 118,
      splitHits: 2,
      tightened: 0,
      aims: 8,
      regroups: 19,
      regroupGains: 2,
    });
    expect(meter.work).toBe(1_226_042);
  });
});
