/**
 * The bounded wait, inside the value triple. A session is *starved* once its wait (now - `waitingSince`,
 * else now - `tool.returnedAt`) reaches `waitThreshold`, or `waitServiceMultiple` times its
 * `expectedService`. Starved sessions get a credit boost on every eligible node, in two tiers:
 *
 * - K = the sum, over the sessions that fit on some eligible node (weight <= capacity), of their best
 *   credit; B1 = K + 1. Every starved session that fits somewhere gets credit k(i,b) + B1.
 * - The *head*, the longest-waiting starved session (ties: smaller id) that fits alone at the solver's
 *   quantum on an eligible node, gets k(i,b) + S * B1 instead, S the number of starved sessions that fit
 *   somewhere.
 *
 * A plan with the head is worth at least S * B1 > (S - 1) * B1 + K, more than any plan without it; among
 * plans that agree on the head, one more starved session adds B1 > K, more than all credit besides. So the
 * lexicographic maximum admits the head, then as many starved sessions as fit, then maximizes the paper's
 * (credit, ready, tokens) with the starved sessions' own credits still steering their placement. Nothing
 * else changes: the solver stays the exact multiple-knapsack lexmax. Sessions that fit on no node are in
 * no plan, so they are left out of K and S, which keeps the boost small.
 *
 * With `waitReserve`, before the boost: the *oldest* starved session r (longest wait, ties smaller id, among
 * those with an eligible node) that fits alone on none of its eligible nodes gets a reservation: its
 * eligible node R of largest residual capacity (ties: the first in snapshot order) is made ineligible for
 * every other session, so nothing new is placed there and R's residual only grows as the sessions it holds
 * release, until r fits there and, as the head, is admitted.
 */
import { InvalidValueError } from '../errors.js';
import { MAX_U32 } from '../limits.js';
import type { ResolvedBoundedOptions } from './bounded-options.js';
import type { Snapshot, SnapshotSession } from './snapshot.js';
import type { ProblemSession } from '../types.js';

/** When `s` started waiting, if it is timed: `waitingSince`, else its tool's return. */
export function waitStart(s: SnapshotSession): number | undefined {
  return s.waitingSince ?? s.tool?.returnedAt;
}

/** Whether `s` is starved at `time` under `o` (see the file comment). */
export function isStarved(s: SnapshotSession, time: number, o: ResolvedBoundedOptions): boolean {
  const since = waitStart(s);
  if (since === undefined) return false;
  const wait = time - since;
  if (wait >= o.waitThreshold) return true;
  return s.expectedService !== undefined && wait >= o.waitServiceMultiple * s.expectedService;
}

/**
 * Adds the boost to `out` (the evaluated sessions of `snapshot`, in its order; their credit maps are
 * fresh and owned by the caller). Throws InvalidValueError naming the session and node when a boosted
 * credit is above 2^32 - 1: the solver's credits are u32 and a clamped boost would void the guarantee.
 */
export function boostStarved(snapshot: Snapshot, out: ProblemSession[], o: ResolvedBoundedOptions): void {
  const { nodes, sessions, time } = snapshot;
  const capacity = new Map<string, number>();
  for (const n of nodes) capacity.set(n.id, n.capacity);
  const q = o.waitQuantum;
  const allNodes = nodes.map((n) => n.id);
  if (o.waitReserve) reserveForOldest(snapshot, out, o, capacity, allNodes);

  let poolCredit = 0;
  const starved: number[] = [];
  let head = -1;
  for (let i = 0; i < out.length; i++) {
    const ps = out[i]!;
    const eligible = ps.eligible ?? allNodes;
    let fits = false;
    let fitsAlone = false;
    let best = 0;
    for (const id of eligible) {
      const c = capacity.get(id)!;
      if (ps.weight <= c) {
        fits = true;
        if (Math.ceil(ps.weight / q) <= Math.floor(c / q)) fitsAlone = true;
      }
      const k = ps.credit?.[id] ?? 0;
      if (k > best) best = k;
    }
    if (!fits) continue;
    poolCredit += best;
    const s = sessions[i]!;
    if (!isStarved(s, time, o)) continue;
    starved.push(i);
    if (fitsAlone && (head < 0 || older(s, sessions[head]!))) head = i;
  }
  if (starved.length === 0) return;

  const b1 = poolCredit + 1;
  for (const i of starved) {
    const boost = i === head ? starved.length * b1 : b1;
    const ps = out[i]!;
    const credit = Object.create(null) as Record<string, number>;
    for (const id of ps.eligible ?? allNodes) {
      const k = boost + (ps.credit?.[id] ?? 0);
      if (k > MAX_U32) {
        throw new InvalidValueError(
          `snapshot.sessions[${i}] is starved and its boosted credit on node "${id}" would be ${k}, above ` +
            `${MAX_U32} (${starved.length} starved sessions that fit, pool credit ${poolCredit})`,
        );
      }
      credit[id] = k;
    }
    ps.credit = credit;
  }
}

/**
 * The node reserved for the oldest starved session when it fits alone nowhere (see the file comment), or
 * undefined; the other sessions' `eligible` and `credit` in `out` are replaced by copies without it.
 */
export function reserveForOldest(
  snapshot: Snapshot,
  out: ProblemSession[],
  o: ResolvedBoundedOptions,
  capacity: ReadonlyMap<string, number>,
  allNodes: readonly string[],
): string | undefined {
  const { sessions, time } = snapshot;
  const q = o.waitQuantum;
  let oldest = -1;
  for (let i = 0; i < out.length; i++) {
    if ((out[i]!.eligible ?? allNodes).length === 0 || !isStarved(sessions[i]!, time, o)) continue;
    if (oldest < 0 || older(sessions[i]!, sessions[oldest]!)) oldest = i;
  }
  if (oldest < 0) return undefined;
  const r = out[oldest]!;
  let reserved: string | undefined;
  let room = -1;
  for (const id of r.eligible ?? allNodes) {
    const c = capacity.get(id)!;
    if (Math.ceil(r.weight / q) <= Math.floor(c / q)) return undefined;
    if (c > room) {
      room = c;
      reserved = id;
    }
  }
  for (let i = 0; i < out.length; i++) {
    const ps = out[i]!;
    if (i === oldest) continue;
    const eligible = ps.eligible ?? allNodes;
    if (!eligible.includes(reserved!)) continue;
    ps.eligible = eligible.filter((id) => id !== reserved);
    if (ps.credit !== undefined && ps.credit[reserved!] !== undefined) {
      const credit = Object.create(null) as Record<string, number>;
      for (const id of ps.eligible) if (ps.credit[id] !== undefined) credit[id] = ps.credit[id];
      if (Object.keys(credit).length > 0) ps.credit = credit;
      else delete ps.credit;
    }
  }
  return reserved;
}

/** Longer wait first; equal waits by smaller id (stable across snapshots, unlike positions). */
function older(a: SnapshotSession, b: SnapshotSession): boolean {
  const wa = waitStart(a)!;
  const wb = waitStart(b)!;
  return wa < wb || (wa === wb && a.id < b.id);
}
