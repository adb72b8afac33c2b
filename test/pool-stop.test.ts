/**
 * Work that must stop: an aborted running solve frees its worker at the solver's next check, not when its
 * budget runs out; `close()` finishes within `closeTimeoutMs`, and at once with `{ force: true }`. The
 * bounds compare against the same solve run to its end in the same test (a ratio, generous), never
 * against a fixed number of milliseconds.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomTickProblem } from './helpers/internals.js';
import { AbortedError, ClosedError, InvalidTypeError } from './helpers/internals.js';
import { createSolverPool, type SolverPool } from './helpers/internals.js';
import { boundWork, heuristicWork, packWork, prepare } from './helpers/internals.js';
import { useSolverAndKernel } from './helpers/solvers.js';
import { builtWorker } from './pool-support.js';

const tiny = { nodes: [{ id: 'a', capacity: 4_096 }], sessions: [{ id: 's', weight: 1_000, tokens: 1, ready: true }] };
/**
 * 64 nodes x 4096 sessions, the frontier forced with the largest budget: about a hundred ms of DP (its layers are
 * counted in its work, so a smaller problem stops sooner), then a budget fallback.
 */
const LONG = {
  problem: randomTickProblem(3, {
    nodes: 64,
    sessions: 4096,
    capacity: 360_000,
    minTokens: 2000,
    maxTokens: 40_000,
    cachedRate: 0.7,
  }),
  options: { stateBudget: 2 ** 26, path: 'frontier' },
} as const;

const pools: SolverPool[] = [];
function newPool(closeTimeoutMs?: number): SolverPool {
  const pool = createSolverPool({
    workerFile: builtWorker(),
    minThreads: 1,
    maxThreads: 1,
    ...(closeTimeoutMs !== undefined ? { closeTimeoutMs } : {}),
  });
  pools.push(pool);
  return pool;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close({ force: true })));
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * The least of up to three timings of `once`, stopping at the first below `bound`. A woken thread can wait
 * tens of ms for a core on a loaded machine, and that delay only ever adds: the least run is the one that
 * shows how soon the work stopped.
 */
async function leastMs(bound: number, once: () => Promise<number>): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3 && least >= bound; attempt++) least = Math.min(least, await once());
  return least;
}

/** A warm pool running the LONG solve for `ms` already; the solve's outcome (plan or error). */
async function runningLong(pool: SolverPool, ms: number): Promise<{ running: Promise<unknown> }> {
  await pool.ready();
  const running = pool.solve(LONG.problem, LONG.options).catch((e: unknown) => e);
  await sleep(ms);
  return { running };
}

/** Wall time of the LONG solve run to its end through a warm pool. */
let fullMs = 0;
beforeAll(async () => {
  const pool = newPool();
  await pool.ready();
  const t0 = performance.now();
  const plan = await pool.solve(LONG.problem, LONG.options);
  fullMs = performance.now() - t0;
  expect(plan.reason).toMatch(/^state budget exceeded/);
});

describe('an aborted running solve', () => {
  it('frees its worker long before the solve would have ended', async () => {
    const pool = newPool();
    await pool.ready();
    const freedAfter = await leastMs(fullMs / 2, async () => {
      const controller = new AbortController();
      const running = pool.solve(LONG.problem, { ...LONG.options, signal: controller.signal }).catch((e: unknown) => e);
      await sleep(Math.min(50, fullMs / 8));
      const aborted = performance.now();
      controller.abort();
      expect(await running).toBeInstanceOf(AbortedError);
      expect((await pool.solve(tiny)).status).toBe('optimal');
      return performance.now() - aborted;
    });
    expect(freedAfter).toBeLessThan(fullMs / 2);
    expect(pool.stats()).toMatchObject({ workerFailures: 0, workersRetired: 0, running: 0, queued: 0 });
  });
});

describe('the stop flag of Solver.runPacked', () => {
  const loaded = useSolverAndKernel();

  it('set before the call: a labelled fallback without any DP work', () => {
    const { packed, options } = prepare(LONG.problem, LONG.options);
    const stop = new Int32Array(new SharedArrayBuffer(4));
    Atomics.store(stop, 0, 1);
    const raw = loaded.solver().runPacked(packed, options, undefined, stop);
    expect(raw.status).toBe('fallback');
    expect(raw.reason).toBe('stopped: the solve was aborted after 0 of 4096 sessions of the DP');
    expect(raw.stats.path).toBe('bfd');
    // What no solve skips alone: packing, the BFD plan (value order: time is up), the fallback's bound.
    expect(raw.stats.work).toBe(packWork(packed) + heuristicWork(packed) + boundWork(packed));
  });

  it('refuses options outside their limits and a stop that is not an Int32Array', () => {
    const { packed, options } = prepare(tiny);
    expect(() => loaded.solver().runPacked(packed, { ...options, stateBudget: 1e12 })).toThrow(
      /^options\.stateBudget must be an integer from 1 to/,
    );
    expect(() => loaded.solver().runPacked(packed, options, undefined, [0] as never)).toThrow(
      new InvalidTypeError('stop must be an Int32Array'),
    );
  });
});

describe('pool close', () => {
  it('{ force: true } terminates a running solve at once; the solve rejects with ClosedError', async () => {
    const closedIn = await leastMs(fullMs / 2, async () => {
      const pool = newPool();
      const { running } = await runningLong(pool, Math.min(50, fullMs / 8));
      const t0 = performance.now();
      await pool.close({ force: true });
      const ms = performance.now() - t0;
      expect(await running).toEqual(
        new ClosedError('pool closed while the solve was running: its worker was terminated'),
      );
      expect(pool.stats().threads).toBe(0);
      return ms;
    });
    expect(closedIn).toBeLessThan(fullMs / 2);
  });

  it('a gentle close waits at most closeTimeoutMs for a running solve, then terminates it', async () => {
    const closedIn = await leastMs(fullMs / 2, async () => {
      const pool = newPool(20);
      const { running } = await runningLong(pool, Math.min(20, fullMs / 16));
      const t0 = performance.now();
      await pool.close();
      const ms = performance.now() - t0;
      expect(await running).toBeInstanceOf(ClosedError);
      return ms;
    });
    expect(closedIn).toBeLessThan(fullMs / 2);
  });

  it('{ force: true } after a gentle close escalates it, and both calls share one promise', async () => {
    const closedIn = await leastMs(fullMs / 2, async () => {
      const pool = newPool();
      const { running } = await runningLong(pool, Math.min(20, fullMs / 16));
      const gentle = pool.close();
      const t0 = performance.now();
      expect(pool.close({ force: true })).toBe(gentle);
      await gentle;
      const ms = performance.now() - t0;
      expect(await running).toBeInstanceOf(ClosedError);
      return ms;
    });
    expect(closedIn).toBeLessThan(fullMs / 2);
  });

  it('rejects malformed close options with a typed error naming the field', async () => {
    const pool = newPool();
    await expect(pool.close({ force: 'yes' } as never)).rejects.toThrow(
      new InvalidTypeError('options.force must be a boolean'),
    );
    await expect(pool.close({ forse: true } as never)).rejects.toThrow(/^options\.forse is not a known option/);
    await expect(pool.close(null as never)).rejects.toThrow(new InvalidTypeError('options must be an object'));
  });
});
