/**
 * Outcomes that are statuses, not exceptions, on every path: a dense DP over the state budget is never
 * started, a frontier DP that passes it stops (both a labelled fallback: the heuristic plan, never worse
 * than BFD); `auto` falls back from an abandoned frontier to the dense DP when that fits the budget; a
 * problem far beyond the budget (64 nodes, huge capacities, 4096 sessions) stays within the WASM memory
 * cap; a missed deadline stops either DP and returns the labelled fallback; a finite deadline that is met
 * changes nothing; a trap inside WASM surfaces as SolverTrapError and the next solve works on a fresh
 * instance; use after close throws ClosedError.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bfd } from './helpers/internals.js';
import { ClosedError, InvalidValueError, SolverTrapError } from './helpers/internals.js';
import { randomTickProblem, seededRandom } from './helpers/internals.js';
import { MAX_SESSIONS, MAX_STATE_BUDGET, MEMORY_CAP_BYTES, MAX_U32, MAX_NODES } from './helpers/internals.js';
import { frontierSetupWork, packWork, sessionsKept } from './helpers/internals.js';
import { budgetPastLevel } from './helpers/budget.js';
import { fallbackPlan, loadSolver, prepare, type Solver } from './helpers/internals.js';
import type { Plan, Problem } from './helpers/internals.js';
import { DpStatus, WasmKernels } from './helpers/internals.js';
import { largeFrontierTick } from './helpers/large-frontier-tick.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { compareValues } from './oracles/brute-force.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

/** 2 nodes x 64k at quantum 1024: radix 63 x 63 = 3969 states (after capacity reduction, fewer). */
const tick = randomTickProblem(3, { sessions: 30 });
const Q1024 = { quantum: 1024 } as const;

/** Sums of tokens x credits too large for the packed key: the dense-wide path. */
function wideTick(seed: number, sessions: number, capacity: number): Problem {
  const p = randomTickProblem(seed, { sessions, capacity });
  return {
    nodes: p.nodes,
    sessions: p.sessions.map((s, i) => ({
      ...s,
      tokens: MAX_U32 - i,
      credit: Object.fromEntries(p.nodes.map((n, b) => [n.id, MAX_U32 - ((i + b) % 3)])),
    })),
  };
}

/** A fallback is the solver's documented fallback plan for that problem, and never worse than BFD. */
function expectLabelledFallback(problem: Problem, plan: Plan, options: Parameters<typeof prepare>[1]): void {
  expect(plan.status).toBe('fallback');
  expect(['bfd', 'heuristic']).toContain(plan.stats.path);
  // A fallback made past the deadline holds the heuristics that ran before it (past it, BFD in value order
  // alone); any other fallback is the full heuristic plan.
  const late = /^deadline exceeded: /.test(plan.reason!);
  if (!late) {
    const expected = fallbackPlan(prepare(problem, options), plan.reason!);
    expect(plan.assignments).toEqual(expected.assignments);
    expect(plan.value).toEqual(expected.value);
  }
  expect(compareValues(plan.value, bfd(problem, options).value)).toBeGreaterThanOrEqual(0);
  expectFeasible(problem, plan);
}

