/** A solve on a clock the test holds: performance.now mocked, its readings counted. */
import { vi } from 'vitest';
import type { Plan, Problem, Solver, SolveOptions } from './internals.js';

/**
 * The plan of `problem`, and how many times the solve read the clock; the clock reads 0 and jumps 10^9 ms
 * after `still` readings (any deadline then has passed). The mock is restored before it returns.
 */
export function onHeldClock(
  solver: Solver,
  problem: Problem,
  options: SolveOptions,
  still = Number.POSITIVE_INFINITY,
): { plan: Plan; reads: number } {
  let reads = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => (++reads > still ? 1e9 : 0));
  try {
    return { plan: solver.solve(problem, options), reads };
  } finally {
    vi.restoreAllMocks();
  }
}
