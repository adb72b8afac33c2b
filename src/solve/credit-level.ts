/**
 * The credit level on its own (Ross and Soland's relaxation of generalized assignment, 1975), over a
 * packed problem at its quantum.
 *
 * Relaxing "each session on at most one node" leaves one independent 0-1 knapsack per node b: items are
 * the sessions with positive credit on b (candidates there), weights their quantized weights, profits
 * their credit on b, capacity the node's quantized capacity. Let K_b be its optimum and S_b an optimal
 * set. Every plan's sessions with positive credit on b, all on node b, form a feasible set of that
 * knapsack, so the plan's credit on b is at most K_b and its total credit at most U = K_1 + ... + K_m: a
 * valid upper bound on the credit level, much tighter than the total-capacity LP when a session's credit
 * exists on one node only.
 *
 * - `creditLevel` computes every K_b with an exact sparse DP (non-dominated (weight, credit) pairs in
 *   density order, pruned by the per-node LP bound against a greedy lower bound; see `nodeKnapsack`), an
 *   optimal set S_b, and whether S_b is the unique optimal set: S_b is unique iff removing any one of its
 *   sessions lowers the optimum (another optimal set T would miss some session i of S_b, since T cannot
 *   strictly contain S_b with positive profits and the same value, and T would then be optimal without i).
 * - The decomposition incumbent (`decompositionPlan`): the sets S_b made disjoint (a session in several
 *   sets stays on the node of its highest credit, ties: lower slot), then every unplaced session by
 *   credit density to the candidate node of highest credit with room. A feasible plan; when the sets are
 *   already disjoint its credit is U, the optimum.
 * - The root reduction (`creditReduction`): when every S_b is unique and the sets are pairwise disjoint,
 *   the optimal credit is U and every optimal plan places exactly S_b, among the sessions credited on b,
 *   on node b. Proof: {S_b on b} is feasible (disjoint, each within its node), so the optimum credit is U.
 *   In a plan of credit U, each node's credit is at most K_b and they sum to U, so each equals K_b: the
 *   sessions with positive credit on b placed on b form an optimal set of b's knapsack, hence S_b. So
 *   the optimal plans are exactly S_b on each b plus an assignment of the other sessions to nodes where
 *   their credit is 0 within the residual capacities, and since the fixed part has the same value in all
 *   of them, the lexicographic optimum is S_b plus the lexicographic optimum (ready, then tokens) of that
 *   credit-free remainder, which the solver's usual paths decide.
 */
import { bestHeuristic, lexBetter, planTriple, type HeuristicResult } from './incumbent.js';
import { bestCredits, nodesKept, packProblem, sessionsKept, type PackedProblem } from './pack.js';
import type { ResolvedSolveOptions } from './options.js';
import type { IndexedProblem } from './validate.js';

/** p_a / w_a > p_b / w_b, exact (cross products in f64 when they stay below 2^53, else BigInt). */
export function denser(pa: number, wa: number, pb: number, wb: number): number {
  const l = pa * wb;
  const r = pb * wa;
  if (l < 2 ** 53 && r < 2 ** 53) return l - r;
  const L = BigInt(pa) * BigInt(wb);
  const R = BigInt(pb) * BigInt(wa);
  return L > R ? 1 : L < R ? -1 : 0;
}

/** 1 + 2^-50: scales an f64 quotient above the exact one (see fractionalUpper in src/solve/ts/frontier.ts). */
const UP = 1 + 2 ** -50;

/** An upper bound on the LP term p * rem / w (three f64 roundings, each within 2^-53, are covered by UP), rounded up to an integer. */
export function fractionalCeil(p: number, rem: number, w: number): number {
  if (rem <= 0 || p <= 0) return 0;
  return Math.min(p, Math.ceil(((p * rem) / w) * UP));
}

/**
 * The items that fit within `cap`, by density (exact order, ties by index), and the LP bound of the items
 * from position t on within residual r (greedy in that order, the last one fractional, rounded up).
 */
