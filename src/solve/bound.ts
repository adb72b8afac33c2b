/**
 * The proven upper bound every Plan carries (`Plan.bound`, docs/solver.md "The bound on every plan"):
 * per value level, at least that level of the optimum (the lexicographic maximum at the plan's quantum).
 * For an optimal plan it is the plan's value; for a fallback, `relaxationBound` below, which says how far
 * from the optimum the plan can be.
 *
 * Each component of `relaxationBound` bounds that component of every feasible plan (weights rounded up to
 * the quantum, capacities down), hence of the optimum. Let C'_b = min(floor(C_b / q), the sum of w' of
 * the sessions that fit on b) (no plan puts more on b) and C = sum of C'_b.
 * - credit: the least of (1) the sum over nodes b of the Dantzig bound of b's 0-1 knapsack over the
 *   sessions credited on b (a plan's credit is the sum over nodes of what it puts on each); (2) the
 *   Dantzig bound of one knapsack of capacity C over every session, worth its best credit; (3) the credit
 *   level's exact per-node optimum when the solve computed it (PlanStats.creditLevel.bound);
 * - ready: the most ready sessions whose w' fit in C together (the lightest ones first);
 * - tokens: the Dantzig bound of one knapsack of capacity C over every session, worth its tokens;
 * - ready and tokens again, given a plan's credit K (the optimum's is at least K): see `withCredit`.
 * Every bound is an integer: the integral part of the LP optimum, computed exactly (see `dantzig`).
 */
import type { PlanStats, PlanValue } from '../types.js';
import { fitSums, nodesKept, PackScratch, sessionsKept, type PackedProblem } from './pack.js';
import { eligibleMarked, markEligible, type IndexedArrays } from './validate.js';

/**
 * The upper bound on every plan of `problem` at `quantum`, from the relaxations above; `stats` may hold
 * a tighter credit bound the solve proved, and `known` a plan's credit for the refinement `withCredit`
 * (eight more knapsack bounds; a fallback made past the deadline leaves it out, see RawSolution.halted).
 * O(sessions log nodes + nodes + credit and eligibility entries):
 * the fits come from `fitSums`, the credit entries from the sessions' lists; every later step is over
 * those entries and the sessions, sorted.
 */
export function relaxationBound(
  problem: IndexedArrays,
  quantum: number,
  stats?: Pick<PlanStats, 'creditLevel'>,
  known?: Pick<PlanValue, 'credit'>,
  scratch: BoundScratch = new BoundScratch(),
): PlanValue {
  const m = problem.capacity.length;
  const n = problem.weight.length;
  fitSums(problem, quantum, scratch.pack);
  const { qcap, fitSum, qweight, fits } = scratch.pack;
  const s = scratch.reserve(n, m, problem.creditStart[n]!);
  const { mark, entryNode, entryWeight, entryCredit, room, wt, bestAt, readyAt, tokensAt } = s;
  // The sessions that fit somewhere (place t is session kept[t]), their best credit, and the credit
  // entries on nodes they fit on.
  mark.fill(0, 0, m);
  const kept: number[] = [];
  let entries = 0;
  for (let i = 0; i < n; i++) {
    if (fits[i] === 0) continue;
    const t = kept.length;
    kept.push(i);
    const w = qweight[i]!;
    markEligible(problem, i, mark, i + 1);
    let top = 0;
    for (let e = problem.creditStart[i]!; e < problem.creditStart[i + 1]!; e++) {
      const b = problem.creditNode[e]!;
      if (!eligibleMarked(problem, i, b, mark, i + 1) || w > qcap[b]!) continue;
      const k = problem.creditValue[e]!;
      entryNode[entries] = b;
      entryWeight[entries] = w;
      entryCredit[entries++] = k;
      if (k > top) top = k;
    }
    wt[t] = w;
    bestAt[t] = top;
    readyAt[t] = problem.ready[i]!;
    tokensAt[t] = problem.tokens[i]!;
  }
  let total = 0;
  for (let b = 0; b < m; b++) {
    room[b] = Math.min(qcap[b]!, fitSum[b]!);
    total += room[b]!;
  }
  const nk = kept.length;
  const lp = s.lp;

  // (1) per node, over the entries grouped by node (a counting sort by node, sessions in input order),
  // their weights and credits moved in the sort: one pass of scattered writes, no scattered reads.
  const { first, at, groupedWeight, groupedCredit } = s;
  first.fill(0, 0, m + 1);
  for (let t = 0; t < entries; t++) first[entryNode[t]! + 1]!++;
  for (let b = 0; b < m; b++) first[b + 1]! += first[b]!;
  at.set(first.subarray(0, m));
  for (let t = 0; t < entries; t++) {
    const u = at[entryNode[t]!]!++;
    groupedWeight[u] = entryWeight[t]!;
    groupedCredit[u] = entryCredit[t]!;
  }
  let perNode = 0;
  for (let b = 0; b < m; b++) {
    const count = first[b + 1]! - first[b]!;
    if (count === 0) continue;
    const from = first[b]!;
    perNode += lp.over(
      groupedWeight.subarray(from, from + count),
      groupedCredit.subarray(from, from + count),
      count,
      room[b]!,
    );
  }
  let credit = Math.min(perNode, lp.over(wt, bestAt, nk, total));
  const level = stats?.creditLevel?.bound;
  if (level !== undefined && level < credit) credit = level;

  const readyWeights = Float64Array.from(
    kept.filter((i) => problem.ready[i] === 1),
    (i) => qweight[i]!,
  ).sort();
  let ready = 0;
  for (let used = 0; ready < readyWeights.length && used + readyWeights[ready]! <= total; ready++)
    used += readyWeights[ready]!;

  let tokens = lp.over(wt, tokensAt, nk, total);
  if (known !== undefined && known.credit > 0) {
    ready = Math.min(ready, withCredit(lp, wt, readyAt, bestAt, nk, total, known.credit));
    tokens = Math.min(tokens, withCredit(lp, wt, tokensAt, bestAt, nk, total, known.credit));
  }
  return { credit, ready, tokens };
}

