/**
 * One solve's budget: the units of work its stages may spend (the option `stateBudget`), its deadline and
 * its stop flag. Every stage receives it in the solve's context (src/solve/pipeline/context.ts), asks it
 * whether to stop and charges it what it spent, so `PlanStats.work` is the sum of every charge.
 *
 * The limit bounds everything a solve does (docs/solver.md, "The budget"):
 * - a ceiling of WORK_CEILING x limit units on every step that may be skipped: the best-nodes check, the
 *   credit level and its branching, the heuristic plans but BFD, the decomposition plans, the searches,
 *   a credit-split remainder's packing. Each starts only when its cost, estimated beforehand or metered
 *   as it goes, fits in what the ceiling leaves (`room`, `afford`). What no solve can skip (validation
 *   and packing, BFD, the fallback's bound: linear in the sessions, nodes and credit entries) is charged
 *   too (`chargeUnavoidable`), on top of the ceiling, so `work` <= WORK_CEILING x limit + that;
 * - within it, the searches (the assignment path, the multiple-knapsack search, the frontier and the
 *   dense DP, the credit-free remainders) share the limit: each gets at most what the searches before it
 *   left (`left`, never more than `room`), but for the dense DP, which runs when its cells fit within the
 *   limit and the room whatever the runs abandoned for it spent, and the frontier after a
 *   multiple-knapsack search that passed its share, which gets the room (src/solve/pipeline/stages.ts);
 * - the preparation (the credit level, the decomposition plans) runs on shares of its own
 *   (`preparation`), proportional to the limit below the default down to a floor, never above `room`,
 *   and does not shorten the searches' shares.
 * A `share` is a budget of its own on the same clock and stop flag whose charges are charged to its parent
 * too, within its parent's room: a credit level, a remainder's whole decision.
 */
import { defaultSolveOptions, type ResolvedSolveOptions } from '../options.js';
import type { PackedProblem } from '../pack.js';

/**
 * A multiple-knapsack search unit (src/solve/mkp/search.ts) over m kept nodes is counted
 * ceil(m / SEARCH_WEIGHT_NODES)^2 budget units when the search sizes its phases' shares
 * (`searchUnitWeight`), and charged SEARCH_UNIT_LEAST times the larger of that and ceil(m /
 * SEARCH_UNIT_NODES) (`searchUnitCost`): its bounds, splits and regrouping run over every node, on more
 * sessions, so a unit costs more the more nodes there are (measured: docs/history.md, "One budget" and
 * "Time at the caps"); the charge grows with every SEARCH_UNIT_NODES nodes past 4 and keeps the paper's
 * sizes (up to 4 nodes) at SEARCH_UNIT_LEAST. The search halts where its charges pass its share, so a
 * search that ends before that runs as it did with the first weight alone, and the default budget bounds
 * the search's time at every node count.
 */
export const SEARCH_WEIGHT_NODES = 16;
export const SEARCH_UNIT_LEAST = 2;
export const SEARCH_UNIT_NODES = 4;

/** Budget units one multiple-knapsack search unit over `nodes` kept nodes counts for its phases' shares. */
export function searchUnitWeight(nodes: number): number {
  const r = Math.ceil(nodes / SEARCH_WEIGHT_NODES);
  return Math.max(1, r * r);
}

/** Budget units one multiple-knapsack search unit over `nodes` kept nodes is charged. */
export function searchUnitCost(nodes: number): number {
  return SEARCH_UNIT_LEAST * Math.max(searchUnitWeight(nodes), Math.ceil(nodes / SEARCH_UNIT_NODES));
}

/**
 * Every step of a solve that may be skipped (the preparation's and the searches') runs within
 * WORK_CEILING x its state budget, and the work no solve skips (validation and packing, BFD, a
 * fallback's bound: linear in the sessions, nodes and credit entries) comes on top (docs/solver.md, "The
 * budget"; what it bounds in time at the documented caps: docs/threat-model.md, "Time").
 */
export const WORK_CEILING = 2;

/**
 * Units of work validating and packing a problem costs per session, per credit entry and per kept
 * (session, node) pair (docs/history.md, "One budget"; a unit is about a nanosecond of thread CPU here):
 * charged at the start of every decision (`packWork`), so a credit-split remainder's packing is charged too.
 */
export const PACK_SESSION_WORK = 300;
export const PACK_ENTRY_WORK = 100;
export const PACK_PAIR_WORK = 4;

/** The units `PACK_*_WORK` charge for validating and packing `packed`. */
export function packWork(packed: PackedProblem): number {
  const n = packed.qweight.length;
  return (
    PACK_SESSION_WORK * packed.sessionCount +
    PACK_ENTRY_WORK * packed.creditStart[n]! +
    PACK_PAIR_WORK * n * packed.qcapacity.length
  );
}

/**
 * Units of work a fallback plan's bound (src/solve/bound.ts `relaxationBound`, computed when the Plan is
 * built) costs per session and per credit entry: charged with the fallback (`boundWork`).
 */
export const BOUND_SESSION_WORK = 300;
export const BOUND_ENTRY_WORK = 60;