describe('state budget, dense path', () => {
  it('a DP over the budget is not started: the labelled fallback names cells and budget', () => {
    const { packed } = prepare(tick, Q1024);
    const n = sessionsKept(packed);
    const budget = packed.cells - 1;
    const options = { ...Q1024, stateBudget: budget, path: 'dense' } as const;
    const plan = solver.solve(tick, options);
    expect(plan.reason).toBe(
      `state budget exceeded: ${packed.cells} cells (${n} sessions x ${packed.states} states) > stateBudget ${budget}`,
    );
    // No DP work: what it charged is the preparation's and the fallback's, less than the DP's cells on top
    // of validation and packing.
    expect(plan.stats.work).toBeGreaterThan(packWork(packed));
    expect(plan.stats.work).toBeLessThan(packWork(packed) + packed.cells);
    expectLabelledFallback(tick, plan, options);
  });

  it('exactly at the budget the DP runs', () => {
    const { packed } = prepare(tick, Q1024);
    const plan = solver.solve(tick, { ...Q1024, stateBudget: packed.cells, path: 'dense' });
    expect(plan.status).toBe('optimal');
    expect(plan.stats.path).toBe('dense');
    expect(plan.stats.work).toBe(packWork(packed) + packed.cells);
  });

  it('64 nodes with huge capacities and 4096 sessions: labelled fallback on the dense path, best-nodes in auto', () => {
    const rnd = seededRandom(64);
    const nodes = Array.from({ length: MAX_NODES }, (_, b) => ({ id: `g${b}`, capacity: 2 ** 50 + b }));
    const sessions = Array.from({ length: MAX_SESSIONS }, (_, i) => ({
      id: `s${i}`,
      weight: 1 + Math.floor(rnd() * MAX_U32),
      tokens: Math.floor(rnd() * MAX_U32),
      ready: rnd() < 0.5,
      credit: { [`g${i % MAX_NODES}`]: Math.floor(rnd() * MAX_U32) },
    }));
    const problem: Problem = { nodes, sessions };
    const before = solver.memoryBytes();
    const plan = solver.solve(problem, { quantum: 1, stateBudget: 2 ** 26, path: 'dense' });
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toBe(
      `state budget exceeded: more than 1.8e308 cells (${MAX_SESSIONS} sessions x more than 1.8e308 states) > stateBudget ${2 ** 26}`,
    );
    expect(plan.stats.states).toBe(Number.MAX_VALUE);
    expect(plan.assignments).toHaveLength(MAX_SESSIONS); // 2^50 per node holds every session
    expectFeasible(problem, plan);
    expect(solver.memoryBytes()).toBe(before);

    // Every session fits on its one credited node: the sum of per-session maxima is attained.
    const auto = solver.solve(problem, { quantum: 1, stateBudget: 2 ** 26 });
    expect(auto.status).toBe('optimal');
    expect(auto.stats.path).toBe('best-nodes');
    expect(auto.value.credit).toBe(sessions.reduce((a, s) => a + Object.values(s.credit)[0]!, 0));
    expect(auto.assignments).toHaveLength(MAX_SESSIONS);
    expect(solver.memoryBytes()).toBe(before);
  });

  it('the largest allowed budget runs in WASM within the memory cap', () => {
    // 4 sessions x 2^24 states = 2^26 cells: 128 MiB table + 64 MiB choices.
    const side = 4096;
    const problem: Problem = {
      nodes: [
        { id: 'a', capacity: side - 1 },
        { id: 'b', capacity: side - 1 },
      ],
      sessions: Array.from({ length: 4 }, (_, i) => ({
        id: `s${i}`,
        weight: 2000 + i,
        tokens: i,
        ready: true,
        credit: { a: i, b: 3 - i },
      })),
    };
    const plan = solver.solve(problem, { quantum: 1, stateBudget: 2 ** 26, path: 'dense' });
    expect(plan.status).toBe('optimal');
    expect(plan.stats.states).toBe(side * side);
    expect(plan.stats.work).toBe(packWork(prepare(problem, { quantum: 1 }).packed) + 2 ** 26);
    expect(plan.value).toEqual({ credit: 3 + 2 + 3 + 2, ready: 4, tokens: 6 });
    expect(solver.memoryBytes()).toBeLessThanOrEqual(MEMORY_CAP_BYTES);
  });

  it('options past MAX_STATE_BUDGET reaching runPacked are refused before anything is allocated', () => {
    // 2^27 states on one node: the table alone would need 1 GiB.
    const problem: Problem = {
      nodes: [{ id: 'a', capacity: 2 ** 27 - 1 }],
      sessions: [
        { id: 's', weight: 2 ** 27 - 1, tokens: 1, ready: true },
        { id: 't', weight: 2 ** 26, tokens: 5, ready: false },
      ],
    };
    const prepared = prepare(problem, { quantum: 1, path: 'dense' });
    const before = solver.memoryBytes();
    expect(() => solver.runPacked(prepared.packed, { ...prepared.options, stateBudget: 2 ** 40 })).toThrow(
      new InvalidValueError(`options.stateBudget must be an integer from 1 to ${MAX_STATE_BUDGET}`),
    );
    expect(solver.memoryBytes()).toBe(before);
    // At the largest budget allowed, the memory cap still refuses the table: a labelled fallback.
    const raw = solver.runPacked(prepared.packed, { ...prepared.options, stateBudget: MAX_STATE_BUDGET });
    expect(raw.status).toBe('fallback');
    expect(solver.memoryBytes()).toBe(before);
  });
});

