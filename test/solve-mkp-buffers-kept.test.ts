/**
 * The multiple-knapsack search's buffers kept between solves (src/solve/mkp/search.ts, MkpScratchStore):
 * a solve no larger than the one before takes the kept buffers and allocates no new search arrays; the
 * store keeps a solve's buffers while they are small and lets them go once a subset sum grew its bitset
 * past SUBSET_SUM_KEEP_CAPACITY quanta, so a store never holds the memory of a large solve.
 */
import { describe, expect, it } from 'vitest';
import { MkpScratch, mkpProblem, type MkpScratchStore, nodeIndependentValues, prepare } from './helpers/internals.js';
import { SEARCH_KEEP_ENTRIES, searchMultipleKnapsack, SUBSET_SUM_KEEP_CAPACITY } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import { meterWithin } from './helpers/meter.js';
import { tiedProblem } from './helpers/tied-mkp.js';

function search(problem: Problem, store: MkpScratchStore) {
  const { packed } = prepare(problem, { quantum: 1 });
  return searchMultipleKnapsack(packed, nodeIndependentValues(packed)!, meterWithin(), undefined, store);
}

describe("the multiple-knapsack search's kept buffers", () => {
  it('a solve no larger than the one before takes the kept buffers: the same arrays, no new level', () => {
    const store: MkpScratchStore = { mkp: null };
    const large = mkpProblem(1, 0, 'weak', 30, 3, 0);
    search(large, store);
    const kept = store.mkp;
    expect(kept).not.toBeNull();
    const { order, best } = kept!.first;
    const levels = kept!.first.levels.length;
    const level1 = kept!.first.levels[0];
    for (const problem of [large, mkpProblem(1, 0, 'weak', 20, 3, 1), mkpProblem(1, 0, 'strong', 30, 2, 2)]) {
      search(problem, store);
      expect(store.mkp).toBe(kept);
      expect(kept!.first.order).toBe(order);
      expect(kept!.first.best).toBe(best);
      expect(kept!.first.levels[0]).toBe(level1);
      expect(kept!.first.levels.length).toBeGreaterThanOrEqual(levels);
    }
    // More items than before: the arrays are made again, larger.
    search(mkpProblem(1, 0, 'weak', 40, 3, 3), store);
    expect(store.mkp).toBe(kept);
    expect(kept!.first.order).not.toBe(order);
    expect(kept!.first.order.length).toBeGreaterThanOrEqual(40);
  });

  it('keeps the buffers of a small solve and lets go of those a subset sum grew past its kept size', () => {
    // Rooms of a million quanta: the split's subset sums fold a bitset past SUBSET_SUM_KEEP_CAPACITY.
    const problem: Problem = {
      nodes: [
        { id: 'a', capacity: 1_000_003 },
        { id: 'b', capacity: 999_999 },
      ],
      sessions: Array.from({ length: 12 }, (_, i) => {
        const w = 150_001 + 7_919 * i;
        return { id: `s${i}`, weight: w, tokens: w, ready: false };
      }),
    };
    const mine = new MkpScratch();
    const store: MkpScratchStore = { mkp: mine };
    const out = search(problem, store);
    expect(out.optimal).toBe(true);
    expect(mine.ss.bits.length).toBeGreaterThan(SUBSET_SUM_KEEP_CAPACITY >>> 5);
    expect(store.mkp).toBeNull();
    // A small solve after it starts from new buffers and keeps them.
    search(mkpProblem(1, 0, 'weak', 20, 3, 1), store);
    expect(store.mkp).not.toBeNull();
    expect(store.mkp).not.toBe(mine);
  });

  it(`keeps a search's buffers while its items and knapsacks times its depth stay within ${SEARCH_KEEP_ENTRIES}`, () => {
    // Items of weight 1 that all fit in two knapsacks (an instance past the solver's session cap, made
    // directly): the search ends at its root (one level), so its buffers hold (n + 2) x 2 entries: kept
    // up to n + 2 = SEARCH_KEEP_ENTRIES / 2, not one past it.
    const at = SEARCH_KEEP_ENTRIES / 2 - 2;
    for (const [n, kept] of [
      [at, true],
      [at + 1, false],
    ] as const) {
      const store: MkpScratchStore = { mkp: null };
      const instance = {
        qweight: new Float64Array(n).fill(1),
        capacity: Float64Array.of(n, n),
        candidate: new Uint8Array(2 * n).fill(1),
      };
      const out = searchMultipleKnapsack(instance, new Float64Array(n).fill(1), meterWithin(), undefined, store);
      expect(out.optimal).toBe(true);
      expect(out.counters.nodes).toBe(1);
      expect(store.mkp !== null, `${n} items`).toBe(kept);
    }
  });
  it('holds one level per depth of the path searched, not one per search node visited', () => {
    // Tied problems the first search does not close at its root: many nodes, each path at most one
    // level per item deep (an item is decided on every level) plus the leaf.
    let deep = 0;
    for (let seed = 0; seed < 200; seed++) {
      const store: MkpScratchStore = { mkp: null };
      const problem = tiedProblem(seed);
      const out = search(problem, store);
      const levels = store.mkp!.first.levels.length;
      expect(levels, `seed ${seed}`).toBeLessThanOrEqual(problem.sessions.length + 1);
      if (out.counters.nodes > 2 * (problem.sessions.length + 1)) deep++;
    }
    expect(deep).toBeGreaterThanOrEqual(10);
  });
});
