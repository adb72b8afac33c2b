/**
 * The credit level's work, pinned: over seeded tied ticks and random ticks (2-8 nodes, credit on several
 * nodes with ties, eligibility limits, interchangeable nodes, three quanta) the level (per-node optima and
 * sets, decided or not) with the knapsack states it spent, and the decomposition plan and the best
 * decomposition plan built from it, hash to the digest below; the level decides within exactly the states
 * it spends and gives way one state under. The level's optima and sets are checked against enumeration in
 * test/solve-credit-branch-leaves.test.ts and test/credit-level.test.ts; this test pins what they cost and
 * which plans they lead to. After an intended change, print the digest (`DIGEST=1`), check the enumeration
 * tests pass, and pin it again. The second digest pins the decomposition plans and their charges within budgets
 * from less than one plan to all of it, on these ticks and on tied ticks of 5-7 nodes (more nodes than the
 * sequential plans try first).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tiedTick } from './helpers/arbitraries.js';
import {
  bestDecompositionPlan,
  creditLevel,
  creditLevelStates,
  CREDIT_STATE_WORK,
  DECOMPOSITION_PAIR_WORK,
  nodesKept,
  SEQUENTIAL_FIRST_NODES,
  SolveBudget,
  decompositionPlan,
  type PackedProblem,
  prepare,
  randomTickProblem,
  sessionsKept,
} from './helpers/internals.js';

const PINNED = 'c61c604bece8a7cb';
const PINNED_BUDGETED = 'dec55ba151218bd6';

/** Tied ticks on 5-7 nodes: undecided levels with more nodes than the sequential plans try first. */
function* wideTiedTicks(): Generator<{ seed: number; packed: PackedProblem }> {
  for (let seed = 0; seed < 60; seed++) {
    const problem = tiedTick(seed + 8500, {
      nodes: 5 + (seed % 3),
      sessions: 9 + (seed % 5),
      eligibility: false,
      twins: false,
    });
    const { packed } = prepare(problem, { quantum: 1 });
    if (sessionsKept(packed) === 0) continue;
    yield { seed: 1000 + seed, packed };
  }
}

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

  it('charges the same work and gives the same decomposition plans within budgets from one plan up', () => {
    const hash = createHash('sha256');
    let undecided = 0;
    let cut = 0;
    let wide = 0;
    for (const { seed, packed } of [...creditTicks(), ...wideTiedTicks()]) {
      const level = creditLevel(packed, Number.POSITIVE_INFINITY);
      if (level === null || level.decided || level.bound === 0) continue;
      undecided++;
      if (nodesKept(packed) > SEQUENTIAL_FIRST_NODES) wide++;
      const pass = DECOMPOSITION_PAIR_WORK * sessionsKept(packed) * nodesKept(packed);
      const whole = creditLevelStates(packed) * CREDIT_STATE_WORK;
      const free = bestDecompositionPlan(packed, level)!;
      const row: unknown[] = [seed];
      // Budgets whose share buys: not one pass, one pass, a pass and a few states, a few passes, all of it.
      for (const limit of [
        pass - 1,
        pass,
        pass + 7 * CREDIT_STATE_WORK,
        3 * pass + 40 * CREDIT_STATE_WORK,
        2 * whole,
      ]) {
        // A ceiling of `limit` (the share's room) so the share is `limit` itself.
        const budget = new SolveBudget(limit, 0, Number.POSITIVE_INFINITY, undefined, 1, undefined, limit);
        const plan = bestDecompositionPlan(packed, level, undefined, budget);
        // Each plan starts only while the share affords its pass, and its states come out of the share.
        expect(budget.spent).toBeLessThanOrEqual(2 * limit);
        if (limit < pass) expect(plan).toBeNull();
        if (limit === 2 * whole) expect(plan).toEqual(free);
        if (plan !== null && limit < 2 * whole && budget.spent < 2 * pass) cut++;
        row.push(budget.spent, plan === null ? null : Array.from(plan));
      }
      hash.update(JSON.stringify(row));
    }
    const digest = hash.digest('hex').slice(0, 16);
    if (process.env.DIGEST === '1') console.log(`budgeted decomposition digest ${digest}`);
    expect(undecided).toBeGreaterThan(50);
    expect(cut).toBeGreaterThan(20);
    expect(wide).toBeGreaterThan(20);
    expect(digest).toBe(PINNED_BUDGETED);
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
