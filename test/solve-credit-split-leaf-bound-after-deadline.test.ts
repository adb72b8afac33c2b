/**
 * A credit-split fallback with one leaf whose remainder's search proved a bound and was then stopped by the
 * deadline (docs/solver.md, "The bound of a credit-split fallback"): past the deadline the nested-rooms
 * bound is left out, so the tokens bound is the fixed sets' tokens plus the lesser of the remainder's packed
 * bound and the bound its own search proved, which is below the packed one here. On a held clock
 * (test/helpers/held-clock.ts) that jumps past the deadline after 20 to 300 readings, all inside the
 * remainder's search (the whole solve reads it 419 times); the 4-node, 60-session tick of
 * test/helpers/credit-split-tick.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditSplitTick } from './helpers/credit-split-tick.js';
import { onHeldClock } from './helpers/held-clock.js';
import {
  creditLevel,
  creditReduction,
  loadSolver,
  packedBound,
  prepare,
  sessionsKept,
  type Solver,
} from './helpers/internals.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { compareValues } from './oracles/brute-force.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

const problem = creditSplitTick();
const options = { deadlineMs: 1000 };

describe("a credit-split leaf's bound past the deadline", () => {
  it("takes the remainder's proven tokens bound where it is below the packed bound", () => {
    // A feasible plan on the whole default budget: every bound is at least its value.
    const known = solver.solve(problem);
    expectFeasible(problem, known);
    const { packed, options: resolved } = prepare(problem, options);
    const level = creditLevel(packed)!;
    const { fixed, remainder } = creditReduction(packed, level.sets, resolved);
    let fixedTokens = 0;
    for (let j = 0; j < sessionsKept(packed); j++) if (fixed[j]! >= 0) fixedTokens += packed.tokens[j]!;
    const packedTokens = fixedTokens + packedBound(remainder).tokens;

    for (const still of [20, 100, 200, 300]) {
      const { plan, reads } = onHeldClock(solver, problem, options, still);
      expect(reads).toBeGreaterThan(still);
      expect(plan.status).toBe('fallback');
      expect(plan.reason).toMatch(/^deadline exceeded: 1000 ms passed/);
      expect(plan.stats.heuristic).toBe('credit-decomposition');
      expect(plan.stats.creditLevel).toMatchObject({ decided: true, leaves: 1 });
      expectFeasible(problem, plan);
      expect(plan.bound!.credit).toBe(level.bound);
      expect(plan.bound!.tokens).toBeLessThan(packedTokens);
      expect(compareValues(plan.bound!, known.value)).toBeGreaterThanOrEqual(0);
    }
  });
});