function densityLp(
  items: readonly number[],
  w: ArrayLike<number>,
  p: ArrayLike<number>,
  cap: number,
): { order: number[]; lpFrom: (t: number, r: number) => number } {
  const order = items.filter((i) => w[i]! <= cap).sort((a, b) => denser(p[b]!, w[b]!, p[a]!, w[a]!) || a - b);
  const k = order.length;
  // Prefix sums: the LP of order[t..] within r takes them greedily.
  const sw = new Float64Array(k + 1);
  const sp = new Float64Array(k + 1);
  for (let t = 0; t < k; t++) {
    sw[t + 1] = sw[t]! + w[order[t]!]!;
    sp[t + 1] = sp[t]! + p[order[t]!]!;
  }
  const lpFrom = (t: number, r: number): number => {
    // Largest x in [t, k] with sw[x] - sw[t] <= r.
    let lo = t;
    let hi = k;
    const limit = sw[t]! + r;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (sw[mid]! <= limit) lo = mid;
      else hi = mid - 1;
    }
    let ub = sp[lo]! - sp[t]!;
    if (lo < k) ub += fractionalCeil(p[order[lo]!]!, limit - sw[lo]!, w[order[lo]!]!);
    return ub;
  };
  return { order, lpFrom };
}

/** One node's knapsack answer. */
export interface NodeKnapsack {
  /** K_b: the largest credit of a set of the node's credited sessions within its capacity. */
  readonly value: number;
  /** An optimal set (kept session indices). */
  readonly set: number[];
  /** Non-dominated (weight, credit) states the DP kept, plus one per layer. */
  readonly states: number;
}

/**
 * Exact 0-1 knapsack over `items` (kept session indices) with weights `w`, profits `p` (both indexed by
 * kept session), capacity `cap`, reaching at least `target` (a value known to be reachable, or the value
 * to test for): returns the optimum and an optimal set, or value -1 when no set reaches `target`. Past
 * `limit` states it stops with value -1 and states > limit.
 *
 * Items are folded by density (p / w descending, exact order by cross products, ties by index); a layer
 * holds (weight, value) states with weight ascending and value strictly ascending (a state is dominated
 * when another weighs no more and is worth at least as much; either completes every way the other can).
 * A state is dropped when its value plus the LP bound of the items still to fold within its residual
 * capacity is below `target`: no completion of it reaches the target.
 */
export function nodeKnapsack(
  items: readonly number[],
  w: ArrayLike<number>,
  p: ArrayLike<number>,
  cap: number,
  target: number,
  limit = Number.POSITIVE_INFINITY,
): NodeKnapsack {
  const { order, lpFrom } = densityLp(items, w, p, cap);
  const k = order.length;
  let sw0 = [0];
  let sv0 = [0];
  const history: { parent: Int32Array; take: Uint8Array }[] = [];
  let states = 1;
  for (let t = 0; t < k; t++) {
    const i = order[t]!;
    const wi = w[i]!;
    const pi = p[i]!;
    const nw: number[] = [];
    const nv: number[] = [];
    const parent: number[] = [];
    const take: number[] = [];
    const n0 = sw0.length;
    let a = 0;
    let b = 0;
    // Merge the skip list (a) and the take list (b) by weight ascending, value descending at equal weight.
    while (a < n0 || b < n0) {
      let fromTake: boolean;
      if (b >= n0 || sw0[b]! + wi > cap) {
        if (a >= n0) break;
        fromTake = false;
      } else if (a >= n0) fromTake = true;
      else {
        const wa = sw0[a]!;
        const wb = sw0[b]! + wi;
        fromTake = wb < wa || (wb === wa && sv0[b]! + pi > sv0[a]!);
      }
      const idx = fromTake ? b++ : a++;
      const ww = fromTake ? sw0[idx]! + wi : sw0[idx]!;
      const vv = fromTake ? sv0[idx]! + pi : sv0[idx]!;
      if (nv.length > 0 && vv <= nv[nv.length - 1]!) continue;
      if (vv + lpFrom(t + 1, cap - ww) < target) continue;
      nw.push(ww);
      nv.push(vv);
      parent.push(idx);
      take.push(fromTake ? 1 : 0);
    }
    history.push({ parent: Int32Array.from(parent), take: Uint8Array.from(take) });
    sw0 = nw;
    sv0 = nv;
    // A layer costs about one state besides the states it keeps.
    states += nw.length + 1;
    if (nw.length === 0 || states > limit) return { value: -1, set: [], states };
  }
  // The best state is the last (values ascend).
  let idx = sv0.length - 1;
  const value = sv0[idx]!;
  if (value < target) return { value: -1, set: [], states };
  const set: number[] = [];
  for (let t = k - 1; t >= 0; t--) {
    const h = history[t]!;
    if (h.take[idx] === 1) set.push(order[t]!);
    idx = h.parent[idx]!;
  }
  return { value, set: set.sort((x, y) => x - y), states };
}