/**
 * Units of work `packedBound` costs per kept (session, node) pair (a sort of each node's candidates: about
 * one heuristic's cost, docs/history.md); the solve charges it when it computes a fallback's bound.
 */
export const BOUND_PAIR_WORK = 40;

/**
 * Bounds on the ready and tokens levels of every plan of a packed problem (docs/solver.md, "The bound of a
 * credit-split fallback"), from its kept sessions, candidate pairs and DP capacities C'_b:
 * - ready: the least of (1) the most ready sessions whose w' fit in C = sum of C'_b together (the
 *   lightest first) and (2) the sum over nodes b of the most ready candidates of b that fit in C'_b
 *   together (a plan puts on b a set of b's candidates within C'_b);
 * - tokens: the least of (1) the Dantzig bound of one knapsack of capacity C over every kept session
 *   and (2) the sum over nodes b of the Dantzig bound of b's knapsack over its candidates.
 */
export function packedBound(packed: PackedProblem): Pick<PlanValue, 'ready' | 'tokens'> {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const w = packed.qweight;
  let total = 0;
  for (let b = 0; b < m; b++) total += packed.capacity[b]!;
  const all: number[] = [];
  for (let j = 0; j < n; j++) all.push(j);
  const lightestFit = (items: readonly number[], cap: number): number => {
    const weights = Float64Array.from(items, (j) => w[j]!).sort();
    let count = 0;
    for (let used = 0; count < weights.length && used + weights[count]! <= cap; count++) used += weights[count]!;
    return count;
  };
  const tokenOf = (j: number): number => packed.tokens[j]!;
  let readyPerNode = 0;
  let tokensPerNode = 0;
  for (let b = 0; b < m; b++) {
    const candidates: number[] = [];
    const ready: number[] = [];
    for (let j = 0; j < n; j++) {
      if (packed.candidate[j * m + b] !== 1) continue;
      candidates.push(j);
      if (packed.ready[j] === 1) ready.push(j);
    }
    readyPerNode += lightestFit(ready, packed.capacity[b]!);
    tokensPerNode += dantzig(candidates, w, tokenOf, packed.capacity[b]!);
  }
  return {
    ready: Math.min(
      readyPerNode,
      lightestFit(
        all.filter((j) => packed.ready[j] === 1),
        total,
      ),
    ),
    tokens: Math.min(tokensPerNode, dantzig(all, w, tokenOf, total)),
  };
}

/** Multipliers tried by `withCredit`, as multiples of the sessions' mean best credit per unit of the level. */
const CREDIT_SCALES = [0.25, 1, 4, 16];

