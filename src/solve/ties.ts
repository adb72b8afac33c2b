/**
 * A value-preserving tie-break toward spreading. Among plans of equal value the DP's choice is
 * arbitrary, and with equal credits everywhere it tends to stack sessions on one node, which a real
 * cluster pays for in batch imbalance. This pass moves an admitted session from node a to a node b
 * where its credit is the same and it is a candidate (so its triple, and the plan's value, do not
 * change) when b would still have more quantized capacity left than a has now:
 *
 *     residual_b - w > residual_a
 *
 * The move keeps the plan feasible at the quantum (b has room for w) and strictly lowers
 * sum(residual^2) (by 2w(residual_b - residual_a - w) > 0), so the pass is deterministic and ends.
 * Sessions are visited by quantized weight descending (ties: kept index); each goes to the qualifying
 * node with the most room (ties: lower original node index). At most MAX_SPREAD_PASSES passes: the plan
 * is valid after every move, so stopping early only leaves it less spread.
 */
import { weightOrder } from './orders.js';
import { nodesKept, sessionsKept, type PackedProblem } from './pack.js';

/** Upper bound on the passes over the sessions (measured: one or two suffice on the recorded corpora). */
export const MAX_SPREAD_PASSES = 8;

/** Spreads `node` (kept node per kept session, -1 = not admitted) in place and returns it. */
export function spreadTies(packed: PackedProblem, node: Int32Array): Int32Array {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  if (m < 2) return node;
  const residual = Float64Array.from(packed.qcapacity);
  for (let j = 0; j < n; j++) {
    const b = node[j]!;
    if (b >= 0) residual[b] = residual[b]! - packed.qweight[j]!;
  }
  // A pass that moves nothing changes nothing, whatever its order: when no session has a move now, the
  // plan is already spread and the weight order need not be computed.
  // A move needs a node with residual_b - w > residual_a, so none exists while the most room left is not
  // more than that: the check costs a pass over the nodes only for sessions that pass this test.
  let most = Number.NEGATIVE_INFINITY;
  for (let b = 0; b < m; b++) most = Math.max(most, residual[b]!);
  let movable = false;
  for (let j = 0; j < n && !movable; j++) {
    const a = node[j]!;
    movable = a >= 0 && most - packed.qweight[j]! > residual[a]! && moveOf(packed, node, residual, j) >= 0;
  }
  if (!movable) return node;
  const sequence = weightOrder(packed);
  for (let pass = 0; pass < MAX_SPREAD_PASSES; pass++) {
    let moved = false;
    for (let t = 0; t < n; t++) {
      const j = sequence[t]!;
      const a = node[j]!;
      if (a < 0) continue;
      const to = moveOf(packed, node, residual, j);
      if (to < 0) continue;
      const w = packed.qweight[j]!;
      node[j] = to;
      residual[a] = residual[a]! + w;
      residual[to] = residual[to]! - w;
      moved = true;
    }
    if (!moved) break;
  }
  return node;
}

/**
 * Where admitted session j moves: the node b with its credit on its current node a, where it is a
 * candidate and residual_b - w > residual_a, with the most room (ties: lower original node index); -1 if
 * there is none.
 */
function moveOf(packed: PackedProblem, node: Int32Array, residual: Float64Array, j: number): number {
  const m = nodesKept(packed);
  const a = node[j]!;
  const w = packed.qweight[j]!;
  const credit = packed.credit[j * m + a]!;
  let to = -1;
  for (let b = 0; b < m; b++) {
    const e = j * m + b;
    if (b === a || packed.candidate[e] !== 1 || packed.credit[e] !== credit) continue;
    if (!(residual[b]! - w > residual[a]!)) continue;
    if (
      to < 0 ||
      residual[b]! > residual[to]! ||
      (residual[b] === residual[to] && packed.nodeIndex[b]! < packed.nodeIndex[to]!)
    ) {
      to = b;
    }
  }
  return to;
}
