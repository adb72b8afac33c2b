/**
 * The solver on the credit level decided by branching (src/solve/credit-branch.ts) under independent
 * oracles: its plans on the branched path equal to brute force and HiGHS; and no branching when several
 * shared sessions have equal credit on their nodes, the solve still exact. Shapes: sessions credited on
 * several nodes, ties (equal credits and weights), eligibility limits, interchangeable nodes, several
 * quanta. The branching's leaves against an enumeration of every plan, and its limits, are in
 * test/solve-credit-branch-leaves.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tiedTick } from './helpers/arbitraries.js';
import {
  branchAndBound,
  CREDIT_BRANCH_MAX_TIED,
  creditLevel,
  loadSolver,
  type Plan,
  type ProblemSession,
  prepare,
  seededRandom,
  type Solver,
  sessionsKept,
} from './helpers/internals.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { bruteForceOptimum } from './oracles/brute-force.js';
import { highsOptimum, loadHighs } from './oracles/highs.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

describe('the branch and bound on the credit level', () => {
  it('does not branch when several shared sessions have equal credit on their nodes (the multiple-knapsack shape); the solve stays exact', () => {
    let skipped = 0;
    for (let seed = 0; seed < 40; seed++) {
      const rnd = seededRandom(seed + 4400);
      const nodes = Array.from({ length: 2 + (seed % 2) }, (_, b) => ({
        id: `n${b}`,
        capacity: 100 + Math.floor(rnd() * 60),
      }));
      const sessions = Array.from({ length: 7 }, (_, i): ProblemSession => {
        const weight = 20 + Math.floor(rnd() * 50);
        const k = 10 + Math.floor(rnd() * 90);
        return {
          id: `s${i}`,
          weight,
          tokens: Math.floor(rnd() * 9),
          ready: rnd() < 0.5,
          credit: Object.fromEntries(nodes.map((node) => [node.id, k])),
        };
      });
      const problem = { nodes, sessions };
      const { packed } = prepare(problem, { quantum: 1 });
      const level = creditLevel(packed, Number.POSITIVE_INFINITY);
      if (level === null || level.decided) continue;
      // Every session has the same credit on every node: each one in two sets counts.
      const shared = Array.from(
        { length: sessionsKept(packed) },
        (_, j) => level.sets.filter((set) => set.includes(j)).length,
      ).filter((k) => k > 1).length;
      if (shared <= CREDIT_BRANCH_MAX_TIED) continue;
      expect(branchAndBound(packed, level, Number.POSITIVE_INFINITY)).toBeNull();
      const plan = solver.solve(problem, { quantum: 1 });
      expect(plan.status).toBe('optimal');
      expect(plan.value).toEqual(bruteForceOptimum(problem, 1));
      skipped++;
    }
    expect(skipped).toBeGreaterThan(10);
  });
});

describe('the solver on the branched credit level against the oracles', () => {
  const branched = (plan: Plan): boolean =>
    plan.stats.path === 'credit-split' && (plan.stats.creditLevel?.branchNodes ?? 0) > 0;

  it('small ticks with credit on several nodes, ties, eligibility limits, twins, several quanta: equal to brute force', () => {
    const seen = { branched: 0, leaves: 0 };
    for (let seed = 0; seed < 160; seed++) {
      const problem = tiedTick(seed + 300, {
        nodes: 2 + (seed % 2),
        sessions: 7 + (seed % 2),
        eligibility: seed % 3 === 0,
        twins: seed % 4 === 1,
        scale: 10,
      });
      for (const quantum of [1, 2, 3]) {
        const plan = solver.solve(problem, { quantum });
        expectFeasible(problem, plan);
        expect(plan.status).toBe('optimal');
        expect(plan.value).toEqual(bruteForceOptimum(problem, quantum));
        if (branched(plan)) seen.branched++;
        if ((plan.stats.creditLevel?.leaves ?? 0) > 1) seen.leaves++;
      }
    }
    expect(seen.branched).toBeGreaterThan(40);
    expect(seen.leaves).toBeGreaterThan(5);
  });

  it('medium ticks (20-60 sessions, 2-4 nodes, credit on 1-3 nodes per session, 30% uncredited): equal to HiGHS', async () => {
    const highs = await loadHighs();
    let seen = 0;
    for (let seed = 0; seed < 30; seed++) {
      const rnd = seededRandom(seed + 7000);
      const m = 2 + (seed % 3);
      const nodes = Array.from({ length: m }, (_, b) => ({ id: `n${b}`, capacity: 15 + Math.floor(rnd() * 30) }));
      const sessions = Array.from({ length: 20 + Math.floor(rnd() * 40) }, (_, i): ProblemSession => {
        const weight = 3 + Math.floor(rnd() * 15);
        const credit: Record<string, number> = {};
        if (rnd() >= 0.3) {
          const k = 1 + Math.floor(rnd() * Math.min(3, m));
          const ids = nodes.map((node) => node.id).sort(() => rnd() - 0.5);
          for (const id of ids.slice(0, k)) credit[id] = 1 + Math.floor(rnd() * weight * 3);
        }
        const s: ProblemSession = { id: `s${i}`, weight, tokens: Math.floor(rnd() * 40), ready: rnd() < 0.5, credit };
        return seed % 4 === 3 && rnd() < 0.3
          ? { ...s, eligible: nodes.filter(() => rnd() < 0.7).map((node) => node.id) }
          : s;
      });
      const problem = { nodes, sessions };
      for (const quantum of [1, 2]) {
        const plan = solver.solve(problem, { quantum });
        expectFeasible(problem, plan);
        if (plan.status !== 'optimal') continue;
        expect(plan.value).toEqual(highsOptimum(highs, problem, quantum));
        if (branched(plan)) seen++;
      }
    }
    expect(seen).toBeGreaterThan(10);
  });
});