/**
 * Whether a set of `items` other than `set` fits within `cap` and is worth at least `target` (the
 * uniqueness test of an optimal set, target = its value). One sparse DP in density order: the path of
 * `set` itself (one state), and the non-dominated states of the sets that left that path at some item
 * (took an item outside `set` or skipped one in it), pruned by the LP bound against `target`; stops at
 * the first such state reaching `target`. A dominated deviated state is dropped for a deviated state that
 * completes every way it can, at least as well, so a deviated set reaching the target is always found.
 * Past `limit` states it stops (states > limit).
 */
export function anotherSetReaches(
  items: readonly number[],
  w: ArrayLike<number>,
  p: ArrayLike<number>,
  cap: number,
  set: readonly number[],
  target: number,
  limit: number,
): { reaches: boolean; states: number } {
  const inSet = new Set(set);
  const { order, lpFrom } = densityLp(items, w, p, cap);
  const k = order.length;
  let dw: number[] = [];
  let dv: number[] = [];
  let nw: number[] = [];
  let nv: number[] = [];
  let pw = 0;
  let pv = 0;
  let states = 0;
  for (let t = 0; t < k; t++) {
    const i = order[t]!;
    const wi = w[i]!;
    const pi = p[i]!;
    // The state that leaves the path here.
    const xw = inSet.has(i) ? pw : pw + wi;
    const xv = inSet.has(i) ? pv : pv + pi;
    const hasX = xw <= cap;
    if (inSet.has(i)) {
      pw += wi;
      pv += pi;
    }
    nw.length = 0;
    nv.length = 0;
    const n0 = dw.length;
    let a = 0;
    let b = 0;
    let x = hasX ? 1 : 0;
    for (;;) {
      // Next candidate by weight ascending, value descending at equal weight: skip list a, take list b, x.
      let cw = Infinity;
      let cv = -1;
      let from = -1;
      if (a < n0) {
        cw = dw[a]!;
        cv = dv[a]!;
        from = 0;
      }
      if (b < n0 && dw[b]! + wi <= cap) {
        const bw = dw[b]! + wi;
        const bv = dv[b]! + pi;
        if (bw < cw || (bw === cw && bv > cv)) {
          cw = bw;
          cv = bv;
          from = 1;
        }
      }
      if (x === 1 && (xw < cw || (xw === cw && xv > cv))) {
        cw = xw;
        cv = xv;
        from = 2;
      }
      if (from < 0) break;
      if (from === 0) a++;
      else if (from === 1) b++;
      else x = 0;
      if (nv.length > 0 && cv <= nv[nv.length - 1]!) continue;
      if (cv >= target) return { reaches: true, states: states + nw.length + 1 };
      if (cv + lpFrom(t + 1, cap - cw) < target) continue;
      nw.push(cw);
      nv.push(cv);
    }
    states += nw.length + 1;
    if (states > limit) return { reaches: false, states };
    [dw, nw] = [nw, dw];
    [dv, nv] = [nv, dv];
  }
  return { reaches: false, states };
}

