/**
 * What the stage lists (src/solve/pipeline/stages.ts, docs/solver.md "Paths") do when run in order as
 * `decide` runs them: with `path: 'frontier'`, the `credit-level` stage applies to every problem and leaves
 * the credit level on the context before the heuristic plan is made, deciding nothing; and a list whose
 * stages all pass ends in SolverTrapError naming the path (no list does so as written: the error is
 * reached here by making its last stage pass).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decide, type SolveContext, SolverTrapError, STAGES } from './helpers/internals.js';
import { useReleaseKernels } from './helpers/kernels.js';
import { solveContext, threeOnTwoRooms } from './helpers/solve-context.js';

const k = useReleaseKernels();
afterEach(() => {
  vi.restoreAllMocks();
});

/** Three sessions on two nodes, two of them credited. */
const problem = threeOnTwoRooms(true);

const context = (path: 'auto' | 'dense' | 'frontier'): SolveContext =>
  solveContext(problem, { quantum: 1, path }, k.release);

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
