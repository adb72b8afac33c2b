/**
 * Plans found without a DP, at the solver's quantum, over a packed problem:
 *
 * - `bestNodesPlan`: every session on one of its most valuable nodes, if they all fit. The value of any
 *   plan is a sum over its admitted sessions of (credit on the chosen node, ready, tokens); each term is
 *   lexicographically at most the session's best triple (best credit over its candidate nodes, ready,
 *   tokens), and a skipped session adds (0, 0, 0), which no triple is below (all components are
 *   non-negative). Lexicographic order is compatible with addition, so every plan is worth at most the sum
 *   of the best triples; a feasible plan that attains it is optimal. Placement spreads: sessions by
 *   weight descending, each to the best-credit node with the most quantized capacity left (ties: lower
 *   node index), which also finds a fit more often than stacking when capacity is ample.
 * - `bestHeuristic`: the best of BFD (value order, then token order) and a credit greedy in two orders
 *   (density and value descending), each session to the candidate node of highest credit that has room
 *   (ties: least capacity left over, then lower node index). BFD places by leftover capacity alone, which
 *   loses the credit of long prefixes once there are more than two nodes; the greedy keeps it. The best
 *   plan is the frontier's incumbent and the solver's fallback, so a fallback is never worse than BFD in
 *   either order.
 */
import { bfdPacked } from './bfd.js';
import { weightOrder } from './orders.js';
import { bestCredits, keyScales, nodesKept, sessionsKept, type PackedProblem } from './pack.js';
import type { HeuristicName } from '../types.js';
import type { SolveBudget } from './pipeline/budget.js';

/**
 * bestNodesPlan's working arrays, kept by the caller between calls (most calls find no such plan and return null):
 * the weight order, the residual capacities, the plan until it is complete.
 */
export class BestNodesScratch {
  sequence = new Int32Array(256);
  residual = new Float64Array(64);
  out = new Int32Array(256);
}

/** Every session on a best-credit node (most room left first), or null if some session finds none with room. */
export function bestNodesPlan(
  packed: PackedProblem,
  best: Float64Array = bestCredits(packed),
  given?: BestNodesScratch,
): Int32Array | null {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const nodesScratch = given ?? new BestNodesScratch();
  if (nodesScratch.sequence.length < n) {
    nodesScratch.sequence = new Int32Array(2 * n);
    nodesScratch.out = new Int32Array(2 * n);
  }
  if (nodesScratch.residual.length < m) nodesScratch.residual = new Float64Array(2 * m);
  const { sequence, residual, out } = nodesScratch;
  weightOrder(packed, sequence);
  residual.set(packed.qcapacity);
  for (let t = 0; t < n; t++) {
    const j = sequence[t]!;
    const w = packed.qweight[j]!;
    let pick = -1;
    for (let b = 0; b < m; b++) {
      const e = j * m + b;
      if (packed.candidate[e] !== 1 || packed.credit[e] !== best[j] || w > residual[b]!) continue;
      if (
        pick < 0 ||
        residual[b]! > residual[pick]! ||
        (residual[b] === residual[pick] && packed.nodeIndex[b]! < packed.nodeIndex[pick]!)
      ) {
        pick = b;
      }
    }
    if (pick < 0) return null;
    out[j] = pick;
    residual[pick] = residual[pick]! - w;
  }
  // Every session is placed: the plan is complete.
  return out.slice(0, n);
}

/** Sessions a heuristic places between two asks whether the solve must stop (a few microseconds at 64 nodes). */
export const HALT_CHECK_SESSIONS = 256;

/**
 * Each session in `sequence` to its highest-credit candidate node with room (ties: least left over, lower
 * node index), written out as one n x m loop (no call per pair); null once `halted` answers true (asked
 * every HALT_CHECK_SESSIONS sessions).
 */