/** A lower bound for one node's knapsack: items by density, each taken when it fits. */
function greedyValue(items: readonly number[], w: ArrayLike<number>, p: ArrayLike<number>, cap: number): number {
  const order = items.slice().sort((a, b) => denser(p[b]!, w[b]!, p[a]!, w[a]!) || a - b);
  let left = cap;
  let v = 0;
  for (const i of order) {
    if (w[i]! <= left) {
      left -= w[i]!;
      v += p[i]!;
    }
  }
  return v;
}

/**
 * Most knapsack states the credit level may keep over all nodes and checks (about 0.1-0.3 us each):
 * past it the level is not computed (the solve goes on without it). Ticks with room for a few sessions
 * per node keep tens to hundreds; nodes with room for 15+ sessions of 40+ credited ones reach thousands
 * per node.
 */
export const CREDIT_LEVEL_MAX_STATES = 1 << 11;

/** The knapsack-state budget of a problem: CREDIT_LEVEL_MAX_STATES, and 512 per kept node from 5 nodes on. */
export function creditLevelBudget(packed: PackedProblem): number {
  return Math.max(CREDIT_LEVEL_MAX_STATES, 512 * nodesKept(packed));
}

/** Sequential decompositions tried: one per node of largest knapsack optimum, at most this many. */
export const SEQUENTIAL_FIRST_NODES = 4;

/** Units of work (see `SolveOptions.stateBudget`) one knapsack state costs, for routing estimates (measured: 0.1-0.3 us). */
export const CREDIT_STATE_WORK = 200;

/** The credit level of a packed problem: per kept node, its knapsack optimum, set and uniqueness. */
export interface CreditLevel {
  /** K_b per kept node. */
  readonly nodeBound: Float64Array;
  /** U = sum of K_b: an upper bound on every plan's credit. */
  readonly bound: number;
  /** S_b per kept node (kept session indices). */
  readonly sets: number[][];
  /** Every S_b is the unique optimal set of its node and no session is in two of them. */
  readonly decided: boolean;
  /** Knapsack DP states over all nodes and uniqueness checks. */
  readonly states: number;
}

/** Credit levels computed at the default budget, per packed problem (the planner's estimate and the solve share one). */
const levels = new WeakMap<PackedProblem, CreditLevel | null>();

/**
 * Solves every node's credit knapsack (and, when the sets are disjoint, checks their uniqueness), or null
 * when that passes `maxStates` knapsack states (by default `creditLevelBudget`). At the default budget
 * the answer is remembered per packed problem.
 */
export function creditLevel(packed: PackedProblem, maxStates: number = creditLevelBudget(packed)): CreditLevel | null {
  if (maxStates !== creditLevelBudget(packed)) return computeCreditLevel(packed, maxStates);
  let level = levels.get(packed);
  if (level === undefined) {
    level = computeCreditLevel(packed, maxStates);
    levels.set(packed, level);
  }
  return level;
}

function computeCreditLevel(packed: PackedProblem, maxStates: number): CreditLevel | null {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const w = packed.qweight;
  const nodeBound = new Float64Array(m);
  const sets: number[][] = [];
  const profit = new Float64Array(n);
  const itemsOf: number[][] = [];
  let states = 0;
  let bound = 0;
  const owner = new Int32Array(n).fill(-1);
  let disjoint = true;
  for (let b = 0; b < m; b++) {
    const items: number[] = [];
    for (let j = 0; j < n; j++) if (packed.candidate[j * m + b] === 1 && packed.credit[j * m + b]! > 0) items.push(j);
    itemsOf.push(items);
    for (const j of items) profit[j] = packed.credit[j * m + b]!;
    const cap = packed.qcapacity[b]!;
    const r = nodeKnapsack(items, w, profit, cap, greedyValue(items, w, profit, cap), maxStates - states);
    states += r.states;
    if (states > maxStates) return null;
    nodeBound[b] = r.value;
    bound += r.value;
    sets.push(r.set);
    for (const j of r.set) {
      if (owner[j]! >= 0) disjoint = false;
      owner[j] = b;
    }
  }
  let decided = disjoint;
  for (let b = 0; b < m && decided; b++) {
    if (nodeBound[b] === 0) continue;
    for (let j = 0; j < n; j++) profit[j] = packed.candidate[j * m + b] === 1 ? packed.credit[j * m + b]! : 0;
    const r = anotherSetReaches(itemsOf[b]!, w, profit, packed.qcapacity[b]!, sets[b]!, nodeBound[b]!, maxStates - states);
    states += r.states;
    if (states > maxStates) return null;
    if (r.reaches) decided = false;
  }
  return { nodeBound, bound, sets, decided, states };
}

