/**
 * The TypeScript frontier's reference solve (solveFrontierReference) ends with a plan only when the frontier
 * finished or proved the incumbent optimal; stopped otherwise (its memory estimate past MEMORY_CAP_BYTES, 1 GiB,
 * far past a test's reach: its step is made to answer memory here), it throws an error naming the status.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DpStatus, FrontierMirror, solveFrontierReference } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';

// Two nodes and 22 sessions of mixed tokens, no credit (test/solver-boundary-cases.test.ts's heavy
// problem): the heuristics' plan is not proven optimal at the start, so the frontier steps.
const rows: [number, number, boolean][] = [
  [4, 3, true],
  [6, 9, true],
  [5, 0, false],
  [4, 1, true],
  [2, 0, true],
  [3, 6, true],
  [3, 4, true],
  [1, 1, true],
  [2, 1, false],
  [4, 7, false],
  [5, 9, true],
  [5, 5, false],
  [5, 3, false],
  [5, 1, true],
  [6, 1, true],
  [4, 0, true],
  [2, 2, true],
  [4, 5, true],
  [1, 0, false],
  [3, 0, false],
  [5, 2, false],
  [3, 1, true],
];
const problem: Problem = {
  nodes: [
    { id: 'n0', capacity: 7 },
    { id: 'n1', capacity: 4 },
  ],
  sessions: rows.map(([weight, tokens, ready], i) => ({ id: `s${i}`, weight, tokens, ready })),
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('solveFrontierReference', () => {
  it('solves the problem when its frontier runs to the end', () => {
    expect(solveFrontierReference(problem, { quantum: 1 }).stats.path).toBe('frontier-wide');
  });

  it('throws an error naming the status when its frontier stops on its memory estimate', () => {
    const step = vi.spyOn(FrontierMirror.prototype, 'step').mockReturnValue(DpStatus.memory);
    expect(() => solveFrontierReference(problem, { quantum: 1 })).toThrow(
      new Error(`frontier mirror stopped with status ${DpStatus.memory}`),
    );
    expect(step).toHaveBeenCalledTimes(1);
  });
});
