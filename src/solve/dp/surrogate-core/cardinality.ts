/**
 * A ceiling on a 0-1 knapsack's optimum from the number of items that fit (after Martello, Pisinger and
 * Toth, "Dynamic programming and strong bounds for the 0-1 knapsack problem", Management Science 1999).
 *
 * Let kmax be the most items any set within the capacity C can hold: the kmax lightest items fit and the
 * kmax + 1 lightest do not, so no set of kmax + 1 items fits. For any lambda >= 0 and any feasible set X,
 *
 *   p(X) = sum over X of (p_j - lambda) + lambda |X| <= LP_lambda + lambda kmax,
 *
 * where LP_lambda is the linear relaxation of the knapsack with profits p_j - lambda. For any mu >= 0,
 * linear duality bounds LP_lambda by mu C + sum_j max(0, p_j - lambda - mu w_j); with mu = q_f / w_f for
 * an item f with q_f = p_f - lambda > 0, times w_f:
 *
 *   ceiling(lambda, f) = lambda kmax + floor((q_f C + sum_j max(0, q_j w_f - q_f w_j)) / w_f),
 *
 * an integer upper bound for every lambda and f, computed in exact integer arithmetic (it is not used
 * where a product could reach 2^53). The optimum is integral, hence the floor. The lambda that minimises
 * the relaxation is where the relaxation's item count crosses kmax (the count falls as lambda grows);
 * it is found by bisection over integers, with f the relaxation's break item; any lambda and f found
 * that way gives a valid ceiling, the search only makes it tight.
 *
 * On strongly correlated items (p_j = w_j + K) lambda = K makes every q_j / w_j equal to 1, and the
 * ceiling is C + K kmax: the DP's best set usually reaches it, and stops there, where Dantzig's bound
 * (up to K higher) would have the DP prove it over every state.
 */
import { EXACT } from '../../exact.js';

/** The working arrays of the ceiling (grown on demand; the caller keeps them between calls): item ids and their efficiencies for the selection, and weights. */
export class CardinalityScratch {
  ids = new Int32Array(64);
  eff = new Float64Array(64);
  weights = new Float64Array(64);
}

/** The most of `items` (positions 0..k-1, ids into w) that fit `cap` together. */
function mostThatFit(
  items: ArrayLike<number>,
  k: number,
  w: ArrayLike<number>,
  cap: number,
  s: CardinalityScratch,
): number {
  if (s.weights.length < k) s.weights = new Float64Array(Math.max(k, s.weights.length * 2));
  const ws = s.weights.subarray(0, k);
  for (let x = 0; x < k; x++) ws[x] = w[items[x]!]!;
  ws.sort();
  let sum = 0;
  let n = 0;
  while (n < k && sum + ws[n]! <= cap) sum += ws[n++]!;
  return n;
}

/** A linear relaxation's break item (-1: none), item count (the break item's fraction included) and value (in f64). */
interface Relaxed {
  readonly f: number;
  readonly count: number;
  readonly value: number;
}

/**
 * The linear relaxation with profits p - lambda: its break item (the first that does not fit whole, -1 if
 * all fit) and how many items it takes (the break item's fraction included). Found by a weighted
 * selection on the efficiencies (expected linear time, where a sort per lambda costs n log n), not
 * a sort: the items strictly more efficient than a pivot go in whole when they fit together, else the
 * break is among them; items as efficient as the pivot go in one by one.
 */
function relaxation(
  items: ArrayLike<number>,
  k: number,
  p: ArrayLike<number>,
  w: ArrayLike<number>,
  cap: number,
  lambda: number,
  s: CardinalityScratch,
): Relaxed {
  if (s.ids.length < k) {
    s.ids = new Int32Array(Math.max(k, s.ids.length * 2));
    s.eff = new Float64Array(s.ids.length);
  }
  const { ids, eff } = s;
  let hi = 0;
  for (let x = 0; x < k; x++) {
    const j = items[x]!;
    if (p[j]! > lambda) {
      ids[hi] = j;
      eff[hi++] = (p[j]! - lambda) / w[j]!;
    }
  }
  let lo = 0;
  let room = cap;
  let count = 0;
  let value = 0;
  while (lo < hi) {
    // Three-way partition of [lo, hi) around the middle entry's efficiency: above | equal | below.
    const pivot = eff[(lo + hi) >> 1]!;
    let a = lo;
    let i = lo;
    let b = hi;
    while (i < b) {
      const e = eff[i]!;
      if (e > pivot) swapEntries(ids, eff, i++, a++);
      else if (e < pivot) swapEntries(ids, eff, i, --b);
      else i++;
    }
    let above = 0;
    let gain = 0;
    for (let x = lo; x < a; x++) {
      above += w[ids[x]!]!;
      gain += p[ids[x]!]! - lambda;
    }
    if (above > room) {
      hi = a;
      continue;
    }
    room -= above;
    value += gain;
    count += a - lo;
    for (let x = a; x < b; x++) {
      const j = ids[x]!;
      if (w[j]! > room) return { f: j, count: count + room / w[j]!, value: value + pivot * room };
      room -= w[j]!;
      value += p[j]! - lambda;
      count++;
    }
    lo = b;
  }
  return { f: -1, count, value };
}

