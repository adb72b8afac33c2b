/**
 * The planner's counters. Kept apart from the planner so the state machine reads as a state machine and
 * the numbers a scheduler exports to its metrics system have one definition.
 */
import { LatencyHistogram, type HistogramSummary } from './histogram.js';
import type { Revalidation } from './revalidate.js';

/** A plain, JSON-serialisable copy of the planner's counters at one instant. */
export interface PlannerStats {
  /** `submit()` calls accepted (valid input, planner open). */
  submitted: number;
  /** Solves that produced a plan, on either path. */
  solves: number;
  /** Of `solves`, run on the calling thread (see `solvesRouted`). */
  solvesInThread: number;
  /**
   * Of `solvesInThread`, estimated above `inThreadMaxWork` and run in-thread because solves of their class
   * were measured to take less than the pool's round trip adds (the adaptive route, docs/planner.md).
   */
  solvesRouted: number;
  /** Of `solves`, run in the worker pool. */
  solvesPool: number;
  /** Of `solves`, plans with status `fallback` (state budget, deadline, worker failure). */
  fallbacks: number;
  /** Submissions replaced in the queue by a newer one before they started. */
  superseded: number;
  /** Submissions whose signal fired, or still queued at `close()`. */
  aborted: number;
  /** Submissions that rejected after they were accepted (an unexpected solver error). */
  failed: number;
  /** `apply()` calls. */
  applies: number;
  /** Applies whose whole plan was applicable. */
  plansApplied: number;
  /** Applies that kept a proper prefix (capacity, eligibility or a node gone). */
  plansTruncated: number;
  /** Applies that dropped the plan (a selected session changed signature or left). */
  plansDropped: number;
  /** Assignments returned as applicable, over all applies. */
  assignmentsApplied: number;
  /** Assignments cut, over all applies. */
  assignmentsCut: number;
  /** Completed plans that a newer plan replaced before `takeLatest()` returned them. */
  plansUnused: number;
  /** A solve is running now. */
  inFlight: boolean;
  /** A submission waits for the running solve. */
  queued: boolean;
  /** The routing threshold in use (units of work). */
  inThreadMaxWork: number;
  /**
   * Round-trip overhead of the last 16 pool solves (wall time minus the worker's solve time; their mean, the
   * largest left out), microseconds; null before the first.
   */
  poolOverheadMicros: number | null;
  /** @deprecated The old name of `inThreadMaxWork`, still emitted with the same value. */
  inThreadMaxCells: number;
  /** Time from the start of a solve to its plan, microseconds (pool solves include the round trip). */
  solveMicros: HistogramSummary;
  /** Time from `submit()` to the start of its solve, microseconds. */
  queueWaitMicros: HistogramSummary;
}

type Counter = Exclude<
  keyof PlannerStats,
  | 'inFlight'
  | 'queued'
  | 'inThreadMaxWork'
  | 'inThreadMaxCells'
  | 'poolOverheadMicros'
  | 'solveMicros'
  | 'queueWaitMicros'
>;

export class PlannerCounters {
  readonly #counts: Record<Counter, number> = {
    submitted: 0,
    solves: 0,
    solvesInThread: 0,
    solvesRouted: 0,
    solvesPool: 0,
    fallbacks: 0,
    superseded: 0,
    aborted: 0,
    failed: 0,
    applies: 0,
    plansApplied: 0,
    plansTruncated: 0,
    plansDropped: 0,
    assignmentsApplied: 0,
    assignmentsCut: 0,
    plansUnused: 0,
  };
  readonly solveMicros = new LatencyHistogram();
  readonly queueWaitMicros = new LatencyHistogram();

  add(counter: Counter, by = 1): void {
    this.#counts[counter] += by;
  }

  recordApply(r: Revalidation): void {
    this.#counts.applies += 1;
    if (r.outcome === 'applied') this.#counts.plansApplied += 1;
    else if (r.outcome === 'truncated') this.#counts.plansTruncated += 1;
    else this.#counts.plansDropped += 1;
    this.#counts.assignmentsApplied += r.applied.length;
    this.#counts.assignmentsCut += r.cut.length;
  }

  snapshot(live: Pick<PlannerStats, 'inFlight' | 'queued' | 'inThreadMaxWork' | 'poolOverheadMicros'>): PlannerStats {
    return {
      ...this.#counts,
      ...live,
      inThreadMaxCells: live.inThreadMaxWork,
      solveMicros: this.solveMicros.summary(),
      queueWaitMicros: this.queueWaitMicros.summary(),
    };
  }
}
