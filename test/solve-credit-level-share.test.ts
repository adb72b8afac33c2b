/**
 * The credit level runs on a preparation share of knapsack states (src/solve/pipeline/context.ts
 * `levelOf`, docs/solver.md "The budget"): CREDIT_STATE_WORK units a state, within the room the ceiling
 * leaves (with `path: 'frontier'` its own stage computes it on every problem). A step that may be skipped
 * starts only when it fits: when the room buys no state the level is not started at all (it does not even
 * ask the deadline), the plan reports no `creditLevel`, and the solve does only the unavoidable work.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  boundWork,
  CREDIT_STATE_WORK,
  heuristicWork,
  loadSolver,
  packWork,
  prepare,
  type Problem,
  type Solver,
  SolveBudget,
  SolveScratch,
  STAGES,
  type WasmKernels,
  WORK_CEILING,
} from './helpers/internals.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());
afterEach(() => {
  vi.restoreAllMocks();
});

/** Six credit-free sessions of 6 quanta on two rooms of 10: not all fit. */
const problem: Problem = {
  nodes: [
    { id: 'a', capacity: 10 },
    { id: 'b', capacity: 10 },
  ],
  sessions: Array.from({ length: 6 }, (_, i) => ({ id: `s${i}`, weight: 6, tokens: 10 + i, ready: i % 2 === 0 })),
};

/** A ceiling below one state's units. */
const stateBudget = 1;

describe('the credit level', () => {
  it('is computed on a credit-free problem when the room buys its knapsack states', () => {
    const plan = solver.solve(problem, { quantum: 1, path: 'frontier' });
    expect(plan.stats.creditLevel).toMatchObject({ bound: 0, decided: true });
  });

  it('is not computed when the room buys no knapsack state: the solve does only the unavoidable work', () => {
    expect(WORK_CEILING * stateBudget).toBeLessThan(CREDIT_STATE_WORK);
    const plan = solver.solve(problem, { quantum: 1, path: 'frontier', stateBudget });
    expect(plan.status).toBe('fallback');
    expect(plan.stats.creditLevel).toBeUndefined();
    const { packed } = prepare(problem, { quantum: 1 });
    expect(plan.stats.work).toBe(packWork(packed) + 3 * heuristicWork(packed) + boundWork(packed));
  });

  it('is not started when the room buys no knapsack state: its stage charges nothing and reads no clock', () => {
    const { packed, options } = prepare(problem, { quantum: 1, path: 'frontier', stateBudget, deadlineMs: 1000 });
    const ctx = {
      // The credit level runs no kernel.
      kernels: undefined as unknown as WasmKernels,
      packed,
      options,
      budget: SolveBudget.of(options, 0, undefined),
      scratch: new SolveScratch(),
    };
    const now = vi.spyOn(performance, 'now').mockReturnValue(0);
    const stage = STAGES.frontier.find((s) => s.name === 'credit-level')!;
    expect(stage.run(ctx)).toBe('pass');
    expect(ctx).toMatchObject({ level: null });
    expect(ctx.budget.spent).toBe(0);
    expect(now).not.toHaveBeenCalled();
  });
});
