/**
 * An exact 0-1 knapsack by dynamic programming over an expanding core (Pisinger's minimal-core idea,
 * "A minimal algorithm for the 0-1 knapsack problem", Operations Research 1997), used as the surrogate
 * relaxation of the multiple-knapsack path.
 *
 * Items come in efficiency order (profit / weight descending). The break solution takes the longest
 * prefix that fits; the DP then decides items outward from the break item, alternately whether to add
 * the next item after the core (t = b, b+1, ...) and whether to remove the next item before it
 * (s = b-1, b-2, ...). A state is (weight, profit) of the break solution with the decided items toggled;
 * items before s are still in, items after t still out.
 *
 * - Dominance: of two states, one that weighs no more and is worth at least as much completes every way
 *   the other can, at least as well; each layer keeps weights ascending with profits strictly ascending.
 * - Bound (Dantzig's bound on the core's completion): every item still addable has efficiency at most
 *   e_t (the next to add), every item still removable at least e_s (the next to remove). A completion that
 *   removes a set A and adds a set B is worth at most v - e_s w(A) + e_t w(B). When w <= C, w(B) <=
 *   C - w + w(A) and e_s >= e_t give v + e_t (C - w); when w > C, w(A) >= w - C + w(B) gives
 *   v - e_s (w - C) (and nothing when no item is left to remove). A state whose bound does not exceed the
 *   best feasible value found (or the caller's threshold) is dropped. The bounds are rounded outward
 *   (exactly while the products stay below 2^53, else with UP covering the f64 roundings), so no state that could beat the threshold is lost.
 * - Swap bound (whole removals, after Martello and Toth's bounds on the next item): let M be the least of
 *   p_j - e_t w_j over the items j still removable (each term is at least 0, since e_j >= e_s >= e_t), with
 *   e_t = 0 when nothing is addable. A completion removing A and adding B with w(A) > 0 is worth at most
 *   v + e_t w(B) - p(A) <= v + e_t (w(B) - w(A)) - M. A state over the capacity by o must remove, with
 *   w(B) - w(A) <= -o: it is worth at most v - e_t o - M. A state within the capacity whose room is below
 *   every addable item's weight gains nothing without a removal, and with one, w(B) - w(A) <= C - w gives
 *   at most v + e_t (C - w) - M. A state is dropped when either its Dantzig bound or its swap bound does
 *   not beat the best value; the swap bound is compared in exact integers (times w_t) and not used where a
 *   product reaches 2^53 or M is 0 (as when every efficiency is equal). On pools where a session's
 *   value is its weight less a fixed reserve, most states are over the capacity by less than one item; the
 *   Dantzig bound charges them e_s per unit of excess, this one the whole item they must give up.
 * - Layer test: before a layer merges, a scan of the list checks whether any moved state would pass its
 *   Dantzig bound; when none would, the item keeps its break-solution side in every state and the layer
 *   costs nothing (late layers where every move is beyond reach, on near-fitting pools).
 * - Pairing (after Martello, Pisinger and Toth's improved lower bound, Management Science 1999): after a
 *   layer of at least PAIR_STATES states merges, each item outside the core is paired with the heaviest
 *   state it can join: an item after the core (out of every state) with the heaviest state within
 *   C - w_j, an item before it (in every state) taken out of the heaviest state within C + w_j. Each pair
 *   is a feasible set; one worth more than the best becomes the best (its history entry toggles the
 *   item). Items are scanned after the core first, then before it, each in position order.
 * - Ceiling: the DP ends as soon as the best value reaches a proven ceiling on the optimum (no state can
 *   beat it): Dantzig's bound of the whole problem from the start, lowered to the cardinality ceiling
 *   (src/solve/dp/surrogate-core/cardinality.ts) once the layers merged so far generated CEILING_STATES states. On
 *   strongly correlated items the pairs reach that ceiling within a few hundred states, where the layers
 *   alone need hundreds of thousands to prove it.
 *
 * Values are integers whose total stays below 2^53 (checked by the caller), so sums are exact.
 */
import { EXACT, UP } from '../../exact.js';
import type { WorkMeter } from '../../mkp/meter.js';
import { cardinalityCeiling } from './cardinality.js';
import {
  CEILING_STATES,
  type CoreEnd,
  type CoreStart,
  capHalt,
  historyPath,
  KNAPSACK_MAX_HISTORY,
  KNAPSACK_MAX_STATES,
  type KnapsackCounters,
  PAIR_STATES,
} from './engine.js';
import type { KnapsackScratch } from './setup.js';

