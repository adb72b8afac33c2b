/**
 * What the stage lists (src/solve/pipeline/stages.ts, docs/solver.md "Paths") do when run in order as
 * `decide` runs them: with `path: 'frontier'`, the `credit-level` stage applies to every problem and leaves
 * the credit level on the context before the heuristic plan is made, deciding nothing; and a list whose
 * stages all pass ends in SolverTrapError naming the path (no list does so as written: the error is
 * reached here by making its last stage pass).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  decide,
  prepare,
  type Problem,
  type SolveContext,
  SolveBudget,
  SolverTrapError,
  SolveScratch,
  STAGES,
  WasmKernels,
} from './helpers/internals.js';

let kernels: WasmKernels;
beforeAll(async () => {
  kernels = await WasmKernels.create('release');
});
afterAll(() => kernels.close());
afterEach(() => {
  vi.restoreAllMocks();
});

/** Three sessions on two nodes, two of them credited. */
const problem: Problem = {
  nodes: [
    { id: 'a', capacity: 10 },
    { id: 'b', capacity: 10 },
  ],
  sessions: [
    { id: 's0', weight: 6, tokens: 5, ready: true, credit: { a: 4 } },
    { id: 's1', weight: 6, tokens: 4, ready: false, credit: { a: 3, b: 2 } },
    { id: 's2', weight: 5, tokens: 3, ready: false },
  ],
};

function context(path: 'auto' | 'dense' | 'frontier'): SolveContext {
  const { packed, options } = prepare(problem, { quantum: 1, path });
  return {
    kernels,
    packed,
    options,
    budget: SolveBudget.of(options, performance.now(), undefined),
    scratch: new SolveScratch(),
  };
}

describe("the 'frontier' stage list", () => {
  it('computes the credit level in its credit-level stage, before the heuristic plan, and decides nothing there', () => {
    const ctx = context('frontier');
    const seen: string[] = [];
    for (const stage of STAGES.frontier) {
      if (stage.name === 'incumbent') break;
      if (!stage.applies(ctx)) continue;
      seen.push(stage.name);
      expect(stage.run(ctx)).toBe('pass');
    }
    expect(seen).toEqual(['credit-level']);
    expect(ctx.level).toMatchObject({ bound: 6 });
    expect(ctx.incumbent).toBeUndefined();
  });
});

describe('decide', () => {
  it('throws SolverTrapError naming the path when every stage of its list passes', () => {
    const dense = STAGES.dense.find((s) => s.name === 'dense')!;
    vi.spyOn(dense, 'run').mockReturnValue('pass');
    expect(() => decide(context('dense'))).toThrow(new SolverTrapError('the dense stages ended without a plan'));
  });
});
