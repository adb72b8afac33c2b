/**
 * Revalidation of a plan solved on a frozen snapshot against the live state (paper section 4): if the
 * signature of any selected session changed (or the session is gone), the whole plan is dropped;
 * otherwise the longest prefix of the plan, in plan order, that live capacities and live eligibility allow
 * is applied. Capacities are checked in exact tokens, not at the solver's quantum: the quantum is a price
 * the DP pays to stay small, the live admission must only be feasible.
 */
import { idRecord, recordAt } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import type { Assignment, Plan, Problem } from '../types.js';
import { isEligible, validateProblem } from '../solve/validate.js';

/** Why an assignment could not be applied. */
export type CutReason =
  /** The session's signature differs between snapshot and live state: the whole plan is dropped. */
  | {
      code: 'signature-changed';
      session: string;
      before: string | number | undefined;
      after: string | number | undefined;
    }
  /** The session is no longer waiting: the whole plan is dropped. */
  | { code: 'session-gone'; session: string }
  /** The node is not in the live state. */
  | { code: 'node-gone'; session: string; node: string }
  /** The live session may not go to this node. */
  | { code: 'ineligible'; session: string; node: string }
  /** The node's live residual capacity, after the assignments applied before it, is below the weight. */
  | { code: 'capacity'; session: string; node: string; weight: number; available: number }
  /** The plan places this session a second time; only the first placement can be applied. */
  | { code: 'duplicate'; session: string; node: string };

/** The first assignment that could not be applied. */
export interface CutPoint {
  /** Its index in `plan.assignments`. */
  index: number;
  assignment: Assignment;
  reason: CutReason;
  /** One line for logs, e.g. `capacity on node "n1": session "s3" needs 5120 tokens, 4000 left`. */
  message: string;
}

/** What revalidation did with a plan. */
export interface Revalidation {
  /**
   * `applied`: the whole plan (possibly empty) is applicable. `truncated`: a non-empty proper prefix or
   * the empty prefix was kept because of capacity, eligibility or a node that left. `dropped`: a selected
   * session changed or left; nothing is applied.
   */
  outcome: 'applied' | 'truncated' | 'dropped';
  /** The applicable prefix of `plan.assignments`, in plan order. */
  applied: Assignment[];
  /** The rest of the plan, in plan order. */
  cut: Assignment[];
  /** Absent when nothing was cut. */
  cutAt?: CutPoint;
  /** Every selected session whose signature changed or that left, in plan order (empty unless dropped). */
  changed: string[];
  /** Live residual capacity per node id after admitting `applied`, in tokens (a null-prototype record: any id is a key). */
  residual: Record<string, number>;
}

function describe(reason: CutReason): string {
  switch (reason.code) {
    case 'signature-changed':
      return `signature of session "${reason.session}" changed (${String(reason.before)} -> ${String(reason.after)})`;
    case 'session-gone':
      return `session "${reason.session}" is no longer waiting`;
    case 'node-gone':
      return `node "${reason.node}" of session "${reason.session}" is gone`;
    case 'ineligible':
      return `session "${reason.session}" is not eligible on node "${reason.node}"`;
    case 'capacity':
      return `capacity on node "${reason.node}": session "${reason.session}" needs ${reason.weight} tokens, ${reason.available} left`;
    case 'duplicate':
      return `session "${reason.session}" is placed twice (again on node "${reason.node}")`;
  }
}

/**
 * Signatures of the snapshot's sessions by id. The planner computes this once per snapshot; callers of
 * `revalidate` can pass the snapshot Problem instead.
 */
export type SignatureIndex = ReadonlyMap<string, string | number | undefined>;

/** Reads session ids and signatures of a snapshot (validated when it was submitted). */
export function signaturesOf(snapshot: Problem): Map<string, string | number | undefined> {
  const out = new Map<string, string | number | undefined>();
  for (const s of snapshot.sessions) out.set(s.id, s.signature);
  return out;
}

/**
 * Decides which prefix of `plan` (solved on `snapshot`) to admit given `live`, the current Problem.
 * Pure: reads its arguments only. Throws InvalidTypeError/InvalidValueError when `live` is not a valid
 * Problem (path `live`), or when the plan names a session the snapshot does not have.
 *
 * A session without a `signature` in both snapshot and live state compares equal: the caller that wants
 * drift detection must set signatures.
 */
