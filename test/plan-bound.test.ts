/**
 * Every Plan carries a proven bound: per value level, at least that level of the optimal (lexicographically
 * maximal) plan at its quantum. Checked against oracles that share no code with it: brute force for the
 * optimum, and for the most credit, ready sessions and tokens any plan reaches (the relaxations bound
 * those too), HiGHS on family problems; an optimal plan's bound is its value; each relaxation is hit.
 */
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { quantizedCaseArb } from './helpers/arbitraries.js';
import { CLI, SidecarProcess } from './helpers/sidecar.js';
import { bruteForceOptimum } from './oracles/brute-force.js';
import { highsOptimum, loadHighs } from './oracles/highs.js';
import { enumerateKnapsack } from './oracles/knapsack.js';
import { budgetPastLevel } from './helpers/budget.js';
import {
  familyGroups,
  groupKey,
  bfd,
  dantzig,
  relaxationBound,
  loadSolver,
  type Solver,
  validateProblem,
  type Plan,
  type PlanValue,
  type Problem,
} from './helpers/internals.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});

/** The most of each level any plan reaches: credit, then ready with credit ignored, then tokens alone. */
function levelMaxima(problem: Problem, quantum: number): PlanValue {
  const noCredit: Problem = { nodes: problem.nodes, sessions: problem.sessions.map(({ credit: _c, ...s }) => s) };
  const tokensOnly: Problem = {
    nodes: problem.nodes,
    sessions: noCredit.sessions.map((s) => ({ ...s, ready: false })),
  };
  return {
    credit: bruteForceOptimum(problem, quantum).credit,
    ready: bruteForceOptimum(noCredit, quantum).ready,
    tokens: bruteForceOptimum(tokensOnly, quantum).tokens,
  };
}

function expectAtLeast(bound: PlanValue, v: PlanValue): void {
  expect(bound.credit).toBeGreaterThanOrEqual(v.credit);
  expect(bound.ready).toBeGreaterThanOrEqual(v.ready);
  expect(bound.tokens).toBeGreaterThanOrEqual(v.tokens);
}

/** Nodes of equal capacity and sessions without credit: interchangeable nodes. */
const interchangeableArb = fc
  .record({
    m: fc.integer({ min: 1, max: 4 }),
    cap: fc.integer({ min: 0, max: 20 }),
    sessions: fc.array(
      fc.record({
        weight: fc.integer({ min: 1, max: 9 }),
        tokens: fc.integer({ min: 0, max: 9 }),
        ready: fc.boolean(),
      }),
      { maxLength: 7 },
    ),
    quantum: fc.constantFrom(1, 2, 3),
  })
  .map(({ m, cap, sessions, quantum }) => ({
    problem: {
      nodes: Array.from({ length: m }, (_, b) => ({ id: `n${b}`, capacity: cap })),
      sessions: sessions.map((s, i) => ({ id: `s${i}`, ...s })),
    },
    quantum,
  }));

