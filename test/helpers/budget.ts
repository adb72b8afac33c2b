/**
 * State budgets that buy a solve's preparation exactly, so a test reaches a stage that runs after it with
 * as few units as it likes (the preparation runs within the same ceiling as the searches).
 */
import {
  BEST_NODES_PAIR_WORK,
  boundWork,
  heuristicWork,
  type PackedProblem,
  packWork,
  CREDIT_LEVEL_ENTRY_WORK,
  CREDIT_STATE_WORK,
  creditLevel,
  nodesKept,
  prepare,
  sessionsKept,
  type Problem,
  type SolveOptions,
  WORK_CEILING,
} from './internals.js';

/**
 * A state budget whose ceiling (WORK_CEILING x the budget) leaves `extra` units past the best-nodes
 * check and the credit level (its pass over the credit entries and its knapsack states) on `problem`:
 * what the `auto` stages spend before the level decides, then about `extra` for the rest.
 */
export function budgetPastLevel(problem: Problem, options: SolveOptions, extra: number): number {
  const { packed } = prepare(problem, options);
  const n = sessionsKept(packed);
  const level = creditLevel(packed, Number.POSITIVE_INFINITY);
  const levelWork =
    level === null ? 0 : CREDIT_LEVEL_ENTRY_WORK * packed.creditStart[n]! + level.states * CREDIT_STATE_WORK;
  return Math.ceil((BEST_NODES_PAIR_WORK * n * nodesKept(packed) + levelWork + extra) / WORK_CEILING);
}

/**
 * The bound docs/solver.md states on a solve's work at state budget `limit`: WORK_CEILING x limit for
 * every step that may be skipped, plus what no solve skips (packing, BFD in both orders and the credit
 * greedy in one, the fallback's bound), plus what the one credit-split remainder that falls back may pass
 * its room by (its packing, its BFD) and the leaf bound (one heuristic's cost).
 */
export function workBound(packed: PackedProblem, limit: number): number {
  const unavoidable = packWork(packed) + 3 * heuristicWork(packed) + boundWork(packed);
  return WORK_CEILING * limit + unavoidable + packWork(packed) + 2 * heuristicWork(packed);
}
