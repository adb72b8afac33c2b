/**
 * One budget per solve (src/solve/pipeline/budget.ts, docs/solver.md "The budget"): every stage charges
 * it, so `PlanStats.work` holds validation and packing, the preparation's work (the best-nodes check, the
 * credit level, the heuristic plan, the decomposition plans) and a fallback's bound as well as the
 * searches'; the searches share the limit, the preparation runs on shares proportional to it, every step
 * that may be skipped runs within the ceiling, and a solve's work stays within the bound the docs state.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bestHeuristic,
  boundWork,
  CREDIT_LEVEL_ENTRY_WORK,
  CREDIT_STATE_WORK,
  creditLevel,
  creditLevelStates,
  DECOMPOSITION_PAIR_WORK,
  defaultSolveOptions,
  HEURISTICS,
  heuristicWork,
  loadSolver,
  nodesKept,
  packWork,
  prepare,
  randomTickProblem,
  SolveBudget,
  seededRandom,
  sessionsKept,
  WORK_CEILING,
  type Plan,
  type Solver,
} from './helpers/internals.js';
import { quantizedCaseArb } from './helpers/arbitraries.js';
import { workBound } from './helpers/budget.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

const DEFAULT = defaultSolveOptions.stateBudget;

describe('SolveBudget', () => {
  it('charges a share to its parent: preparation in the room only, a search in what later searches may spend', () => {
    const budget = new SolveBudget(1000, 0, Number.POSITIVE_INFINITY, undefined);
    const ceiling = WORK_CEILING * 1000;
    const share = budget.share(300);
    share.charge(120);
    expect([budget.spent, budget.room, budget.left, share.left]).toEqual([
      120,
      ceiling - 120,
      Math.min(1000, ceiling - 120),
      300,
    ]);
    share.chargeSearch(80);
    expect([budget.spent, budget.room, budget.left, share.left]).toEqual([
      200,
      ceiling - 200,
      Math.min(920, ceiling - 200),
      220,
    ]);
    expect(share.stepsOf(CREDIT_STATE_WORK)).toBe(1);
    // A share never holds more than the room it was taken from.
    expect(budget.share(5 * ceiling).limit).toBe(ceiling - 200);
  });

  it('keeps every step that may be skipped within WORK_CEILING x limit; the unavoidable work raises the ceiling at the root only', () => {
    const budget = new SolveBudget(1000, 0, Number.POSITIVE_INFINITY, undefined);
    expect(budget.ceiling).toBe(WORK_CEILING * 1000);
    budget.chargeUnavoidable(700);
    expect([budget.spent, budget.room]).toEqual([700, WORK_CEILING * 1000]);
    const share = budget.share(400);
    share.chargeUnavoidable(100);
    expect([budget.spent, budget.room, share.room]).toEqual([
      800,
      WORK_CEILING * 1000 - 100,
      WORK_CEILING * 1000 - 100,
    ]);
    expect(budget.afford(WORK_CEILING * 1000 - 100)).toBe(true);
    expect(budget.afford(WORK_CEILING * 1000 - 99)).toBe(false);
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
          const bound = workBound(packed, stateBudget);
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
          let floor = packWork(packed) + HEURISTICS.length * heuristicWork(packed);
          if (level !== null) {
            withLevel++;
            expect(plan.stats.creditLevel?.states).toBe(level.states);
            floor +=
              CREDIT_LEVEL_ENTRY_WORK * packed.creditStart[n]! +
              level.states * CREDIT_STATE_WORK +
              DECOMPOSITION_PAIR_WORK * pairs;
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
    expect(stopped.stats.work).toBeLessThanOrEqual(workBound(packed, short));
    const computed = solve(problem, { path: 'frontier', stateBudget: enough });
    expect(computed.stats.creditLevel?.states).toBe(needs);
    expect(computed.stats.work).toBeGreaterThanOrEqual(needs * CREDIT_STATE_WORK);
  });

  it('stays within the stated bound on seeded problems from tiny to the caps, at the default budget', () => {
    const sizes: [number, number][] = [
      [1, 5],
      [4, 100],
      [16, 512],
      [64, 1024],
      [64, 4096],
    ];
    for (const [nodes, sessions] of sizes) {
      for (const cachedRate of [0, 0.7, 1]) {
        const problem = randomTickProblem(nodes * 10_000 + sessions, {
          nodes,
          sessions,
          capacity: 360_000,
          minTokens: 2000,
          maxTokens: 40_000,
          cachedRate,
        });
        const plan = solve(problem, {});
        const { packed } = prepare(problem, {});
        expect(plan.stats.work).toBeLessThanOrEqual(workBound(packed, DEFAULT));
      }
    }
    // The widest credit: every session credited on every node, distinct credits (the credit level's and
    // validation's worst case).
    const rnd = seededRandom(64);
    const ids = Array.from({ length: 64 }, (_, b) => `n${b}`);
    const sessions = Array.from({ length: 1024 }, (_, i) => {
      const tokens = 3000 + Math.floor(rnd() * 87_000);
      const credit = Object.fromEntries(ids.map((id) => [id, 1 + Math.floor(rnd() * tokens)]));
      return { id: `s${i}`, weight: tokens + 512, tokens, ready: rnd() < 0.3, credit };
    });
    const total = sessions.reduce((a, x) => a + x.weight, 0);
    const dense = { nodes: ids.map((id) => ({ id, capacity: Math.round((0.4 * total) / 64) })), sessions };
    const { packed } = prepare(dense, {});
    expect(packed.creditStart[sessionsKept(packed)]).toBeGreaterThan(50_000);
    expect(solve(dense, {}).stats.work).toBeLessThanOrEqual(workBound(packed, DEFAULT));
  });

  it('once halted, runs BFD in value order alone and charges it only: the other orders are promised only while there is time', () => {
    const problem = randomTickProblem(8_201, { nodes: 8, sessions: 200, capacity: 120_000, cachedRate: 0.7 });
    const { packed } = prepare(problem, {});
    expect(packed.creditStart[sessionsKept(packed)]).toBeGreaterThan(0);
    const halted = new SolveBudget(DEFAULT, 0, Number.POSITIVE_INFINITY, undefined);
    const out = bestHeuristic(packed, undefined, () => true, halted);
    expect(out.heuristic).toBe('bfd');
    expect(halted.spent).toBe(heuristicWork(packed));
    // Not halted: BFD in both orders and the credit greedy in density order are charged as unavoidable.
    const running = new SolveBudget(1, 0, Number.POSITIVE_INFINITY, undefined);
    bestHeuristic(packed, undefined, () => false, running);
    expect(running.spent).toBe(3 * heuristicWork(packed));
  });

  it("in a share with no room (a credit-split remainder's), runs BFD in value order and the density greedy: the lightest ready sessions first", () => {
    // One large room, ready sessions of every size, no credit: BFD in value order seats the heaviest ready
    // sessions first, the density greedy the lightest.
    const sessions = Array.from({ length: 60 }, (_, i) => ({
      id: `s${i}`,
      weight: 1000 + 997 * i,
      tokens: 500 + 997 * i,
      ready: i % 2 === 0,
    }));
    const { packed } = prepare({ nodes: [{ id: 'a', capacity: 120_000 }], sessions }, { quantum: 1 });
    const parent = new SolveBudget(DEFAULT, 0, Number.POSITIVE_INFINITY, undefined);
    parent.charge(parent.room);
    const share = parent.share(parent.left);
    expect(share.room).toBe(0);
    const out = bestHeuristic(packed, undefined, () => false, share);
    expect(out.heuristic).toBe('credit-greedy-density');
    expect(share.spent).toBe(2 * heuristicWork(packed));
    const ready = (node: Int32Array) => node.reduce((sum, b, j) => sum + (b >= 0 ? packed.ready[j]! : 0), 0);
    // The most ready sessions that fit: the lightest, as many as their weights allow.
    let most = 0;
    for (let used = 0, i = 0; i < 60; i += 2) if ((used += 1000 + 997 * i) <= 120_000) most++;
    expect(ready(out.node)).toBe(most);
  });

  it('with no room, does only what no solve skips: packing, BFD in both orders and the credit greedy, the bound', () => {
    const problem = randomTickProblem(8_200, { nodes: 8, sessions: 200, capacity: 120_000, cachedRate: 0.7 });
    const { packed } = prepare(problem, {});
    const plan = solve(problem, { stateBudget: 1 });
    expect(plan.status).toBe('fallback');
    expect(plan.stats.creditLevel).toBeUndefined();
    expect(plan.stats.work).toBe(packWork(packed) + 3 * heuristicWork(packed) + boundWork(packed));
  });
});