/**
 * The least budget (within 25%) at which the frontier's set-up fits after the stages before it, from one
 * that buys the best-nodes check, the credit level, the set-up and `extra`: the heuristics between them
 * charge what their inputs cost, so the search grows it until the set-up is afforded.
 */
function budgetPastSetUp(problem: Problem, options: Parameters<typeof prepare>[1], extra: number): number {
  const { packed } = prepare(problem, options);
  let stateBudget = budgetPastLevel(problem, options ?? {}, frontierSetupWork(packed) + extra);
  while (
    stateBudget < MAX_STATE_BUDGET &&
    /set-up needs/.test(solver.solve(problem, { ...options, stateBudget }).reason ?? '')
  ) {
    stateBudget = Math.min(MAX_STATE_BUDGET, Math.ceil(stateBudget * 1.25));
  }
  return stateBudget;
}

describe('state budget, frontier path', () => {
  it('a frontier that passes the budget stops: labelled fallback with its counters', () => {
    // Many uncredited sessions packing three nodes tightly: no heuristic plan meets the bound at once.
    const packing = randomTickProblem(3, {
      nodes: 3,
      sessions: 30,
      capacity: 60_000,
      minTokens: 1000,
      maxTokens: 9000,
      cachedRate: 0.3,
    });
    // A budget that buys the stages before the frontier and its set-up, and about 50 units of its DP.
    const { packed } = prepare(packing, { ...Q1024, path: 'frontier' });
    const stateBudget = budgetPastSetUp(packing, { ...Q1024, path: 'frontier' }, 50);
    const options = { ...Q1024, stateBudget, path: 'frontier' } as const;
    const plan = solver.solve(packing, options);
    const n = sessionsKept(packed);
    expect(plan.reason).toMatch(
      new RegExp(
        `^state budget exceeded: the frontier DP passed stateBudget ${stateBudget} units of work after \\d+ of ${n} sessions$`,
      ),
    );
    expect(plan.stats.frontier?.outcome).toBe('abandoned');
    expect(plan.stats.work).toBeGreaterThanOrEqual(stateBudget);
    expectLabelledFallback(packing, plan, options);
  });

  it('the same problem within the budget is exact on the frontier', () => {
    const frontier = solver.solve(tick, { ...Q1024, path: 'frontier' });
    const dense = solver.solve(tick, { ...Q1024, path: 'dense' });
    expect(frontier.status).toBe('optimal');
    expect(['frontier', 'bound']).toContain(frontier.stats.path);
    expect(frontier.stats.frontier?.outcome).toBe('solved');
    expect(frontier.value).toEqual(dense.value);
  });

  it('auto: a frontier past its share of the dense cost is abandoned for the dense DP, same optimum', () => {
    // Sessions credited on two nodes (values depend on the node, the credit level is not decided at the
    // root) packing two nodes tightly: the frontier's states multiply.
    const problem = randomTickProblem(7, {
      nodes: 2,
      sessions: 30,
      capacity: 60_000,
      minTokens: 1000,
      maxTokens: 9000,
      cachedRate: 0.5,
    });
    const [a, b] = problem.nodes.map((node) => node.id);
    for (const s of problem.sessions) {
      const credit = { ...s.credit };
      for (const [id, k] of Object.entries(s.credit ?? {})) credit[id === a ? b! : a!] = Math.round(k / 2);
      (s as { credit?: Record<string, number> }).credit = credit;
    }
    const options = { ...Q1024, stateBudget: 2 ** 24 } as const;
    const { packed } = prepare(problem, options);
    const plan = solver.solve(problem, options);
    expect(plan.status).toBe('optimal');
    expect(plan.stats.path).toBe('dense');
    expect(plan.stats.frontier?.outcome).toBe('abandoned');
    // Cells count both: the frontier's work before it was abandoned, then the dense cells.
    expect(plan.stats.work).toBeGreaterThan(packed.cells);
    expect(plan.value).toEqual(solver.solve(problem, { ...options, path: 'dense' }).value);

    // With the dense DP over the budget there is nothing to fall back on: a labelled fallback, whose
    // reason counts the sessions and cells.
    // A budget that buys the stages before the frontier and its set-up, and about 30,000 units of its DP.
    const tight = { ...Q1024, stateBudget: budgetPastSetUp(problem, Q1024, 30_000) } as const;
    expect(packed.cells).toBeGreaterThan(tight.stateBudget);
    const fallback = solver.solve(problem, tight);
    const n = sessionsKept(packed);
    expect(['bfd', 'heuristic']).toContain(fallback.stats.path);
    expect(fallback.stats.heuristic).toBeDefined();
    expect(fallback.reason).toMatch(
      new RegExp(
        `^state budget exceeded: the frontier DP passed stateBudget ${tight.stateBudget} units of work after \\d+ of ${n} sessions; ` +
          `the dense DP would need ${packed.cells} cells \\(${n} sessions x ${packed.states} states\\)$`,
      ),
    );
    expectLabelledFallback(problem, fallback, tight);
  });

  it('a DP capacity past 31 bits: the frontier path falls back with the reason, auto uses the dense DP', () => {
    // Capacity 2^40 tokens at quantum 1, reduced to the fitting weights' sum 2^32 + 2: above 2^31 - 1.
    const problem: Problem = {
      nodes: [{ id: 'a', capacity: 2 ** 40 }],
      sessions: [
        { id: 's', weight: 2 ** 31 + 1, tokens: 1, ready: true },
        { id: 't', weight: 2 ** 31 + 1, tokens: 2, ready: false },
      ],
    };
    const options = { quantum: 1, path: 'frontier' } as const;
    const plan = solver.solve(problem, options);
    expect(plan.reason).toBe('the frontier DP cannot represent a node capacity above 2^31 - 1 quanta');
    expectLabelledFallback(problem, plan, options);
    // auto: everything fits on the only node, closed form.
    expect(solver.solve(problem, { quantum: 1 }).stats.path).toBe('best-nodes');
  });

  it('16 nodes x 500 sessions at the largest budget: the frontier stays far below the memory cap', () => {
    const problem = randomTickProblem(16, {
      nodes: 16,
      sessions: 500,
      capacity: 360_000,
      minTokens: 2000,
      maxTokens: 40_000,
    });
    const plan = solver.solve(problem, { stateBudget: 2 ** 26, path: 'frontier' });
    expect(['optimal', 'fallback']).toContain(plan.status);
    expectFeasible(problem, plan);
    // Kept states cost 5 bytes of history each and a layer holds at most sqrt(2 x budget) states
    // (each kept state was compared with every earlier one): ~350 MiB at 2^26, whatever the outcome.
    expect(solver.memoryBytes()).toBeLessThan(400 * 2 ** 20);
  });
});

