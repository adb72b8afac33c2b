/** A scheduler's view for the TAO policy tests: nodes of the given capacities, nothing held, and a pool. */
import type { CacheObservation, NodeView, PooledSession, SchedulerView, ToolCall } from './internals.js';

/** One pooled session of a test view. */
export interface PoolEntry {
  tokens: number;
  pending?: boolean;
  step?: number;
  tool?: ToolCall;
  observations?: CacheObservation[];
}

/** The view at `time` of nodes with `capacities` (nothing held or running) and the pool `pool`. */
export function poolView(capacities: number[], pool: PoolEntry[], time = 100): SchedulerView {
  const nodes: NodeView[] = capacities.map((capacity, i) => ({
    index: i,
    id: `n${i}`,
    capacity,
    held: 0,
    running: 0,
    queued: 0,
    activeTokens: 0,
    prefillBacklog: 0,
  }));
  const sessions: PooledSession[] = pool.map((s, i) => ({
    index: i,
    id: `t${i}`,
    tokens: s.tokens,
    step: s.step ?? 1,
    pooledAt: time - 5,
    pooledTokens: s.tokens,
    tool: s.tool,
    pending: s.pending ?? false,
    issuedAt: s.pending === true ? time - 1 : Number.NaN,
    observations: s.observations ?? [],
  }));
  return { time, nodes, pool: sessions, cachedTokens: () => 0, admitted: [] };
}
