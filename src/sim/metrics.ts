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
  /** Time to first token: from the request's issue (task start or tool return) to its first token. */
  ttftMean: number;
  ttftP50: number;
  ttftP95: number;
  /** Mean wait of an issued request for admission (0 when admitted before its tool returned). */
  pauseWaitMean: number;
  /** Mean wait of an admitted request for KV blocks on its node. */
  engineWaitMean: number;
  /** Output tokens per second over the run (makespan, or the duration). */
  decodeThroughput: number;
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
  };
  /** Measured prefix retention by idle time (the shape of paper figure 3, from the LRU, not a curve). */
  retention: RetentionBin[];
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
  pauseWaitSum = 0;
  engineWaitSum = 0;
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

  latencySorted(): Float64Array {
    return this.latency.sorted();
  }

  ttftSorted(): Float64Array {
    return this.ttft.sorted();
  }
}
