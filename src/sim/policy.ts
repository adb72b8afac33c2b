/**
 * The one interface every scheduling policy implements, and the read-only view of the simulator it gets.
 *
 * Lifecycles (a property of the policy):
 * - `interrupt` (SPEC section 1, TAO's): at every tool-call boundary a session is interrupted, releases
 *   the capacity it held on its node and enters the waiting pool; new tasks enter the pool too. A policy
 *   only ever *admits* pooled sessions onto nodes. An admission holds `weight` tokens of the node's
 *   capacity until the session's next tool boundary; if the session's tool is still running, the session
 *   holds that capacity while it waits for the tool, and its request starts the moment the tool returns;
 *   the tool's result then joins its context and its hold (the weight is the context plus a reserve).
 * - `sticky` (ThunderAgent's): an admitted session keeps its node across its tools. It holds its tokens
 *   plus `stickyReserve` (recounted whenever its context grows, so a node can go over capacity) until the
 *   policy pauses it: `rebalance` after each tick names sessions to pause now (their tool is running) and
 *   sessions to mark, which pause at their next tool boundary. A paused session is in the pool again.
 */
import type { CompletedToolCall } from '../evaluate/readiness/predictor.js';
import type { CacheObservation, ToolCall } from '../evaluate/snapshot.js';

export { POLICY_NAMES, isPolicyName, type PolicyName } from './policies/index.js';
import type { PolicyName } from './policies/index.js';

/** Whether a session keeps its admission across tool calls (see the file comment). */
export type Lifecycle = 'interrupt' | 'sticky';

/** A session holding capacity on a node, as a sticky policy sees it. */
export interface AdmittedSession {
  readonly index: number;
  readonly id: string;
  readonly node: number;
  /** Context tokens (the tokens a ThunderAgent program counts). */
  readonly tokens: number;
  /** Capacity it holds. */
  readonly held: number;
  /** Its tool is running (ThunderAgent's ACTING); otherwise it has a request (REASONING). */
  readonly acting: boolean;
  /** Marked to pause at its next tool boundary. */
  readonly marked: boolean;
  /** The tool call it waits on while acting (absent otherwise). */
  readonly tool?: ToolCall;
}

/** What a sticky policy's periodic check decides after admitting. */
export interface Rebalance {
  /** Sessions whose tool is running, to pause now (in this order). */
  readonly pause: readonly number[];
  /** Sessions with a request, to pause at their next tool boundary. */
  readonly mark: readonly number[];
}

/** A node as policies see it. Capacity is what the policy's admissions are counted against (`Policy.admission`). */
export interface NodeView {
  readonly index: number;
  readonly id: string;
  readonly capacity: number;
  /** Sum of the weights of sessions admitted here. */
  readonly held: number;
  /** Requests in prefill or decode. */
  readonly running: number;
  /** Requests admitted here that wait for KV blocks. */
  readonly queued: number;
  /** KV tokens pinned by running requests (Dynamo's "active blocks", in tokens). */
  readonly activeTokens: number;
  /** Prompt tokens waiting to be prefilled. */
  readonly prefillBacklog: number;
}

/** A session in the waiting pool. */
export interface PooledSession {
  /** Dense index, stable for the session's life: what admissions refer to. */
  readonly index: number;
  /** `t<task index>`. */
  readonly id: string;
  /** Context tokens so far (t). A running tool's result is not in it until the tool returns. */
  readonly tokens: number;
  /** Model requests the task has completed; 0 for a new task. */
  readonly step: number;
  /** When the session entered the pool. */
  readonly pooledAt: number;
  /** Its context tokens when it entered the pool (`tokens` grows by a tool's result while it waits). */
  readonly pooledTokens: number;
  /** The tool call it waits on; undefined for a new task (its first request is already issued). */
  readonly tool: ToolCall | undefined;
  /** Its next model request is issued: the tool has returned, or the task is new. */
  readonly pending: boolean;
  /** When that request was issued; NaN while the tool runs. */
  readonly issuedAt: number;
  /** Last use of each node: the context tokens it left cached there and when (at most one per node). */
  readonly observations: readonly CacheObservation[];
}

/** What a policy sees when it is called. */
export interface SchedulerView {
  readonly time: number;
  readonly nodes: readonly NodeView[];
  /** Pooled sessions in the order they entered the pool. */
  readonly pool: readonly PooledSession[];
  /** Tokens of `session`'s current context cached on node `node` right now (a KV-event-fed router's view). */
  cachedTokens(session: number, node: number): number;
  /** Sessions holding capacity on a node (admitted and not yet released), by index. */
  readonly admitted: readonly AdmittedSession[];
}

/** Admit pooled session `session` onto node `node`, holding `weight` tokens of its capacity. */
export interface Admission {
  readonly session: number;
  readonly node: number;
  readonly weight: number;
}

/** A recorded solver input: one scheduling tick of a Problem-building policy. */
export interface ProblemTick {
  readonly tick: number;
  readonly time: number;
  readonly problem: import('../types.js').Problem;
}

/** Counters a policy keeps. */
export interface PolicyStats {
  /** Calls to the DP solver. */
  solverCalls: number;
  /** Plans the solver returned with status `fallback` (BFD instead of the DP). */
  solverFallbacks: number;
}

/**
 * What a policy's admissions are counted against on a node (`NodeView.capacity`): `reported`, the capacity
 * the engine reports (`NodeSpec.reportedCapacity`), which a scheduler in front of the engines reads
 * (ThunderAgent reads vLLM's `num_gpu_blocks x block_size`); `engine`, the engine's own KV blocks (a router
 * forwards requests and vLLM's scheduler waits for blocks).
 */
export type AdmissionCapacity = 'reported' | 'engine';

export interface Policy {
  readonly name: PolicyName;
  readonly lifecycle: Lifecycle;
  /** @default 'reported' */
  readonly admission?: AdmissionCapacity;
  /** Sticky lifecycle: tokens a session holds beyond its context tokens while admitted. */
  readonly stickyReserve?: number;
  /** Sticky lifecycle: called after each tick's admissions are applied. */
  rebalance?(view: SchedulerView): Rebalance;
  /** Seconds between scheduling ticks (the first tick is at time 0). */
  readonly period: number;
  /** Also called, with cause `event`, after every event that issues a request or frees capacity. */
  readonly reactive: boolean;
  /**
   * Chooses admissions, applied in the returned order. Each must fit the node's capacity at the moment it
   * is applied; the simulator throws if one does not (a policy bug, never silently skipped).
   */
  schedule(view: SchedulerView, cause: 'tick' | 'event'): readonly Admission[];
  /** A tool call returned. */
  toolReturned(call: CompletedToolCall): void;
  readonly stats: PolicyStats;
}