describe('the bound on every plan', () => {
  it('is never below the optimum (fallbacks: BFD, a budget of one unit), and the relaxations never below any plan, with ties, eligibility limits, several quanta', () => {
    fc.assert(
      fc.property(quantizedCaseArb({ maxSessions: 7, maxNodes: 3 }), ({ problem, quantum }) => {
        const opt = bruteForceOptimum(problem, quantum);
        const plans: Plan[] = [
          bfd(problem, { quantum }),
          bfd(problem, { quantum, order: 'tokens' }),
          solver.solve(problem, { quantum, stateBudget: 1 }),
        ];
        for (const plan of plans) {
          expectAtLeast(plan.bound, opt);
          expectAtLeast(plan.bound, plan.value);
          // Given a plan's credit, ready and tokens are bounded among the plans with at least that credit.
          expectAtLeast(relaxationBound(validateProblem(problem), quantum, undefined, plan.value), opt);
        }
        expectAtLeast(relaxationBound(validateProblem(problem), quantum), levelMaxima(problem, quantum));
      }),
      { numRuns: 400 },
    );
  });

  it('on interchangeable nodes', () => {
    fc.assert(
      fc.property(interchangeableArb, ({ problem, quantum }) => {
        expectAtLeast(bfd(problem, { quantum }).bound, bruteForceOptimum(problem, quantum));
        expectAtLeast(bfd(problem, { quantum }).bound, levelMaxima(problem, quantum));
      }),
      { numRuns: 300 },
    );
  });

  it('equals the value of every optimal plan', () => {
    fc.assert(
      fc.property(quantizedCaseArb({ maxSessions: 7, maxNodes: 3 }), ({ problem, quantum }) => {
        const plan = solver.solve(problem, { quantum });
        expect(plan.status).toBe('optimal');
        expect(plan.bound).toEqual(plan.value);
      }),
      { numRuns: 200 },
    );
  });

  it('is met exactly where the relaxation is tight: everything fits, or nothing does', () => {
    const nodes = [
      { id: 'a', capacity: 10 },
      { id: 'b', capacity: 6 },
    ];
    const sessions = [
      { id: 'x', weight: 4, tokens: 7, ready: true, credit: { a: 3 } },
      { id: 'y', weight: 5, tokens: 2, ready: false, credit: { b: 1, a: 2 } },
      { id: 'z', weight: 6, tokens: 5, ready: true },
    ];
    expect(relaxationBound(validateProblem({ nodes, sessions }), 1)).toEqual({ credit: 5, ready: 2, tokens: 14 });
    const heavy = sessions.map(({ credit: _c, ...s }) => s);
    expect(relaxationBound(validateProblem({ nodes: [{ id: 'a', capacity: 3 }], sessions: heavy }), 1)).toEqual({
      credit: 0,
      ready: 0,
      tokens: 0,
    });
  });

  it('takes each relaxation where it is the tightest: per-node credit, the pooled credit, the credit level, the ready count, the tokens', () => {
    // Per node: x and y are both credited on a only (room 5): at most 5 credit there, though the pool has room for both.
    const perNode = validateProblem({
      nodes: [
        { id: 'a', capacity: 5 },
        { id: 'b', capacity: 5 },
      ],
      sessions: [
        { id: 'x', weight: 5, tokens: 0, ready: false, credit: { a: 5 } },
        { id: 'y', weight: 5, tokens: 0, ready: false, credit: { a: 5 } },
      ],
    });
    expect(relaxationBound(perNode, 1).credit).toBe(5);
    // Pooled: x is credited on a and b; one session cannot take both nodes' credit.
    const pooled = validateProblem({
      nodes: [
        { id: 'a', capacity: 5 },
        { id: 'b', capacity: 5 },
      ],
      sessions: [{ id: 'x', weight: 5, tokens: 0, ready: false, credit: { a: 4, b: 4 } }],
    });
    expect(relaxationBound(pooled, 1).credit).toBe(4);
    expect(relaxationBound(pooled, 1, { creditLevel: { bound: 3, decided: false, fixed: 0, states: 0 } }).credit).toBe(
      3,
    );
    // Ready: three ready sessions of weight 4 in a room of 10 in all: two.
    const ready = validateProblem({
      nodes: [
        { id: 'a', capacity: 5 },
        { id: 'b', capacity: 5 },
      ],
      sessions: ['p', 'q', 'r'].map((id) => ({ id, weight: 4, tokens: 3, ready: true })),
    });
    expect(relaxationBound(ready, 1)).toEqual({ credit: 0, ready: 2, tokens: 7 });
    // Given a plan of credit 5, the ready sessions cannot join: the room that credit needs is the whole node.
    const credited = validateProblem({
      nodes: [{ id: 'a', capacity: 10 }],
      sessions: [
        { id: 'k', weight: 10, tokens: 1, ready: false, credit: { a: 5 } },
        { id: 'p', weight: 5, tokens: 1, ready: true },
        { id: 'q', weight: 5, tokens: 1, ready: true },
      ],
    });
    expect(relaxationBound(credited, 1)).toEqual({ credit: 5, ready: 2, tokens: 2 });
    expect(relaxationBound(credited, 1, undefined, { credit: 5 })).toEqual({ credit: 5, ready: 0, tokens: 1 });
    // Quantized: weights 4 are 2 quanta of 2, capacities 5 hold 2 quanta each: two sessions in all.
    expect(relaxationBound(ready, 2)).toEqual({ credit: 0, ready: 2, tokens: 6 });
  });

  it("Dantzig's bound is the floor of the fractional optimum and never below the 0-1 optimum (exact with huge values)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ w: fc.integer({ min: 1, max: 30 }), v: fc.integer({ min: 0, max: 40 }) }), {
          maxLength: 10,
        }),
        fc.integer({ min: 0, max: 80 }),
        (items, cap) => {
          const w = items.map((x) => x.w);
          const v = items.map((x) => x.v);
          const bound = dantzig(
            items.map((_, i) => i),
            w,
            (i) => v[i]!,
            cap,
          );
          expect(bound).toBeGreaterThanOrEqual(enumerateKnapsack(w, v, cap).value);
          expect(bound).toBeLessThanOrEqual(v.reduce((a, b) => a + b, 0));
        },
      ),
      { numRuns: 500 },
    );
    // Ratios that agree to 1e-12 and values near 2^32: the order and the fraction are exact.
    const big = 4_294_967_295;
    expect(dantzig([0, 1], [big, big - 1], (i) => [big - 1, big - 2][i]!, big)).toBe(big - 1);
    expect(dantzig([0], [3], () => big, 1)).toBe(Math.floor(big / 3));
  });

  it('is never below the HiGHS optimum on fallback plans of family problems', async () => {
    const highs = await loadHighs();
    const groups = familyGroups(['single-credit', 'spread-credit', 'burst']).filter((g) =>
      ['single-credit/2n', 'spread-credit/4n', 'burst/2x64'].includes(groupKey(g)),
    );
    for (const g of groups) {
      for (const p of await g.generate(5, 2)) {
        const plan = solver.solve(p, { quantum: g.quantum, stateBudget: 1 });
        const opt = highsOptimum(highs, p, g.quantum);
        expectAtLeast(plan.bound, opt);
        if (plan.status === 'optimal') expect(plan.bound).toEqual(opt);
      }
    }
  }, 120_000);

  it('of a credit-split fallback (fixed credit sets plus the remainder bound) is never below the optimum and is hit', () => {
    // Sessions credited on one node each, nodes with room for a few: the credit level decides at the root and
    // a budget of one unit past it leaves the remainder to the fallback, whose bound is the leaf's.
    const arb = fc
      .record({
        m: fc.integer({ min: 2, max: 3 }),
        sessions: fc.array(
          fc.record({
            weight: fc.integer({ min: 2, max: 9 }),
            tokens: fc.integer({ min: 0, max: 9 }),
            ready: fc.boolean(),
            home: fc.integer({ min: 0, max: 3 }),
            credit: fc.integer({ min: 1, max: 5 }),
          }),
          { minLength: 3, maxLength: 7 },
        ),
        caps: fc.array(fc.integer({ min: 3, max: 16 }), { minLength: 3, maxLength: 3 }),
        quantum: fc.constantFrom(1, 2),
      })
      .map(({ m, sessions, caps, quantum }): [Problem, number] => [
        {
          nodes: Array.from({ length: m }, (_, b) => ({ id: `n${b}`, capacity: caps[b]! })),
          sessions: sessions.map((x, i) => ({
            id: `s${i}`,
            weight: x.weight,
            tokens: x.tokens,
            ready: x.ready,
            ...(x.home < m ? { credit: { [`n${x.home}`]: x.credit } } : {}),
          })),
        },
        quantum,
      ]);
    let tighter = 0;
    fc.assert(
      fc.property(arb, ([problem, quantum]) => {
        const plan = solver.solve(problem, { quantum, stateBudget: budgetPastLevel(problem, { quantum }, 1) });
        const opt = bruteForceOptimum(problem, quantum);
        expectAtLeast(plan.bound, opt);
        if (plan.status !== 'fallback' || plan.stats.creditLevel?.decided !== true) return;
        const relaxed = relaxationBound(validateProblem(problem), quantum, plan.stats, plan.value);
        if (plan.bound.ready < relaxed.ready || plan.bound.tokens < relaxed.tokens) tighter++;
      }),
      { numRuns: 800, seed: 22 },
    );
    expect(tighter).toBeGreaterThan(20);
  });

  it('travels through the sidecar and `tao solve` unchanged', async () => {
    const [problem] = await familyGroups(['burst'])
      .find((g) => g.name === '8x64')!
      .generate(1, 1);
    const plan = solver.solve(problem!, { stateBudget: 1 });
    expect(plan.status).toBe('fallback');
    expectAtLeast(plan.bound, plan.value);
    const s = new SidecarProcess();
    const r = await s.request({ id: 1, op: 'solve', problem, options: { stateBudget: 1 } });
    expect((r.plan as Plan).bound).toEqual(plan.bound);
    await s.shutdown();
    const cli = spawnSync(process.execPath, [CLI, 'solve', '--budget', '1', '-'], {
      input: JSON.stringify(problem),
      encoding: 'utf8',
    });
    expect(cli.status, cli.stderr).toBe(0);
    expect((JSON.parse(cli.stdout) as Plan).bound).toEqual(plan.bound);
  }, 60_000);
});
