/**
 * One solve's budget: the units of work its stages may spend (the option `stateBudget`), its deadline and
 * its stop flag. Every stage receives it in the solve's context (src/solve/pipeline/context.ts), asks it
 * whether to stop and charges it what it spent, so `PlanStats.work` is the sum of every charge.
 *
 * Two kinds of work are charged (docs/solver.md, "The budget"):
 * - the searches (the assignment path, the multiple-knapsack search, the frontier and the dense DP, the
 *   credit-free remainders) share the limit: each gets at most what the searches before it left
 *   (`left`), but for the dense DP, which runs when its cells fit within the limit whatever the runs
 *   abandoned for it spent;
 * - the preparation (the best-nodes check, the credit level and its branching, the heuristic plan, the
 *   decomposition plans, a fallback's bound) runs on shares of its own (`preparation`), proportional to the
 *   limit below the default down to a floor, and does not shorten the searches' shares.
 * A `share` is a budget of its own on the same clock and stop flag whose charges are charged to its parent
 * too: a credit level, a remainder's whole decision.
 */
import { defaultSolveOptions, type ResolvedSolveOptions } from '../options.js';

/**
 * A multiple-knapsack search unit (src/solve/mkp/search.ts) over m kept nodes costs about as much as a
 * dense cell up to SEARCH_WEIGHT_NODES nodes and more beyond (its bounds, splits and regrouping run over
 * every node, on more sessions): it is charged ceil(m / SEARCH_WEIGHT_NODES)^2 budget units, so the
 * default budget bounds the search's time at 64 nodes too (docs/results/time-and-memory.md).
 */
export const SEARCH_WEIGHT_NODES = 16;

/** Budget units one multiple-knapsack search unit over `nodes` kept nodes is charged. */
export function searchUnitWeight(nodes: number): number {
  const r = Math.ceil(nodes / SEARCH_WEIGHT_NODES);
  return Math.max(1, r * r);
}

export class SolveBudget {
  /** Units charged here and in the shares taken from here. */
  #spent = 0;
  /** The part of `#spent` the searches charged: what later searches' shares subtract. */
  #searched = 0;
  readonly #parent: SolveBudget | undefined;
  /** The preparation's shares relative to the default state budget's (at most 1). */
  readonly #scale: number;

  /**
   * @param limit most units of work (a dense cell, a frontier unit, a multiple-knapsack unit: each
   *   about the same time up to 16 nodes; see `SolveOptions.stateBudget`) the searches may spend
   * @param startedAt the `performance.now()` reading the deadline counts from
   * @param deadlineMs the deadline, Infinity for none
   * @param stop the stop flag (another thread sets element 0 with `Atomics.store`), if any
   * @param scale the preparation's shares relative to their size at the default state budget
   * @param parent the budget this one is a share of, charged whatever this one is
   */
  constructor(
    readonly limit: number,
    readonly startedAt: number,
    readonly deadlineMs: number,
    readonly stop: Int32Array | undefined,
    scale = 1,
    parent?: SolveBudget,
  ) {
    this.#scale = scale;
    this.#parent = parent;
  }

  /**
   * The budget of one solve under its options. The one place a `stateBudget` becomes units of work: a
   * calibration of the unit to wall time changes this conversion and nothing else.
   */
  static of(options: ResolvedSolveOptions, startedAt: number, stop: Int32Array | undefined): SolveBudget {
    const scale = Math.min(1, options.stateBudget / defaultSolveOptions.stateBudget);
    return new SolveBudget(options.stateBudget, startedAt, options.deadlineMs, stop, scale);
  }

  /** A share of `limit` units on the same clock and stop flag, whose charges are charged here too. */
  share(limit: number): SolveBudget {
    return new SolveBudget(limit, this.startedAt, this.deadlineMs, this.stop, this.#scale, this);
  }

  /**
   * A preparation's share: `atDefault` units at the default state budget, less in proportion below it (so
   * a small `stateBudget` stops the preparation early too) but never below `least`, never more above it.
   */
  preparation(atDefault: number, least = 0): SolveBudget {
    return this.share(Math.max(least, Math.floor(atDefault * this.#scale)));
  }

  /** How many steps of `cost` units each what is left buys (e.g. knapsack states of CREDIT_STATE_WORK units). */
  stepsOf(cost: number): number {
    return Math.max(0, Math.floor(this.left / cost));
  }

  /** Every unit charged so far, here and in the shares taken from here: the solve's work. */
  get spent(): number {
    return this.#spent;
  }

  /** What the searches may still spend: the limit less what earlier searches charged. */
  get left(): number {
    return this.limit - this.#searched;
  }

  /** Charges preparation work (see the module comment). */
  charge(units: number): void {
    this.#spent += units;
    this.#parent?.charge(units);
  }

  /** Charges a search's work (see the module comment). */
  chargeSearch(units: number): void {
    this.#spent += units;
    this.#searched += units;
    this.#parent?.chargeSearch(units);
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
