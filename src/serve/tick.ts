/**
 * The `tick` op: one scheduling period in one request. The snapshot is evaluated with the sidecar's
 * predictor, and the Problem it gives is solved. With `previous` (an earlier tick's plan and the
 * signatures its sessions had), that plan is first revalidated against this tick's Problem, the live
 * state (docs/planner.md): the prefix that still holds is carried over, and the new plan is solved on what
 * that prefix leaves (its sessions out, node capacities reduced by their weights), so admitting
 * `revalidation.applied` and then `plan.assignments` fits together.
 */
import { boundedArray, idRecord, nonEmptyString, recordAt, rejectUnknownKeys } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { evaluate } from '../evaluate/evaluate.js';
import { resolveEvaluateOptions, type EvaluateOptions } from '../evaluate/options.js';
import type { ReadinessPredictor } from '../evaluate/readiness/predictor.js';
import type { Snapshot } from '../evaluate/snapshot.js';
import { MAX_SESSIONS } from '../limits.js';
import { revalidate, type Revalidation } from '../planner/revalidate.js';
import { resolveSolveOptions, type SolveOptions } from '../solve/options.js';
import type { Solver } from '../solve/solver.js';
import type { Assignment, Plan, Problem } from '../types.js';
import { applyDelta, type ConnectionState } from './delta.js';
import type { RequestId, TickRequest, TickResponse } from './protocol.js';

const PREVIOUS_FIELDS: ReadonlySet<string> = new Set(['assignments', 'signatures']);
const ASSIGNMENT_FIELDS: ReadonlySet<string> = new Set(['session', 'node']);

/** `previous` checked field by field: its assignments, and its signatures by session id. */
function readPrevious(x: unknown): { assignments: Assignment[]; signatures: Map<string, string | number> } {
  const previous = recordAt(x, 'previous');
  rejectUnknownKeys(previous, PREVIOUS_FIELDS, 'previous');
  const list = boundedArray(previous.assignments, 'previous.assignments', MAX_SESSIONS);
  const assignments = list.map((a, k): Assignment => {
    const path = `previous.assignments[${k}]`;
    const r = recordAt(a, path);
    rejectUnknownKeys(r, ASSIGNMENT_FIELDS, path);
    return { session: nonEmptyString(r.session, path, '.session'), node: nonEmptyString(r.node, path, '.node') };
  });
  const record = recordAt(previous.signatures, 'previous.signatures');
  const signatures = new Map<string, string | number>();
  for (const key of Object.keys(record)) {
    const v = record[key];
    if (typeof v !== 'string' && (typeof v !== 'number' || !Number.isFinite(v))) {
      throw new InvalidTypeError(`previous.signatures[${JSON.stringify(key)}] must be a string or a finite number`);
    }
    signatures.set(key, v);
  }
  assignments.forEach((a, k) => {
    if (!signatures.has(a.session)) {
      throw new InvalidValueError(
        `previous.signatures has no signature for session "${a.session}" of previous.assignments[${k}]`,
      );
    }
  });
  return { assignments, signatures };
}

/** What `applied` leaves of `problem`: its sessions out, each node at its residual capacity. */
function leftOver(problem: Problem, revalidation: Revalidation): Problem {
  if (revalidation.applied.length === 0) return problem;
  const taken = new Set(revalidation.applied.map((a) => a.session));
  return {
    nodes: problem.nodes.map((n) => ({ id: n.id, capacity: revalidation.residual[n.id]! })),
    sessions: problem.sessions.filter((s) => !taken.has(s.id)),
  };
}

/**
 * The fields of a `tick` response besides id, op and ok. The tick's snapshot (sent whole, or made by
 * `delta` from the connection's base) becomes the connection's base once the tick is answered; a refused
 * tick leaves the base as it was.
 */
export function tick(
  solver: Solver,
  predictor: ReadinessPredictor,
  r: TickRequest,
  id: RequestId,
  connection: ConnectionState,
): Omit<TickResponse, 'id' | 'op' | 'ok'> {
  if (r.snapshot !== undefined && r.delta !== undefined) {
    throw new InvalidValueError('a tick carries a snapshot or a delta against the last one, not both');
  }
  const snapshot: unknown = r.delta === undefined ? r.snapshot : applyDelta(r.delta, connection.base);
  // Resolved here so that messages name the request's field (`evaluateOptions.reserve ...`).
  const evaluateOptions: EvaluateOptions | undefined =
    r.evaluateOptions === undefined ? undefined : resolveEvaluateOptions(r.evaluateOptions, 'evaluateOptions');
  const solveOptions: SolveOptions | undefined =
    r.solveOptions === undefined ? undefined : resolveSolveOptions(r.solveOptions, 'solveOptions');
  const previous = r.previous === undefined ? undefined : readPrevious(r.previous);
  const problem = evaluate(snapshot as unknown as Snapshot, predictor, evaluateOptions);
  const revalidation = previous === undefined ? undefined : revalidate(previous, previous.signatures, problem);
  const plan: Plan = solver.solve(revalidation === undefined ? problem : leftOver(problem, revalidation), solveOptions);
  const signatureOf = new Map<string, string | number>();
  for (const s of problem.sessions) signatureOf.set(s.id, s.signature!);
  const signatures = idRecord<string | number>();
  if (revalidation !== undefined)
    for (const a of revalidation.applied) signatures[a.session] = signatureOf.get(a.session)!;
  for (const a of plan.assignments) signatures[a.session] = signatureOf.get(a.session)!;
  connection.base = { id, snapshot: snapshot as Snapshot };
  return revalidation === undefined ? { plan, signatures } : { plan, signatures, revalidation };
}
