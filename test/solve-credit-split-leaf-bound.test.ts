/**
 * The bound of a credit-split fallback with one credit-optimal leaf (docs/solver.md, "The bound of a
 * credit-split fallback" and "The nested-rooms bound"): every optimal plan is the leaf's fixed sets plus a
 * plan of its credit-free remainder, so the Plan's bound is at most, per level, the fixed sessions' ready
 * and tokens plus the nested-rooms bound of the remainder at R, the ready sessions of the remainder's plan
 * (whichever node they are on). Checked on a 4-node tick whose remainder's search passes a small state
 * budget and whose fallback is that leaf plan (`credit-decomposition`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditSplitTick } from './helpers/credit-split-tick.js';
import {
  creditLevel,
  creditReduction,
  loadSolver,
  nestedBound,
  prepare,
  sessionsKept,
  type Solver,
} from './helpers/internals.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

describe('a credit-split fallback with one leaf', () => {
  it("is bounded by its fixed sets plus the remainder's nested-rooms bound at the remainder plan's ready count", () => {
    const problem = creditSplitTick();
    const options = { stateBudget: 20_000 };
    const plan = solver.solve(problem, options);
    expect(plan.status).toBe('fallback');
    expect(plan.stats.heuristic).toBe('credit-decomposition');
    expect(plan.stats.creditLevel).toMatchObject({ decided: true, leaves: 1 });

    const { packed, options: resolved } = prepare(problem, options);
    const level = creditLevel(packed)!;
    const { fixed, remainder } = creditReduction(packed, level.sets, resolved);
    const placed = new Set(plan.assignments.map((a) => a.session));
    let fixedReady = 0;
    let fixedTokens = 0;
    let planned = 0;
    for (let j = 0; j < sessionsKept(packed); j++) {
      const id = problem.sessions[packed.sessionIndex[j]!]!.id;
      if (fixed[j]! >= 0) {
        expect(placed.has(id)).toBe(true);
        fixedReady += packed.ready[j]!;
        fixedTokens += packed.tokens[j]!;
      } else if (placed.has(id)) planned += packed.ready[j]!;
    }
    const nested = nestedBound(remainder, planned);
    expect(plan.bound.credit).toBe(level.bound);
    expect(plan.bound.ready).toBeLessThanOrEqual(fixedReady + nested.ready);
    expect(plan.bound.tokens).toBeLessThanOrEqual(fixedTokens + nested.tokens);
  });
});
