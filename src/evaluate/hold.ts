/**
 * The hold rule: admitting a session whose tool still runs reserves its weight w on a node until the tool
 * returns, about `remaining` seconds. That withholds w * remaining capacity-seconds; what it buys is the
 * cached prefix k(b), which a session left in the pool may lose and then recomputes. With tau the
 * capacity-seconds one cached token is worth (node capacity / prefill throughput), the hold pays on node
 * b iff
 *
 *     w * remaining < tau * k(b)
 *
 * (derivation in docs/bounded-wait.md). Nodes where it does not pay are made ineligible for the session.
 * The rule applies to every session whose tool has not returned, predicted ready or not: a readiness
 * prediction is a probe schedule (`remaining` is 0 whenever a probe is due), not a promise that the tool
 * is back, and a wrong one holds the capacity for the whole tool. The inequality is strict, so that
 * tau = 0 never holds and a node without credit is never worth a hold.
 */
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import type { ReadinessSource } from './readiness/predictor.js';
import type { SnapshotNode, ToolCall } from './snapshot.js';

/** The predictor's expected remaining time of a running call, checked. */
export function remainingOf(predictor: ReadinessSource, tool: ToolCall, now: number, session: string): number {
  const d: unknown = predictor.remaining!(tool, now, session);
  if (typeof d !== 'number') throw new InvalidTypeError('predictor.remaining must return a number');
  if (!(d >= 0)) throw new InvalidValueError(`predictor.remaining must return a non-negative number (got ${d})`);
  return d;
}

/**
 * The nodes of `eligible` (absent: every node of `nodes`) on which holding `weight` for `remaining`
 * seconds pays at hold horizon `horizon` with credit `credit` (absent node: 0), in their order; and the
 * credit restricted to them (undefined when none is left).
 */
export function holdEligible(
  nodes: readonly SnapshotNode[],
  eligible: readonly string[] | undefined,
  credit: Record<string, number> | undefined,
  weight: number,
  remaining: number,
  horizon: number,
): { eligible: string[]; credit: Record<string, number> | undefined } {
  const cost = weight * remaining;
  const kept: string[] = [];
  let keptCredit: Record<string, number> | undefined;
  const count = eligible === undefined ? nodes.length : eligible.length;
  for (let e = 0; e < count; e++) {
    const id = eligible === undefined ? nodes[e]!.id : eligible[e]!;
    const k = credit?.[id] ?? 0;
    if (!(cost < horizon * k)) continue;
    kept.push(id);
    if (k > 0) {
      // Null prototype, as evaluate's credit maps: a node id such as "__proto__" stays an own key.
      keptCredit ??= Object.create(null) as Record<string, number>;
      keptCredit[id] = k;
    }
  }
  return { eligible: kept, credit: keptCredit };
}
