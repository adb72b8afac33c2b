/**
 * Values near and past the packed key's range: the solver uses the packed i64 key exactly when
 * (Kmax + 1)(R + 1)(T + 1) <= 2^63 - 1 (checked here with BigInt from the problem alone) and otherwise
 * the dense-wide planes (dense path) or the TypeScript frontier with BigInt keys (frontier path); all are
 * exact against brute force, with credits and tokens up to 2^32 - 1.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_U32 } from './helpers/internals.js';
import { loadSolver, type Solver } from './helpers/internals.js';
import type { Problem, ProblemSession } from './helpers/internals.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { bruteForceOptimum } from './oracles/brute-force.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

const big = fc.oneof(
  fc.constantFrom(0, 1, MAX_U32, MAX_U32 - 1, 2 ** 31),
  fc.integer({ min: 0, max: 2 ** 22 }),
  fc.integer({ min: 0, max: MAX_U32 }),
);

const hugeProblem: fc.Arbitrary<Problem> = fc.integer({ min: 1, max: 3 }).chain((m) => {
  const ids = Array.from({ length: m }, (_, b) => `n${b}`);
  return fc
    .record({
      capacity: fc.array(fc.integer({ min: 0, max: 20 }), { minLength: m, maxLength: m }),
      sessions: fc.array(
        fc.record({
          weight: fc.integer({ min: 1, max: 9 }),
          tokens: big,
          ready: fc.boolean(),
          credit: fc.array(big, { minLength: m, maxLength: m }),
          eligible: fc.array(fc.boolean(), { minLength: m, maxLength: m }),
          restricted: fc.boolean(),
        }),
        { maxLength: 7 },
      ),
    })
    .map(({ capacity, sessions }) => ({
      nodes: ids.map((id, b) => ({ id, capacity: capacity[b]! })),
      sessions: sessions.map((s, i): ProblemSession => {
        const base: ProblemSession = {
          id: `s${i}`,
          weight: s.weight,
          tokens: s.tokens,
          ready: s.ready,
          credit: Object.fromEntries(ids.map((id, b) => [id, s.credit[b]!])),
        };
        return s.restricted ? { ...base, eligible: ids.filter((_, b) => s.eligible[b]) } : base;
      }),
    }));
});

/** The key-width rule from the problem alone, with quantum 1: kept = fits on some eligible node. */
function keyShouldFit(problem: Problem): boolean {
  let kmax = 0n;
  let ready = 0n;
  let tokens = 0n;
  for (const s of problem.sessions) {
    const usable = problem.nodes.filter(
      (n) => (s.eligible === undefined || s.eligible.includes(n.id)) && s.weight <= n.capacity,
    );
    if (usable.length === 0) continue;
    kmax += BigInt(Math.max(...usable.map((n) => s.credit?.[n.id] ?? 0)));
    ready += s.ready ? 1n : 0n;
    tokens += BigInt(s.tokens);
  }
  return (kmax + 1n) * (ready + 1n) * (tokens + 1n) <= (1n << 63n) - 1n;
}

it('packed key when it fits, dense-wide when not; both exact', () => {
  const seen = { dense: 0, wide: 0 };
  fc.assert(
    fc.property(hugeProblem, (problem) => {
      const plan = solver.solve(problem, { quantum: 1, path: 'dense' });
      expect(plan.status).toBe('optimal');
      expect(plan.value).toEqual(bruteForceOptimum(problem, 1));
      expectFeasible(problem, plan);
      if (plan.stats.path === 'trivial') return;
      const fits = keyShouldFit(problem);
      expect(plan.stats.keyFits).toBe(fits);
      expect(plan.stats.path).toBe(fits ? 'dense' : 'dense-wide');
      if (fits) seen.dense++;
      else seen.wide++;
    }),
    { numRuns: 400, seed: 63 },
  );
  // The generator must exercise both sides of the boundary.
  expect(seen.dense).toBeGreaterThan(20);
  expect(seen.wide).toBeGreaterThan(20);
});

it('frontier: packed key when it fits, the BigInt frontier-wide when not; both exact', () => {
  const seen = { frontier: 0, wide: 0 };
  fc.assert(
    fc.property(hugeProblem, (problem) => {
      const plan = solver.solve(problem, { quantum: 1, path: 'frontier' });
      expect(plan.status).toBe('optimal');
      expect(plan.value).toEqual(bruteForceOptimum(problem, 1));
      expectFeasible(problem, plan);
      if (plan.stats.path === 'trivial') return;
      const fits = keyShouldFit(problem);
      expect(plan.stats.keyFits).toBe(fits);
      // A heuristic plan that meets the root bound is proven optimal before any session is folded.
      if (plan.stats.path === 'bound') return;
      expect(plan.stats.path).toBe(fits ? 'frontier' : 'frontier-wide');
      if (fits) seen.frontier++;
      else seen.wide++;
    }),
    { numRuns: 600, seed: 64 },
  );
  expect(seen.frontier).toBeGreaterThan(20);
  expect(seen.wide).toBeGreaterThan(20);
});

it('sums at the limits stay exact: 4096 sessions with credit and tokens 2^32 - 1', () => {
  const n = 4096;
  const problem: Problem = {
    nodes: [{ id: 'a', capacity: 1000 }],
    // Half weigh 1, half 2; every credit is equal, so the optimum admits 1000 sessions of weight 1.
    sessions: Array.from({ length: n }, (_, i) => ({
      id: `s${i}`,
      weight: 1 + (i % 2),
      tokens: MAX_U32,
      ready: true,
      credit: { a: MAX_U32 },
    })),
  };
  const expected = { credit: 1000 * MAX_U32, ready: 1000, tokens: 1000 * MAX_U32 };
  const plan = solver.solve(problem, { quantum: 1, path: 'dense' });
  expect(plan.stats.keyFits).toBe(false);
  expect(plan.stats.path).toBe('dense-wide');
  expect(plan.status).toBe('optimal');
  expect(plan.value).toEqual(expected);
  expectFeasible(problem, plan);
  // The credit greedy admits the 2048 sessions of weight 1 first, and that meets the LP bound.
  const frontier = solver.solve(problem, { quantum: 1, path: 'frontier' });
  expect(frontier.stats.path).toBe('bound');
  expect(frontier.value).toEqual(expected);
  expectFeasible(problem, frontier);
});
