/**
 * Best-fit decreasing at the solver's quantum: the fallback when the DP is not run or not finished, and
 * ThunderAgent's placement.
 *
 * Order (`order: 'value'`, the default): sessions by their best triple descending, lexicographically,
 * where the best triple is (highest credit over the nodes the session is eligible on and fits on, ready,
 * tokens); ties by larger weight (tokens), then input order.
 * Order (`order: 'tokens'`, ThunderAgent): token count descending; ties by larger weight, then input order.
 *
 * Placement: each session in turn goes to the eligible node where it fits (w' <= residual, quantized)
 * with the least quantized capacity left over; ties: higher credit on that node, then lower node index
 * (input order of nodes). A session that fits nowhere is skipped. Residuals start at floor(C / quantum),
 * so the plan is feasible after quantization and hence with the exact weights.
 */
import { recordAt } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import type { SolveOptions } from './options.js';
import { bestCredits, sessionsKept, nodesKept, type PackedProblem } from './pack.js';
import { bfdValueOrder, tokensOrder } from './orders.js';
import { solvePrepared } from './prepared.js';
import type { Plan, Problem } from '../types.js';

/** The session order BFD places in. */
export type BfdOrder = 'value' | 'tokens';

/** Options of a standalone `bfd()` call: the solve options (quantum; budget and deadline unused) plus the order. */
export interface BfdOptions extends SolveOptions {
  /**
   * `'value'`: best triple descending; `'tokens'`: token count descending (ThunderAgent).
   * @default 'value'
   */
  order?: BfdOrder;
}

/**
 * BFD over a packed problem: each kept session's kept node, or -1. Deterministic: the same packed
 * problem and order always give the same plan.
 */
export function bfdPacked(packed: PackedProblem, order: BfdOrder = 'value', best?: Float64Array): Int32Array {
  return bestFit(packed, order === 'value' ? bfdValueOrder(packed, best ?? bestCredits(packed)) : tokensOrder(packed));
}

/**
 * Best fit over `sequence`: each session to the candidate node with room whose residual is least (least
 * quantized capacity left over); ties: higher credit on the node, then lower original node index. The
 * nodes are kept sorted by (residual, original index), so the pick is the first candidate at or past the
 * first residual >= w' (a binary search), or a later one of the same residual with more credit: a session
 * looks at the nodes of that one residual and the non-candidates before them, not at every node. Placing
 * moves the picked node towards the front (its residual fell). The plan of a scan of every node with that
 * preference, in O(log m + the nodes looked at + the nodes passed when re-sorting) per session.
 */
function bestFit(packed: PackedProblem, sequence: readonly number[]): Int32Array {
  const m = nodesKept(packed);
  const { candidate, credit, nodeIndex, qweight } = packed;
  const residual = Float64Array.from(packed.qcapacity);
  const out = new Int32Array(sessionsKept(packed)).fill(-1);
  const before = (a: number, c: number): boolean =>
    residual[a]! < residual[c]! || (residual[a] === residual[c] && nodeIndex[a]! < nodeIndex[c]!);
  const ord = new Int32Array(m);
  for (let b = 0; b < m; b++) ord[b] = b;
  ord.sort((a, c) => residual[a]! - residual[c]! || nodeIndex[a]! - nodeIndex[c]!);
  for (const j of sequence) {
    const w = qweight[j]!;
    let lo = 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (residual[ord[mid]!]! < w) lo = mid + 1;
      else hi = mid;
    }
    const row = j * m;
    let pick = -1;
    let at = -1;
    for (let t = lo; t < m; t++) {
      const b = ord[t]!;
      if (pick >= 0 && residual[b]! > residual[pick]!) break;
      if (candidate[row + b] !== 1) continue;
      if (pick < 0 || credit[row + b]! > credit[row + pick]!) {
        pick = b;
        at = t;
      }
    }
    if (pick < 0) continue;
    out[j] = pick;
    residual[pick] = residual[pick]! - w;
    while (at > 0 && before(pick, ord[at - 1]!)) {
      ord[at] = ord[at - 1]!;
      at--;
    }
    ord[at] = pick;
  }
  return out;
}

function resolveBfdOptions(options: BfdOptions | undefined): { order: BfdOrder; solve: SolveOptions | undefined } {
  if (options === undefined) return { order: 'value', solve: undefined };
  recordAt(options, 'options');
  const { order, ...solve } = options;
  if (order !== undefined && typeof order !== 'string') throw new InvalidTypeError('options.order must be a string');
  if (order !== undefined && order !== 'value' && order !== 'tokens') {
    throw new InvalidValueError('options.order must be "value" or "tokens"');
  }
  return { order: order ?? 'value', solve };
}

/**
 * Solves with best-fit decreasing only. Status is `fallback` with reason `bfd requested (order: <order>)`
 * and path `bfd`, because BFD does not prove optimality; a problem with nothing to decide (no session
 * fits anywhere) is `optimal` with path `trivial`, as from the solver.
 */
export function bfd(problem: Problem, options?: BfdOptions): Plan {
  const { order, solve } = resolveBfdOptions(options);
  return solvePrepared(problem, solve, (packed, base) => ({
    status: 'fallback',
    reason: `bfd requested (order: ${order})`,
    node: bfdPacked(packed, order),
    stats: { ...base, path: 'bfd', heuristic: order === 'tokens' ? 'bfd-tokens' : 'bfd' },
  }));
}