export function revalidate(
  plan: Pick<Plan, 'assignments'>,
  snapshot: Problem | SignatureIndex,
  live: Problem,
): Revalidation {
  const before: SignatureIndex = snapshot instanceof Map ? snapshot : signaturesOf(snapshot as Problem);
  const indexed = validateProblem(live, 'live');
  const nodeIndex = new Map<string, number>();
  indexed.nodeIds.forEach((nid, b) => nodeIndex.set(nid, b));
  const sessionIndex = new Map<string, number>();
  indexed.sessionIds.forEach((sid, i) => sessionIndex.set(sid, i));
  const liveSessions = live.sessions;
  const assignments: readonly Assignment[] = (recordAt(plan, 'plan') as Pick<Plan, 'assignments'>).assignments;
  if (!Array.isArray(assignments)) throw new InvalidTypeError('plan.assignments must be an array');
  for (let k = 0; k < assignments.length; k++) {
    const a: unknown = assignments[k];
    recordAt(a, 'plan.assignments', `[${k}]`);
    if (typeof (a as { session: unknown }).session !== 'string')
      throw new InvalidTypeError(`plan.assignments[${k}].session must be a string`);
    if (typeof (a as { node: unknown }).node !== 'string')
      throw new InvalidTypeError(`plan.assignments[${k}].node must be a string`);
  }

  // Residual capacity per node index, reduced as the prefix grows; exact in float64 (capacities are safe
  // integers, weights < 2^32).
  const left = Float64Array.from(indexed.capacity);
  const residualOf = (): Record<string, number> => {
    const out = idRecord<number>();
    indexed.nodeIds.forEach((nid, b) => (out[nid] = left[b]!));
    return out;
  };

  // Whole-plan check first: one changed session invalidates the value of every other choice.
  const changed: string[] = [];
  let firstChange: CutPoint | undefined;
  for (let k = 0; k < assignments.length; k++) {
    const a = assignments[k]!;
    if (!before.has(a.session)) {
      throw new InvalidValueError(
        `plan.assignments[${k}].session names session "${a.session}" that is not in the snapshot`,
      );
    }
    const i = sessionIndex.get(a.session);
    let reason: CutReason | undefined;
    if (i === undefined) {
      reason = { code: 'session-gone', session: a.session };
    } else {
      const was = before.get(a.session);
      const now = liveSessions[i]!.signature;
      if (was !== now) reason = { code: 'signature-changed', session: a.session, before: was, after: now };
    }
    if (reason !== undefined) {
      if (!changed.includes(a.session)) changed.push(a.session);
      firstChange ??= { index: k, assignment: a, reason, message: describe(reason) };
    }
  }
  if (firstChange !== undefined) {
    return {
      outcome: 'dropped',
      applied: [],
      cut: assignments.slice(),
      cutAt: firstChange,
      changed,
      residual: residualOf(),
    };
  }

  const placed = new Set<string>();
  for (let k = 0; k < assignments.length; k++) {
    const a = assignments[k]!;
    const i = sessionIndex.get(a.session)!;
    const b = nodeIndex.get(a.node);
    let reason: CutReason | undefined;
    if (placed.has(a.session)) {
      reason = { code: 'duplicate', session: a.session, node: a.node };
    } else if (b === undefined) {
      reason = { code: 'node-gone', session: a.session, node: a.node };
    } else if (!isEligible(indexed, i, b)) {
      reason = { code: 'ineligible', session: a.session, node: a.node };
    } else if (indexed.weight[i]! > left[b]!) {
      reason = { code: 'capacity', session: a.session, node: a.node, weight: indexed.weight[i]!, available: left[b]! };
    }
    if (reason !== undefined) {
      return {
        outcome: 'truncated',
        applied: assignments.slice(0, k),
        cut: assignments.slice(k),
        cutAt: { index: k, assignment: a, reason, message: describe(reason) },
        changed,
        residual: residualOf(),
      };
    }
    placed.add(a.session);
    left[b!] = left[b!]! - indexed.weight[i]!;
  }
  return { outcome: 'applied', applied: assignments.slice(), cut: [], changed, residual: residualOf() };
}