export function creditGreedy(
  packed: PackedProblem,
  sequence: readonly number[],
  halted?: () => boolean,
): Int32Array | null {
  const m = nodesKept(packed);
  const { candidate, credit, nodeIndex, qweight } = packed;
  const residual = Float64Array.from(packed.qcapacity);
  const out = new Int32Array(sessionsKept(packed)).fill(-1);
  for (let t = 0; t < sequence.length; t++) {
    if (t % HALT_CHECK_SESSIONS === HALT_CHECK_SESSIONS - 1 && halted?.() === true) return null;
    const j = sequence[t]!;
    const w = qweight[j]!;
    const row = j * m;
    let pick = -1;
    let pickCredit = 0;
    for (let b = 0; b < m; b++) {
      if (candidate[row + b] !== 1 || w > residual[b]!) continue;
      const k = credit[row + b]!;
      if (
        pick < 0 ||
        k > pickCredit ||
        (k === pickCredit &&
          (residual[b]! < residual[pick]! || (residual[b] === residual[pick] && nodeIndex[b]! < nodeIndex[pick]!)))
      ) {
        pick = b;
        pickCredit = k;
      }
    }
    if (pick >= 0) {
      out[j] = pick;
      residual[pick] = residual[pick]! - w;
    }
  }
  return out;
}

/** The credit greedy's two session orders (kept indices), each descending, ties by lower index. */
export interface GreedyOrders {
  /** By key over quantized weight. */
  readonly byDensity: number[];
  /** By key: best credit, then ready, then tokens. */
  readonly byValue: number[];
}

/**
 * The credit greedy's orders, by an approximate key per session: best credit x readyScale + ready x
 * tokenScale + tokens (`keyScales`), a double (enough to order a heuristic; the DP never relies on it).
 */
export function greedyOrders(packed: PackedProblem, best: Float64Array): GreedyOrders {
  const n = sessionsKept(packed);
  const scales = keyScales(packed.ready, packed.tokens);
  const tokenScale = Number(scales.tokens);
  const readyScale = Number(scales.ready);
  const key = new Float64Array(n);
  for (let j = 0; j < n; j++) key[j] = best[j]! * readyScale + packed.ready[j]! * tokenScale + packed.tokens[j]!;
  // Each density computed once (the comparator's quotients, the same doubles).
  const density = new Float64Array(n);
  for (let j = 0; j < n; j++) density[j] = key[j]! / packed.qweight[j]!;
  const byDensity = new Array<number>(n);
  for (let j = 0; j < n; j++) byDensity[j] = j;
  const byValue = byDensity.slice();
  // Array.prototype.sort is stable: ties keep the index order they start in.
  byDensity.sort((a, b) => density[b]! - density[a]!);
  byValue.sort((a, b) => key[b]! - key[a]!);
  return { byDensity, byValue };
}

/** A plan's value as (credit, ready, tokens) sums: exact doubles (every sum stays below 2^53). */
export function planTriple(packed: PackedProblem, node: Int32Array): [number, number, number] {
  const m = nodesKept(packed);
  let credit = 0;
  let ready = 0;
  let tokens = 0;
  for (let j = 0; j < node.length; j++) {
    const b = node[j]!;
    if (b < 0) continue;
    credit += packed.credit[j * m + b]!;
    ready += packed.ready[j]!;
    tokens += packed.tokens[j]!;
  }
  return [credit, ready, tokens];
}

/** a > b lexicographically (value triples). */
export function lexBetter(a: readonly number[], b: readonly number[]): boolean {
  return a[0]! > b[0]! || (a[0] === b[0] && (a[1]! > b[1]! || (a[1] === b[1] && a[2]! > b[2]!)));
}

/** The heuristics `bestHeuristic` runs, in its tie order; `PlanStats.heuristic` names the one a fallback plan came from. */
export const HEURISTICS = [
  'bfd',
  'bfd-tokens',
  'credit-greedy-density',
  'credit-greedy-value',
] as const satisfies readonly HeuristicName[];

/** A heuristic plan and the heuristic that produced it. */
export interface HeuristicResult {
  /** Kept node per kept session, -1 = not admitted. */
  readonly node: Int32Array;
  readonly heuristic: HeuristicName;
}

/**
 * Units of work one heuristic of HEURISTICS costs per kept (session, node) pair and per kept session (its
 * order's sort), its share of the orders included (docs/history.md, "One budget"): what `heuristicWork`
 * estimates and `bestHeuristic` charges the budget per candidate.
 */
