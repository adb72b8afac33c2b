/**
 * Where the `auto` and `frontier` stage lists (src/solve/pipeline/stages.ts) hand a problem on: the dense
 * DP first up to DENSE_FIRST_CELLS cells and not past them; the frontier after a stopped multiple-knapsack
 * search on FRONTIER_AFTER_SEARCH_NODES kept nodes and not on one more; a deadline inside the credit
 * branching ending it; `path: 'frontier'` computing the credit level for the plan's stats, letting the
 * frontier spend what the state budget leaves, and falling back, labelled, on a capacity the frontier
 * cannot represent; and a problem where nothing fits decided before the deadline is read.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  bfd,
  DENSE_FIRST_CELLS,
  defaultSolveOptions,
  FRONTIER_AFTER_SEARCH_NODES,
  loadSolver,
  mkpProblem,
  nearFittingProblem,
  prepare,
  randomTickProblem,
  seededRandom,
  type Plan,
  type Problem,
  type SolveOptions,
  type Solver,
} from './helpers/internals.js';
import { threeOnTwoRooms } from './helpers/solve-context.js';
import { tiedTick } from './helpers/arbitraries.js';
import { workBound } from './helpers/budget.js';
import { onHeldClock } from './helpers/held-clock.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { bruteForceOptimum, compareValues } from './oracles/brute-force.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());
afterEach(() => {
  vi.restoreAllMocks();
});

/** A 3-node tick of 30 sessions, 70% of them credited. */
const tick = (): Problem =>
  randomTickProblem(3, {
    nodes: 3,
    sessions: 30,
    capacity: 60_000,
    minTokens: 2000,
    maxTokens: 20_000,
    cachedRate: 0.7,
  });

/** The plan of `problem` on a clock that jumps 10^9 ms after `still` readings (test/helpers/held-clock.ts). */
const onJumpingClock = (problem: Problem, options: SolveOptions, still: number): Plan =>
  onHeldClock(solver, problem, options, still).plan;

/** Uncredited sessions of 60 quanta on rooms of 127 and 63 (radix 128 x 64) at quantum 1, not all fitting. */
function grid(sessions: number): Problem {
  return {
    nodes: [
      { id: 'a', capacity: 127 },
      { id: 'b', capacity: 63 },
    ],
    sessions: Array.from({ length: sessions }, (_, i) => ({
      id: `s${i}`,
      weight: 60,
      tokens: 50 + i,
      ready: i % 2 === 0,
    })),
  };
}

