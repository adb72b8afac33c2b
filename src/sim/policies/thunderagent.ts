/**
 * `thunderagent`: ThunderAgent's resume step (`_greedy_resume` in its router) every `period` = 5 s, with
 * its fast path for new programs, under the common lifecycle.
 *
 * Every tick:
 * 1. Nodes with more than `buffer` tokens of room are candidates; their room is summed.
 * 2. Pooled sessions are ordered in three tiers, each by tokens ascending: sessions whose request is
 *    issued (tool returned, step > 0), then new sessions, then sessions whose tool still runs.
 * 3. Selection: walking that order, a session is selected if the running total of selected costs
 *    (tokens + `buffer`) stays within the summed room; one that does not fit is skipped, not a stop.
 * 4. Placement: selected sessions by tokens descending, each onto the node with the most room left; one
 *    that does not fit there is skipped; a node whose room falls to `buffer` or below leaves the list; the
 *    loop stops when even the smallest selected session fits nowhere.
 * Between ticks, a new session is admitted at once onto the node with the least held tokens that fits it,
 * but only while nothing else waits in the pool (ThunderAgent's `_select_backend_for_new_program`).
 *
 * Unlike ThunderAgent itself, sessions are interrupted at every tool boundary here (the common
 * lifecycle); ThunderAgent keeps a session's admission across tools until a node overflows.
 */
import type { CompletedToolCall } from '../../evaluate/readiness/predictor.js';
import type { Admission, Policy, PolicyStats, PooledSession, SchedulerView } from '../policy.js';

export interface ThunderAgentParams {
  /** Seconds between resume passes. @default 5 */
  readonly period: number;
  /** Tokens added to a session's tokens as its cost (ThunderAgent's BUFFER_PER_PROGRAM). @default 100 */
  readonly buffer: number;
}

export const defaultThunderAgentParams: Readonly<ThunderAgentParams> = Object.freeze({ period: 5, buffer: 100 });

function tier(s: PooledSession): number {
  if (s.step === 0) return 1;
  return s.pending ? 0 : 2;
}

export function createThunderAgent(params: ThunderAgentParams = defaultThunderAgentParams): Policy {
  const stats: PolicyStats = { solverCalls: 0, solverFallbacks: 0 };
  const buffer = params.buffer;

  function resume(view: SchedulerView): Admission[] {
    const caps: { node: number; room: number }[] = [];
    let total = 0;
    for (const n of view.nodes) {
      const room = n.capacity - n.held;
      if (room > buffer) {
        caps.push({ node: n.index, room });
        total += room;
      }
    }
    if (caps.length === 0) return [];
    const ordered = view.pool.map((s, i) => ({ s, i }));
    ordered.sort((a, b) => tier(a.s) - tier(b.s) || a.s.tokens - b.s.tokens || a.i - b.i);
    const selected: PooledSession[] = [];
    let cumulative = 0;
    for (const { s } of ordered) {
      const cost = s.tokens + buffer;
      if (cumulative + cost <= total) {
        selected.push(s);
        cumulative += cost;
      }
    }
    if (selected.length === 0) return [];
    // Descending tokens; equal tokens keep selection order (Python's sort is stable).
    const order = selected.map((s, i) => ({ s, i }));
    order.sort((a, b) => b.s.tokens - a.s.tokens || a.i - b.i);
    const byRoom = (a: { node: number; room: number }, b: { node: number; room: number }): number =>
      b.room - a.room || a.node - b.node;
    caps.sort(byRoom);
    const minCost = order[order.length - 1]!.s.tokens + buffer;
    const out: Admission[] = [];
    for (const { s } of order) {
      if (caps.length === 0) break;
      const cost = s.tokens + buffer;
      const top = caps[0]!;
      if (minCost > top.room) break;
      if (cost > top.room) continue;
      out.push({ session: s.index, node: top.node, weight: cost });
      top.room -= cost;
      if (top.room > buffer) caps.sort(byRoom);
      else caps.shift();
    }
    return out;
  }

  function fastPath(view: SchedulerView): Admission[] {
    const out: Admission[] = [];
    const held = view.nodes.map((n) => n.held);
    for (const s of view.pool) {
      // Anything other than a new session waiting means the queue is not empty: new sessions wait too.
      if (s.step !== 0) return out;
      const cost = s.tokens + buffer;
      let best = -1;
      for (const n of view.nodes) {
        if (n.capacity - held[n.index]! < cost) continue;
        if (best < 0 || held[n.index]! < held[best]!) best = n.index;
      }
      if (best < 0) return out;
      held[best]! += cost;
      out.push({ session: s.index, node: best, weight: cost });
    }
    return out;
  }

  return {
    name: 'thunderagent',
    period: params.period,
    reactive: true,
    stats,
    schedule(view: SchedulerView, cause: 'tick' | 'event'): readonly Admission[] {
      return cause === 'tick' ? resume(view) : fastPath(view);
    },
    toolReturned(_call: CompletedToolCall): void {},
  } satisfies Policy;
}
