/**
 * What a scheduler knows at one instant, in raw form, before evaluation turns it into a solver Problem.
 * All times are seconds on the scheduler's clock.
 */

/** A prefix of the session seen cached on a node. */
export interface CacheObservation {
  /** Node id. */
  node: string;
  /** Prefix tokens of the session seen cached there (k0). */
  tokens: number;
  /** When it was seen (t_obs). */
  observedAt: number;
  /**
   * Prefix tokens of the session the engine reports still cached there now, after evictions (at most
   * `tokens`). Read only with the evaluation option `creditSource: 'live'`, which caps the decayed
   * credit by it; absent, the decayed credit stands.
   */
  live?: number;
}

/** The tool call a paused session is waiting on. */
export interface ToolCall {
  /** Structured tool name, the key of the duration history (e.g. "bash", "str_replace_editor"). */
  name: string;
  /** When the call started. */
  startedAt: number;
  /** When it returned, if it already has: readiness is then 1 whatever any prediction says. */
  returnedAt?: number;
  /** An end time the tool interface exposes (a monitor ETA, a bash timeout). */
  deadline?: number;
  /** The command line; a literal `sleep N` in it is evidence of the duration. */
  command?: string;
  /** Progress the tool interface reports, as a fraction in [0, 1] of the work done. */
  progress?: number;
  /**
   * When the tool interface last reported `deadline` or `progress`. It dates the evidence for the 30 s
   * freshness rule and, for `progress`, the elapsed time the fraction refers to. Absent: a `deadline` is
   * taken as known since `startedAt` (like a bash timeout) and a `progress` as read now.
   */
  reportedAt?: number;
}

/** A session waiting in the pool. */
export interface SnapshotSession {
  id: string;
  /** Accumulated context tokens (t). */
  tokens: number;
  /** Per-session reserve override in tokens; the evaluation's `reserve` option otherwise. */
  reserve?: number;
  /** Node ids it may go to; absent = all. */
  eligible?: readonly string[];
  /** Cache observations, at most one per node. */
  cache?: readonly CacheObservation[];
  /** The current tool call; absent for a new session, which is treated as ready. */
  tool?: ToolCall;
  /**
   * When the session last became runnable and was not admitted: its tool's return, or its arrival for a
   * new session (at most `time`; not before `tool.returnedAt`; absent while the tool runs). Read by the
   * bounded wait; absent, a returned tool's `returnedAt` is used and a new session is not timed.
   */
  waitingSince?: number;
  /**
   * Expected service time of the session's next turn in seconds (prefill and decode on a node), a
   * positive number: the bounded wait's `waitServiceMultiple` trigger compares the wait against it.
   */
  expectedService?: number;
}

/** A node with its residual admission capacity in tokens. */
export interface SnapshotNode {
  id: string;
  capacity: number;
}

/** One instant of scheduler state. */
export interface Snapshot {
  /** Now, on the scheduler's clock (seconds). */
  time: number;
  nodes: readonly SnapshotNode[];
  sessions: readonly SnapshotSession[];
}
