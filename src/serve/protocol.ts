/**
 * The sidecar protocol (`tao serve`): one JSON request per line in, one JSON response per line out, each
 * response carrying its request's `id` and `op`; an `observe` without an id is a notification and gets
 * no response. The message shapes are also published as JSON Schemas
 * (schemas/request.schema.json, schemas/response.schema.json).
 */
import type { ErrorCode } from '../errors.js';
import type { EvaluateOptions } from '../evaluate/options.js';
import type { CompletedCall } from '../evaluate/readiness/predictor.js';
import type { PredictorJSON } from '../evaluate/readiness/json.js';
import type { Snapshot, SnapshotNode, SnapshotSession } from '../evaluate/snapshot.js';
import type { HistogramSummary } from '../planner/histogram.js';
import type { SolveOptions } from '../solve/options.js';
import type { Revalidation } from '../planner/revalidate.js';
import type { Assignment, Plan, Problem } from '../types.js';

/**
 * Version of the protocol; bumped when a message changes. Reported by `hello` and `stats`. Protocol 2 adds
 * the `tick` that carries a `delta` against the connection's last snapshot; every request of protocol 1 is
 * answered as before.
 */
export const SIDECAR_PROTOCOL_VERSION = 2;

/** Every protocol version this sidecar speaks; `hello` picks the highest one the client also lists. */
export const SIDECAR_PROTOCOL_VERSIONS: readonly number[] = Object.freeze([1, SIDECAR_PROTOCOL_VERSION]);

/** The only op a request may send without an id: a notification, answered by no response line. */
export const NOTIFICATION_OPS: readonly SidecarOp[] = Object.freeze(['observe'] as const);

/**
 * Longest request line the sidecar reads, in bytes (UTF-8, newline excluded), unless `--max-line-bytes`
 * says otherwise. A problem at the solver's limits (4096 sessions, 64 nodes, every pair credited and
 * eligible) is about 10 MiB of JSON.
 */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Every operation, in the order the docs list them. */
export const SIDECAR_OPS = Object.freeze([
  'hello',
  'tick',
  'solve',
  'evaluate',
  'observe',
  'predictor.save',
  'predictor.load',
  'stats',
  'shutdown',
] as const);

export type SidecarOp = (typeof SIDECAR_OPS)[number];

/** A request's id, echoed in its response: a string or a finite number. */
export type RequestId = string | number;

interface Envelope<O extends SidecarOp> {
  id: RequestId;
  op: O;
}

export interface HelloRequest extends Envelope<'hello'> {
  /** The protocol versions the client speaks; absent: the sidecar's current one. */
  protocols?: number[];
}
/** A plan of an earlier tick, with the signatures its sessions had then: carried over while it still holds. */
export interface TickPrevious {
  assignments: Assignment[];
  /** Session id -> signature, for every session `assignments` names (a tick response's `signatures`). */
  signatures: Record<string, string | number>;
}
/** What changed since the snapshot of the tick `base` (protocol 2; src/serve/delta.ts). */
export interface SnapshotDelta {
  /** The id of the last tick answered on this connection. */
  base: RequestId;
  time: number;
  /** Every node, when they changed; absent: the base's. */
  nodes?: SnapshotNode[];
  /** Sessions that changed (by id; they keep their place) or arrived (appended in this order). */
  sessions?: SnapshotSession[];
  /** Ids of the base's sessions that left the pool. */
  remove?: string[];
}
export interface TickRequest extends Envelope<'tick'> {
  /** The whole snapshot; or `delta`, never both. */
  snapshot?: Snapshot;
  delta?: SnapshotDelta;
  evaluateOptions?: EvaluateOptions;
  solveOptions?: SolveOptions;
  previous?: TickPrevious;
}
export interface SolveRequest extends Envelope<'solve'> {
  problem: Problem;
  options?: SolveOptions;
}
export interface EvaluateRequest extends Envelope<'evaluate'> {
  snapshot: Snapshot;
  options?: EvaluateOptions;
}
export interface ObserveRequest extends Omit<Envelope<'observe'>, 'id'> {
  /** Absent: a notification (no response). */
  id?: RequestId;
  calls: CompletedCall[];
}
export type PredictorSaveRequest = Envelope<'predictor.save'>;
export interface PredictorLoadRequest extends Envelope<'predictor.load'> {
  predictor: PredictorJSON;
}
export type StatsRequest = Envelope<'stats'>;
export type ShutdownRequest = Envelope<'shutdown'>;

