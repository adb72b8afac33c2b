/**
 * One budget per solve (src/solve/pipeline/budget.ts, docs/solver.md "The budget"): every stage charges
 * it, so `PlanStats.work` holds the preparation's work (the best-nodes check, the credit level, the
 * heuristic plan, the decomposition plans) as well as the searches'; the searches share the limit, the
 * preparation runs on shares proportional to it, and a solve's work stays within the bound the docs state.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BEST_NODES_PAIR_WORK,
  BOUND_PAIR_WORK,
  CREDIT_BRANCH_MAX_LEAVES,
  CREDIT_STATE_WORK,
  creditLevel,
  creditLevelStates,
  DECOMPOSITION_PAIR_WORK,
  defaultSolveOptions,
  HEURISTIC_PAIR_WORK,
  HEURISTICS,
  loadSolver,
  nodesKept,
  prepare,
  randomTickProblem,
  SEQUENTIAL_FIRST_NODES,
  SolveBudget,
  sessionsKept,
  type Plan,
  type Solver,
} from './helpers/internals.js';
import { quantizedCaseArb } from './helpers/arbitraries.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

const DEFAULT = defaultSolveOptions.stateBudget;

/** The credit level's share (and the decomposition plans') in units at state budget `limit`, over m kept nodes. */
function levelShare(m: number, limit: number): number {
  return CREDIT_STATE_WORK * Math.max(4096, 1024 * m * Math.min(1, limit / DEFAULT));
}

/**
 * The bound docs/solver.md states on a solve's work at state budget `limit`: the searches 2 x limit, the
 * credit branching at most the limit, and per decision (the problem's and each credit-optimal leaf's
 * remainder) the preparation: the best-nodes check, the four heuristics, five decomposition passes, the
 * credit level's and the decomposition plans' shares; and a fallback's bound.
 */
function workBound(n: number, m: number, limit: number): number {
  const pairs = n * m;
  const preparation =
    BEST_NODES_PAIR_WORK * pairs +
    HEURISTICS.length * HEURISTIC_PAIR_WORK * pairs +
    (1 + SEQUENTIAL_FIRST_NODES) * DECOMPOSITION_PAIR_WORK * pairs +
    2 * levelShare(m, limit);
  return 3 * limit + (1 + CREDIT_BRANCH_MAX_LEAVES) * preparation + BOUND_PAIR_WORK * pairs;
}

describe('SolveBudget', () => {
  it('charges a share to its parent: preparation in the work only, a search in what later searches may spend', () => {
    const budget = new SolveBudget(1000, 0, Number.POSITIVE_INFINITY, undefined);
    const share = budget.share(300);
    share.charge(120);
    expect([budget.spent, budget.left, share.left]).toEqual([120, 1000, 300]);
    share.chargeSearch(80);
    expect([budget.spent, budget.left, share.left]).toEqual([200, 920, 220]);
    expect(share.stepsOf(CREDIT_STATE_WORK)).toBe(1);
  });

  it('scales the preparation shares with a state budget below the default, down to their floor, never above it', () => {
    const of = (stateBudget: number) => SolveBudget.of({ ...defaultSolveOptions, stateBudget }, 0, undefined);
    expect(of(DEFAULT).preparation(1000).limit).toBe(1000);
    expect(of(DEFAULT * 4).preparation(1000).limit).toBe(1000);
    expect(of(DEFAULT / 4).preparation(1000).limit).toBe(250);
    expect(of(DEFAULT / 4).preparation(1000, 600).limit).toBe(600);
  });
});

describe('a solve charges its one budget', () => {
  const solve = (problem: Parameters<Solver['solve']>[0], options: Parameters<Solver['solve']>[1]): Plan =>
    solver.solve(problem, options);

  it('reports work within the stated bound at small and default state budgets, on every path', () => {
    let above = 0;
    fc.assert(
      fc.property(
        quantizedCaseArb({ maxNodes: 4, maxSessions: 14, maxCapacity: 60, maxWeight: 20 }, [1, 2, 3]),
        fc.oneof(fc.integer({ min: 1, max: 3000 }), fc.constant(DEFAULT)),
        fc.constantFrom('auto', 'dense', 'frontier'),
        ({ problem, quantum }, stateBudget, path) => {
          const plan = solve(problem, { quantum, stateBudget, path });
          const { packed } = prepare(problem, { quantum });
          const bound = workBound(sessionsKept(packed), nodesKept(packed), stateBudget);
          expect(plan.stats.work).toBeLessThanOrEqual(bound);
          if (plan.stats.work > stateBudget) above++;
        },
      ),
      { numRuns: 400, seed: 21 },
    );
    // The preparation is charged beyond a small limit: the bound is not vacuous.
    expect(above).toBeGreaterThan(20);
  });

  it("includes the heuristic plan's and the credit level's charges (path frontier: level, heuristics, then the DP)", () => {
    let withLevel = 0;
    fc.assert(
      fc.property(
        quantizedCaseArb({ maxNodes: 4, maxSessions: 12, maxCapacity: 60, maxWeight: 20 }, [1, 2, 3]),
        ({ problem, quantum }) => {
          const { packed } = prepare(problem, { quantum });
          const n = sessionsKept(packed);
          if (n === 0) return;
          const pairs = n * nodesKept(packed);
          const plan = solve(problem, { quantum, path: 'frontier' });
          // The level an unbounded computation finds: the solve's share at the default budget holds it here.
          const level = creditLevel(packed, Number.POSITIVE_INFINITY);
          let floor = HEURISTICS.length * HEURISTIC_PAIR_WORK * pairs;
          if (level !== null) {
            withLevel++;
            expect(plan.stats.creditLevel?.states).toBe(level.states);
            floor += level.states * CREDIT_STATE_WORK + DECOMPOSITION_PAIR_WORK * pairs;
          }
          expect(plan.stats.work).toBeGreaterThanOrEqual(floor);
        },
      ),
      { numRuns: 300, seed: 22 },
    );
    expect(withLevel).toBeGreaterThan(100);
  });

  it('the credit level stops once its share of the budget is spent', () => {
    // 16 nodes: a share of 1024 states per node at the default budget, in proportion below it, at least 4096.
    const problem = randomTickProblem(21, { nodes: 16, sessions: 800, capacity: 120_000, cachedRate: 0.9 });
    const { packed } = prepare(problem, {});
    const needs = creditLevel(packed, Number.POSITIVE_INFINITY)!.states;
    expect(needs).toBeGreaterThan(4096);
    expect(needs).toBeLessThanOrEqual(creditLevelStates(packed));
    // The state budgets at which the level's share buys one state fewer than it needs, and all it needs.
    const per = creditLevelStates(packed) / DEFAULT;
    const short = Math.floor((needs - 1) / per);
    const enough = Math.ceil(needs / per);
    const stopped = solve(problem, { path: 'frontier', stateBudget: short });
    expect(stopped.stats.creditLevel).toBeUndefined();
    expect(stopped.stats.work).toBeLessThanOrEqual(workBound(sessionsKept(packed), nodesKept(packed), short));
    const computed = solve(problem, { path: 'frontier', stateBudget: enough });
    expect(computed.stats.creditLevel?.states).toBe(needs);
    expect(computed.stats.work).toBeGreaterThanOrEqual(needs * CREDIT_STATE_WORK);
  });
});
