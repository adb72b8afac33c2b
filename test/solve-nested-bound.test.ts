/**
 * The nested-rooms bound (src/solve/nested-bound.ts) against enumeration of every plan of small
 * credit-free problems (one to four nodes, up to eight sessions, eligibility lists, interchangeable
 * nodes, three quanta): its ready bound is at least every plan's ready count, and its tokens bound, for
 * each floor R from 0 to the most ready sessions a plan holds, at least the tokens of every plan with R
 * ready sessions or more. One scratch is kept across every call. On a problem built so that the heavy
 * sessions fit only one node, it is tighter than the one-knapsack bounds (`packedBound`). A credit-free
 * problem's own fallback carries it, never below the brute-force optimum, and leaves it out once the
 * deadline has passed.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadSolver,
  nestedBound,
  NestedScratch,
  nodesKept,
  type PackedProblem,
  type Plan,
  packedBound,
  prepare,
  type Problem,
  type ProblemSession,
  relaxationBound,
  sessionsKept,
  type Solver,
  validateProblem,
} from './helpers/internals.js';
import { uncreditedPool } from './helpers/arbitraries.js';
import { onHeldClock } from './helpers/held-clock.js';
import { bruteForceOptimum } from './oracles/brute-force.js';

/** Per ready count r, the most tokens of a plan with exactly r ready sessions (-1: none), by enumeration. */
function bestTokensByReady(packed: PackedProblem): number[] {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const best = new Array<number>(n + 1).fill(-1);
  const used = new Float64Array(m);
  const visit = (j: number, ready: number, tokens: number): void => {
    if (j === n) {
      best[ready] = Math.max(best[ready]!, tokens);
      return;
    }
    visit(j + 1, ready, tokens);
    for (let b = 0; b < m; b++) {
      if (packed.candidate[j * m + b] !== 1 || used[b]! + packed.qweight[j]! > packed.capacity[b]!) continue;
      used[b] = used[b]! + packed.qweight[j]!;
      visit(j + 1, ready + packed.ready[j]!, tokens + packed.tokens[j]!);
      used[b] = used[b]! - packed.qweight[j]!;
    }
  };
  visit(0, 0, 0);
  return best;
}

const creditFree = fc
  .record({
    m: fc.integer({ min: 1, max: 4 }),
    rooms: fc.array(fc.integer({ min: 10, max: 120 }), { minLength: 4, maxLength: 4 }),
    equal: fc.boolean(),
    sessions: fc.array(
      fc.record({
        weight: fc.integer({ min: 5, max: 70 }),
        tokens: fc.integer({ min: 0, max: 60 }),
        ready: fc.boolean(),
        limit: fc.option(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 3 }), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 8 },
    ),
    quantum: fc.constantFrom(1, 4, 16),
  })
  .map(({ m, rooms, equal, sessions, quantum }): [Problem, number] => {
    const ids = Array.from({ length: m }, (_, b) => `n${b}`);
    return [
      {
        nodes: ids.map((id, b) => ({ id, capacity: equal ? rooms[0]! : rooms[b]! })),
        sessions: sessions.map((s, i): ProblemSession => {
          const out: ProblemSession = { id: `s${i}`, weight: s.weight, tokens: s.tokens, ready: s.ready };
          const limit = s.limit?.filter((b) => b < m);
          if (limit !== undefined && limit.length > 0) out.eligible = [...new Set(limit.map((b) => ids[b]!))];
          return out;
        }),
      },
      quantum,
    ];
  });

describe('nestedBound', () => {
  it('bounds the ready count of every plan, and the tokens of every plan with at least R ready sessions for each R', () => {
    const scratch = new NestedScratch();
    let tight = 0;
    fc.assert(
      fc.property(creditFree, ([problem, quantum]) => {
        const { packed } = prepare(problem, { quantum });
        if (sessionsKept(packed) === 0) return;
        const best = bestTokensByReady(packed);
        const most = best.reduce((top, t, r) => (t >= 0 ? r : top), 0);
        for (let floor = 0; floor <= most; floor++) {
          const bound = nestedBound(packed, floor, scratch);
          expect(bound.ready).toBeGreaterThanOrEqual(most);
          const reach = Math.max(...best.slice(floor));
          expect(bound.tokens).toBeGreaterThanOrEqual(reach);
          if (bound.tokens === reach) tight++;
        }
      }),
      { numRuns: 1500, seed: 23 },
    );
    // The bound is often exact on problems this small.
    expect(tight).toBeGreaterThan(500);
  });

  it('keeps heavy sessions out of the nodes they do not fit, which the one-knapsack bounds do not', () => {
    // Two heavy sessions of the best tokens per weight fit only the large node, which holds one of them;
    // two good light ones and eight poor ones fit anywhere. The sum of the capacities takes both heavy
    // ones, and each node's own knapsack counts the same two good light ones on every small node.
    const nodes = [
      { id: 'big', capacity: 60 },
      ...Array.from({ length: 5 }, (_, b) => ({ id: `small${b}`, capacity: 20 })),
    ];
    const sessions: ProblemSession[] = [
      { id: 'h0', weight: 50, tokens: 49, ready: false },
      { id: 'h1', weight: 50, tokens: 49, ready: false },
      { id: 'g0', weight: 10, tokens: 9, ready: true },
      { id: 'g1', weight: 10, tokens: 9, ready: false },
      ...Array.from({ length: 8 }, (_, i) => ({ id: `p${i}`, weight: 10, tokens: 2, ready: i < 3 })),
    ];
    const { packed } = prepare({ nodes, sessions }, { quantum: 1 });
    const optimum = Math.max(...bestTokensByReady(packed));
    expect(optimum).toBe(83);
    const nested = nestedBound(packed, 0);
    expect(nested.tokens).toBe(92);
    expect(packedBound(packed).tokens).toBe(124);
  });
});