/**
 * Sequential decomposition: the nodes in `nodeOrder`, each taking an optimal set of its knapsack over
 * the credited sessions no earlier node took (the first node's set is S_b itself), then the unplaced
 * sessions as in `decompositionPlan`. Null past `maxStates` knapsack states.
 */
function sequentialPlan(packed: PackedProblem, level: CreditLevel, nodeOrder: readonly number[], maxStates: number): { plan: Int32Array; states: number } | null {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const sets: number[][] = Array.from({ length: m }, () => []);
  const taken = new Uint8Array(n);
  const profit = new Float64Array(n);
  let states = 0;
  for (const b of nodeOrder) {
    const items: number[] = [];
    for (let j = 0; j < n; j++) {
      const e = j * m + b;
      if (taken[j] === 0 && packed.candidate[e] === 1 && packed.credit[e]! > 0) {
        items.push(j);
        profit[j] = packed.credit[e]!;
      }
    }
    const cap = packed.qcapacity[b]!;
    const r = nodeKnapsack(items, packed.qweight, profit, cap, greedyValue(items, packed.qweight, profit, cap), maxStates - states);
    states += r.states;
    if (states > maxStates) return null;
    sets[b] = r.set;
    for (const j of r.set) taken[j] = 1;
  }
  return { plan: decompositionPlan(packed, { ...level, sets }), states };
}

/**
 * The best decomposition plan (lexicographic value; ties: the earlier): the per-node sets made disjoint
 * (`decompositionPlan`) and, when they overlap, sequential decompositions with each of the
 * SEQUENTIAL_FIRST_NODES nodes of largest optimum first, the others by knapsack optimum descending (ties:
 * lower kept node). Sequential plans stop being tried past
 * `creditLevelBudget` knapsack states over all of them.
 */
export function bestDecompositionPlan(packed: PackedProblem, level: CreditLevel): Int32Array {
  let best = decompositionPlan(packed, level);
  if (level.decided) return best;
  let value = planTriple(packed, best);
  const m = nodesKept(packed);
  const byBound = Array.from({ length: m }, (_, b) => b).sort((a, b) => level.nodeBound[b]! - level.nodeBound[a]! || a - b);
  let budget = creditLevelBudget(packed);
  for (const first of byBound.slice(0, SEQUENTIAL_FIRST_NODES)) {
    const order = [first, ...byBound.filter((b) => b !== first)];
    const run = sequentialPlan(packed, level, order, budget);
    if (run === null) break;
    budget -= run.states;
    const plan = run.plan;
    const v = planTriple(packed, plan);
    if (lexBetter(v, value)) {
      best = plan;
      value = v;
    }
  }
  return best;
}

/**
 * The solver's incumbent and fallback plan, with the name of what produced it: the better of the heuristic
 * plan (src/solve/incumbent.ts) and, when the credit level is within its budget, the best decomposition
 * plan (`credit-decomposition`; ties: the heuristic). Once `halted` answers true, the best plan so far.
 */
export function solverIncumbent(
  packed: PackedProblem,
  best: Float64Array = bestCredits(packed),
  level: CreditLevel | null = creditLevel(packed),
  halted?: () => boolean,
): HeuristicResult {
  const h = bestHeuristic(packed, best, halted);
  if (level === null || halted?.() === true) return h;
  const d = bestDecompositionPlan(packed, level);
  return lexBetter(planTriple(packed, d), planTriple(packed, h.node)) ? { node: d, heuristic: 'credit-decomposition' } : h;
}

