import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InvalidValueError } from '../src/errors.js';
import { createSolverPool, kAllowFaults, kFault, type PoolSolveOptions, type SolverPool } from '../src/pool/pool.js';
import type { PoolOptions } from '../src/pool/options.js';
import type { WorkerFault } from '../src/pool/protocol.js';
import { fallbackPlan, loadSolver, prepare, type Solver } from '../src/solve/solver.js';
import type { Problem } from '../src/types.js';
import { builtWorker, problemArb, timeless } from './pool-support.js';

/** The internal hooks, typed once: a pool that honours faults, and a solve that asks for one. */
const faultyPoolOptions = (): PoolOptions => ({ workerFile: builtWorker(), minThreads: 1, maxThreads: 1, [kAllowFaults]: true }) as PoolOptions;
const withFault = (fault: WorkerFault, options: PoolSolveOptions = {}): PoolSolveOptions => ({ ...options, [kFault]: fault }) as PoolSolveOptions;

const problem: Problem = fc.sample(
  problemArb.filter((p) => p.sessions.length >= 6 && p.nodes.length >= 2),
  { numRuns: 1, seed: 11 },
)[0]!;

let solver: Solver;
const pools: SolverPool[] = [];
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver?.close());
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

async function faultyPool(): Promise<SolverPool> {
  const pool = createSolverPool(faultyPoolOptions());
  pools.push(pool);
  await pool.ready();
  return pool;
}

/** Waits until Piscina has a live replacement for a retired worker. */
async function nextThread(pool: SolverPool, not: number): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const ids = pool.threadIds();
    if (ids.length > 0 && !ids.includes(not)) return ids[0]!;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`no replacement for worker ${not} after 1 s (threads: ${pool.threadIds().join(', ')})`);
}

describe('a failing worker does not lose the solve', () => {
  const cases: [WorkerFault, RegExp][] = [
    ['trap', /^worker trap: SolverTrapError: WASM trap in injected fault: unreachable; heuristic fallback plan \(never worse than BFD\) computed on the calling thread$/],
    ['throw', /^worker error: Error: injected worker fault; heuristic fallback plan \(never worse than BFD\) computed on the calling thread$/],
    ['exit', /^worker died: worker exited with code: 70; heuristic fallback plan \(never worse than BFD\) computed on the calling thread$/],
  ];
  for (const [fault, reason] of cases) {
    it(`${fault}: the caller gets the BFD fallback with the reason, the worker is replaced, the next solve is exact`, async () => {
      const pool = await faultyPool();
      const [before] = pool.threadIds();
      const plan = await pool.solve(problem, withFault(fault, { quantum: 256 }));
      expect(plan.status).toBe('fallback');
      expect(plan.reason).toMatch(reason);
      expect(plan.stats.path).toBe('bfd');
      // The same BFD the solver gives for this problem.
      const expected = fallbackPlan(prepare(problem, { quantum: 256 }), plan.reason!);
      expect(timeless(plan)).toEqual(timeless(expected));

      const after = await nextThread(pool, before!);
      expect(after).not.toBe(before);
      const next = await pool.solve(problem, { quantum: 256 });
      expect(timeless(next)).toEqual(timeless(solver.solve(problem, { quantum: 256 })));
      expect(pool.threadIds()).toEqual([after]);
      expect(pool.stats()).toMatchObject({ workerFailures: 1, solves: 2, fallbacks: 1, threads: 1 });
    });
  }

  it('queued solves behind a failing one run on the replacement, exactly', async () => {
    const pool = await faultyPool();
    const failing = pool.solve(problem, withFault('trap'));
    const queued = fc.sample(problemArb, { numRuns: 5, seed: 5 }).map((p) => [p, pool.solve(p)] as const);
    expect((await failing).status).toBe('fallback');
    for (const [p, plan] of queued) expect(timeless(await plan)).toEqual(timeless(solver.solve(p)));
    expect(pool.stats()).toMatchObject({ workerFailures: 1, workersRetired: 1 });
  });

  it('refuses fault injection on a pool not created for fault tests', async () => {
    const pool = createSolverPool({ workerFile: builtWorker() });
    pools.push(pool);
    await expect(pool.solve(problem, withFault('exit'))).rejects.toThrow(new InvalidValueError('fault injection needs a pool created for fault tests'));
  });
});

describe('a worker that cannot start', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tao-pool-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects ready() with the cause and still answers solves with a fallback instead of hanging', async () => {
    const file = join(dir, 'broken-worker.mjs');
    writeFileSync(file, "throw new Error('cannot load build/tao.wasm');\n");
    const pool = createSolverPool({ workerFile: file, minThreads: 1, maxThreads: 1 });
    pools.push(pool);
    const plan = await pool.solve(problem, { quantum: 256 });
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toContain('cannot load build/tao.wasm');
    await expect(pool.ready()).rejects.toThrow(/^solver pool could not start its workers \(.*broken-worker\.mjs\): .*cannot load build\/tao\.wasm/);
    expect(pool.stats().poolErrors).toBeGreaterThan(0);
  });
});