/** Swaps two entries of the selection's scratch. */
function swapEntries(ids: Int32Array, eff: Float64Array, i: number, j: number): void {
  const id = ids[i]!;
  ids[i] = ids[j]!;
  ids[j] = id;
  const e = eff[i]!;
  eff[i] = eff[j]!;
  eff[j] = e;
}

/**
 * ceiling(lambda, f) of the module comment (f = -1, when every item with q_j > 0 fits: mu = 0, lambda kmax
 * plus the sum of the positive q_j), or +Infinity where it is not exact.
 */
function ceilingAt(
  items: ArrayLike<number>,
  k: number,
  p: ArrayLike<number>,
  w: ArrayLike<number>,
  cap: number,
  kmax: number,
  lambda: number,
  f: number,
): number {
  if (lambda * kmax >= EXACT) return Number.POSITIVE_INFINITY;
  if (f < 0) {
    let sum = lambda * kmax;
    for (let x = 0; x < k; x++) sum += Math.max(0, p[items[x]!]! - lambda);
    return sum < EXACT ? sum : Number.POSITIVE_INFINITY;
  }
  const qf = p[f]! - lambda;
  const wf = w[f]!;
  let num = qf * cap;
  if (num >= EXACT) return Number.POSITIVE_INFINITY;
  for (let x = 0; x < k; x++) {
    const j = items[x]!;
    const a = (p[j]! - lambda) * wf;
    const b = qf * w[j]!;
    if (Math.abs(a) >= EXACT || b >= EXACT) return Number.POSITIVE_INFINITY;
    if (a > b) num += a - b;
  }
  if (num >= EXACT) return Number.POSITIVE_INFINITY;
  let q = Math.floor(num / wf);
  while (q * wf > num) q--;
  while ((q + 1) * wf <= num) q++;
  return lambda * kmax + q;
}

/**
 * The cardinality ceiling of the module comment on `items` (positions 0..k-1 in any order, ids into p and
 * w, profits and weights positive integers) within `cap`; +Infinity when no exact one was found.
 */
export function cardinalityCeiling(
  items: ArrayLike<number>,
  k: number,
  p: ArrayLike<number>,
  w: ArrayLike<number>,
  cap: number,
  s: CardinalityScratch = new CardinalityScratch(),
): number {
  const kmax = mostThatFit(items, k, w, cap, s);
  if (kmax === k) return Number.POSITIVE_INFINITY;
  let lo = 0;
  let atLo = relaxation(items, k, p, w, cap, 0, s);
  if (atLo.count <= kmax) return ceilingAt(items, k, p, w, cap, kmax, 0, atLo.f);
  // The relaxation's value is convex and piecewise linear in lambda, with slope kmax - count (count falls
  // as lambda grows): at the largest profit nothing is left and the slope is kmax > 0. Between a lambda of
  // negative slope (lo) and one of non-negative slope (hi), the next is where their tangents meet (Kelley's
  // cutting planes in one dimension: a few steps on a piecewise-linear function), kept strictly inside,
  // until hi = lo + 1: the integer minimum is at one of them.
  let hi = 0;
  for (let x = 0; x < k; x++) hi = Math.max(hi, p[items[x]!]!);
  let atHi = relaxation(items, k, p, w, cap, hi, s);
  const L = (lambda: number, r: Relaxed): number => lambda * kmax + r.value;
  // A step that kept more than half of the interval is followed by a bisection step, so the steps are at
  // most about twice those of bisection.
  let halve = false;
  while (hi - lo > 1) {
    const width = hi - lo;
    const sLo = kmax - atLo.count;
    const sHi = kmax - atHi.count;
    const meet = halve ? (lo + hi) / 2 : (L(hi, atHi) - L(lo, atLo) + sLo * lo - sHi * hi) / (sLo - sHi);
    const mid = Math.min(hi - 1, Math.max(lo + 1, Math.round(meet)));
    const at = relaxation(items, k, p, w, cap, mid, s);
    if (at.count > kmax) {
      lo = mid;
      atLo = at;
    } else {
      hi = mid;
      atHi = at;
    }
    halve = !halve && 2 * (hi - lo) > width;
  }
  return Math.min(ceilingAt(items, k, p, w, cap, kmax, lo, atLo.f), ceilingAt(items, k, p, w, cap, kmax, hi, atHi.f));
}