export const HEURISTIC_PAIR_WORK = 4;
export const HEURISTIC_SESSION_WORK = 400;

/** The units one heuristic of HEURISTICS is charged on `packed`. */
export function heuristicWork(packed: PackedProblem): number {
  const n = sessionsKept(packed);
  return HEURISTIC_SESSION_WORK * n + HEURISTIC_PAIR_WORK * n * nodesKept(packed);
}

/** Units of work the best-nodes check costs per kept (session, node) pair (docs/history.md). */
export const BEST_NODES_PAIR_WORK = 5;

/**
 * The best of BFD (value order, token order) and the credit greedy in density and value order (ties: the
 * earlier in HEURISTICS). BFD in value order and the greedy in density order always run, and BFD in token
 * order in the whole problem (the fallback promises a plan never worse than BFD in either order): their
 * work is unavoidable. The greedy in value order runs only while `budget`, when given, affords its
 * estimate (`heuristicWork`, charged per candidate run) and `halted` answers false (asked before it);
 * both greedy orders ask `halted` every HALT_CHECK_SESSIONS sessions and stop. Each candidate costs about
 * as much as BFD (a millisecond or two at 64 nodes x 4096 sessions), so a solve whose budget or time is
 * short degrades to BFD and the density greedy, or to BFD alone past the deadline, and keeps the best plan
 * so far.
 */
export function bestHeuristic(
  packed: PackedProblem,
  best: Float64Array = bestCredits(packed),
  halted?: () => boolean,
  budget?: SolveBudget,
): HeuristicResult {
  // The greedy orders, computed when a greedy first runs (a caller past its deadline stops after BFD).
  let orders: GreedyOrders | null = null;
  const greedy = (): GreedyOrders => {
    orders ??= greedyOrders(packed, best);
    return orders;
  };

  const plans: Record<(typeof HEURISTICS)[number], () => Int32Array | null> = {
    bfd: () => bfdPacked(packed, 'value', best),
    'bfd-tokens': () => bfdPacked(packed, 'tokens'),
    'credit-greedy-density': () => creditGreedy(packed, greedy().byDensity, halted),
    'credit-greedy-value': () => creditGreedy(packed, greedy().byValue, halted),
  };
  const cost = heuristicWork(packed);
  let out: HeuristicResult | null = null;
  let value: [number, number, number] = [0, 0, 0];
  // The greedy in density order is promised too: BFD ignores credit (it loses nearly all of it at 64
  // nodes), and its value order puts the heaviest ready sessions first, where the density order takes the
  // lightest first, the most ready sessions that fit (docs/history.md, "Time at the caps"). A credit-split
  // remainder's plan (a share's) only adds to the fixed sets, beside the whole problem's heuristic plan:
  // BFD in token order is promised for the whole problem only.
  const whole = budget?.root !== false;
  for (const heuristic of HEURISTICS) {
    // Past the deadline or the stop flag, BFD alone is promised, as for a solve halted before this stage
    // (`haltedBeforeDp`): the other orders cost as much again each, time the caller no longer has.
    const stop = heuristic !== 'bfd' && halted?.() === true;
    const promised =
      !stop && (heuristic === 'bfd' || (whole && heuristic === 'bfd-tokens') || heuristic === 'credit-greedy-density');
    if (!promised && (halted?.() === true || budget?.afford(cost) === false)) continue;
    const node = plans[heuristic]();
    if (promised) budget?.chargeUnavoidable(cost);
    else budget?.charge(cost);
    if (node === null) break;
    const v = planTriple(packed, node);
    if (out === null || lexBetter(v, value)) {
      out = { node, heuristic };
      value = v;
    }
  }
  return out!;
}

/** A fallback's path: `bfd` when best-fit decreasing produced it, else `heuristic`. */
export function fallbackPath(heuristic: HeuristicName): 'bfd' | 'heuristic' {
  return heuristic === 'bfd' || heuristic === 'bfd-tokens' ? 'bfd' : 'heuristic';
}

/** The plan of `bestHeuristic`: kept node per kept session, -1 = not admitted. */
export function heuristicPlan(packed: PackedProblem, best: Float64Array = bestCredits(packed)): Int32Array {
  return bestHeuristic(packed, best).node;
}