describe('the stages', () => {
  it(`run the dense DP first on a grid of exactly ${DENSE_FIRST_CELLS} cells, and not on a larger one`, () => {
    const at = grid(4);
    expect(prepare(at, { quantum: 1 }).packed.cells).toBe(DENSE_FIRST_CELLS);
    const plan = solver.solve(at, { quantum: 1 });
    expect(plan.status).toBe('optimal');
    expect(plan.stats.path).toBe('dense');
    const past = grid(5);
    expect(prepare(past, { quantum: 1 }).packed.cells).toBeGreaterThan(DENSE_FIRST_CELLS);
    const other = solver.solve(past, { quantum: 1 });
    expect(other.status).toBe('optimal');
    expect(other.stats.path).not.toBe('dense');
  });

  it(`give way to the frontier on ${FRONTIER_AFTER_SEARCH_NODES} kept nodes, not on one more: a labelled fallback either way, never worse than BFD`, () => {
    // Weakly correlated 50 x m instances at quantum 1: the search passes its share on both, and the
    // frontier cannot represent the 8-node one within the room either.
    for (const m of [FRONTIER_AFTER_SEARCH_NODES, FRONTIER_AFTER_SEARCH_NODES + 1]) {
      const problem = mkpProblem(1, 5, 'weak', 50, m, 3);
      const plan = solver.solve(problem, { quantum: 1 });
      expectFeasible(problem, plan);
      expect(plan.status).toBe('fallback');
      expect(['bfd', 'heuristic']).toContain(plan.stats.path);
      expect(compareValues(plan.value, bfd(problem, { quantum: 1 }).value)).toBeGreaterThanOrEqual(0);
      expect(plan.stats.work).toBeLessThanOrEqual(
        workBound(prepare(problem, { quantum: 1 }).packed, defaultSolveOptions.stateBudget),
      );
      if (m <= FRONTIER_AFTER_SEARCH_NODES) {
        expect(plan.stats.multipleKnapsack?.outcome).toBe('abandoned');
        expect(plan.stats.frontier?.outcome).toBe('abandoned');
        expect(plan.reason).toMatch(/^state budget exceeded: the frontier DP passed stateBudget /);
      } else {
        expect(plan.stats.multipleKnapsack?.outcome).toBe('stopped');
        expect(plan.stats.frontier).toBeUndefined();
        expect(plan.reason).toMatch(/^state budget exceeded: the multiple-knapsack search passed stateBudget /);
      }
    }
  });

  it('end the solve when the deadline stops the multiple-knapsack search: it does not give way to the frontier', () => {
    // The 8-node instance above, its clock jumping 10^9 ms after `still` readings: the first `still`
    // that lets the search start stops it inside.
    const problem = mkpProblem(1, 5, 'weak', 50, FRONTIER_AFTER_SEARCH_NODES, 3);
    let stopped: Plan | undefined;
    for (let still = 2; still < 200 && stopped === undefined; still++) {
      const plan = onJumpingClock(problem, { quantum: 1, deadlineMs: 1000 }, still);
      if (plan.stats.multipleKnapsack !== undefined) stopped = plan;
    }
    expect(stopped?.stats.multipleKnapsack?.outcome).toBe('stopped');
    expect(stopped?.stats.frontier).toBeUndefined();
    expect(stopped?.status).toBe('fallback');
    expect(stopped?.reason).toMatch(/^deadline exceeded: 1000 ms passed/);
  });

  it('fall back on the heuristic plan, not BFD, when the deadline passes after it is made and before the DP', () => {
    // A 3-node tick under path 'frontier' (credit level, heuristic plan, frontier), its clock jumping
    // 10^9 ms after `still` readings: each reading count halts it at another point.
    const problem = tick();
    const bfdPlan = bfd(problem);
    const heuristics: (string | undefined)[] = [];
    for (let still = 1; still < 40; still++) {
      const plan = onJumpingClock(problem, { path: 'frontier', deadlineMs: 1000 }, still);
      if (plan.status !== 'fallback') continue;
      expect(plan.reason).toMatch(/^deadline exceeded: 1000 ms passed after 0 of 30 sessions/);
      expect(compareValues(plan.value, bfdPlan.value)).toBeGreaterThanOrEqual(0);
      heuristics.push(plan.stats.heuristic);
    }
    // Halted before the heuristic plans: BFD; among them, the best made so far (the credit greedy); once
    // the decomposition is made, it at each of the three halts that follow: before the frontier stage,
    // in it before its DP starts, and at the DP's first step.
    expect(heuristics[0]).toBe('bfd');
    expect(heuristics).toContain('credit-greedy-density');
    expect(heuristics.filter((h) => h === 'credit-decomposition')).toHaveLength(3);
    expect(
      heuristics.slice(heuristics.indexOf('credit-decomposition')).every((h) => h === 'credit-decomposition'),
    ).toBe(true);
  });

  it('stop the credit branching when the deadline passes inside it: a labelled fallback a few readings later', () => {
    // A tied 5-node tick whose credit branching explores 100 nodes, reading the clock at each (111 readings
    // in the whole solve); the clock jumps after 30 of them, inside the branching.
    const problem = tiedTick(0, { nodes: 5, sessions: 14, eligibility: false, twins: false });
    const full = onHeldClock(solver, problem, { quantum: 1, deadlineMs: 1000 });
    expect([full.plan.status, full.plan.stats.creditLevel?.branchNodes]).toEqual(['optimal', 100]);
    expect(full.reads).toBeGreaterThan(100);
    const { plan, reads } = onHeldClock(solver, problem, { quantum: 1, deadlineMs: 1000 }, 30);
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toMatch(/^deadline exceeded: 1000 ms passed/);
    expect(reads).toBeLessThanOrEqual(35);
    expect(plan.stats.work).toBeLessThan(full.plan.stats.work);
  });

  it("with path 'frontier', compute the credit level for the plan's stats", () => {
    const problem = threeOnTwoRooms(true);
    const plan = solver.solve(problem, { quantum: 1, path: 'frontier' });
    expect(plan.status).toBe('optimal');
    expect(plan.stats.creditLevel).toMatchObject({ bound: 6 });
  });

  it("with path 'frontier', let the frontier spend what the state budget leaves, not the ceiling's room", () => {
    // A one-node near-fitting tick whose frontier needs about 1.46M units at the default budget: at a
    // budget of 1,023,235 it passes the budget (the ceiling's room, about twice that, would let it finish);
    // at twice that budget it finishes.
    const problem = nearFittingProblem(1, 0, 1, 7);
    const full = solver.solve(problem, { path: 'frontier' });
    expect(full.status).toBe('optimal');
    expect(full.stats.work).toBeGreaterThan(1_023_235);
    expect(full.stats.work).toBeLessThan(1_500_000);
    const capped = solver.solve(problem, { path: 'frontier', stateBudget: 1_023_235 });
    expect(capped.status).toBe('fallback');
    expect(capped.reason).toMatch(/^state budget exceeded: the frontier DP passed stateBudget 1023235 units/);
    expect(solver.solve(problem, { path: 'frontier', stateBudget: 2 * 1_023_235 }).status).toBe('optimal');
  });

  it("with path 'frontier', fall back, labelled, on a node capacity above 2^31 - 1 quanta", () => {
    const problem: Problem = {
      nodes: [
        { id: 'a', capacity: 2 ** 31 },
        { id: 'b', capacity: 10 },
      ],
      sessions: [
        { id: 's0', weight: 2 ** 31, tokens: 5, ready: true },
        { id: 's1', weight: 2 ** 30, tokens: 4, ready: false },
        { id: 's2', weight: 5, tokens: 3, ready: false },
      ],
    };
    const plan = solver.solve(problem, { quantum: 1, path: 'frontier' });
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toBe('the frontier DP cannot represent a node capacity above 2^31 - 1 quanta');
    expectFeasible(problem, plan);
  });

  it('decide a problem where nothing fits before reading the deadline: optimal, not a fallback', () => {
    const problem: Problem = {
      nodes: [{ id: 'a', capacity: 5 }],
      sessions: [{ id: 's0', weight: 6, tokens: 5, ready: true }],
    };
    // Every reading of the clock is 10^9 ms after the one before: any deadline has passed when read.
    let t = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (t += 1e9));
    const plan = solver.solve(problem, { deadlineMs: 1 });
    vi.restoreAllMocks();
    expect(plan.status).toBe('optimal');
    expect(plan.stats.path).toBe('trivial');
  });

  it('bound a credit-split fallback with several credit-optimal leaves by the relaxation, never below the brute-force optimum', () => {
    // Small credited pools whose credit level is decided by branching into several leaves, at budgets
    // their remainders pass: the leaf bound is for one leaf only, so these fallbacks do not take it.
    let checked = 0;
    let spentBetween = 0;
    for (let seed = 0; seed < 400; seed++) {
      const rnd = seededRandom(seed);
      const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
      const nodes = Array.from({ length: int(2, 3) }, (_, b) => ({ id: `n${b}`, capacity: int(20, 60) }));
      const sessions = Array.from({ length: int(5, 8) }, (_, i) => {
        const weight = int(8, 30);
        const credit: Record<string, number> = {};
        for (const n of nodes) if (rnd() < 0.5) credit[n.id] = int(1, 4);
        return { id: `s${i}`, weight, tokens: int(0, weight), ready: rnd() < 0.5, credit };
      });
      const problem: Problem = { nodes, sessions };
      for (const stateBudget of [300, 1000, 3000, 10_000]) {
        const plan = solver.solve(problem, { quantum: 1, stateBudget });
        if (plan.status !== 'fallback' || (plan.stats.creditLevel?.leaves ?? 0) < 2) continue;
        // Stopped in a remainder's search, or between leaves with the budget spent, which names the leaves.
        const between =
          /^state budget exceeded: the remainders of (\d+) credit-optimal leaves passed stateBudget (\d+) units of work$/.exec(
            plan.reason ?? '',
          );
        if (between !== null) {
          expect(Number(between[1])).toBe(plan.stats.creditLevel?.leaves);
          expect(Number(between[2])).toBe(stateBudget);
          spentBetween++;
        } else expect(plan.reason).toMatch(/^state budget exceeded: the multiple-knapsack search passed stateBudget/);
        const best = bruteForceOptimum(problem, 1);
        expect(plan.bound.credit, `seed ${seed}`).toBeGreaterThanOrEqual(best.credit);
        expect(plan.bound.ready, `seed ${seed}`).toBeGreaterThanOrEqual(best.ready);
        expect(plan.bound.tokens, `seed ${seed}`).toBeGreaterThanOrEqual(best.tokens);
        checked++;
        break;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(14);
    expect(spentBetween).toBeGreaterThanOrEqual(1);
  });

  it('report a deadline seen before a credit-split leaf on the whole problem, and one inside its remainder on the remainder', () => {
    // The 3-node tick above under the `auto` stages: its credit level splits off 11 sessions and leaves a
    // remainder of 19. The clock jumps 10^9 ms after `still` readings.
    const problem = tick();
    const reasons: string[] = [];
    for (let still = 1; still < 40; still++) {
      const plan = onJumpingClock(problem, { deadlineMs: 1000 }, still);
      // Fallbacks made once the credit level is known: before the leaf, or inside its remainder.
      if (plan.status === 'fallback' && plan.stats.creditLevel !== undefined) reasons.push(plan.reason!);
    }
    expect(reasons.length).toBeGreaterThan(2);
    expect(reasons[0]).toMatch(/after 0 of 30 sessions/);
    expect(reasons.slice(1).every((r) => /after 0 of 19 sessions/.test(r))).toBe(true);
  });
});