/**
 * ceil(a * p / w) for non-negative integers (w > 0): exact when a * p < 2^53 (the quotient corrected by
 * exact products), else an upper bound (the f64 product and quotient scaled by UP).
 */
export function ceilRatio(a: number, p: number, w: number): number {
  const num = a * p;
  if (num >= 2 ** 53) return Math.ceil((num / w) * UP);
  let q = Math.floor(num / w);
  while (q * w < num) q++;
  while (q > 0 && (q - 1) * w >= num) q--;
  return q;
}

/** floor(a * p / w) for non-negative integers (w > 0): exact when a * p < 2^53, else a lower bound. */
export function floorRatio(a: number, p: number, w: number): number {
  const num = a * p;
  if (num >= 2 ** 53) return Math.floor(num / w / UP);
  let q = Math.floor(num / w);
  while (q * w > num) q--;
  while ((q + 1) * w <= num) q++;
  return q;
}

/**
 * The swap bound's term: the least p_j wAdd - pAdd w_j over the items at positions 0..s (exact integers),
 * or -1 when the bound is not used: a product reaches 2^53, a term is negative, or a term is 0 (then the
 * swap bound is no tighter than the Dantzig bound, as on items of equal efficiency).
 */
function swapTerm(
  items: ArrayLike<number>,
  s: number,
  p: ArrayLike<number>,
  w: ArrayLike<number>,
  pAdd: number,
  wAdd: number,
): number {
  let least = Number.POSITIVE_INFINITY;
  for (let x = 0; x <= s; x++) {
    const a = p[items[x]!]! * wAdd;
    const c = pAdd * w[items[x]!]!;
    if (a >= EXACT || c >= EXACT || a <= c) return -1;
    if (a - c < least) least = a - c;
  }
  return least;
}

/**
 * Whether no state of the list (weights `sw` ascending, values `sv`, `count` of them) moved by (dw, dv)
 * can be kept, by the Dantzig bound alone (see the module comment): a moved state of value v and room r is
 * kept only if, within the capacity, v + r e_t > z (v > z when nothing is addable: pAdd 0, wAdd 1) and,
 * over it, an item is left to remove and v - o e_s > z (o = -r). Weights ascend, so the moved states within
 * the capacity come first (found by bisection). Compared in exact integers, times the item's weight: each
 * state's v w - w_x p against what a moved state needs on its side; false (the layer merges) where a
 * product could reach 2^53.
 */
export function movesBeyondReach(
  sw: ArrayLike<number>,
  sv: ArrayLike<number>,
  count: number,
  cap: number,
  z: number,
  dw: number,
  dv: number,
  pAdd: number,
  wAdd: number,
  canRemove: boolean,
  pRemove: number,
  wRemove: number,
): boolean {
  const reach = sv[count - 1]! + Math.abs(dv) + Math.abs(z);
  const far = sw[count - 1]! + cap + Math.abs(dw);
  if (!(reach * wAdd + far * pAdd < EXACT && reach * wRemove + far * pRemove < EXACT)) return false;
  // The first state whose move passes the capacity; the scans start next to it, where the states that
  // pass their bounds usually are.
  const over = heaviestWithin(sw, count, cap - dw) + 1;
  const needAdd = z * wAdd - dv * wAdd - (cap - dw) * pAdd;
  for (let x = over - 1; x >= 0; x--) if (sv[x]! * wAdd - sw[x]! * pAdd > needAdd) return false;
  if (!canRemove) return true;
  const needRemove = z * wRemove - dv * wRemove - (cap - dw) * pRemove;
  for (let x = over; x < count; x++) if (sv[x]! * wRemove - sw[x]! * pRemove > needRemove) return false;
  return true;
}

