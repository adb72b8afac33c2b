/**
 * What one run measures, and the accumulator the simulator feeds. Every number is simulated time or a
 * count; nothing here reads a wall clock, so a run's result is a pure function of its inputs.
 */
import { mean, quantileSorted } from '../stats.js';

/** Idle-time bins (seconds) of the cache retention measurement; the last bin is open. */
export const RETENTION_BINS: readonly number[] = [0, 2, 5, 10, 15, 30, 60, 120];

export interface RetentionBin {
  /** Lower edge of the idle time, seconds. */
  from: number;
  /** Upper edge; null for the open last bin. */
  to: number | null;
  /** Requests measured in the bin. */
  count: number;
  /** Median fraction of the prefix still cached on the session's last node. NaN for an empty bin. */
  median: number;
  mean: number;
}

/** Metrics of one run (one setting, policy and seed). */
export interface RunMetrics {
  /** Tasks that finished. */
  tasksCompleted: number;
  /** Model requests that finished. */
  requests: number;
  /** Task latency (task start to last output token) in seconds. */
  latencyMean: number;
  latencyP50: number;
  latencyP95: number;
  /**
   * Time to first token: from the request's issue (task start or tool return) to its first token. It is
   * the sum of the three parts below, each averaged over requests.
   */
  ttftMean: number;
  ttftP50: number;
  ttftP95: number;
  ttftP99: number;
  ttftMax: number;
  /** Mean wait of an issued request for admission by the scheduler (0 when admitted before its tool returned). */
  schedulerWaitMean: number;
  /** Mean wait of an admitted request in its engine's queue (for KV blocks) until its prefill starts. */
  engineQueueMean: number;
  /** Mean time from the start of a request's prefill to its first token (prefill, queued behind others). */
  prefillMean: number;
  /** Mean TTFT of the requests issued by a tool's return (not a task's first request): the paper's Table 4. */
  toolReturnToFirstTokenMean: number;
  /**
   * Mean pause of a session at a tool boundary, over the requests a tool's return issued: from the end of
   * the request before the tool (the interrupt) to the resume, the later of the tool's return and the
   * admission; the tool's own time included (the paper's Table 4 "pause wait", ~1 s).
   */
  pauseWaitMean: number;
  /** Output tokens per second over the run (makespan, or the duration). */
  decodeThroughput: number;
  /**
   * Output tokens per second in the steady window: from the time the first `STEADY_SKIP` of the tasks
   * finished to the time all but the last `STEADY_SKIP` had (warm-up and drain cut off); NaN when the run
   * has fewer than 10 completions. Tokens are counted when their request finishes.
   */
  decodeThroughputSteady: number;
  /** Requests preempted (recompute) by their engine for lack of KV blocks. */
  preemptions: number;
  /** Prompt tokens served from cache / prompt tokens. */
  cacheHitRate: number;
  /** Time of the last task completion (fixed task count), null for a run cut at a duration. */
  makespan: number | null;
  /** Requests whose session was admitted before its tool returned. */
  earlyAdmissions: number;
  /** Seconds sessions held capacity while their tool was still running (the price of early admission). */
  idleHoldSeconds: number;
  /** Time-average of held / capacity over nodes. */
  utilization: number;
  /** Time-average of requests in prefill or decode, over all nodes. */
  runningMean: number;
  /** Share of session time spent in tool calls (paper: 93.1% in its traces). */
  toolShare: number;
  /** What explains a run's regime (see `RunDiagnostics`). */
  diagnostics: RunDiagnostics;
  solverCalls: number;
  solverFallbacks: number;
  /** Token ledger. */
  tokens: {
    /** Prompt tokens over all requests. */
    prompt: number;
    /** Of which served from cache. */
    hit: number;
    /** Of which prefilled. */
    computed: number;
    /** Output tokens emitted. */
    decoded: number;
    /** KV blocks evicted from node caches. */
    evictedBlocks: number;
    /** Prompt and output tokens prefilled again after preemptions (cache hits on restart excluded). */
    recomputed: number;
  };
  /** Measured prefix retention by idle time (the shape of paper figure 3, from the LRU, not a curve). */
  retention: RetentionBin[];
}