/**
 * Units of work one entry the nested-rooms bound reads costs (src/solve/nested-bound.ts: about 3.5 ns
 * measured on big-cluster remainders): charged with a fallback's bound (`nestedBoundOf`).
 */
export const NESTED_READ_WORK = 4;

/** The units `BOUND_*_WORK` charge for a fallback plan's bound on `packed`. */
export function boundWork(packed: PackedProblem): number {
  return BOUND_SESSION_WORK * packed.sessionCount + BOUND_ENTRY_WORK * packed.creditStart[packed.qweight.length]!;
}

export class SolveBudget {
  /** Units charged here and in the shares taken from here. */
  #spent = 0;
  /** The part of `#spent` the searches charged: what later searches' shares subtract. */
  #searched = 0;
  readonly #parent: SolveBudget | undefined;
  /** The preparation's shares relative to the default state budget's (at most 1). */
  readonly #scale: number;
  /** Most units this budget and its shares may be charged (WORK_CEILING x limit, or the parent's room). */
  #ceiling: number;

  /**
   * @param limit most units of work (a dense cell, a frontier unit, a multiple-knapsack unit: each
   *   about the same time up to 16 nodes; see `SolveOptions.stateBudget`) the searches may spend
   * @param startedAt the `performance.now()` reading the deadline counts from
   * @param deadlineMs the deadline, Infinity for none
   * @param stop the stop flag (another thread sets element 0 with `Atomics.store`), if any
   * @param scale the preparation's shares relative to their size at the default state budget
   * @param parent the budget this one is a share of, charged whatever this one is
   * @param ceiling most units this budget may be charged in all (by default WORK_CEILING x limit)
   */
  constructor(
    readonly limit: number,
    readonly startedAt: number,
    readonly deadlineMs: number,
    readonly stop: Int32Array | undefined,
    scale = 1,
    parent?: SolveBudget,
    ceiling = WORK_CEILING * limit,
  ) {
    this.#scale = scale;
    this.#parent = parent;
    this.#ceiling = ceiling;
  }

  /** This is the solve's own budget, not a share (a credit-split remainder's). */
  get root(): boolean {
    return this.#parent === undefined;
  }

  /** Most units this budget may be charged: its ceiling, plus the unavoidable work charged at the root. */
  get ceiling(): number {
    return this.#ceiling;
  }

  /**
   * The budget of one solve under its options. The one place a `stateBudget` becomes units of work: a
   * calibration of the unit to wall time changes this conversion and nothing else.
   */
  static of(options: ResolvedSolveOptions, startedAt: number, stop: Int32Array | undefined): SolveBudget {
    const scale = Math.min(1, options.stateBudget / defaultSolveOptions.stateBudget);
    return new SolveBudget(options.stateBudget, startedAt, options.deadlineMs, stop, scale);
  }

  /**
   * A share of `limit` units (at most the room left here) on the same clock and stop flag, whose charges
   * are charged here too; its ceiling is the room left here, so the share cannot pass this budget's.
   */
  share(limit: number): SolveBudget {
    const room = this.room;
    return new SolveBudget(
      Math.max(0, Math.min(limit, room)),
      this.startedAt,
      this.deadlineMs,
      this.stop,
      this.#scale,
      this,
      room,
    );
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

  /** What the searches may still spend: the limit less what earlier searches charged, within the room. */
  get left(): number {
    return Math.min(this.planned, this.room);
  }

  /** The limit less what earlier searches charged: what a search sizes its phases on (`left` bounds it). */
  get planned(): number {
    return this.limit - this.#searched;
  }

  /** What the ceiling leaves: the units any step may still be charged. */
  get room(): number {
    return Math.max(0, this.#ceiling - this.#spent);
  }

  /** Whether a step of `units` estimated units fits in the room (a step that may be skipped asks first). */
  afford(units: number): boolean {
    return units <= this.room;
  }

  /** Charges preparation work (see the module comment). */
  charge(units: number): void {
    this.#spent += units;
    this.#parent?.charge(units);
  }

  /**
   * Charges work no solve can skip (validation and packing, BFD, a fallback's bound): at the solve's root
   * it raises the ceiling by as much, so it does not take the room of the steps that may be skipped; in a
   * share (a credit-split remainder) it is work like any other.
   */
  chargeUnavoidable(units: number): void {
    if (this.#parent === undefined) this.#ceiling += units;
    this.charge(units);
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

  /** The stop flag is set or the deadline passed (what `halted` reports, without its message). */
  expired(): boolean {
    return this.#stopped() || this.#pastDeadline();
  }

  /** Why the solve must stop now (the stop flag is set, or the deadline passed), after `done` of `n` sessions; else undefined. */
  halted(done: number, n: number): string | undefined {
    if (this.#stopped()) return `stopped: the solve was aborted after ${done} of ${n} sessions of the DP`;
    if (this.#pastDeadline()) {
      return `deadline exceeded: ${this.deadlineMs} ms passed after ${done} of ${n} sessions of the DP`;
    }
    return undefined;
  }

  #stopped(): boolean {
    return this.stop !== undefined && Atomics.load(this.stop, 0) !== 0;
  }

  #pastDeadline(): boolean {
    return performance.now() - this.startedAt > this.deadlineMs;
  }
}