/**
 * The decomposition incumbent: the per-node sets made disjoint (a session in several stays where its
 * credit is highest, ties: lower kept node), then each unplaced session, by credit density descending
 * (ties: kept index), to its candidate node of highest credit with room (ties: most room, lower kept
 * node). Kept node per kept session, -1 = not admitted.
 */
export function decompositionPlan(packed: PackedProblem, level: CreditLevel): Int32Array {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const out = new Int32Array(n).fill(-1);
  const left = Float64Array.from(packed.qcapacity);
  for (let b = 0; b < m; b++) {
    for (const j of level.sets[b]!) {
      const a = out[j]!;
      if (a < 0 || packed.credit[j * m + b]! > packed.credit[j * m + a]!) out[j] = b;
    }
  }
  for (let j = 0; j < n; j++) if (out[j]! >= 0) left[out[j]!] = left[out[j]!]! - packed.qweight[j]!;
  const rest: number[] = [];
  const best = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    if (out[j]! >= 0) continue;
    rest.push(j);
    for (let b = 0; b < m; b++) if (packed.candidate[j * m + b] === 1 && packed.credit[j * m + b]! > best[j]!) best[j] = packed.credit[j * m + b]!;
  }
  rest.sort((a, b) => denser(best[b]!, packed.qweight[b]!, best[a]!, packed.qweight[a]!) || packed.ready[b]! - packed.ready[a]! || a - b);
  for (const j of rest) {
    let pick = -1;
    for (let b = 0; b < m; b++) {
      const e = j * m + b;
      if (packed.candidate[e] !== 1 || packed.qweight[j]! > left[b]!) continue;
      if (pick < 0 || packed.credit[e]! > packed.credit[j * m + pick]! || (packed.credit[e] === packed.credit[j * m + pick] && left[b]! > left[pick]!)) pick = b;
    }
    if (pick >= 0) {
      out[j] = pick;
      left[pick] = left[pick]! - packed.qweight[j]!;
    }
  }
  return out;
}

/** The root reduction's outcome: the fixed sessions and the credit-free remainder to solve. */
export interface CreditReduction {
  /** Per kept session: its fixed kept node, or -1 (free: part of the remainder, or not admitted). */
  readonly fixed: Int32Array;
  /** Sessions fixed. */
  readonly fixedCount: number;
  /**
   * The remainder as a packed problem over the same kept sessions and nodes (its sessionCount and
   * nodeCount are this problem's kept counts, its indices kept indices of this problem): the free
   * sessions on the nodes where they are candidates with credit 0, within the residual capacities.
   */
  readonly remainder: PackedProblem;
}

/**
 * When the credit level is decided at the root (see the module comment), the fixed sets and the
 * credit-free remainder; else null.
 */
export function creditReduction(packed: PackedProblem, level: CreditLevel, options: ResolvedSolveOptions): CreditReduction | null {
  if (!level.decided) return null;
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const q = packed.quantum;
  const fixed = new Int32Array(n).fill(-1);
  const residual = Float64Array.from(packed.qcapacity);
  let fixedCount = 0;
  for (let b = 0; b < m; b++) {
    for (const j of level.sets[b]!) {
      fixed[j] = b;
      residual[b] = residual[b]! - packed.qweight[j]!;
      fixedCount++;
    }
  }
  const eligible = new Uint8Array(n * m);
  for (let j = 0; j < n; j++) {
    if (fixed[j]! >= 0) continue;
    for (let b = 0; b < m; b++) {
      const e = j * m + b;
      if (packed.candidate[e] === 1 && packed.credit[e] === 0) eligible[e] = 1;
    }
  }
  // Residual capacities in tokens at the same quantum: floor(residual * q / q) = residual.
  const sub: IndexedProblem = {
    nodeIds: Array.from({ length: m }, (_, b) => String(b)),
    sessionIds: Array.from({ length: n }, (_, j) => String(j)),
    capacity: residual.map((r) => r * q),
    weight: packed.weight,
    tokens: packed.tokens,
    ready: packed.ready,
    credit: new Float64Array(n * m),
    eligible,
  };
  return { fixed, fixedCount, remainder: packProblem(sub, options) };
}
