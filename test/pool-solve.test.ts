import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { createSolverPool, type SolverPool } from './helpers/internals.js';
import { defaultPoolOptions, resolvePoolOptions } from './helpers/internals.js';
import { loadSolver, prepare, type Solver } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import { builtWorker, problemArb, quantumArb, timeless } from './pool-support.js';

let pool: SolverPool;
let solver: Solver;

beforeAll(async () => {
  pool = createSolverPool({ workerFile: builtWorker(), minThreads: 2, maxThreads: 2 });
  solver = await loadSolver();
  await pool.ready();
});

afterAll(async () => {
  solver?.close();
  await pool?.close();
});

describe('pool.solve equals solver.solve', () => {
  it('gives the same plan (status, value, assignments in order, stats) on random problems and quanta', async () => {
    await fc.assert(
      fc.asyncProperty(problemArb, quantumArb, async (problem, quantum) => {
        const off = await pool.solve(problem, { quantum });
        const on = solver.solve(problem, { quantum });
        expect(timeless(off)).toEqual(timeless(on));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same budget fallback when the state budget is exceeded', async () => {
    await fc.assert(
      fc.asyncProperty(problemArb, async (problem) => {
        const options = { quantum: 1, stateBudget: 50 };
        const off = await pool.solve(problem, options);
        expect(timeless(off)).toEqual(timeless(solver.solve(problem, options)));
      }),
      { numRuns: 60 },
    );
  });

  it('answers every one of many concurrent solves with its own problem’s plan', async () => {
    const problems = fc.sample(problemArb, { numRuns: 80, seed: 7 });
    const plans = await Promise.all(problems.map((p) => pool.solve(p, { quantum: 256 })));
    plans.forEach((plan, k) => expect(timeless(plan)).toEqual(timeless(solver.solve(problems[k]!, { quantum: 256 }))));
    expect(pool.stats().threads).toBeLessThanOrEqual(2);
  });

  it('transfers the packed input to the worker instead of copying it', async () => {
    const problem = fc.sample(
      problemArb.filter((p) => p.sessions.length > 2 && p.nodes.some((n) => n.capacity > 12_000)),
      { numRuns: 1, seed: 3 },
    )[0]!;
    const prepared = prepare(problem, { quantum: 64 });
    expect(prepared.packed.qweight.byteLength).toBeGreaterThan(0);
    const plan = await pool.solvePrepared(prepared);
    // A transferred ArrayBuffer is detached on the sending side.
    expect(prepared.packed.qweight.byteLength).toBe(0);
    expect(timeless(plan)).toEqual(timeless(solver.solve(problem, { quantum: 64 })));
  });

  it('keeps its workers: the same threads answer a second batch', async () => {
    const before = pool.threadIds().sort();
    await Promise.all(fc.sample(problemArb, { numRuns: 10, seed: 1 }).map((p) => pool.solve(p)));
    expect(pool.threadIds().sort()).toEqual(before);
  });
});

describe('pool input and options', () => {
  it('rejects invalid problems and options without throwing synchronously, naming the field', async () => {
    const bad = { nodes: [{ id: 'a', capacity: 1.5 }], sessions: [] } as Problem;
    let p: Promise<unknown> | undefined;
    expect(() => (p = pool.solve(bad))).not.toThrow();
    await expect(p).rejects.toThrow(
      new InvalidValueError('problem.nodes[0].capacity must be a non-negative safe integer'),
    );
    await expect(pool.solve({ nodes: [], sessions: [] }, { quantum: 'x' as unknown as number })).rejects.toThrow(
      new InvalidTypeError('options.quantum must be a number'),
    );
    await expect(pool.solve({ nodes: [], sessions: [] }, { signal: {} as AbortSignal })).rejects.toThrow(
      new InvalidTypeError('options.signal must be an AbortSignal'),
    );
    await expect(pool.solve({ nodes: [], sessions: [] }, { priority: 1 } as never)).rejects.toThrow(
      new InvalidValueError('options.priority is not a known option'),
    );
  });

  it('validates pool options by name', () => {
    expect(() => resolvePoolOptions({ minThreads: 3, maxThreads: 2 })).toThrow(
      new InvalidValueError('options.minThreads (3) must not exceed options.maxThreads (2)'),
    );
    expect(() => resolvePoolOptions({ maxThreads: 0 })).toThrow(
      new InvalidValueError('options.maxThreads must be an integer from 1 to 256'),
    );
    expect(() => resolvePoolOptions({ idleTimeout: Infinity })).toThrow(
      new InvalidValueError('options.idleTimeout must be an integer number of milliseconds from 0 to 2147483647'),
    );
    expect(() => resolvePoolOptions({ workerFile: 3 as unknown as string })).toThrow(
      new InvalidTypeError('options.workerFile must be a string or a URL'),
    );
    expect(() => resolvePoolOptions({ threads: 2 } as never)).toThrow(
      new InvalidValueError('options.threads is not a known option'),
    );
    expect(Object.isFrozen(defaultPoolOptions)).toBe(true);
  });

  it('refuses a worker file that does not exist, with the command that builds it', () => {
    expect(() => createSolverPool({ workerFile: '/nonexistent/dist/pool/worker.js' })).toThrow(
      new InvalidValueError(
        "options.workerFile /nonexistent/dist/pool/worker.js does not exist: the pool's workers run the compiled package, run `npm run build:ts` (or `npm run build`) first",
      ),
    );
  });

  it('defaults the worker file to the compiled dist/pool/worker.js when running from sources', () => {
    expect(defaultPoolOptions.workerFile).toBe(builtWorker());
  });
});
