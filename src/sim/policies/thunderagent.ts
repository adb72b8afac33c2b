/**
 * `thunderagent`: ThunderAgent's scheduler (public repository ThunderAgent-org/ThunderAgent,
 * ThunderAgent/scheduler/router.py) under its own, sticky lifecycle. Every `period` = 5 s
 * (`scheduler_interval`), `_scheduled_check`:
 * 1. `_greedy_resume`: nodes with more than `buffer` tokens of remaining capacity are candidates; their
 *    room is summed. Paused sessions (the pool) are ordered in three tiers (`thunderAgentTier`), each by
 *    the tokens it had when paused, ascending: sessions whose request past the first is issued (tool
 *    returned), then sessions that have sent one request (new ones, and ones paused in their first tool),
 *    then sessions whose tool still runs. A session is selected if the running total of selected costs
 *    (tokens + `buffer`) stays within the summed room; one that does not fit is skipped, not a stop.
 *    Selected sessions, by tokens descending, each go to the node with the MOST remaining room; one that
 *    does not fit there is skipped; a node whose room falls to `buffer` or below leaves the list; the pass
 *    stops when even the smallest selected session fits nowhere.
 * 2. `_pause_until_safe` on every node whose remaining capacity is negative (see sticky.ts): pause acting
 *    programs smallest first, then mark reasoning ones to pause at their next tool boundary.
 * Remaining capacity counts every program on the node, acting ones at full weight (`acting_token_weight`
 * 1.0), plus `buffer` = 100 per program (BUFFER_PER_PROGRAM).
 * Between ticks, a new session is admitted at once onto the node with the fewest program tokens among
 * those with room for it, but only while nothing waits in the pool (`_select_backend_for_new_program`);
 * otherwise it waits for the next resume pass.
 * Not modelled: the 30-minute forced resume of a program that waited that long (`_wait_for_resume`), and
 * the optional decayed acting weight (`use_acting_token_decay`, off by default).
 */
import type { CompletedToolCall } from '../../evaluate/readiness/predictor.js';
import type { Admission, Policy, PolicyStats, PooledSession, SchedulerView } from '../policy.js';
import { pauseUntilSafe } from './sticky.js';

export interface ThunderAgentParams {
  /** Seconds between scheduler passes (`scheduler_interval`). @default 5 */
  readonly period: number;
  /** Tokens added to a program's tokens as its cost (BUFFER_PER_PROGRAM). @default 100 */
  readonly buffer: number;
}

export const defaultThunderAgentParams: Readonly<ThunderAgentParams> = Object.freeze({ period: 5, buffer: 100 });

/**
 * ThunderAgent's resume tier of a pooled session (`_greedy_resume`): 0 for a program whose request is
 * issued (REASONING) past its first, 1 for one whose `step_count` is 1, 2 for one whose tool still runs
 * (ACTING). `step_count` counts the requests a program has sent, the one in progress included, and the
 * code tests it first: a new program, and one paused while its first tool runs, are both tier 1.
 */
export function thunderAgentTier(s: PooledSession): 0 | 1 | 2 {
  const sent = s.step + (s.pending ? 1 : 0);
  if (sent === 1) return 1;
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
    // Each tier by the tokens a program had when it was paused (`PausedInfo.total_tokens`).
    ordered.sort(
      (a, b) => thunderAgentTier(a.s) - thunderAgentTier(b.s) || a.s.pooledTokens - b.s.pooledTokens || a.i - b.i,
    );
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
    const programTokens = view.nodes.map(() => 0);
    for (const a of view.admitted) programTokens[a.node] = programTokens[a.node]! + a.tokens;
    for (const s of view.pool) {
      // The waiting queue is not empty (a paused session, or a new one that found no room earlier):
      // new sessions wait for the next resume pass.
      if (s.step !== 0 || s.pooledAt !== view.time) return out;
      const cost = s.tokens + buffer;
      let best = -1;
      for (const n of view.nodes) {
        if (n.capacity - held[n.index]! < cost) continue;
        if (best < 0 || programTokens[n.index]! < programTokens[best]!) best = n.index;
      }
      if (best < 0) return out;
      held[best] = held[best]! + cost;
      programTokens[best] = programTokens[best]! + s.tokens;
      out.push({ session: s.index, node: best, weight: cost });
    }
    return out;
  }

  return {
    name: 'thunderagent',
    lifecycle: 'sticky',
    stickyReserve: buffer,
    period: params.period,
    reactive: true,
    stats,
    schedule(view: SchedulerView, cause: 'tick' | 'event'): readonly Admission[] {
      return cause === 'tick' ? resume(view) : fastPath(view);
    },
    rebalance(view: SchedulerView) {
      return pauseUntilSafe(view, buffer);
    },
    toolReturned(_call: CompletedToolCall): void {},
  } satisfies Policy;
}
