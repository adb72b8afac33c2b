/**
 * Builds the raw Snapshot of the waiting pool that evaluation reads: residual capacities, and per pooled
 * session its tokens, its last-use cache observations (k0, t_obs) and its tool call. The observation is
 * what an engine reports when a request finishes (the prefix it leaves cached), not the live cache: how
 * much of it survives is exactly what the decayed credit has to guess. With `creditSource: 'live'` it is
 * the prefix cached on each node at the snapshot's time instead (what a KV-event feed reports).
 * Nothing in a snapshot is from the future: a running tool appears with its start, name, command and the
 * deadline its interface exposes, never with its return time.
 */
import type { CacheObservation, Snapshot, SnapshotSession } from '../evaluate/snapshot.js';
import type { SchedulerView } from './policy.js';

export function buildSnapshot(view: SchedulerView, creditSource: 'observed' | 'live' = 'observed'): Snapshot {
  const sessions: SnapshotSession[] = new Array<SnapshotSession>(view.pool.length);
  for (let i = 0; i < view.pool.length; i++) {
    const pooled = view.pool[i]!;
    const s = creditSource === 'live' ? { ...pooled, observations: liveObservations(view, pooled.index) } : pooled;
    const tool = s.tool;
    sessions[i] =
      s.observations.length > 0
        ? tool === undefined
          ? { id: s.id, tokens: s.tokens, cache: s.observations }
          : { id: s.id, tokens: s.tokens, cache: s.observations, tool }
        : tool === undefined
          ? { id: s.id, tokens: s.tokens }
          : { id: s.id, tokens: s.tokens, tool };
  }
  return {
    time: view.time,
    // A hold follows its session's context, so a node can hold more than its capacity: no room, not negative.
    nodes: view.nodes.map((n) => ({ id: n.id, capacity: Math.max(0, n.capacity - n.held) })),
    sessions,
  };
}

/** The prefix of `session`'s context cached on each node now, observed now (an eviction-aware credit). */
function liveObservations(view: SchedulerView, session: number): CacheObservation[] {
  const out: CacheObservation[] = [];
  for (const n of view.nodes) {
    const tokens = view.cachedTokens(session, n.index);
    if (tokens > 0) out.push({ node: n.id, tokens, observedAt: view.time });
  }
  return out;
}
