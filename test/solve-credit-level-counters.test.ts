/**
 * The credit level's work, pinned: over seeded tied ticks and random ticks (2-8 nodes, credit on several
 * nodes with ties, eligibility limits, interchangeable nodes, three quanta) the level (per-node optima and
 * sets, decided or not) with the knapsack states it spent, and the decomposition plan and the best
 * decomposition plan built from it, hash to the digest below; the level decides within exactly the states
 * it spends and gives way one state under. The level's optima and sets are checked against enumeration in
 * test/solve-credit-branch-leaves.test.ts and test/credit-level.test.ts; this test pins what they cost and
 * which plans they lead to. After an intended change, print the digest (`DIGEST=1`), check the enumeration
 * tests pass, and pin it again.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tiedTick } from './helpers/arbitraries.js';
import {
  bestDecompositionPlan,
  creditLevel,
  decompositionPlan,
  type PackedProblem,
  prepare,
  randomTickProblem,
  sessionsKept,
} from './helpers/internals.js';

const PINNED = 'c61c604bece8a7cb';

/** Seeded tied ticks and random ticks with credit, packed. */
function* creditTicks(): Generator<{ seed: number; packed: PackedProblem }> {
  for (let seed = 0; seed < 300; seed++) {
    const problem =
      seed % 3 === 2
        ? randomTickProblem(seed + 9000, {
            nodes: 2 + (seed % 7),
            sessions: 20 + (seed % 40),
            capacity: 60_000,
            minTokens: 2000,
            maxTokens: 30_000,
            cachedRate: 0.7,
          })
        : tiedTick(seed + 8000, {
            nodes: 2 + (seed % 3),
            sessions: 6 + (seed % 4),
            eligibility: seed % 3 === 0,
            twins: seed % 5 === 1,
          });
    const { packed } = prepare(problem, { quantum: [1, 2, 16][seed % 3]! });
    if (sessionsKept(packed) === 0) continue;
    yield { seed, packed };
  }
}

describe('the credit level', () => {
  it('spends the same states and leads to the same decomposition plans on 300 seeded ticks', () => {
    const hash = createHash('sha256');
    let decided = 0;
    let undecided = 0;
    for (const { seed, packed } of creditTicks()) {
      const level = creditLevel(packed, Number.POSITIVE_INFINITY);
      if (level === null) {
        hash.update(JSON.stringify([seed, null]));
        continue;
      }
      if (level.decided) decided++;
      else undecided++;
      const best = level.bound > 0 ? bestDecompositionPlan(packed, level) : null;
      hash.update(
        JSON.stringify([
          seed,
          Array.from(level.nodeBound),
          level.sets,
          level.decided,
          level.states,
          Array.from(decompositionPlan(packed, level)),
          best === null ? null : best,
        ]),
      );
    }
    const digest = hash.digest('hex').slice(0, 16);
    if (process.env.DIGEST === '1') console.log(`credit level digest ${digest}`);
    expect(decided).toBeGreaterThan(50);
    expect(undecided).toBeGreaterThan(50);
    expect(digest).toBe(PINNED);
  });

  it('decides within exactly the states it spends and gives way one state under', () => {
    let checked = 0;
    for (const { packed } of creditTicks()) {
      const level = creditLevel(packed, Number.POSITIVE_INFINITY);
      if (level === null || level.states === 0) continue;
      expect(creditLevel(packed, level.states)).toEqual(level);
      expect(creditLevel(packed, level.states - 1)).toBeNull();
      expect(creditLevel(packed, Number.POSITIVE_INFINITY, undefined, () => true)).toBeNull();
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });
});
