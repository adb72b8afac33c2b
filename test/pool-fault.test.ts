import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSolverPool, type SolverPool } from './helpers/internals.js';
import { fallbackPlan, loadSolver, prepare, type Solver } from './helpers/internals.js';
import type { Plan, Problem } from './helpers/internals.js';
import { armFault, disarmFault, type WorkerFault } from './fixtures/fault-token.mjs';
import { builtWorker, problemArb, timeless } from './pool-support.js';

/** The fixture worker: the compiled worker, failing one solve task whenever a fault is armed. */
const FAULTY_WORKER = fileURLToPath(new URL('./fixtures/faulty-worker.mjs', import.meta.url));

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
  disarmFault();
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

async function faultyPool(): Promise<SolverPool> {
  builtWorker();
  const pool = createSolverPool({ workerFile: FAULTY_WORKER, minThreads: 1, maxThreads: 1 });
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
    [
      'trap',
      /^worker trap: SolverTrapError: WASM trap in injected fault: unreachable; heuristic fallback plan \(never worse than BFD\) computed on the calling thread$/,
    ],
    [
      'throw',
      /^worker error: Error: injected worker fault; heuristic fallback plan \(never worse than BFD\) computed on the calling thread$/,
    ],
    [
      'exit',
      /^worker died: worker exited with code: 70; heuristic fallback plan \(never worse than BFD\) computed on the calling thread$/,
    ],
  ];
  for (const [fault, reason] of cases) {
    it(`${fault}: the caller gets the BFD fallback with the reason, the worker is replaced, the next solve is exact`, async () => {
      const pool = await faultyPool();
      const [before] = pool.threadIds();
      armFault(fault);
      const plan = await pool.solve(problem, { quantum: 256 });
      expect(plan.status).toBe('fallback');
      expect(plan.reason).toMatch(reason);
      expect(['bfd', 'heuristic']).toContain(plan.stats.path);
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
    armFault('trap');
    const failing = pool.solve(problem);
    const queued = fc.sample(problemArb, { numRuns: 5, seed: 5 }).map((p) => [p, pool.solve(p)] as const);
    expect((await failing).status).toBe('fallback');
    for (const [p, plan] of queued) expect(timeless(await plan)).toEqual(timeless(solver.solve(p)));
    expect(pool.stats()).toMatchObject({ workerFailures: 1, workersRetired: 1 });
  });

  it("the package's own worker has no fault seam: with a fault armed it solves exactly", async () => {
    const pool = createSolverPool({ workerFile: builtWorker() });
    pools.push(pool);
    armFault('exit');
    const plan = await pool.solve(problem, { quantum: 256 });
    expect(timeless(plan)).toEqual(timeless(solver.solve(problem, { quantum: 256 })));
    expect(pool.stats()).toMatchObject({ workerFailures: 0, fallbacks: 0 });
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
    await expect(pool.ready()).rejects.toThrow(
      /^solver pool could not start its workers \(.*broken-worker\.mjs\): .*cannot load build\/tao\.wasm/,
    );
    expect(pool.stats().poolErrors).toBeGreaterThan(0);
  });

  it('answers a solve queued while a worker was alive when that worker dies and none can start again', async () => {
    // The first thread to load starts; every later one fails to load. Its solve task waits 200 ms (so
    // the second solve is queued behind it), then the thread exits; Piscina's replacement cannot start.
    const marker = join(dir, 'started');
    const file = join(dir, 'once-worker.mjs');
    writeFileSync(
      file,
      `import { existsSync, writeFileSync } from 'node:fs';\n` +
        `if (existsSync(${JSON.stringify(marker)})) throw new Error('cannot start again');\n` +
        `writeFileSync(${JSON.stringify(marker)}, '');\n` +
        `const { default: handle } = await import(${JSON.stringify(builtWorker())});\n` +
        `export default function (task) {\n` +
        `  if (task.kind !== 'solve') return handle(task);\n` +
        `  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);\n` +
        `  process.exit(70);\n` +
        `}\n`,
    );
    const pool = createSolverPool({ workerFile: file, minThreads: 1, maxThreads: 1 });
    pools.push(pool);
    await pool.ready();
    const [first, second] = await Promise.all([
      pool.solve(problem, { quantum: 256 }),
      pool.solve(problem, { quantum: 256 }),
    ]);
    expect(first.status).toBe('fallback');
    expect(first.reason).toMatch(/^worker died: /);
    expect(second.status).toBe('fallback');
    expect(second.reason).toMatch(/^no worker could start: .*cannot start again; heuristic fallback plan/);
    expect(timeless(second).value).toEqual(timeless(fallbackPlan(prepare(problem, { quantum: 256 }), 'x')).value);
  });

  /**
   * A worker script whose first thread starts and whose later threads fail to start (all of them, or only
   * the second), writing `failed` before they throw. The first thread's first solve waits until a start has
   * failed, lets the main thread hear of it, then exits: the solve queued behind it in Piscina is left with
   * no worker, and Piscina, having seen a start fail, replaces none.
   */
  function strandingWorker(name: string, laterStarts: 'fail' | 'only-the-second-fails'): string {
    const starts = join(dir, `${name}-starts`);
    const failed = join(dir, `${name}-failed`);
    const file = join(dir, `${name}.mjs`);
    writeFileSync(starts, '');
    writeFileSync(
      file,
      `import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';\n` +
        `appendFileSync(${JSON.stringify(starts)}, 'x');\n` +
        `const start = readFileSync(${JSON.stringify(starts)}, 'utf8').length;\n` +
        `if (start === 2 || (start > 2 && ${JSON.stringify(laterStarts === 'fail')})) {\n` +
        `  writeFileSync(${JSON.stringify(failed)}, '');\n` +
        `  throw new Error('cannot start thread ' + start);\n` +
        `}\n` +
        `const { default: handle } = await import(${JSON.stringify(builtWorker())});\n` +
        `let solves = 0;\n` +
        `export default function (task) {\n` +
        `  if (task.kind !== 'solve' || start !== 1 || ++solves > 1) return handle(task);\n` +
        `  const pause = new Int32Array(new SharedArrayBuffer(4));\n` +
        `  for (let i = 0; i < 1000 && !existsSync(${JSON.stringify(failed)}); i++) Atomics.wait(pause, 0, 0, 5);\n` +
        `  Atomics.wait(pause, 0, 0, 100);\n` +
        `  process.exit(70);\n` +
        `}\n`,
    );
    return file;
  }

  /** Settles `p`, or rejects with a message saying it still waits after `ms`. */
  function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} still waits after ${ms} ms`)), ms);
    });
    return Promise.race([p, late]).finally(() => clearTimeout(timer));
  }

  /**
   * Two solves on a warm pool of `strandingWorker(name, laterStarts)` (1 to 2 threads): the first dies with
   * its worker; returns the pool and the second, which was queued behind it.
   */
  async function strandedSolve(
    name: string,
    laterStarts: 'fail' | 'only-the-second-fails',
  ): Promise<{ pool: SolverPool; second: Plan }> {
    const pool = createSolverPool({ workerFile: strandingWorker(name, laterStarts), minThreads: 1, maxThreads: 2 });
    pools.push(pool);
    await pool.ready();
    const [first, second] = await within(
      Promise.all([pool.solve(problem, { quantum: 256 }), pool.solve(problem, { quantum: 256 })]),
      5_000,
      'the solve queued behind the dying worker',
    );
    expect(first.reason).toMatch(/^worker died: worker exited with code: 70; /);
    expect(pool.stats()).toMatchObject({ revivals: 1, running: 0, queued: 0 });
    return { pool, second };
  }

  it('answers a solve left in the queue when the last worker dies after another failed to start, and none can start again', async () => {
    const { second } = await strandedSolve('never-again', 'fail');
    expect(second.status).toBe('fallback');
    expect(second.reason).toMatch(/^no worker could start: .*cannot start thread \d; heuristic fallback plan/);
    expect(timeless(second).value).toEqual(timeless(fallbackPlan(prepare(problem, { quantum: 256 }), 'x')).value);
  });

  it('runs a solve left in the queue when the last worker dies after another failed to start, on a thread started for it', async () => {
    const { pool, second } = await strandedSolve('once-failed', 'only-the-second-fails');
    expect(timeless(second)).toEqual(timeless(solver.solve(problem, { quantum: 256 })));
    // The pool serves on: later solves are exact.
    expect(timeless(await pool.solve(problem, { quantum: 256 }))).toEqual(
      timeless(solver.solve(problem, { quantum: 256 })),
    );
  });
});
