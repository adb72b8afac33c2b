/**
 * Turning per-session node choices into a Plan: assignments ordered most valuable first, exact value
 * sums, stats.
 */
import { BoundScratch, relaxationBound } from './bound.js';
import { assignmentOrder } from './orders.js';
import { nodesKept, sessionsKept, type PackedProblem } from './pack.js';
import type { Assignment, Plan, PlanStats, PlanValue, SolvePath } from '../types.js';
import { creditOn, type IndexedProblem } from './validate.js';

/** Plan stats without the wall time, which the caller measures around everything. */
export type RawStats = Omit<PlanStats, 'micros'>;

/** Everything a Plan carries besides its assignments and value. */
export interface PlanMeta {
  status: Plan['status'];
  reason?: string;
  quantum: number;
  stats: RawStats;
  /** A bound the decision proved on a fallback's optimum, per level. */
  proven?: PlanValue;
  /** A fallback made past the deadline or once stopped: its relaxation bound leaves out the refinement by its credit. */
  lean?: true;
}

/** A count for PlanStats: counts past the double range are reported as Number.MAX_VALUE (JSON has no Infinity). */
export function countStat(x: number): number {
  return Number.isFinite(x) ? x : Number.MAX_VALUE;
}

/** The work fields of PlanStats: `work` and its deprecated alias `cells`, always equal. */
export function workStats(work: number): Pick<RawStats, 'work' | 'cells'> {
  return { work, cells: work };
}

/**
 * Stats of a solve of `packed` by `path` after `work` units of work (by default the trivial path, which
 * does none), built as one object; callers add the fields of their path after these.
 */
export function pathStats(packed: PackedProblem, path: SolvePath = 'trivial', work = 0): RawStats {
  return {
    path,
    // workStats' two fields, written out so that no object is spread.
    work,
    cells: work,
    states: countStat(packed.states),
    keyFits: packed.keyFits,
    nodesKept: nodesKept(packed),
    sessionsKept: sessionsKept(packed),
  };
}

/** The least of two bounds per level (each bounds that level of the optimum, so their minimum does). */
export function leastBound(a: PlanValue, b: PlanValue | undefined): PlanValue {
  if (b === undefined) return a;
  return {
    credit: Math.min(a.credit, b.credit),
    ready: Math.min(a.ready, b.ready),
    tokens: Math.min(a.tokens, b.tokens),
  };
}

/** Microseconds since `t0` (a `performance.now()` reading), rounded to 0.1 us. */
export function elapsedMicros(t0: number): number {
  return Math.round((performance.now() - t0) * 10_000) / 10;
}

/**
 * buildPlan's working arrays, grown on demand and kept by the caller between calls (it runs synchronously
 * and calls out to nothing): the admitted sessions, and the credit on the chosen node by session index.
 */
export class PlanScratch {
  chosen = new Int32Array(256);
  onNode = new Float64Array(256);
  /** The relaxation bound's arrays. */
  readonly bound = new BoundScratch();
}

/**
 * Builds a Plan from `node` (one entry per original session: original node index, or -1).
 *
 * Assignments are sorted by the triple (credit on the assigned node, ready, tokens) descending,
 * ties by smaller weight, then input order: a prefix of the list is a sensible partial plan when live
 * capacity turns out smaller than the snapshot's.
 */
export function buildPlan(
  problem: IndexedProblem,
  node: Int32Array,
  meta: PlanMeta,
  micros: number,
  scratch: PlanScratch = new PlanScratch(),
): Plan {
  if (scratch.chosen.length < node.length) {
    scratch.chosen = new Int32Array(2 * node.length);
    scratch.onNode = new Float64Array(2 * node.length);
  }
  const chosen = scratch.chosen;
  const onNode = scratch.onNode;
  let count = 0;
  const value: PlanValue = { credit: 0, ready: 0, tokens: 0 };
  for (let i = 0; i < node.length; i++) {
    const b = node[i]!;
    if (b < 0) continue;
    chosen[count++] = i;
    onNode[i] = creditOn(problem, i, b);
    value.credit += onNode[i]!;
    value.ready += problem.ready[i]!;
    value.tokens += problem.tokens[i]!;
  }
  assignmentOrder(chosen, count, onNode, problem);
  const assignments = new Array<Assignment>(count);
  for (let t = 0; t < count; t++) {
    const i = chosen[t]!;
    assignments[t] = { session: problem.sessionIds[i]!, node: problem.nodeIds[node[i]!]! };
  }
  return {
    status: meta.status,
    ...(meta.reason !== undefined ? { reason: meta.reason } : {}),
    assignments,
    value,
    bound:
      meta.status === 'optimal'
        ? { credit: value.credit, ready: value.ready, tokens: value.tokens }
        : leastBound(
            relaxationBound(problem, meta.quantum, meta.stats, meta.lean === true ? undefined : value, scratch.bound),
            meta.proven,
          ),
    quantum: meta.quantum,
    stats: { ...meta.stats, micros },
  };
}
