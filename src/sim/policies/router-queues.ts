/**
 * What the engine-side baselines (round-robin, cache-aware, Dynamo) share: a router that sends each
 * issued request to a node as soon as it is issued, and per-node first-come-first-served queues in front
 * of each engine, as a vLLM engine's waiting queue. A routed request waits for *its* node even when
 * another has room (that is what routing means), and a node admits from the head only: if the head does
 * not fit, the requests behind it wait too (vLLM's FCFS scheduler).
 *
 * They have no notion of tools, so they route a session only once its request is issued (tool returned),
 * and they add no reserve: the admission weight is the prompt's tokens, as an engine allocates a prompt's
 * blocks (output blocks come from the cache's free and evictable space, see node.ts).
 */
import type { CompletedToolCall } from '../../evaluate/readiness/predictor.js';
import type { Admission, NodeView, Policy, PolicyStats, PooledSession, SchedulerView } from '../policy.js';

export class RoutedQueues {
  private readonly queues: number[][];
  /** Node each routed, not yet admitted session waits for. */
  private readonly routedTo = new Map<number, number>();
  /** Prompt tokens waiting in each node's queue. */
  readonly queuedTokens: Float64Array;

  constructor(nodeCount: number) {
    this.queues = Array.from({ length: nodeCount }, () => []);
    this.queuedTokens = new Float64Array(nodeCount);
  }

  /** Requests waiting in node `b`'s router queue. */
  queueLength(b: number): number {
    return this.queues[b]!.length;
  }

  /**
   * Routes every issued, not yet routed session (in issue order) with `choose`, then admits queue heads
   * that fit. `choose` sees the queues as they grow within the call.
   */
  schedule(view: SchedulerView, choose: (s: PooledSession, view: SchedulerView) => number): Admission[] {
    const fresh: PooledSession[] = [];
    for (const s of view.pool) if (s.pending && !this.routedTo.has(s.index)) fresh.push(s);
    // Issue order; ties (same instant) by index so the order never depends on a sort's stability.
    fresh.sort((a, b) => a.issuedAt - b.issuedAt || a.index - b.index);
    const tokensOf = new Map<number, number>();
    for (const s of view.pool) tokensOf.set(s.index, s.tokens);
    for (const s of fresh) {
      const b = choose(s, view);
      this.routedTo.set(s.index, b);
      this.queues[b]!.push(s.index);
      this.queuedTokens[b] = this.queuedTokens[b]! + s.tokens;
    }
    const out: Admission[] = [];
    view.nodes.forEach((node: NodeView, b: number) => {
      const q = this.queues[b]!;
      let residual = node.capacity - node.held;
      let taken = 0;
      while (taken < q.length) {
        const idx = q[taken]!;
        const tokens = tokensOf.get(idx)!;
        if (tokens > residual) break;
        residual -= tokens;
        out.push({ session: idx, node: b, weight: tokens });
        this.routedTo.delete(idx);
        this.queuedTokens[b] = this.queuedTokens[b]! - tokens;
        taken++;
      }
      if (taken > 0) q.splice(0, taken);
    });
    return out;
  }

  /** Least loaded node: fewest requests running, waiting for blocks or queued here; lowest index on ties. */
  leastLoaded(view: SchedulerView): number {
    let best = 0;
    let bestLoad = Number.POSITIVE_INFINITY;
    view.nodes.forEach((n, b) => {
      const load = this.load(n, b);
      if (load < bestLoad) {
        bestLoad = load;
        best = b;
      }
    });
    return best;
  }

  load(n: NodeView, b: number): number {
    return n.running + n.queued + this.queues[b]!.length;
  }
}

/** A router baseline as a Policy: every tick routes the issued sessions with `choose` over `queues`. */
export function routerPolicy(
  name: 'round-robin' | 'cache-aware' | 'dynamo',
  queues: RoutedQueues,
  choose: (s: PooledSession, view: SchedulerView) => number,
): Policy {
  const stats: PolicyStats = { solverCalls: 0, solverFallbacks: 0 };
  return {
    name,
    lifecycle: 'interrupt',
    // vLLM's own scheduler admits a forwarded request when its blocks are free.
    admission: 'engine',
    period: 1,
    reactive: true,
    stats,
    schedule(view: SchedulerView): readonly Admission[] {
      return queues.schedule(view, choose);
    },
    toolReturned(_call: CompletedToolCall): void {},
  } satisfies Policy;
}
