import { afterEach, describe, expect, it } from 'vitest';
import { ClosedError } from './helpers/internals.js';
import { AbortedError } from './helpers/internals.js';
import { createSolverPool, type SolverPool } from './helpers/internals.js';
import { builtWorker, slowProblem } from './pool-support.js';

const tiny = { nodes: [{ id: 'a', capacity: 4_096 }], sessions: [{ id: 's', weight: 1_000, tokens: 1, ready: true }] };
/** ~40-60 ms of dense DP on this machine (55M cells). */
// The dense DP at quantum 1024: the frontier (the default path) solves this problem in well under a ms.
const SLOW = { problem: slowProblem(1_000), options: { stateBudget: 2 ** 26, quantum: 1024, path: 'dense' } } as const;

const pools: SolverPool[] = [];
function newPool(maxThreads = 1): SolverPool {
  const pool = createSolverPool({ workerFile: builtWorker(), minThreads: 1, maxThreads });
  pools.push(pool);
  return pool;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('pool close', () => {
  it('is idempotent: every call returns the same promise, and it resolves', async () => {
    const pool = newPool();
    await pool.ready();
    const a = pool.close();
    expect(pool.close()).toBe(a);
    await a;
    expect(pool.close()).toBe(a);
    expect(pool.stats().threads).toBe(0);
  });

  it('rejects use after close with ClosedError, never throwing synchronously', async () => {
    const pool = newPool();
    await pool.close();
    let p: Promise<unknown> | undefined;
    expect(() => (p = pool.solve(tiny))).not.toThrow();
    await expect(p).rejects.toThrow(new ClosedError('pool.solve() after close()'));
    await expect(pool.solvePrepared({} as never)).rejects.toBeInstanceOf(ClosedError);
    await expect(pool.ready()).rejects.toThrow(new ClosedError('pool.ready() after close()'));
  });

  it('lets the running solve finish and rejects the queued ones with ClosedError', async () => {
    const pool = newPool();
    await pool.ready();
    const running = pool.solve(SLOW.problem, SLOW.options);
    const queued = pool.solve(tiny).catch((e: unknown) => e);
    const closed = pool.close();
    expect(await queued).toEqual(new ClosedError('pool closed before the solve started'));
    expect((await running).status).toBe('optimal');
    await closed;
    expect(pool.stats().threads).toBe(0);
  });
});

describe('pool signal', () => {
  it('drops queued work: the aborted solve rejects with AbortedError and never runs', async () => {
    const pool = newPool();
    await pool.ready();
    const running = pool.solve(SLOW.problem, SLOW.options);
    const ac = new AbortController();
    const queued = pool.solve(tiny, { signal: ac.signal });
    expect(pool.stats().queued).toBe(1);
    ac.abort();
    const err = await queued.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect(err).toMatchObject({
      name: 'AbortError',
      code: 'ERR_TAO_ABORTED',
      message: 'pool.solve() aborted before it started',
    });
    expect(pool.stats().queued).toBe(0);
    expect((await running).status).toBe('optimal');
    expect(pool.stats()).toMatchObject({ solves: 1, aborted: 1, running: 0 });
  });

  it('rejects at once when the signal has already fired', async () => {
    const pool = newPool();
    await expect(pool.solve(tiny, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortedError);
    expect(pool.stats().solves).toBe(0);
  });

  it('rejects a running solve at once without killing its worker, which stops it and serves the next solve', async () => {
    const pool = newPool();
    await pool.ready();
    const threads = pool.threadIds();
    const ac = new AbortController();
    const running = pool.solve(SLOW.problem, { ...SLOW.options, signal: ac.signal });
    await new Promise((r) => setTimeout(r, 5));
    expect(pool.stats().running).toBe(1);
    ac.abort();
    await expect(running).rejects.toThrow(
      new AbortedError(
        'pool.solve() aborted while running: the worker stops it at its next check and the result is discarded',
      ),
    );
    const next = await pool.solve(tiny);
    expect(next.assignments).toEqual([{ session: 's', node: 'a' }]);
    expect(pool.threadIds()).toEqual(threads);
    expect(pool.stats().workersRetired).toBe(0);
  });
});

describe('pool deadline', () => {
  it('bounds a running solve inside the worker: a labelled heuristic fallback well before the DP would finish', async () => {
    const pool = newPool();
    await pool.ready();
    const full = await pool.solve(SLOW.problem, SLOW.options);
    const t0 = performance.now();
    const bounded = await pool.solve(SLOW.problem, { ...SLOW.options, deadlineMs: 2 });
    const elapsed = performance.now() - t0;
    expect(bounded.status).toBe('fallback');
    expect(bounded.reason).toMatch(/^deadline exceeded: 2 ms passed after \d+ of 1000 sessions of the DP$/);
    expect(['bfd', 'heuristic']).toContain(bounded.stats.path);
    expect(elapsed).toBeLessThan(full.stats.micros / 1000);
  });
});