/** The last of the first `count` weights (ascending) that is at most `limit`, -1 for none. */
function heaviestWithin(sw: ArrayLike<number>, count: number, limit: number): number {
  let lo = 0;
  for (let hi = count; lo < hi; ) {
    const mid = (lo + hi) >> 1;
    if (sw[mid]! <= limit) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The core DP from the break solution (see the module comment); the TypeScript mirror of the kernel's. */
export function coreDp(
  items: ArrayLike<number>,
  k: number,
  p: ArrayLike<number>,
  w: ArrayLike<number>,
  start: CoreStart,
  meter: WorkMeter,
  scratch: KnapsackScratch,
  counters: KnapsackCounters,
): CoreEnd {
  const { b, cap } = start;
  let { z, bestH, bestW } = start;
  scratch.states(2);
  scratch.sw[0] = start.bw;
  scratch.sv[0] = start.bv;
  scratch.sh[0] = -1;
  // The swap bound needs two efficiencies to differ (with equal ones every term M is 0; see swapTerm).
  const swapping = p[items[0]!]! * w[items[k - 1]!]! !== p[items[k - 1]!]! * w[items[0]!]!;
  // The lightest weight among the items from position x on (x = k: none).
  scratch.lightest(k + 1);
  const lightest = scratch.light;
  lightest[k] = Number.POSITIVE_INFINITY;
  for (let x = k - 1; x >= 0; x--) lightest[x] = Math.min(lightest[x + 1]!, w[items[x]!]!);
  let count = 1;
  let hist = 0;
  let s = b - 1;
  let t = b;
  let adding = true;
  let ceiling = start.ceiling;
  let atCeiling = false;
  // States generated so far; whether the cardinality ceiling was computed; the least list the next pairing needs.
  let made = 0;
  let asked = false;
  let pairAt = PAIR_STATES;
  for (;;) {
    if (!(count > 0 && (s >= 0 || t < k))) break;
    if (z >= ceiling) {
      atCeiling = true;
      break;
    }
    if (!asked && made >= CEILING_STATES) {
      asked = true;
      ceiling = Math.min(ceiling, cardinalityCeiling(items, k, p, w, cap, scratch.cardinality));
      continue;
    }
    // Alternate the two directions while both have items left.
    if (adding ? t >= k : s < 0) adding = !adding;
    const pos = adding ? t : s;
    const item = items[pos]!;
    const dw = adding ? w[item]! : -w[item]!;
    const dv = adding ? p[item]! : -p[item]!;
    if (adding) t++;
    else s--;
    adding = !adding;
    const canAdd = t < k;
    const canRemove = s >= 0;
    const pAdd = canAdd ? p[items[t]!]! : 0;
    const wAdd = canAdd ? w[items[t]!]! : 1;
    const pRemove = canRemove ? p[items[s]!]! : 0;
    const wRemove = canRemove ? w[items[s]!]! : 1;
    // No moved state can beat z when the best value moved plus the bound of the most room left does
    // not (values ascend with weights, so the last state has the best value, the first the most room):
    // the item keeps its break-solution side in every state, and the layer costs nothing.
    const roomMost = Math.max(0, cap - scratch.sw[0]! - dw);
    if (scratch.sv[count - 1]! + dv + (canAdd ? ceilRatio(roomMost, pAdd, wAdd) : 0) <= z) continue;
    // Nor when no moved state passes its Dantzig bound (a scan of the list, no merge).
    if (movesBeyondReach(scratch.sw, scratch.sv, count, cap, z, dw, dv, pAdd, wAdd, canRemove, pRemove, wRemove))
      continue;

    // The swap bound's M times wAdd (computed when a state first needs it, see swapTerm); -2 while not
    // computed.
    let swap = -2;
    const roomless = lightest[t]!;

    meter.spend(2 * count);
    counters.states += 2 * count;
    made += 2 * count;
    if (2 * count > KNAPSACK_MAX_STATES || hist + 2 * count > KNAPSACK_MAX_HISTORY) throw capHalt();
    scratch.states(2 * count);
    // The merge writes at most one history entry per state, the pairing after it at most one per item.
    scratch.history(hist + 2 * count + k);
    const { sw, sv, sh, tw, tv, th, hItem, hParent } = scratch;
    // Merge the old list (x) with the moved list (y), both by weight ascending, into the next list:
    // non-dominated (each value above every value of a lighter state merged before it, kept or not: a
    // state dominated by a dropped one has no larger bound) and with a bound above z.
    let x = 0;
    let y = 0;
    let out = 0;
    let lastV = Number.NEGATIVE_INFINITY;
    // The heads of both lists (weight +Infinity once a list is spent).
    let wx = sw[0]!;
    let vx = sv[0]!;
    let wy = wx + dw;
    let vy = vx + dv;
    // Merge steps left before the next halting check.
    let poll = scratch.pollSteps;
    while (x < count || y < count) {
      if (poll-- === 0) {
        meter.poll();
        poll = scratch.pollSteps - 1;
      }
      let ww: number;
      let vv: number;
      let hh: number;
      if (wy < wx || (wy === wx && vy > vx)) {
        ww = wy;
        vv = vy;
        hh = -3 - y; // a new state: its history entry is written once it is kept or best
        y++;
        if (y < count) {
          wy = sw[y]! + dw;
          vy = sv[y]! + dv;
        } else wy = Number.POSITIVE_INFINITY;
      } else {
        ww = wx;
        vv = vx;
        hh = sh[x]!;
        x++;
        if (x < count) {
          wx = sw[x]!;
          vx = sv[x]!;
        } else wx = Number.POSITIVE_INFINITY;
      }
      if (vv <= lastV) continue;
      lastV = vv;
      let keep: boolean;
      if (ww <= cap) {
        if (vv > z) {
          if (hh <= -3) {
            hItem[hist] = pos;
            hParent[hist] = sh[-3 - hh]!;
            hh = hist++;
          }
          z = vv;
          bestH = hh;
          bestW = ww;
        }
        // Bound v + ceil(r pAdd / wAdd) > z, i.e. r pAdd > (z - v) wAdd (integers).
        const gap = z - vv;
        const r = cap - ww;
        if (!canAdd) keep = gap < 0;
        else if (gap < 0) keep = true;
        else {
          const l = r * pAdd;
          const g = gap * wAdd;
          keep = l < EXACT && g < EXACT ? l > g : ceilRatio(r, pAdd, wAdd) > gap;
          // No addable item fits the room: the swap bound v + (r pAdd - M wAdd) / wAdd > z.
          if (keep && swapping && r < roomless) {
            if (!canRemove) keep = false;
            else if (
              l < EXACT &&
              g < EXACT &&
              (swap === -2 ? (swap = swapTerm(items, s, p, w, pAdd, wAdd)) : swap) >= 0 &&
              l - swap <= g
            ) {
              keep = false;
              scratch.swapCuts++;
            }
          }
        }
      } else if (!canRemove) keep = false;
      else {
        // Bound v - floor(o pRemove / wRemove) > z, i.e. o pRemove < (v - z) wRemove (integers).
        const gap = vv - z;
        const o = ww - cap;
        if (gap <= 0) keep = false;
        else {
          const l = o * pRemove;
          const g = gap * wRemove;
          keep = l < EXACT && g < EXACT ? l < g : floorRatio(o, pRemove, wRemove) < gap;
          // The swap bound v - (o pAdd + M wAdd) / wAdd > z, i.e. (v - z) wAdd > o pAdd + M wAdd.
          if (keep && swapping && (swap === -2 ? (swap = swapTerm(items, s, p, w, pAdd, wAdd)) : swap) >= 0) {
            const lhs = gap * wAdd;
            const rhs = o * pAdd + swap;
            if (lhs < EXACT && rhs < EXACT && lhs <= rhs) {
              keep = false;
              scratch.swapCuts++;
            }
          }
        }
      }
      if (!keep) continue;
      if (hh <= -3) {
        hItem[hist] = pos;
        hParent[hist] = sh[-3 - hh]!;
        hh = hist++;
      }
      tw[out] = ww;
      tv[out] = vv;
      th[out] = hh;
      out++;
    }
    // The next list becomes the current one.
    scratch.sw = tw;
    scratch.sv = tv;
    scratch.sh = th;
    scratch.tw = sw;
    scratch.tv = sv;
    scratch.th = sh;
    count = out;
    if (count >= pairAt) {
      // Pairing (see the module comment), on lists that doubled since the last one.
      pairAt = 2 * count;
      for (let x = t; x < k; x++) {
        const j = heaviestWithin(tw, count, cap - w[items[x]!]!);
        if (j >= 0 && tv[j]! + p[items[x]!]! > z) {
          z = tv[j]! + p[items[x]!]!;
          bestW = tw[j]! + w[items[x]!]!;
          hItem[hist] = x;
          hParent[hist] = th[j]!;
          bestH = hist++;
        }
      }
      for (let x = 0; x <= s; x++) {
        const j = heaviestWithin(tw, count, cap + w[items[x]!]!);
        if (j >= 0 && tv[j]! - p[items[x]!]! > z) {
          z = tv[j]! - p[items[x]!]!;
          bestW = tw[j]! - w[items[x]!]!;
          hItem[hist] = x;
          hParent[hist] = th[j]!;
          bestH = hist++;
        }
      }
    }
  }
  const { hItem, hParent } = scratch;
  return {
    z,
    atCeiling,
    bestH,
    bestW,
    toggled: historyPath(
      bestH,
      (e) => hItem[e]!,
      (e) => hParent[e]!,
    ),
  };
}
