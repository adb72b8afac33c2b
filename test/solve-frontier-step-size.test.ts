/**
 * The size of the frontier's steps (src/solve/pipeline/run-dp.ts): CHUNK_WORK units between two checks of
 * the deadline and the work cap at up to four kept nodes, less in proportion above (CHUNK_WORK / (m / 4),
 * never below CHUNK_WORK_MIN), handed to the kernel as raw units: the step's units divided by the most
 * a raw unit may count, its weight (`frontierUnitWeight`) plus FRONTIER_CHILD_WORK. The kernel's step is
 * spied on (it still runs); the cap is above every step asked for here.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CHUNK_WORK,
  CHUNK_WORK_MIN,
  FRONTIER_CHILD_WORK,
  frontierSetup,
  frontierUnitWeight,
  nodesKept,
  randomTickProblem,
  runFrontier,
} from './helpers/internals.js';
import { useReleaseKernels } from './helpers/kernels.js';
import { solveContext } from './helpers/solve-context.js';

const k = useReleaseKernels();
afterEach(() => {
  vi.restoreAllMocks();
});

/** The raw quota of the frontier's first step on a tick of `nodes` nodes, run from BFD with a cap of 4 CHUNK_WORK units. */
function firstRawQuota(nodes: number): { m: number; quota: number | undefined } {
  const problem = randomTickProblem(11, {
    nodes,
    sessions: 40,
    capacity: 60_000,
    minTokens: 2000,
    maxTokens: 20_000,
    cachedRate: 0.5,
  });
  const ctx = solveContext(problem, { quantum: 256 }, k.release, { withBfd: true });
  const { packed } = ctx;
  const step = vi.spyOn(k.release.frontier, 'step');
  runFrontier(ctx, frontierSetup(packed, ctx.incumbent!.node), 4 * CHUNK_WORK);
  const quota = step.mock.calls[0]?.[0];
  step.mockRestore();
  return { m: nodesKept(packed), quota };
}

describe("the frontier's steps", () => {
  it.each([2, 4, 8, 32])(
    'hand the kernel CHUNK_WORK units, less in proportion past four nodes, as raw units (%i nodes)',
    (nodes) => {
      const { m, quota } = firstRawQuota(nodes);
      expect(m).toBe(nodes);
      const units = Math.max(CHUNK_WORK_MIN, Math.floor(m <= 4 ? CHUNK_WORK : CHUNK_WORK / (m / 4)));
      expect(quota).toBe(Math.ceil(units / (frontierUnitWeight(m) + FRONTIER_CHILD_WORK)));
    },
  );
});