export type SidecarRequest =
  | HelloRequest
  | TickRequest
  | SolveRequest
  | EvaluateRequest
  | ObserveRequest
  | PredictorSaveRequest
  | PredictorLoadRequest
  | StatsRequest
  | ShutdownRequest;

/** Fields each operation takes besides `id` and `op`; anything else is refused. */
export const REQUEST_FIELDS: Readonly<Record<SidecarOp, readonly string[]>> = Object.freeze({
  hello: ['protocols'],
  tick: ['snapshot', 'delta', 'evaluateOptions', 'solveOptions', 'previous'],
  solve: ['problem', 'options'],
  evaluate: ['snapshot', 'options'],
  observe: ['calls'],
  'predictor.save': [],
  'predictor.load': ['predictor'],
  stats: [],
  shutdown: [],
});

/**
 * Error codes of a response: the library's, plus `ERR_TAO_INTERNAL` for a failure that is not the
 * request's fault (a bug; the sidecar logs it on stderr and keeps serving).
 */
export type SidecarErrorCode = ErrorCode | 'ERR_TAO_INTERNAL';

export interface ErrorResponse {
  /** The request's id, or null when none could be read (bad JSON, oversized line, bad id). */
  id: RequestId | null;
  /** The request's op as sent, or null when none could be read. */
  op: string | null;
  ok: false;
  error: { code: SidecarErrorCode; message: string };
}

interface Ok<O extends SidecarOp> {
  id: RequestId;
  op: O;
  ok: true;
}

export interface HelloResponse extends Ok<'hello'> {
  /** The version chosen: the highest the client listed in `protocols` that the sidecar speaks. */
  protocol: number;
  /** Every version the sidecar speaks. */
  protocols: readonly number[];
  version: string;
  ops: readonly SidecarOp[];
  maxLineBytes: number;
}
export interface TickResponse extends Ok<'tick'> {
  /**
   * The plan of this tick's Problem (evaluated from `snapshot`). With `previous`, it is solved on what the
   * carried prefix leaves: admitting `revalidation.applied` and then `plan.assignments` fits together.
   */
  plan: Plan;
  /** Session id -> signature of every session in `revalidation.applied` and `plan.assignments`: pass it back as `previous.signatures`. */
  signatures: Record<string, string | number>;
  /** What of `previous` still holds against this tick's Problem; absent without `previous`. */
  revalidation?: Revalidation;
}
export interface SolveResponse extends Ok<'solve'> {
  plan: Plan;
}
export interface EvaluateResponse extends Ok<'evaluate'> {
  problem: Problem;
}
export interface ObserveResponse extends Ok<'observe'> {
  /** Calls whose duration joined the history (a call whose command holds a readable `sleep N` does not). */
  learned: number;
}
export interface PredictorSaveResponse extends Ok<'predictor.save'> {
  predictor: PredictorJSON;
}
export type PredictorLoadResponse = Ok<'predictor.load'>;
export interface StatsResponse extends Ok<'stats'> {
  protocol: number;
  version: string;
  uptimeMs: number;
  maxLineBytes: number;
  /** Requests answered, per op; lines that were not a readable request count under `invalid`. */
  requests: Record<SidecarOp | 'invalid', number>;
  /** Error responses, per code. */
  errors: Partial<Record<SidecarErrorCode, number>>;
  /** Solver wall time of the successful solves and ticks (`plan.stats.micros`), in microseconds. */
  solveMicros: HistogramSummary;
  /** Durations the readiness predictor holds: tools with a history, and samples in the global one. */
  predictor: { tools: number; globalSamples: number };
}
export type ShutdownResponse = Ok<'shutdown'>;

export type SidecarResponse =
  | ErrorResponse
  | HelloResponse
  | TickResponse
  | SolveResponse
  | EvaluateResponse
  | ObserveResponse
  | PredictorSaveResponse
  | PredictorLoadResponse
  | StatsResponse
  | ShutdownResponse;
