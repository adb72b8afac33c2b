/**
 * Outcomes that are statuses, not exceptions: a DP over the state budget is never started (labelled BFD
 * fallback); a problem far beyond the budget (64 nodes, huge capacities, 4096 sessions) stays within the
 * WASM memory cap; a missed deadline stops the DP and returns a labelled BFD plan; a finite deadline that
 * is met changes nothing; a trap inside WASM surfaces as SolverTrapError and the next solve works on a
 * fresh instance; use after close throws ClosedError.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bfd } from '../src/bfd.js';
import { ClosedError, SolverTrapError } from '../src/errors.js';
import { randomTickProblem, seededRandom } from '../src/examples.js';
import { MAX_SESSIONS, MEMORY_CAP_BYTES, MAX_U32, MAX_NODES } from '../src/limits.js';
import { sessionsKept } from '../src/pack.js';
import { loadSolver, prepare, type Solver } from '../src/solver.js';
import type { Problem } from '../src/types.js';
import { TaoKernel } from '../src/wasm.js';
import { expectFeasible } from './helpers/plan-checks.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

/** 2 nodes x 64k at quantum 1024: radix 63 x 63 = 3969 states (after capacity reduction, fewer). */
const tick = randomTickProblem(3, { sessions: 30 });

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

describe('state budget', () => {
  it('a DP over the budget is not started: BFD plan labelled with cells and budget', () => {
    const { packed } = prepare(tick);
    const n = sessionsKept(packed);
    const budget = packed.cells - 1;
    const plan = solver.solve(tick, { stateBudget: budget });
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toBe(
      `state budget exceeded: ${packed.cells} cells (${n} sessions x ${packed.states} states) > stateBudget ${budget}`,
    );
    expect(plan.stats.path).toBe('bfd');
    expect(plan.stats.cells).toBe(0);
    expect(plan.assignments).toEqual(bfd(tick).assignments);
    expect(plan.value).toEqual(bfd(tick).value);
    expectFeasible(tick, plan);
  });

  it('exactly at the budget the DP runs', () => {
    const { packed } = prepare(tick);
    const plan = solver.solve(tick, { stateBudget: packed.cells });
    expect(plan.status).toBe('optimal');
    expect(plan.stats.path).toBe('dense');
    expect(plan.stats.cells).toBe(packed.cells);
  });

  it('64 nodes with huge capacities and 4096 sessions: labelled fallback, memory within the cap', () => {
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
    const plan = solver.solve(problem, { quantum: 1, stateBudget: 2 ** 26 });
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toBe(
      `state budget exceeded: more than 1.8e308 cells (${MAX_SESSIONS} sessions x more than 1.8e308 states) > stateBudget ${2 ** 26}`,
    );
    expect(plan.stats.states).toBe(Number.MAX_VALUE);
    expect(plan.assignments).toHaveLength(MAX_SESSIONS); // 2^50 per node holds every session
    expectFeasible(problem, plan);
    expect(solver.memoryBytes()).toBe(before);
    expect(solver.memoryBytes()).toBeLessThanOrEqual(MEMORY_CAP_BYTES);
  });

  it('the largest allowed budget runs in WASM within the memory cap', () => {
    // 4 sessions x 2^24 states = 2^26 cells: 128 MiB table + 64 MiB choices.
    const side = 4096;
    const problem: Problem = {
      nodes: [
        { id: 'a', capacity: side - 1 },
        { id: 'b', capacity: side - 1 },
      ],
      sessions: Array.from({ length: 4 }, (_, i) => ({ id: `s${i}`, weight: 2000 + i, tokens: i, ready: true, credit: { a: i, b: 3 - i } })),
    };
    const plan = solver.solve(problem, { quantum: 1, stateBudget: 2 ** 26 });
    expect(plan.status).toBe('optimal');
    expect(plan.stats.states).toBe(side * side);
    expect(plan.stats.cells).toBe(2 ** 26);
    expect(plan.value).toEqual({ credit: 3 + 2 + 3 + 2, ready: 4, tokens: 6 });
    expect(solver.memoryBytes()).toBeLessThanOrEqual(MEMORY_CAP_BYTES);
  });

  it('options past MAX_STATE_BUDGET reaching runPacked: memory-cap fallback, no allocation, no trap', () => {
    // 2^27 states on one node: the table alone would need 1 GiB.
    const problem: Problem = {
      nodes: [{ id: 'a', capacity: 2 ** 27 - 1 }],
      sessions: [{ id: 's', weight: 2 ** 27 - 1, tokens: 1, ready: true }, { id: 't', weight: 2 ** 26, tokens: 5, ready: false }],
    };
    const prepared = prepare(problem, { quantum: 1 });
    const before = solver.memoryBytes();
    const raw = solver.runPacked(prepared.packed, { ...prepared.options, stateBudget: 2 ** 40 });
    expect(raw.status).toBe('fallback');
    expect(raw.reason).toMatch(/^memory cap exceeded: the dense DP needs \d+ bytes > 1073741824$/);
    expect(solver.memoryBytes()).toBe(before);

    const wide = prepare(wideTick(5, 2, 2 ** 27), { quantum: 1 });
    expect(wide.packed.keyFits).toBe(false);
    const rawWide = solver.runPacked(wide.packed, { ...wide.options, stateBudget: 2 ** 60 });
    expect(rawWide.status).toBe('fallback');
    expect(rawWide.reason).toMatch(/^memory cap exceeded: the dense-wide DP needs \d+ bytes > 1073741824$/);
  });
});