describe('nestedBound on hand-solved problems', () => {
  const session = (
    id: string,
    weight: number,
    tokens: number,
    ready: boolean,
    eligible?: string[],
  ): ProblemSession => ({
    id,
    weight,
    tokens,
    ready,
    ...(eligible !== undefined ? { eligible } : {}),
  });

  it("relaxes a session's rooms to the suffix from its first candidate, not from the first room it fits", () => {
    // Two rooms of 10. s0 and s1 may go to n1 only, s2 to n0 only. In capacity order (n0, n1, ties in index
    // order) s0 and s1 start at n1, so together they get at most 10: the LP is s0 whole and s2 whole, 101
    // tokens, the optimum. Starting them at the first room they fit (n0) would let both in: 190.
    const problem: Problem = {
      nodes: [
        { id: 'n0', capacity: 10 },
        { id: 'n1', capacity: 10 },
      ],
      sessions: [
        session('s0', 10, 100, false, ['n1']),
        session('s1', 10, 90, false, ['n1']),
        session('s2', 10, 1, false, ['n0']),
      ],
    };
    const bound = nestedBound(prepare(problem, { quantum: 1 }).packed, 0);
    expect(bound.tokens).toBe(101);
    expect(bound.ready).toBe(0);
  });

  it('bounds the tokens of sessions that carry none by 0', () => {
    const problem: Problem = {
      nodes: [{ id: 'n0', capacity: 30 }],
      sessions: [session('s0', 10, 0, true), session('s1', 10, 0, false), session('s2', 20, 0, true)],
    };
    const bound = nestedBound(prepare(problem, { quantum: 1 }).packed, 0);
    expect(bound).toMatchObject({ ready: 2, tokens: 0 });
  });

  it('tries other multipliers only when the LP at mu = 0 holds fewer ready sessions than asked', () => {
    // One room of 100; r0 ready (weight 10, 5 tokens), p0 (50, 500) and p1 (60, 480). At mu = 0 the LP takes
    // p0 and 5/6 of p1: 900 tokens, no ready session. With at least one ready session the LP takes r0,
    // p0 and 40/60 of p1: 5 + 500 + 320 = 825, which the Lagrangian reaches for every mu >= 75
    // (L(mu) = max(825, 900 - mu)), hence at the first multiplier tried past every ready session.
    const problem: Problem = {
      nodes: [{ id: 'n0', capacity: 100 }],
      sessions: [session('r0', 10, 5, true), session('p0', 50, 500, false), session('p1', 60, 480, false)],
    };
    const { packed } = prepare(problem, { quantum: 1 });
    const none = nestedBound(packed, 0);
    const one = nestedBound(packed, 1);
    expect(none.tokens).toBe(900);
    expect(one.tokens).toBe(825);
    expect(none.ready).toBe(1);
    // The mu = 0 LP answers for a floor of 0 in one pass: 13 entries read (the room; per session a search
    // step and its first candidate; the ready pass's one session; p0 and p1, after which the room is full,
    // and the 3 merged). A floor of 1 costs the other passes.
    expect(none.reads).toBe(13);
    expect(one.reads).toBeGreaterThan(none.reads);
  });
});

