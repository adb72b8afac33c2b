/**
 * The TypeScript frontier's reference solve (solveFrontierReference) ends with a plan only when the frontier
 * finished or proved the incumbent optimal; stopped otherwise (its memory estimate past MEMORY_CAP_BYTES, 1 GiB,
 * far past a test's reach: its step is made to answer memory here), it throws an error naming the status.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DpStatus, FrontierMirror, solveFrontierReference } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';

// Two small nodes and 22 sessions of mixed weights and tokens, no credit: the heuristics' plan is not
// proven optimal at the start, so the frontier steps.
const problem: Problem = {
  nodes: [
    { id: 'n0', capacity: 7 },
    { id: 'n1', capacity: 4 },
  ],
  sessions: Array.from({ length: 22 }, (_, i) => ({
    id: `s${i}`,
    weight: 1 + ((i * 5) % 6),
    tokens: (i * 7) % 10,
    ready: i % 3 !== 1,
  })),
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