describe('deadline', () => {
  const big = randomTickProblem(11, { sessions: 40, capacity: 400_000 }); // ~150k states, 6M cells

  it('a deadline already passed stops before the first chunk: labelled BFD plan', () => {
    const prepared = prepare(big, { stateBudget: 2 ** 26, deadlineMs: 1 });
    const n = sessionsKept(prepared.packed);
    const raw = solver.runPacked(prepared.packed, prepared.options, performance.now() - 5);
    expect(raw.status).toBe('fallback');
    expect(raw.reason).toBe(`deadline exceeded: 1 ms passed after 0 of ${n} sessions of the DP`);
    expect(raw.stats.path).toBe('bfd');
  });

  it('a deadline hit mid-run reports how far the DP got and returns the BFD plan', () => {
    const plan = solver.solve(big, { stateBudget: 2 ** 26, deadlineMs: 0.5 });
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toMatch(/^deadline exceeded: 0\.5 ms passed after \d+ of \d+ sessions of the DP$/);
    expect(plan.value).toEqual(bfd(big).value);
    expectFeasible(big, plan);
  });

  it('the dense-wide path honours the deadline too', () => {
    const problem = wideTick(12, 30, 400_000);
    const plan = solver.solve(problem, { stateBudget: 2 ** 26, deadlineMs: 0.5 });
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toMatch(/^deadline exceeded: 0\.5 ms passed after \d+ of \d+ sessions of the DP$/);
    expect(plan.stats.keyFits).toBe(false);
  });

  it('a deadline that is met (the DP stepped in chunks) gives the same plan as none', () => {
    const stepped = solver.solve(big, { stateBudget: 2 ** 26, deadlineMs: 60_000 });
    const whole = solver.solve(big, { stateBudget: 2 ** 26 });
    expect(stepped.status).toBe('optimal');
    expect(stepped.value).toEqual(whole.value);
    expect(stepped.assignments).toEqual(whole.assignments);

    const problem = wideTick(13, 12, 200_000);
    const wideStepped = solver.solve(problem, { stateBudget: 2 ** 26, deadlineMs: 60_000 });
    const wideWhole = solver.solve(problem, { stateBudget: 2 ** 26 });
    expect(wideStepped.stats.path).toBe('dense-wide');
    expect(wideStepped.value).toEqual(wideWhole.value);
  });
});

describe('traps and close', () => {
  it('a trap in the release build throws SolverTrapError; the next call runs on a fresh instance', async () => {
    const kernel = await TaoKernel.create('release');
    const { packed } = prepare(tick);
    const radix = Array.from(packed.capacity, (c) => c + 1);
    expect(kernel.load(radix, packed.qweight, packed.key)).toBe(true);
    kernel.step(0, sessionsKept(packed));
    const expected = kernel.finish().value;
    expect(kernel.load(radix, packed.qweight, packed.key)).toBe(true);
    // Stepping far past the reserved sessions runs off the end of linear memory.
    expect(() => kernel.step(0, 1e9)).toThrow(SolverTrapError);
    expect(kernel.load(radix, packed.qweight, packed.key)).toBe(true);
    kernel.step(0, sessionsKept(packed));
    expect(kernel.finish().value).toBe(expected);
    kernel.close();
  });

  it('the debug build checks ABI arguments and reports them as a trap', async () => {
    const kernel = await TaoKernel.create('debug');
    const { packed } = prepare(tick);
    expect(kernel.load(Array.from(packed.capacity, (c) => c + 1), packed.qweight, packed.key)).toBe(true);
    expect(() => kernel.step(0, sessionsKept(packed) + 1)).toThrow(
      /^WASM trap in step: abort: step: session range outside 0\.\.n at assembly\/index\.ts:\d+:\d+$/,
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
