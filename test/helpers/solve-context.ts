/** A solve's context, and a small problem, for tests that run one stage or DP of the pipeline by hand. */
import {
  bfdPacked,
  prepare,
  type Problem,
  SolveBudget,
  type SolveContext,
  type SolveOptions,
  SolveScratch,
  type WasmKernels,
} from './internals.js';

/**
 * The context of a solve of `problem` under `options` (prepared as a solve prepares it) over `kernels`,
 * with a fresh budget (its clock started now) that has been charged `charged` preparation units, a fresh
 * scratch and, with `withBfd`, BFD's plan as its incumbent.
 */
export function solveContext(
  problem: Problem,
  options: SolveOptions,
  kernels: WasmKernels,
  { charged = 0, withBfd = false }: { charged?: number; withBfd?: boolean } = {},
): SolveContext {
  const { packed, options: resolved } = prepare(problem, options);
  const budget = SolveBudget.of(resolved, performance.now(), undefined);
  budget.charge(charged);
  return {
    kernels,
    packed,
    options: resolved,
    budget,
    scratch: new SolveScratch(),
    ...(withBfd ? { incumbent: { node: bfdPacked(packed), heuristic: 'bfd' as const } } : {}),
  };
}

/** Three sessions (weights 6, 6 and 5) on two rooms of 10, which do not all fit; with `credited`, s0 and s1 credited. */
export function threeOnTwoRooms(credited = false): Problem {
  return {
    nodes: [
      { id: 'a', capacity: 10 },
      { id: 'b', capacity: 10 },
    ],
    sessions: [
      { id: 's0', weight: 6, tokens: 5, ready: true, ...(credited ? { credit: { a: 4 } } : {}) },
      { id: 's1', weight: 6, tokens: 4, ready: false, ...(credited ? { credit: { a: 3, b: 2 } } : {}) },
      { id: 's2', weight: 5, tokens: 3, ready: false },
    ],
  };
}
