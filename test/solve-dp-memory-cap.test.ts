/**
 * The memory cap on the DPs (src/solve/pipeline/run-dp.ts, src/limits.ts): WASM linear memory never grows
 * past MEMORY_CAP_BYTES, so a dense grid that needs exactly that many bytes runs and one byte more is
 * refused before it is allocated; a kernel that cannot grow its memory, or a frontier that cannot hold its
 * states, ends the solve in the labelled fallback whose reason names the engine, the bytes and where the
 * run was. The kernels' memory is scripted with spies on the WebAssembly adapters.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DpStatus,
  frontierSetup,
  MEMORY_CAP_BYTES,
  nodesKept,
  runDense,
  runFrontier,
  type SolveContext,
  sessionsKept,
} from './helpers/internals.js';
import { useReleaseKernels } from './helpers/kernels.js';
import { solveContext, threeOnTwoRooms } from './helpers/solve-context.js';

const k = useReleaseKernels();
afterEach(() => {
  vi.restoreAllMocks();
});

/** 3 sessions on two rooms of 10 quanta: 3 x 121 cells at quantum 1, not all fitting. */
const problem = threeOnTwoRooms();

/** A solve's context on `problem` at quantum 1, with BFD as its incumbent. */
const context = (): SolveContext => solveContext(problem, { quantum: 1 }, k.release, { withBfd: true });

describe('the dense DP under the memory cap', () => {
  it('runs a grid that needs exactly MEMORY_CAP_BYTES bytes', () => {
    vi.spyOn(k.release.dense, 'bytesNeeded').mockReturnValue(MEMORY_CAP_BYTES);
    const out = runDense(context());
    expect(out.status).toBe('optimal');
    expect(out.stats.path).toBe('dense');
  });

  it('refuses a grid that needs one byte more before allocating it, naming both numbers', () => {
    vi.spyOn(k.release.dense, 'bytesNeeded').mockReturnValue(MEMORY_CAP_BYTES + 1);
    const start = vi.spyOn(k.release.dense, 'start');
    const out = runDense(context());
    expect(out.status).toBe('fallback');
    expect(out.reason).toBe(
      `memory cap exceeded: the dense DP needs ${MEMORY_CAP_BYTES + 1} bytes > ${MEMORY_CAP_BYTES}`,
    );
    expect(start).not.toHaveBeenCalled();
  });

  it('falls back, labelled with the bytes it asked for, when the kernel cannot grow its memory', () => {
    const ctx = context();
    const { packed } = ctx;
    const bytes = k.release.dense.bytesNeeded(sessionsKept(packed), nodesKept(packed), packed.states);
    expect(bytes).toBeLessThan(MEMORY_CAP_BYTES);
    vi.spyOn(k.release.dense, 'start').mockReturnValue(DpStatus.memory);
    const out = runDense(ctx);
    expect(out.status).toBe('fallback');
    expect(out.reason).toBe(`memory cap exceeded: WASM memory could not grow to ${bytes} bytes`);
  });
});

describe('the frontier DP under the memory cap', () => {
  it('falls back, labelled with the cap and the sessions folded, when it cannot hold its states', () => {
    const ctx = context();
    vi.spyOn(k.release.frontier, 'step').mockReturnValue(DpStatus.memory);
    const out = runFrontier(ctx, frontierSetup(ctx.packed, ctx.incumbent!.node), Number.POSITIVE_INFINITY);
    if ('abandoned' in out) throw new Error('abandoned');
    expect(out.status).toBe('fallback');
    expect(out.reason).toBe(
      `memory cap exceeded: the frontier DP could not hold its states within ${MEMORY_CAP_BYTES} bytes after 0 of 3 sessions`,
    );
    expect(out.stats.frontier?.outcome).toBe('abandoned');
  });
});
