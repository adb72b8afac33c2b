/**
 * The credit branching's work, pinned: over 400 seeded tied ticks (2-4 nodes, 6-9 sessions, credit on
 * several nodes with ties, eligibility limits, interchangeable nodes, three quanta) the decision (optimal
 * credit, leaves), the branch-and-bound nodes explored and the knapsack states spent hash to the digest
 * below. The decisions are checked against enumeration in test/solve-credit-branch-leaves.test.ts; this
 * test pins what they cost, which `PlanStats.work` reports: a change to the search's order, its re-solves'
 * floors and targets or its uniqueness tests shows here. After an intended change, print the digest
 * (`DIGEST=1`), check the enumeration tests pass, and pin it again. Its limits (states, nodes, leaves) are
 * checked on the same ticks.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tiedTick } from './helpers/arbitraries.js';
import {
  branchAndBound,
  type CreditLevel,
  creditLevel,
  type PackedProblem,
  prepare,
  sessionsKept,
} from './helpers/internals.js';

const PINNED = '78355dd5dc18c4b4';

/** The 400 seeded tied ticks whose credit level the root leaves undecided, with their seed. */
function* undecidedTicks(): Generator<{ seed: number; packed: PackedProblem; level: CreditLevel }> {
  for (let seed = 0; seed < 400; seed++) {
    const problem = tiedTick(seed + 7000, {
      nodes: 2 + (seed % 3),
      sessions: 6 + (seed % 4),
      eligibility: seed % 3 === 0,
      twins: seed % 5 === 1,
    });
    const { packed } = prepare(problem, { quantum: 1 + (seed % 3) });
    if (sessionsKept(packed) === 0) continue;
    const level = creditLevel(packed, Number.POSITIVE_INFINITY);
    if (level === null || level.decided || level.bound === 0) continue;
    yield { seed, packed, level };
  }
}

describe('the credit branching', () => {
  it('explores the same nodes and spends the same states on 400 seeded tied ticks', () => {
    const hash = createHash('sha256');
    let branched = 0;
    let states = 0;
    for (const { seed, packed, level } of undecidedTicks()) {
      const used = { states: 0 };
      const d = branchAndBound(packed, level, Number.POSITIVE_INFINITY, undefined, undefined, used);
      hash.update(
        JSON.stringify([seed, used.states, d === null ? null : [d.credit, d.leaves, d.branchNodes, d.states]]),
      );
      if (d !== null && d.branchNodes > 0) branched++;
      states += used.states;
    }
    const digest = hash.digest('hex').slice(0, 16);
    if (process.env.DIGEST === '1') console.log(`credit branching digest ${digest}`);
    expect(branched).toBeGreaterThan(100);
    expect(states).toBeGreaterThan(1000);
    expect(digest).toBe(PINNED);
  });

  it('past a budget of states stops within a few states of it: each re-solve and uniqueness test is given what is left', () => {
    let checked = 0;
    for (const { packed, level } of undecidedTicks()) {
      const full = branchAndBound(packed, level, Number.POSITIVE_INFINITY);
      if (full === null || full.states < 8) continue;
      for (const budget of [1, Math.floor(full.states / 2), full.states - 1]) {
        const used = { states: 0 };
        expect(branchAndBound(packed, level, budget, undefined, undefined, used)).toBeNull();
        expect(used.states).toBeGreaterThan(budget);
        expect(used.states).toBeLessThanOrEqual(budget + 4);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('stops past its node and leaf limits, not before: the same decision at exactly the nodes and leaves it needs', () => {
    let checked = 0;
    for (const { packed, level } of undecidedTicks()) {
      const full = branchAndBound(packed, level, Number.POSITIVE_INFINITY);
      if (full === null) continue;
      const run = (nodes: number, leaves: number) =>
        branchAndBound(packed, level, Number.POSITIVE_INFINITY, undefined, undefined, undefined, { nodes, leaves });
      // The root is a node: branchNodes + 1 explored.
      expect(run(full.branchNodes + 1, full.leaves.length)).toEqual(full);
      expect(run(full.branchNodes, full.leaves.length)).toBeNull();
      expect(run(full.branchNodes + 1, full.leaves.length - 1)).toBeNull();
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });
});
