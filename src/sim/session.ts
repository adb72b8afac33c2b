/**
 * The simulator's per-task state: one agent session from its task's start to its last request, with the
 * request it currently has in an engine (a session has at most one at a time).
 */
import type { CacheObservation, ToolCall } from '../evaluate/snapshot.js';
import type { CacheEntry } from './cache.js';
import type { PooledSession } from './policy.js';
import type { TaskSpec } from './workload.js';

export type SessionState =
  /** In the waiting pool. */
  | 'pool'
  /** Admitted, waiting for its tool to return. */
  | 'admitted'
  /** Admitted with its request issued, waiting for KV blocks on the node. */
  | 'queued'
  | 'prefill'
  | 'decode'
  /** Task finished. */
  | 'done';

export class Session implements PooledSession {
  readonly id: string;
  readonly index: number;
  /** Index of the next (or current) model request. */
  turn = 0;
  tokens: number;
  /** Incremented by a compaction: cache entries of older epochs can never match again. */
  epoch = 0;
  state: SessionState = 'pool';
  /** Node it is admitted on, -1 in the pool. */
  node = -1;
  /** Capacity it holds on `node`. */
  held = 0;
  /** Interrupt lifecycle: tokens its hold grew by since its admission (its tool's result, when seated early). */
  grown = 0;
  /** Sticky lifecycle: marked to pause at its next tool boundary. */
  marked = false;
  pending = true;
  issuedAt: number;
  pooledAt: number;
  pooledTokens: number;
  admittedAt = Number.NaN;
  tool: ToolCall | undefined = undefined;
  toolReturnsAt = Number.NaN;
  /** Last use per node, at most one entry per node (see `observe`). */
  observations: CacheObservation[] = [];
  /** Node of the session's last request in the current epoch, -1 if none. */
  lastNode = -1;
  /** The cache entry of the current epoch on each node, if any. */
  readonly entries: (CacheEntry | null)[];
  readonly startedAt: number;

  // The current request. After a preemption `prompt` includes the tokens generated so far (recomputed on
  // restart) and `output` the tokens still to come; `requestOutput` keeps the request's whole output.
  prompt = 0;
  output = 0;
  requestOutput = 0;
  /** The request was preempted and waits to be recomputed. */
  preempted = false;
  /** Bumped by every preemption of a decode: older entries of the node's decode heap are stale. */
  decodeGen = 0;
  /** When the request's (last) prefill started. */
  prefillStartedAt = Number.NaN;
  /** Prompt tokens served from the node's cache. */
  hit = 0;
  /** KV blocks pinned by the request (prompt + output). */
  blocks = 0;
  /** Cumulative prefill-token count of the node at which this prompt is done. */
  prefillTarget = 0;
  /** Node step count at which the last output token is out. */
  decodeTarget = 0;
  decodeStartStep = 0;
  firstTokenAt = Number.NaN;

  constructor(
    readonly task: TaskSpec,
    nodeCount: number,
    now: number,
  ) {
    this.index = task.index;
    this.id = `t${task.index}`;
    this.tokens = task.initialTokens;
    this.issuedAt = now;
    this.pooledAt = now;
    this.pooledTokens = this.tokens;
    this.startedAt = now;
    this.entries = new Array<CacheEntry | null>(nodeCount).fill(null);
  }

  get step(): number {
    return this.turn;
  }

  /** Records that the session left `tokens` of context cached on `node` at `time`. */
  observe(node: string, tokens: number, time: number): void {
    const obs: CacheObservation = { node, tokens, observedAt: time };
    const i = this.observations.findIndex((o) => o.node === node);
    if (i >= 0) this.observations[i] = obs;
    else this.observations.push(obs);
  }

  /** Forgets every observation (a compaction replaced the context: no old prefix matches). */
  forgetObservations(): void {
    this.observations = [];
  }
}