describe('deadline', () => {
  const big = randomTickProblem(11, { sessions: 40, capacity: 400_000 }); // ~150k states, 6M cells at 1024
  const dense = { ...Q1024, stateBudget: 2 ** 26, path: 'dense' } as const;
  /** 16 nodes x 500 sessions: the frontier runs far past a millisecond. */
  const large = largeFrontierTick();
  const frontier = { stateBudget: 2 ** 26, path: 'frontier' } as const;
  /** Key sums past 2^63 with many sessions: the TypeScript frontier-wide path, slow enough to be stopped. */
  const wideLarge = wideTick(14, 80, 400_000);

  it('a deadline already passed stops every DP before its first step: labelled fallback', () => {
    for (const [problem, options] of [
      [big, { ...dense, deadlineMs: 1 }],
      [large, { ...frontier, deadlineMs: 1 }],
      [wideLarge, { ...frontier, quantum: 256, deadlineMs: 1 }],
    ] as const) {
      const prepared = prepare(problem, options);
      const n = sessionsKept(prepared.packed);
      const raw = solver.runPacked(prepared.packed, prepared.options, performance.now() - 5);
      expect(raw.status).toBe('fallback');
      expect(raw.reason).toBe(`deadline exceeded: 1 ms passed after 0 of ${n} sessions of the DP`);
      expect(['bfd', 'heuristic']).toContain(raw.stats.path);
    }
  });

  it('a deadline hit mid-run reports how far the DP got and returns the labelled fallback', () => {
    const plan = solver.solve(big, { ...dense, deadlineMs: 0.5 });
    expect(plan.reason).toMatch(/^deadline exceeded: 0\.5 ms passed after \d+ of \d+ sessions of the DP$/);
    expectLabelledFallback(big, plan, { ...dense, deadlineMs: 0.5 });
    // Inside the frontier DP: test/solve-deadline-stops-frontier.test.ts (on a held clock).
  });

  it('the TypeScript paths (dense-wide, frontier-wide) honour the deadline too', () => {
    const problem = wideTick(12, 30, 400_000);
    const plan = solver.solve(problem, { ...dense, deadlineMs: 0.5 });
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toMatch(/^deadline exceeded: 0\.5 ms passed after \d+ of \d+ sessions of the DP$/);
    expect(plan.stats.keyFits).toBe(false);

    const wide = solver.solve(wideLarge, { ...frontier, quantum: 256, deadlineMs: 0.5 });
    expect(wide.status).toBe('fallback');
    expect(wide.reason).toMatch(/^deadline exceeded: 0\.5 ms passed after \d+ of \d+ sessions of the DP$/);
    expect(wide.stats.keyFits).toBe(false);
    // Stopped inside the frontier, or (on a loaded machine) already between the phases before it.
    if (wide.stats.frontier !== undefined) expect(wide.stats.frontier.outcome).toBe('abandoned');
  });

  it('a deadline that is met (the DP stepped in chunks) gives the same plan as none', () => {
    const stepped = solver.solve(big, { ...dense, deadlineMs: 60_000 });
    const whole = solver.solve(big, dense);
    expect(stepped.status).toBe('optimal');
    expect(stepped.value).toEqual(whole.value);
    expect(stepped.assignments).toEqual(whole.assignments);

    const problem = wideTick(13, 12, 200_000);
    const wideStepped = solver.solve(problem, { ...dense, deadlineMs: 60_000 });
    const wideWhole = solver.solve(problem, dense);
    expect(wideStepped.stats.path).toBe('dense-wide');
    expect(wideStepped.value).toEqual(wideWhole.value);

    // The frontier steps in chunks of work under a deadline (these need 2-8 chunks); the plan and
    // counters do not change.
    for (const p of [
      randomTickProblem(5, { nodes: 4, sessions: 40, capacity: 100_000 }),
      randomTickProblem(7, { nodes: 4, sessions: 40, capacity: 100_000 }),
    ]) {
      const fStepped = solver.solve(p, { path: 'frontier', deadlineMs: 60_000 });
      const fWhole = solver.solve(p, { path: 'frontier' });
      expect(fStepped.status).toBe('optimal');
      expect(fStepped.assignments).toEqual(fWhole.assignments);
      expect(fStepped.stats.frontier).toEqual(fWhole.stats.frontier);
    }
  });
});

