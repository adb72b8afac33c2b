/**
 * Builds the raw Snapshot of the waiting pool that evaluation reads: residual capacities, and per pooled
 * session its tokens, its last-use cache observations (k0, t_obs) and its tool call. The observation is
 * what an engine reports when a request finishes (the prefix it leaves cached), not the live cache: how
 * much of it survives is exactly what the decayed credit has to guess.
 */
import type { Snapshot, SnapshotSession } from '../evaluate/snapshot.js';
import type { SchedulerView } from './policy.js';

export function buildSnapshot(view: SchedulerView): Snapshot {
  const sessions: SnapshotSession[] = new Array<SnapshotSession>(view.pool.length);
  for (let i = 0; i < view.pool.length; i++) {
    const s = view.pool[i]!;
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
    nodes: view.nodes.map((n) => ({ id: n.id, capacity: n.capacity - n.held })),
    sessions,
  };
}
