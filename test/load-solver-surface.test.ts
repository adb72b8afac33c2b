/**
 * The solver's surface outside a solve: `loadSolver` refuses options that are not an object and an option
 * it does not know, naming it; a closed solver refuses every call with ClosedError (closing twice is fine);
 * `runPacked` checks its options again and takes a stop flag only as an Int32Array of at least one entry;
 * `fallbackPlan` and `bfd` on a problem where nothing fits make the trivial optimal plan, not a labelled
 * fallback; and an optimal plan has no `reason` key.
 */
import { describe, expect, it } from 'vitest';
import {
  bfd,
  ClosedError,
  fallbackPlan,
  InvalidTypeError,
  InvalidValueError,
  loadSolver,
  prepare,
  type Problem,
} from './helpers/internals.js';

const problem: Problem = {
  nodes: [{ id: 'a', capacity: 100 }],
  sessions: [
    { id: 's', weight: 60, tokens: 5, ready: true },
    { id: 't', weight: 60, tokens: 9, ready: false },
  ],
};

describe('loadSolver and a solver outside a solve', () => {
  it('refuses options that are not an object, and an unknown option, naming it', async () => {
    for (const options of [null, 5, 'release']) {
      const e = await loadSolver(options as unknown as Parameters<typeof loadSolver>[0]).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(InvalidTypeError);
      expect((e as Error).message).toMatch(/^options must be an object/);
    }
    const e = await loadSolver({ warmup: true } as unknown as Parameters<typeof loadSolver>[0]).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(InvalidValueError);
    expect((e as Error).message).toBe('options.warmup is not a known option');
  });

  it('refuses every call once closed, with ClosedError, and may be closed again', async () => {
    const solver = await loadSolver();
    const prepared = prepare(problem);
    expect(solver.solve(problem).status).toBe('optimal');
    solver.close();
    solver.close();
    for (const call of [
      () => solver.solve(problem),
      () => solver.runPacked(prepared.packed, prepared.options),
      () => solver.memoryBytes(),
    ]) {
      expect(call).toThrow(ClosedError);
      expect(call).toThrow('solver is closed');
    }
  });

  it('takes a stop flag only as an Int32Array of at least one entry', async () => {
    const solver = await loadSolver();
    const prepared = prepare(problem);
    for (const stop of [new Int32Array(0), new Uint32Array(1), [0]]) {
      expect(() => solver.runPacked(prepared.packed, prepared.options, undefined, stop as Int32Array)).toThrow(
        new InvalidTypeError('stop must be an Int32Array'),
      );
    }
    // Its options are checked again, under the name `options`.
    expect(() => solver.runPacked(prepared.packed, { ...prepared.options, quantum: 0 })).toThrow(
      new InvalidValueError('options.quantum must be a positive integer'),
    );
    const plan = solver.runPacked(prepared.packed, prepared.options, undefined, new Int32Array(1));
    expect(plan.status).toBe('optimal');
    solver.close();
  });

  it('makes the trivial optimal plan when nothing fits, and a labelled fallback otherwise', () => {
    const none = fallbackPlan(
      prepare({ nodes: [{ id: 'a', capacity: 10 }], sessions: problem.sessions }),
      'worker lost',
    );
    expect([none.status, none.stats.path, none.reason, none.assignments]).toEqual([
      'optimal',
      'trivial',
      undefined,
      [],
    ]);
    const some = fallbackPlan(prepare(problem), 'worker lost');
    expect([some.status, some.reason]).toEqual(['fallback', 'worker lost']);
    expect(some.assignments).toHaveLength(1);
  });

  it('gives an optimal plan no reason key, and decides a problem where nothing fits as trivial, in bfd() too', async () => {
    const solver = await loadSolver();
    expect(Object.keys(solver.solve(problem)).sort()).toEqual([
      'assignments',
      'bound',
      'quantum',
      'stats',
      'status',
      'value',
    ]);
    solver.close();
    const none = bfd({ nodes: [{ id: 'a', capacity: 10 }], sessions: problem.sessions });
    expect([none.status, none.stats.path, 'reason' in none]).toEqual(['optimal', 'trivial', false]);
    const some = bfd(problem);
    expect([some.status, some.stats.path]).toEqual(['fallback', 'bfd']);
  });
});
