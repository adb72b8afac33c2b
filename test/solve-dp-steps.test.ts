/**
 * The steps the DP driver (src/solve/pipeline/run-dp.ts) cuts its work into, read on a clock the test
 * holds (performance.now mocked, counting its readings; restored after each test). The deadline is read
 * between steps, so the number of readings counts the steps:
 * - the dense DP runs in one step when nothing can halt it, and in steps of CHUNK_CELLS cells when a
 *   deadline is set, so a deadline that passes during it cuts it between two of its sessions;
 * - the frontier always runs in steps, about CHUNK_WORK units each up to four nodes and never less than
 *   CHUNK_WORK_MIN: between work / CHUNK_WORK and work / CHUNK_WORK_MIN steps (plus one per layer).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHUNK_CELLS, CHUNK_WORK, CHUNK_WORK_MIN } from './helpers/internals.js';
import { loadSolver, prepare, randomTickProblem, type Solver } from './helpers/internals.js';
import type { Problem, SolveOptions } from './helpers/internals.js';
import { onHeldClock } from './helpers/held-clock.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());
afterEach(() => {
  vi.restoreAllMocks();
});

/** The plan of `problem` on the held clock (see test/helpers/held-clock.ts). */
const held = (problem: Problem, options: SolveOptions, still?: number) => onHeldClock(solver, problem, options, still);

const tick = (seed: number, nodes: number, sessions: number, capacity: number): Problem =>
  randomTickProblem(seed, { nodes, sessions, capacity, minTokens: 2000, maxTokens: 20_000, cachedRate: 0.5 });

describe('the dense DP', () => {
  const problem = tick(7, 2, 24, 120_000);
  const options: SolveOptions = { path: 'dense', quantum: 256, stateBudget: 2 ** 26 };

  it('runs in one step when neither a deadline nor a stop flag can halt it, in steps of CHUNK_CELLS cells under a deadline', () => {
    const { packed } = prepare(problem, options);
    const chunks = Math.ceil(packed.cells / CHUNK_CELLS);
    expect(chunks).toBeGreaterThan(10);
    const free = held(problem, options);
    expect(free.plan.status).toBe('optimal');
    expect(free.plan.stats.path).toBe('dense');
    const timed = held(problem, { ...options, deadlineMs: 1000 });
    expect(timed.plan.value).toEqual(free.plan.value);
    // One reading per step more under the deadline: at least one per chunk of cells.
    expect(timed.reads - free.reads).toBeGreaterThanOrEqual(chunks - 1);
    expect(free.reads).toBeLessThan(chunks);
  });

  it('is cut between two of its sessions when the deadline passes during it', () => {
    const timed = { ...options, deadlineMs: 1000 };
    const all = held(problem, timed).reads;
    const cut: number[] = [];
    for (let still = 0; still < all; still++) {
      const { plan } = held(problem, timed, still);
      if (plan.status === 'optimal') continue;
      const at = /^deadline exceeded: 1000 ms passed after (\d+) of (\d+) sessions of the DP$/.exec(plan.reason ?? '');
      expect(at, plan.reason).not.toBeNull();
      cut.push(Number(at![1]));
    }
    const n = prepare(problem, options).packed.sessionIndex.length;
    expect(cut.some((k) => k > 0 && k < n)).toBe(true);
  });
});

describe('the frontier', () => {
  it('checks between steps of at most CHUNK_WORK units and at least CHUNK_WORK_MIN (or a layer), with or without a deadline', () => {
    for (const [seed, nodes, sessions, capacity, quantum] of [
      [7, 2, 40, 120_000, 64],
      [7, 3, 30, 60_000, 256],
    ] as const) {
      const problem = tick(seed, nodes, sessions, capacity);
      const options: SolveOptions = { path: 'frontier', quantum };
      const free = held(problem, options);
      expect(free.plan.stats.path).toBe('frontier');
      const work = free.plan.stats.work;
      const layers = prepare(problem, options).packed.sessionIndex.length;
      expect(work / CHUNK_WORK).toBeGreaterThan(10);
      expect(free.reads).toBeGreaterThanOrEqual(Math.floor(work / CHUNK_WORK));
      expect(free.reads).toBeLessThanOrEqual(Math.ceil(work / CHUNK_WORK_MIN) + layers + 10);
      expect(held(problem, { ...options, deadlineMs: 1e6 }).reads).toBe(free.reads);
    }
  });
});
