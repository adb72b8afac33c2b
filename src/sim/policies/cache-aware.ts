/**
 * `cache-aware`: vLLM behind a cache-aware router (the SGLang / vLLM router policy). The router keeps its
 * own record of the prompts it sent to each node (it sees requests, not the engines' caches, so it does
 * not know about evictions). An issued request goes to the node whose record has the longest prefix
 * match if that match covers more than `threshold` of the prompt; otherwise, and whenever the load is
 * skewed, to the least loaded node.
 */
import type { Policy, PooledSession, SchedulerView } from '../policy.js';
import { RoutedQueues, routerPolicy } from './router-queues.js';

/** The router's knobs; defaults are those of the current vLLM router and SGLang's cache-aware policy. */
export interface CacheAwareParams {
  /** Least prefix-match share of the prompt for cache routing (`cache_threshold`). @default 0.3 */
  readonly threshold: number;
  /** Load skew: max - min load above this (requests) ... (`balance_abs_threshold`) @default 64 */
  readonly balanceAbs: number;
  /** ... and max load above this times min load routes to the least loaded node (`balance_rel_threshold`). @default 1.5 */
  readonly balanceRel: number;
}

export const defaultCacheAwareParams: Readonly<CacheAwareParams> = Object.freeze({
  threshold: 0.3,
  balanceAbs: 64,
  balanceRel: 1.5,
});

export function createCacheAware(nodeCount: number, params: CacheAwareParams = defaultCacheAwareParams): Policy {
  const queues = new RoutedQueues(nodeCount);
  // The router's record: per node, session index -> tokens of the last prompt it routed there.
  const seen: Map<number, number>[] = Array.from({ length: nodeCount }, () => new Map());

  function choose(s: PooledSession, view: SchedulerView): number {
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    view.nodes.forEach((n, b) => {
      const load = queues.load(n, b);
      if (load < min) min = load;
      if (load > max) max = load;
    });
    let target: number;
    if (max - min > params.balanceAbs && max > params.balanceRel * min) {
      target = queues.leastLoaded(view);
    } else {
      let best = -1;
      let bestMatch = 0;
      for (let b = 0; b < nodeCount; b++) {
        const match = Math.min(seen[b]!.get(s.index) ?? 0, s.tokens);
        if (match > bestMatch) {
          bestMatch = match;
          best = b;
        }
      }
      target = best >= 0 && bestMatch / s.tokens > params.threshold ? best : queues.leastLoaded(view);
    }
    seen[target]!.set(s.index, s.tokens);
    return target;
  }

  return routerPolicy('cache-aware', queues, choose);
}
