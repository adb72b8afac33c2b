/**
 * The pause step of the sticky lifecycle, as ThunderAgent's scheduler runs it after every resume pass
 * (`_scheduled_check` -> `_pause_until_safe` in ThunderAgent/scheduler/router.py): on every node whose
 * remaining capacity is negative, while it is,
 * 1. pause the acting program (tool running) with the fewest tokens, which frees its tokens + reserve;
 * 2. else mark the reasoning program (request in flight, not yet marked) with the fewest tokens, to pause
 *    at its next tool boundary.
 * Remaining capacity is `capacity - sum(tokens + reserve)` over the node's programs (`remaining_capacity`
 * in ThunderAgent/backend/state.py, with the acting-token coefficient 1.0 and shared tokens 0: the code
 * never refreshes them). Marking does not change it (the marked tokens only go to `future_paused_tokens`,
 * which `remaining_capacity` does not read), so once no acting program is left every reasoning program
 * on the node is marked, exactly as the loop there does. Ties on tokens: session index (program creation
 * order, the order Python's stable sort keeps).
 */
import type { AdmittedSession, Rebalance, SchedulerView } from '../policy.js';

export function pauseUntilSafe(view: SchedulerView, reserve: number): Rebalance {
  const pause: number[] = [];
  const mark: number[] = [];
  const byNode = new Map<number, AdmittedSession[]>();
  for (const a of view.admitted) {
    const list = byNode.get(a.node) ?? [];
    list.push(a);
    byNode.set(a.node, list);
  }
  const ascending = (x: AdmittedSession, y: AdmittedSession): number => x.tokens - y.tokens || x.index - y.index;
  for (const node of view.nodes) {
    const programs = byNode.get(node.index) ?? [];
    let remaining = node.capacity;
    for (const p of programs) remaining -= p.tokens + reserve;
    if (remaining >= 0) continue;
    const acting = programs.filter((p) => p.acting).sort(ascending);
    for (const p of acting) {
      if (remaining >= 0) break;
      pause.push(p.index);
      remaining += p.tokens + reserve;
    }
    if (remaining >= 0) continue;
    for (const p of programs.filter((q) => !q.acting && !q.marked).sort(ascending)) mark.push(p.index);
  }
  return { pause, mark };
}