/**
 * A bound on a level (`level(i)` per session) of every plan whose credit is at least `floor` (the optimum's
 * is: `floor` is a plan's credit): for an integer L >= 1, L * level + credit <= the Dantzig bound of the
 * knapsack of capacity `cap` worth L * level(i) + best(i) per session, so level <= floor((that - floor) / L).
 * A few L are tried (CREDIT_SCALES times the ratio of the sessions' mean best credit to their mean level),
 * each kept only while every value stays below 2^53 / sessions (exact sums); the least bound is returned.
 */
function withCredit(
  lp: LpScratch,
  wt: Float64Array,
  level: Float64Array,
  best: Float64Array,
  n: number,
  cap: number,
  floor: number,
): number {
  let levelSum = 0;
  let creditSum = 0;
  let top = 0;
  for (let t = 0; t < n; t++) {
    levelSum += level[t]!;
    creditSum += best[t]!;
    top = Math.max(top, level[t]!, best[t]!);
  }
  let out = Infinity;
  if (levelSum === 0) return out;
  for (const scale of CREDIT_SCALES) {
    const L = Math.max(1, Math.round((scale * creditSum) / levelSum));
    if ((L + 1) * (top + 1) * (n + 1) >= 2 ** 53) continue;
    for (let t = 0; t < n; t++) lp.v[t] = L * level[t]! + best[t]!;
    const bound = dantzigOf(wt, lp.v, n, cap, lp.ratio, lp.idx);
    out = Math.min(out, Math.floor((bound - floor) / L));
  }
  return out;
}

/** Working arrays of `dantzigOf` for up to `size` items: values to fill, and its own. */
class LpScratch {
  v: Float64Array;
  ratio: Float64Array;
  idx: Int32Array;

  constructor(size: number) {
    this.v = new Float64Array(size);
    this.ratio = new Float64Array(size);
    this.idx = new Int32Array(size);
  }

  /** The bound over the first `n` items of the given weights and values. */
  over(wt: Float64Array, v: Float64Array, n: number, cap: number): number {
    return dantzigOf(wt, v, n, cap, this.ratio, this.idx);
  }
}

/**
 * The relaxation bound's working arrays, grown on demand and kept by the caller between calls (it runs
 * synchronously and calls out to nothing): the fits (`pack`), per node, per session, per kept session
 * (item-aligned) and per credit entry.
 */
export class BoundScratch {
  readonly pack = new PackScratch();
  mark = new Int32Array(0);
  room = new Float64Array(0);
  first = new Int32Array(1);
  at = new Int32Array(0);
  wt = new Float64Array(0);
  bestAt = new Float64Array(0);
  readyAt = new Float64Array(0);
  tokensAt = new Float64Array(0);
  entryNode = new Int32Array(0);
  entryWeight = new Float64Array(0);
  entryCredit = new Float64Array(0);
  groupedWeight = new Float64Array(0);
  groupedCredit = new Float64Array(0);
  lp = new LpScratch(0);

  /** Grows the arrays to n sessions, m nodes and `entries` credit entries. */
  reserve(n: number, m: number, entries: number): this {
    if (this.mark.length < m) {
      this.mark = new Int32Array(2 * m);
      this.room = new Float64Array(2 * m);
      this.first = new Int32Array(2 * m + 1);
      this.at = new Int32Array(2 * m);
    }
    if (this.wt.length < n) {
      this.wt = new Float64Array(2 * n);
      this.bestAt = new Float64Array(2 * n);
      this.readyAt = new Float64Array(2 * n);
      this.tokensAt = new Float64Array(2 * n);
    }
    if (this.entryNode.length < entries) {
      this.entryNode = new Int32Array(2 * entries);
      this.entryWeight = new Float64Array(2 * entries);
      this.entryCredit = new Float64Array(2 * entries);
      this.groupedWeight = new Float64Array(2 * entries);
      this.groupedCredit = new Float64Array(2 * entries);
    }
    if (this.lp.v.length < Math.max(n, entries)) this.lp = new LpScratch(2 * Math.max(n, entries));
    return this;
  }
}

