/**
 * A fallback plan names the heuristic that produced it: path `bfd` when best-fit decreasing did (with
 * `stats.heuristic` naming its order), path `heuristic` with the credit greedy's or the credit
 * decomposition's name when one of them did. The
 * label is checked against the standalone `bfd()` in both orders, computed independently: a `bfd` plan has
 * the value of BFD in the named order, a `heuristic` plan beats BFD in both orders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bfd, loadSolver, type Plan, type Problem, type Solver } from '../src/index.js';
import { randomTickProblem } from './helpers/internals.js';
import { compareValues } from './oracles/brute-force.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

/** The plan under a state budget of 1: a fallback unless a closed-form path proves a plan optimal. */
function budgetOne(problem: Problem): Plan {
  return solver.solve(problem, { quantum: 1024, stateBudget: 1 });
}

describe('fallback labels', () => {
  it('every fallback names its heuristic, and the name agrees with BFD computed on its own', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 40; seed++)
      for (const sessions of [12, 24]) {
        const problem = randomTickProblem(seed, { nodes: 1 + (seed % 4), sessions, capacity: 48_000, cachedRate: 0.3 });
        const plan = budgetOne(problem);
        if (plan.status !== 'fallback') continue;
        const byValue = bfd(problem, { quantum: 1024, order: 'value' }).value;
        const byTokens = bfd(problem, { quantum: 1024, order: 'tokens' }).value;
        const h = plan.stats.heuristic;
        seen.add(`${plan.stats.path}:${h}`);
        if (plan.stats.path === 'bfd') {
          expect(['bfd', 'bfd-tokens']).toContain(h);
          expect(plan.value).toEqual(h === 'bfd' ? byValue : byTokens);
        } else {
          expect(plan.stats.path).toBe('heuristic');
          expect(['credit-greedy-density', 'credit-greedy-value', 'credit-decomposition']).toContain(h);
          expect(compareValues(plan.value, byValue)).toBeGreaterThan(0);
          expect(compareValues(plan.value, byTokens)).toBeGreaterThan(0);
        }
      }
    expect(seen.size).toBeGreaterThan(1);
    // Both kinds occur on these ticks, so neither branch above is vacuous.
    expect([...seen].some((s) => s.startsWith('bfd:'))).toBe(true);
    expect([...seen].some((s) => s.startsWith('heuristic:'))).toBe(true);
  });

  it('a standalone bfd() plan says path bfd and names its order', () => {
    const problem = randomTickProblem(3, { nodes: 2, sessions: 20 });
    expect(bfd(problem).stats).toMatchObject({ path: 'bfd', heuristic: 'bfd' });
    expect(bfd(problem, { order: 'tokens' }).stats).toMatchObject({ path: 'bfd', heuristic: 'bfd-tokens' });
  });

  it('exact plans carry no heuristic name', () => {
    const plan = solver.solve(randomTickProblem(3, { nodes: 2, sessions: 20 }), { quantum: 1024 });
    expect(plan.status).toBe('optimal');
    expect(plan.stats.heuristic).toBeUndefined();
  });
});