/** Share of tasks cut off at each end for the steady window of `decodeThroughputSteady`. */
export const STEADY_SKIP = 0.1;

/** Quantities that say which regime a run is in. */
export interface RunDiagnostics {
  /** Share of session time in tool calls (the same as `toolShare`). */
  toolShare: number;
  /** Tasks completed per second of the steady window (the flow). */
  completionsPerSecond: number;
  /** Mean capacity released per scheduling tick, tokens (sessions ending a request or pausing). */
  freedPerTickTokens: number;
  /** Share of ticks with a non-empty pool where every pooled session's weight fit some node's residual. */
  allFitTickShare: number;
  /** Share of held capacity-time held by sessions whose tool was running (sticky holds, early admissions). */
  heldByToolCapacityShare: number;
}

/** Growable list of numbers in a Float64Array. */
class Samples {
  private data = new Float64Array(256);
  length = 0;
  push(x: number): void {
    if (this.length === this.data.length) {
      const d = new Float64Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.length++] = x;
  }
  sorted(): Float64Array {
    return this.data.slice(0, this.length).sort();
  }
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

export class MetricsAccumulator {
  readonly latency = new Samples();
  readonly ttft = new Samples();
  schedulerWaitSum = 0;
  engineQueueSum = 0;
  prefillSum = 0;
  toolReturnTtftSum = 0;
  toolReturnRequests = 0;
  pauseWaitSum = 0;
  preemptions = 0;
  recomputedTokens = 0;
  /** Completion time and cumulative decoded tokens at each task completion, for the steady window. */
  readonly completionTimes = new Samples();
  readonly decodedAtCompletion = new Samples();
  freedTokens = 0;
  ticks = 0;
  poolTicks = 0;
  allFitTicks = 0;
  heldByToolSeconds = 0;
  heldSeconds = 0;
  requests = 0;
  tasksCompleted = 0;
  promptTokens = 0;
  hitTokens = 0;
  decoded = 0;
  earlyAdmissions = 0;
  idleHoldSeconds = 0;
  toolSeconds = 0;
  sessionSeconds = 0;
  runningIntegral = 0;
  lastCompletion = 0;
  private readonly retention: Samples[] = RETENTION_BINS.map(() => new Samples());

  /** A request that was waiting `idle` seconds since its session last used a node found `fraction` there. */
  retained(idle: number, fraction: number): void {
    let bin = 0;
    while (bin + 1 < RETENTION_BINS.length && idle >= RETENTION_BINS[bin + 1]!) bin++;
    this.retention[bin]!.push(fraction);
  }

  retentionBins(): RetentionBin[] {
    return RETENTION_BINS.map((from, i) => {
      const s = this.retention[i]!;
      const sorted = s.sorted();
      return {
        from,
        to: RETENTION_BINS[i + 1] ?? null,
        count: s.length,
        median: quantileSorted(sorted, 0.5),
        mean: mean(sorted),
      };
    });
  }

  /** Output tokens per second between the completions at shares STEADY_SKIP and 1 - STEADY_SKIP. */
  steadyDecode(): { rate: number; completions: number } {
    const n = this.completionTimes.length;
    if (n < 10) return { rate: Number.NaN, completions: Number.NaN };
    const t = this.completionTimes.view();
    const d = this.decodedAtCompletion.view();
    const a = Math.floor(n * STEADY_SKIP);
    const b = n - 1 - a;
    const dt = t[b]! - t[a]!;
    if (!(dt > 0)) return { rate: Number.NaN, completions: Number.NaN };
    return { rate: (d[b]! - d[a]!) / dt, completions: (b - a) / dt };
  }

  latencySorted(): Float64Array {
    return this.latency.sorted();
  }

  ttftSorted(): Float64Array {
    return this.ttft.sorted();
  }
}