/**
 * An integer upper bound on the 0-1 knapsack over `items` (session indices) with weights `w` (positive
 * integers), values `value(i)` (non-negative integers) and capacity `cap`: Dantzig's bound, the floor of
 * the LP optimum. Computed as the LP dual at the critical ratio r = v_c / w_c (the least item ratio such that
 * the items strictly denser than it fit together): for every r >= 0 and every x in [0, 1]^n with sum w x <= cap,
 * sum v x = sum (v - r w) x + r sum w x <= r cap + sum max(0, v - r w), and the plan's value is an integer,
 * so the floor of that is a bound. It is valid for any r: the order (by rounded quotients) affects only how
 * tight it is, and at the exact critical ratio it equals the LP optimum. Exact for values summing below 2^53
 * (every caller's): the sum scaled by w_c, in doubles while every product stays below 2^53, else in BigInt.
 */
export function dantzig(
  items: readonly number[],
  w: ArrayLike<number>,
  value: (i: number) => number,
  cap: number,
): number {
  const n = items.length;
  const wt = new Float64Array(n);
  const v = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    wt[t] = w[items[t]!]!;
    v[t] = value(items[t]!);
  }
  return dantzigOf(wt, v, n, cap, new Float64Array(n), new Int32Array(n));
}

/**
 * `dantzig` over the first n items of item-aligned weights `wt` and values `v`, with `ratio` and `idx`
 * (at least n entries each) as working arrays: the same bound, computed without a call per item.
 */
function dantzigOf(
  wt: Float64Array,
  v: Float64Array,
  n: number,
  cap: number,
  ratio: Float64Array,
  idx: Int32Array,
): number {
  let total = 0;
  let vmax = 0;
  let wmax = 0;
  let wsum = 0;
  for (let t = 0; t < n; t++) {
    const w = wt[t]!;
    ratio[t] = v[t]! / w;
    total += v[t]!;
    wsum += w;
    if (v[t]! > vmax) vmax = v[t]!;
    if (w > wmax) wmax = w;
  }
  if (wsum <= cap) return total;
  const c = criticalItem(ratio, wt, n, cap, idx);
  const p = v[c]!;
  const q = wt[c]!;
  // bound = floor((p * cap + sum over items of max(0, v q - p w)) / q).
  if (vmax * q + p * Math.max(wmax, cap) + n * vmax * q < 2 ** 53) {
    let scaled = p * cap;
    for (let t = 0; t < n; t++) {
      const d = v[t]! * q - p * wt[t]!;
      if (d > 0) scaled += d;
    }
    return (scaled - (scaled % q)) / q;
  }
  const P = BigInt(p);
  const Q = BigInt(q);
  let scaled = P * BigInt(cap);
  for (let t = 0; t < n; t++) {
    // Only items at least about as dense as c can contribute (the rest have v q - p w < 0 for sure).
    if (ratio[t]! < ratio[c]! * (1 - 1e-9)) continue;
    const d = BigInt(v[t]!) * Q - P * BigInt(wt[t]!);
    if (d > 0n) scaled += d;
  }
  return Number(scaled / Q);
}

/**
 * An item of the critical ratio: one whose ratio r has the items strictly denser than r fitting within
 * `cap` and the items at least as dense as r not (there is one: the items do not all fit). A weighted
 * quickselect with three-way partitions: O(items) expected.
 */
function criticalItem(ratio: Float64Array, wt: Float64Array, n: number, cap: number, idx: Int32Array): number {
  for (let t = 0; t < n; t++) idx[t] = t;
  let lo = 0;
  let hi = n;
  let above = 0;
  for (;;) {
    const pivot = ratio[idx[lo + ((hi - lo) >>> 1)]!]!;
    // idx[lo, gt) denser than the pivot, [gt, i) as dense, [lt, hi) less dense.
    let gt = lo;
    let i = lo;
    let lt = hi;
    let denser = 0;
    let equal = 0;
    while (i < lt) {
      const t = idx[i]!;
      const r = ratio[t]!;
      if (r > pivot) {
        idx[i] = idx[gt]!;
        idx[gt++] = t;
        i++;
        denser += wt[t]!;
      } else if (r < pivot) {
        idx[i] = idx[--lt]!;
        idx[lt] = t;
      } else {
        i++;
        equal += wt[t]!;
      }
    }
    if (above + denser > cap) hi = gt;
    else if (above + denser + equal > cap) return idx[gt]!;
    else {
      above += denser + equal;
      lo = lt;
    }
  }
}
