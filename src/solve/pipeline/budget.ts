/**
 * One solve's budget: the units of work its stages may spend (the option `stateBudget`), its deadline and
 * its stop flag. Every stage receives it in the solve's context (src/solve/pipeline/context.ts) and asks it
 * whether to stop; a stage that gives up after spending work charges it here, and the plan reports what
 * was charged plus the work of the stage that decided.
 */
import type { ResolvedSolveOptions } from '../options.js';

/**
 * A multiple-knapsack search unit (src/solve/mkp/search.ts) over m kept nodes costs about as much as a
 * dense cell up to SEARCH_WEIGHT_NODES nodes and more beyond (its bounds, splits and regrouping run over
 * every node, on more sessions): it is charged ceil(m / SEARCH_WEIGHT_NODES)^2 budget units, so the
 * default budget bounds the search's time at 64 nodes too (docs/threat-model.md, "Time").
 */
export const SEARCH_WEIGHT_NODES = 16;

/** Budget units one multiple-knapsack search unit over `nodes` kept nodes is charged. */
export function searchUnitWeight(nodes: number): number {
  const r = Math.ceil(nodes / SEARCH_WEIGHT_NODES);
  return Math.max(1, r * r);
}

export class SolveBudget {
  #spent = 0;

  /**
   * @param limit most units of work (a dense cell, a frontier unit, a multiple-knapsack unit: each
   *   about the same time up to 16 nodes; see `SolveOptions.stateBudget`)
   * @param startedAt the `performance.now()` reading the deadline counts from
   * @param deadlineMs the deadline, Infinity for none
   * @param stop the stop flag (another thread sets element 0 with `Atomics.store`), if any
   */
  constructor(
    readonly limit: number,
    readonly startedAt: number,
    readonly deadlineMs: number,
    readonly stop: Int32Array | undefined,
  ) {}

  /**
   * The budget of one solve under its options. The one place a `stateBudget` becomes units of work: a
   * calibration of the unit to wall time changes this conversion and nothing else.
   */
  static of(options: ResolvedSolveOptions, startedAt: number, stop: Int32Array | undefined): SolveBudget {
    return new SolveBudget(options.stateBudget, startedAt, options.deadlineMs, stop);
  }

  /** The same clock and stop flag with `limit` units (a sub-problem's share of what is left). */
  share(limit: number): SolveBudget {
    return new SolveBudget(limit, this.startedAt, this.deadlineMs, this.stop);
  }

  /**
   * How many steps of `cost` units each the budget buys (a search that counts in steps of its own, e.g.
   * the credit branching's knapsack states). What those steps spend is reported in their own counters,
   * not in `PlanStats.work`.
   */
  stepsOf(cost: number): number {
    return Math.floor((this.limit - this.#spent) / cost);
  }

  /** Units charged by stages that gave up (an abandoned search or frontier) before the one that decides. */
  get spent(): number {
    return this.#spent;
  }

  charge(units: number): void {
    this.#spent += units;
  }

  /** Work must be cut into bounded steps so the deadline or the stop flag is seen between them. */
  get stepped(): boolean {
    return this.stop !== undefined || this.deadlineMs !== Number.POSITIVE_INFINITY;
  }

  /** Why the solve must stop now (the stop flag is set, or the deadline passed), after `done` of `n` sessions; else undefined. */
  halted(done: number, n: number): string | undefined {
    if (this.stop !== undefined && Atomics.load(this.stop, 0) !== 0)
      return `stopped: the solve was aborted after ${done} of ${n} sessions of the DP`;
    if (performance.now() - this.startedAt > this.deadlineMs) {
      return `deadline exceeded: ${this.deadlineMs} ms passed after ${done} of ${n} sessions of the DP`;
    }
    return undefined;
  }
}
