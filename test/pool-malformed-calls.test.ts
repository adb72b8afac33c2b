/**
 * A malformed call to the pool or the planner rejects that call with a typed error naming the field, and
 * leaves everything else working: the queue keeps moving, no worker failure is counted, the process does
 * not crash, and a well-formed solve sent after it settles with its plan.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { MAX_STATE_BUDGET } from './helpers/internals.js';
import { createPlanner } from './helpers/internals.js';
import { createSolverPool, type SolverPool } from './helpers/internals.js';
import { prepare } from './helpers/internals.js';
import { builtWorker, slowProblem } from './pool-support.js';

const tiny = { nodes: [{ id: 'a', capacity: 4_096 }], sessions: [{ id: 's', weight: 1_000, tokens: 1, ready: true }] };
/** Tens of milliseconds of dense DP: keeps the one worker busy while malformed calls queue behind it. */
const SLOW = { problem: slowProblem(1_000), options: { stateBudget: 2 ** 26, quantum: 1024, path: 'dense' } } as const;

const pools: SolverPool[] = [];
function newPool(): SolverPool {
  const pool = createSolverPool({ workerFile: builtWorker(), minThreads: 1, maxThreads: 1 });
  pools.push(pool);
  return pool;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** The pool still solves, and counted no worker failure. */
async function stillHealthy(pool: SolverPool): Promise<void> {
  expect((await pool.solve(tiny)).status).toBe('optimal');
  const s = pool.stats();
  expect(s.workerFailures).toBe(0);
  expect(s.running).toBe(0);
  expect(s.queued).toBe(0);
}

describe('pool.solvePrepared with a malformed argument', () => {
  it('rejects {} with InvalidValueError naming prepared, and keeps solving', async () => {
    const pool = newPool();
    await expect(pool.solvePrepared({} as never)).rejects.toThrow(InvalidValueError);
    await expect(pool.solvePrepared({} as never)).rejects.toThrow(/^prepared must be a Prepared made by prepare\(\)/);
    await stillHealthy(pool);
  });

  it('rejects null and a number with InvalidTypeError', async () => {
    const pool = newPool();
    await expect(pool.solvePrepared(null as never)).rejects.toThrow(new InvalidTypeError('prepared must be an object'));
    await expect(pool.solvePrepared(7 as never)).rejects.toThrow(new InvalidTypeError('prepared must be an object'));
    await stillHealthy(pool);
  });

  it('rejects a malformed task queued behind a running solve without crashing the process', async () => {
    const pool = newPool();
    await pool.ready();
    const running = pool.solve(SLOW.problem, SLOW.options);
    const bad = pool.solvePrepared({ packed: {}, options: {}, problem: {} } as never);
    await expect(bad).rejects.toThrow(InvalidValueError);
    expect((await running).status).toBe('optimal');
    await stillHealthy(pool);
  });

  it('rejects the same Prepared sent twice, before anything is sent, and counts no worker failure', async () => {
    const pool = newPool();
    const prepared = prepare(tiny);
    const first = pool.solvePrepared(prepared);
    const second = pool.solvePrepared(prepared);
    await expect(second).rejects.toThrow(
      new InvalidValueError(
        'prepared was already sent to a pool: its packed arrays are transferred once; call prepare() again',
      ),
    );
    expect((await first).status).toBe('optimal');
    await expect(pool.solvePrepared(prepared)).rejects.toThrow(/already sent to a pool/);
    await stillHealthy(pool);
  });

  it('refuses a Prepared whose options were changed past the limits', async () => {
    const pool = newPool();
    const prepared = prepare(tiny);
    (prepared.options as { stateBudget: number }).stateBudget = 1e12;
    await expect(pool.solvePrepared(prepared)).rejects.toThrow(
      new InvalidValueError(`prepared.options.stateBudget must be an integer from 1 to ${MAX_STATE_BUDGET}`),
    );
    const other = prepare(tiny);
    (other.options as { path: string }).path = 'nope';
    await expect(pool.solvePrepared(other)).rejects.toThrow(/^prepared\.options\.path must be one of/);
    await stillHealthy(pool);
  });

  it('rejects a malformed options argument with InvalidTypeError', async () => {
    const pool = newPool();
    await expect(pool.solvePrepared(prepare(tiny), null as never)).rejects.toThrow(
      new InvalidTypeError('options must be an object'),
    );
    await expect(pool.solvePrepared(prepare(tiny), { signal: 1 } as never)).rejects.toThrow(
      new InvalidTypeError('options.signal must be an AbortSignal'),
    );
    await stillHealthy(pool);
  });
});

describe('pool and planner constructors with malformed options', () => {
  it('createSolverPool(null) throws InvalidTypeError naming options', () => {
    expect(() => createSolverPool(null as never)).toThrow(new InvalidTypeError('options must be an object'));
  });

  it('createPlanner({ pool: {} }) rejects with InvalidTypeError naming options.pool', async () => {
    await expect(createPlanner({ pool: {} as never })).rejects.toThrow(
      new InvalidTypeError('options.pool must be a pool made by createSolverPool()'),
    );
    await expect(createPlanner({ pool: null as never })).rejects.toThrow(InvalidTypeError);
  });

  it('planner.apply() with plan.assignments not an array throws InvalidTypeError naming it', async () => {
    const pool = newPool();
    const planner = await createPlanner({ pool });
    try {
      const r = await planner.submit(tiny);
      if (r.status !== 'planned') throw new Error(`expected a plan, got ${r.status}`);
      const plan = r.plan;
      (plan as { assignments: unknown }).assignments = null;
      expect(() => planner.apply(plan, tiny)).toThrow(new InvalidTypeError('plan.assignments must be an array'));
      (plan as { assignments: unknown }).assignments = [null];
      expect(() => planner.apply(plan, tiny)).toThrow(new InvalidTypeError('plan.assignments[0] must be an object'));
      expect(() => planner.apply(null as never, tiny)).toThrow(new InvalidTypeError('plan must be an object'));
    } finally {
      await planner.close();
    }
  });
});

describe('many solves sharing one AbortSignal', () => {
  it('print no MaxListenersExceededWarning', async () => {
    const pool = newPool();
    const warnings: string[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(w.name);
    };
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const plans = await Promise.all(
        Array.from({ length: 40 }, () => pool.solve(tiny, { signal: controller.signal })),
      );
      expect(plans.every((p) => p.status === 'optimal')).toBe(true);
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