describe('traps and close', () => {
  it('a trap in the release build throws SolverTrapError; the next call runs on a fresh instance', async () => {
    const kernel = await WasmKernels.create('release');
    const { packed } = prepare(tick);
    const input = { radix: Array.from(packed.capacity, (c) => c + 1), weight: packed.qweight, keys: packed.key };
    expect(kernel.dense.start(input)).toBe(DpStatus.paused);
    kernel.dense.fold(0, sessionsKept(packed));
    const expected = kernel.dense.finish().value;
    expect(kernel.dense.start(input)).toBe(DpStatus.paused);
    // Stepping far past the reserved sessions runs off the end of linear memory.
    expect(() => kernel.dense.fold(0, 1e9)).toThrow(SolverTrapError);
    expect(kernel.dense.start(input)).toBe(DpStatus.paused);
    kernel.dense.fold(0, sessionsKept(packed));
    expect(kernel.dense.finish().value).toBe(expected);
    kernel.close();
  });

  it('the debug build checks ABI arguments and reports them as a trap', async () => {
    const kernel = await WasmKernels.create('debug');
    const { packed } = prepare(tick);
    expect(
      kernel.dense.start({
        radix: Array.from(packed.capacity, (c) => c + 1),
        weight: packed.qweight,
        keys: packed.key,
      }),
    ).toBe(DpStatus.paused);
    expect(() => kernel.dense.fold(0, sessionsKept(packed) + 1)).toThrow(
      /^WASM trap in denseStep: abort: denseStep: session range outside 0\.\.n at assembly\/index\.ts:\d+:\d+$/,
    );
    kernel.close();
  });

  it('use after close throws ClosedError', async () => {
    const s = await loadSolver();
    s.close();
    expect(() => s.solve(tick)).toThrow(ClosedError);
    expect(() => s.solve(tick)).toThrow('solver is closed');
    const { packed, options } = prepare(tick);
    expect(() => s.runPacked(packed, options)).toThrow(ClosedError);
    s.close(); // idempotent
  });
});