describe('nestedBound, the multipliers', () => {
  it('tries the multiplier past which every ready session comes first, which no bisection step reaches here', () => {
    // One room of 100: r0 ready (weight 100, no tokens) and p0 (weight 100, 1000 tokens). With at least one
    // ready session only r0 fits: the tokens bound is 0. L(mu) = max(0, 1000 - mu): 0 from mu = 1000 on,
    // where r0 comes first (ties go to the ready session). The multiplier past every ready session is
    // 100 x 10 + 1 = 1001; bisection steps from [0, 1001] stay below 1000 (the last at 1001 x 255 / 256).
    const problem: Problem = {
      nodes: [{ id: 'n0', capacity: 100 }],
      sessions: [
        { id: 'r0', weight: 100, tokens: 0, ready: true },
        { id: 'p0', weight: 100, tokens: 1000, ready: false },
      ],
    };
    const { packed } = prepare(problem, { quantum: 1 });
    expect(nestedBound(packed, 1).tokens).toBe(0);
    expect(nestedBound(packed, 0).tokens).toBe(1000);
  });
});

describe("a credit-free problem's own fallback", () => {
  let solver: Solver;
  beforeAll(async () => {
    solver = await loadSolver();
  });
  afterAll(() => solver.close());

  it('carries the nested-rooms bound: never below the brute-force optimum, and tighter than the relaxation on some', () => {
    // Uncredited pools of one to three sessions a room, at budgets that stop the search.
    let fallbacks = 0;
    let tighter = 0;
    for (let seed = 0; seed < 150; seed++) {
      const problem = uncreditedPool(seed);
      const best = bruteForceOptimum(problem, 1);
      const relaxed = relaxationBound(validateProblem(problem), 1);
      for (const stateBudget of [200, 1000]) {
        const plan = solver.solve(problem, { quantum: 1, stateBudget });
        if (plan.status !== 'fallback') continue;
        fallbacks++;
        expect(plan.bound.ready, `seed ${seed}`).toBeGreaterThanOrEqual(best.ready);
        expect(plan.bound.tokens, `seed ${seed}`).toBeGreaterThanOrEqual(best.tokens);
        const nested = nestedBound(prepare(problem, { quantum: 1 }).packed, plan.value.ready);
        expect(plan.bound.ready).toBeLessThanOrEqual(nested.ready);
        expect(plan.bound.tokens).toBeLessThanOrEqual(nested.tokens);
        if (plan.bound.tokens === nested.tokens && nested.tokens < relaxed.tokens) tighter++;
      }
    }
    expect(fallbacks).toBeGreaterThanOrEqual(20);
    expect(tighter).toBeGreaterThanOrEqual(5);
  });

  it('leaves it out once the deadline has passed: a fallback made past it keeps the other bounds', () => {
    // Seed 1 of the pools above, at a state budget of 200 on a held clock: the search passes its budget,
    // and the fallback's bound reads the clock once more before the nested-rooms bound.
    const problem = uncreditedPool(1);
    const options = { quantum: 1, stateBudget: 200, deadlineMs: 1000 };
    const intime = onHeldClock(solver, problem, options);
    expect(intime.plan.reason).toMatch(/^state budget exceeded/);
    const nested = nestedBound(prepare(problem, { quantum: 1 }).packed, intime.plan.value.ready);
    expect(intime.plan.bound.tokens).toBe(nested.tokens);
    // The clock jumps after the search: the same budget fallback, without the nested-rooms bound.
    let late: Plan | undefined;
    for (let still = intime.reads - 1; still > 0 && late === undefined; still--) {
      const plan = onHeldClock(solver, problem, options, still).plan;
      if (plan.reason === intime.plan.reason && plan.bound.tokens !== nested.tokens) late = plan;
    }
    expect(late?.value).toEqual(intime.plan.value);
    expect(late!.bound.tokens).toBeGreaterThan(nested.tokens);
  });
  it('is not taken for a problem with credit: its fallbacks keep a credit bound at or above the optimum', () => {
    // The same pools with credit on some pairs: the nested-rooms bound says nothing about credit.
    let fallbacks = 0;
    for (let seed = 0; seed < 60; seed++) {
      const pool = uncreditedPool(seed);
      const problem: Problem = {
        nodes: pool.nodes,
        sessions: pool.sessions.map((x, i) =>
          i % 2 === 0 ? { ...x, credit: { [pool.nodes[i % pool.nodes.length]!.id]: 5 + i } } : x,
        ),
      };
      const best = bruteForceOptimum(problem, 1);
      for (const stateBudget of [200, 1000]) {
        const plan = solver.solve(problem, { quantum: 1, stateBudget });
        if (plan.status !== 'fallback') continue;
        fallbacks++;
        expect(plan.bound.credit, `seed ${seed}`).toBeGreaterThanOrEqual(best.credit);
        if (plan.bound.credit === best.credit) expect(plan.bound.ready).toBeGreaterThanOrEqual(best.ready);
      }
    }
    expect(fallbacks).toBeGreaterThanOrEqual(5);
  });
});
