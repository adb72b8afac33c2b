/**
 * The credit level decided by branching (src/solve/credit-branch.ts): its optimal credit and its leaves
 * against an enumeration of every plan (test/oracles/credit-profiles.ts: the leaves are exactly the
 * per-node credited sets of the plans of optimal credit, so fixing a leaf's sets loses no optimal plan),
 * and its limits: past its state budget, or once asked to halt, the credit level is left undecided.
 * Shapes: sessions credited on several nodes, ties (equal credits and weights), eligibility limits,
 * interchangeable nodes, several quanta. The solver on the branched path against brute force and HiGHS
 * is in test/credit-branch.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { problemArb, tiedTick } from './helpers/arbitraries.js';
import {
  branchAndBound,
  CREDIT_BRANCH_MAX_TIED,
  creditLevel,
  nodesKept,
  prepare,
  type Problem,
  sessionsKept,
} from './helpers/internals.js';
import { enumerateCreditProfiles, profileOf } from './oracles/credit-profiles.js';

describe('the branch and bound on the credit level', () => {
  it('finds the optimal credit, and its leaves are exactly the credited sets of the plans of optimal credit (enumeration)', () => {
    const seen = { branched: 0, ties: 0, root: 0 };
    const check = (problem: Problem, quantum: number): void => {
      const { packed } = prepare(problem, { quantum });
      if (sessionsKept(packed) === 0) return;
      const level = creditLevel(packed, Number.POSITIVE_INFINITY);
      if (level === null || level.bound === 0) return;
      const leaves = level.decided ? [level.sets] : branchAndBound(packed, level, Number.POSITIVE_INFINITY)?.leaves;
      // Past the node or leaf limit the level stays undecided; counted below so the shapes keep hitting the search.
      if (leaves === undefined) return;
      const exact = enumerateCreditProfiles(packed);
      const got = new Set(leaves.map((sets) => profileOf((b) => sets[b]!, nodesKept(packed))));
      expect(got.size).toBe(leaves.length);
      expect(got).toEqual(exact.profiles);
      if (level.decided) seen.root++;
      else seen.branched++;
      if (leaves.length > 1) seen.ties++;
    };
    fc.assert(
      fc.property(
        problemArb({ minNodes: 2, maxNodes: 3, maxSessions: 6, maxCapacity: 24, maxWeight: 10 }),
        fc.constantFrom(1, 2, 3),
        check,
      ),
      { numRuns: 500, seed: 41 },
    );
    for (let seed = 0; seed < 120; seed++) {
      const problem = tiedTick(seed, {
        nodes: 2 + (seed % 2),
        sessions: 6,
        eligibility: seed % 3 === 0,
        twins: seed % 4 === 1,
      });
      check(problem, 1 + (seed % 3));
    }
    expect(seen.branched).toBeGreaterThan(60);
    expect(seen.ties).toBeGreaterThan(10);
    expect(seen.root).toBeGreaterThan(20);
  });

  it('decides the level within exactly the states it spends; past its state budget, or once asked to halt, it leaves the credit level undecided', () => {
    let undecided = 0;
    for (let seed = 0; seed < 60; seed++) {
      const problem = tiedTick(seed + 900, { nodes: 3, sessions: 7, eligibility: false, twins: false });
      const { packed } = prepare(problem, { quantum: 1 });
      const level = creditLevel(packed, Number.POSITIVE_INFINITY);
      if (level === null || level.decided || level.bound === 0) continue;
      const decided = branchAndBound(packed, level, Number.POSITIVE_INFINITY);
      if (decided === null) continue;
      // A budget of exactly the states it spends is enough: the same decision.
      expect(branchAndBound(packed, level, decided.states)).toEqual(decided);
      expect(branchAndBound(packed, level, 1)).toBeNull();
      expect(branchAndBound(packed, level, Number.POSITIVE_INFINITY, () => true)).toBeNull();
      undecided++;
    }
    expect(undecided).toBeGreaterThan(10);
  });

  it('is not tried when more than CREDIT_BRANCH_MAX_TIED sessions of several sets have the same credit on two of them, before it spends a state', () => {
    // Two nodes of room 100, sessions of weight 30: each node's optimal set holds three sessions, the same
    // three (the most credit). `equalOn` of them have the same credit on both nodes; the others differ.
    const tick = (equalOn: number): Problem => ({
      nodes: [
        { id: 'a', capacity: 100 },
        { id: 'b', capacity: 100 },
      ],
      sessions: Array.from({ length: 4 }, (_, i) => ({
        id: `s${i}`,
        weight: 30,
        tokens: 1,
        ready: false,
        credit: i < equalOn ? { a: 50 - i, b: 50 - i } : { a: 49 - i, b: 50 - i },
      })),
    });
    for (const equalOn of [0, 1, 2, 3, 4]) {
      const { packed } = prepare(tick(equalOn), { quantum: 1 });
      const level = creditLevel(packed, Number.POSITIVE_INFINITY)!;
      expect(level.decided).toBe(false);
      const used = { states: 0 };
      const decision = branchAndBound(packed, level, Number.POSITIVE_INFINITY, undefined, undefined, used);
      const tied = Math.min(equalOn, 3);
      if (tied > CREDIT_BRANCH_MAX_TIED) {
        expect(decision).toBeNull();
        expect(used.states).toBe(0);
      } else {
        // Tried: it spends states and decides the level, as the enumeration does (two sessions a node).
        expect(used.states).toBeGreaterThan(0);
        const exact = enumerateCreditProfiles(packed);
        expect(decision?.credit).toBe(exact.credit);
        expect(new Set(decision?.leaves.map((sets) => profileOf((b) => sets[b]!, 2)))).toEqual(exact.profiles);
      }
    }
  });
});
