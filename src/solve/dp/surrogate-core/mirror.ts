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

/**
 * The core DP from the break solution (see the module comment); the TypeScript mirror of the kernel's.
 * Null when the meter halted (its budget, its halting check, or the memory cap).
 */
export function coreDp(
  items: ArrayLike<number>,
  k: number,
  p: ArrayLike<number>,
  w: ArrayLike<number>,
  start: CoreStart,
  meter: WorkMeter,
  scratch: KnapsackScratch,
  counters: KnapsackCounters,
): CoreEnd | null {
  return new CoreRun(items, k, p, w, start, meter, scratch, counters).run();
}

/** The item a layer decides, whether it moves in or out, and the efficiencies of the next items each way. */
interface CoreLayer {
  /** Its position in the item list, and the move of a state that toggles it. */
  readonly pos: number;
  readonly dw: number;
  readonly dv: number;
  readonly canAdd: boolean;
  readonly canRemove: boolean;
  /** The next item to add (pAdd 0, wAdd 1 when none) and to remove (likewise). */
  readonly pAdd: number;
  readonly wAdd: number;
  readonly pRemove: number;
  readonly wRemove: number;
  /** The lightest item still addable: a state with less room gains nothing without a removal. */
  readonly roomless: number;
}

/** One run of the core DP: its lists live in the scratch, its best state and history counters here. */
class CoreRun {
  readonly #cap: number;
  /** The swap bound needs two efficiencies to differ (with equal ones every term M is 0; see swapTerm). */
  readonly #swapping: boolean;
  z: number;
  bestH: number;
  bestW: number;
  /** States in the current list, history entries written, the next positions to remove and to add. */
  count = 1;
  hist = 0;
  s: number;
  t: number;
  adding = true;
  ceiling: number;
  atCeiling = false;
  /** States generated so far; whether the cardinality ceiling was computed; the least list the next pairing needs. */
  made = 0;
  asked = false;
  pairAt = PAIR_STATES;
  /** The swap bound's M times wAdd for the layer merging (see swapTerm); -2 while not computed. */
  swap = -2;

  constructor(
    readonly items: ArrayLike<number>,
    readonly k: number,
    readonly p: ArrayLike<number>,
    readonly w: ArrayLike<number>,
    start: CoreStart,
    readonly meter: WorkMeter,
    readonly scratch: KnapsackScratch,
    readonly counters: KnapsackCounters,
  ) {
    this.#cap = start.cap;
    ({ z: this.z, bestH: this.bestH, bestW: this.bestW, ceiling: this.ceiling } = start);
    this.s = start.b - 1;
    this.t = start.b;
    scratch.states(2);
    scratch.sw[0] = start.bw;
    scratch.sv[0] = start.bv;
    scratch.sh[0] = -1;
    this.#swapping = p[items[0]!]! * w[items[k - 1]!]! !== p[items[k - 1]!]! * w[items[0]!]!;
    // The lightest weight among the items from position x on (x = k: none).
    scratch.lightest(k + 1);
    const lightest = scratch.light;
    lightest[k] = Number.POSITIVE_INFINITY;
    for (let x = k - 1; x >= 0; x--) lightest[x] = Math.min(lightest[x + 1]!, w[items[x]!]!);
  }

  /** Layers until none is left, the list is empty or the best value reaches the ceiling; the best state (null: the meter halted). */
  run(): CoreEnd | null {
    const { items, k, p, w, scratch } = this;
    for (;;) {
      if (!(this.count > 0 && (this.s >= 0 || this.t < k))) break;
      if (this.z >= this.ceiling) {
        this.atCeiling = true;
        break;
      }
      if (!this.asked && this.made >= CEILING_STATES) {
        this.asked = true;
        this.ceiling = Math.min(this.ceiling, cardinalityCeiling(items, k, p, w, this.#cap, scratch.cardinality));
        continue;
      }
      const layer = this.nextLayer();
      if (this.beyondReach(layer)) continue;
      if (!this.pay() || !this.merge(layer)) return null;
      if (this.count >= this.pairAt) this.pair();
    }
    const { hItem, hParent } = scratch;
    return {
      z: this.z,
      atCeiling: this.atCeiling,
      bestH: this.bestH,
      bestW: this.bestW,
      toggled: historyPath(
        this.bestH,
        (e) => hItem[e]!,
        (e) => hParent[e]!,
      ),
    };
  }

  /** The next item to decide, alternating the two directions while both have items left. */
  nextLayer(): CoreLayer {
    const { items, k, p, w } = this;
    if (this.adding ? this.t >= k : this.s < 0) this.adding = !this.adding;
    const adding = this.adding;
    const pos = adding ? this.t : this.s;
    const item = items[pos]!;
    if (adding) this.t++;
    else this.s--;
    this.adding = !adding;
    const { s, t } = this;
    const canAdd = t < k;
    const canRemove = s >= 0;
    return {
      pos,
      dw: adding ? w[item]! : -w[item]!,
      dv: adding ? p[item]! : -p[item]!,
      canAdd,
      canRemove,
      pAdd: canAdd ? p[items[t]!]! : 0,
      wAdd: canAdd ? w[items[t]!]! : 1,
      pRemove: canRemove ? p[items[s]!]! : 0,
      wRemove: canRemove ? w[items[s]!]! : 1,
      roomless: this.scratch.light[t]!,
    };
  }

  /**
   * Whether no moved state of the layer can beat z, so the item keeps its break-solution side in every
   * state and the layer costs nothing: when the best value moved plus the bound of the most room left does
   * not (values ascend with weights, so the last state has the best value, the first the most room), or
   * when no moved state passes its Dantzig bound (a scan of the list, no merge).
   */
  beyondReach(l: CoreLayer): boolean {
    const { scratch, count, z } = this;
    const cap = this.#cap;
    const roomMost = Math.max(0, cap - scratch.sw[0]! - l.dw);
    if (scratch.sv[count - 1]! + l.dv + (l.canAdd ? ceilRatio(roomMost, l.pAdd, l.wAdd) : 0) <= z) return true;
    return movesBeyondReach(
      scratch.sw,
      scratch.sv,
      count,
      cap,
      z,
      l.dw,
      l.dv,
      l.pAdd,
      l.wAdd,
      l.canRemove,
      l.pRemove,
      l.wRemove,
    );
  }

  /** Pays for the layer's states (one unit each) and makes room for them, within the caps; false when the meter halted. */
  pay(): boolean {
    const { scratch, count } = this;
    if (!this.meter.spend(2 * count)) return false;
    this.counters.states += 2 * count;
    this.made += 2 * count;
    if (2 * count > KNAPSACK_MAX_STATES || this.hist + 2 * count > KNAPSACK_MAX_HISTORY)
      return this.meter.stop(capHalt());
    scratch.states(2 * count);
    // The merge writes at most one history entry per state, the pairing after it at most one per item.
    scratch.history(this.hist + 2 * count + this.k);
    return true;
  }

  /**
   * Merges the old list (x) with the moved list (y), both by weight ascending, into the next list:
   * non-dominated (each value above every value of a lighter state merged before it, kept or not: a state
   * dominated by a dropped one has no larger bound) and with a bound above z; the next list becomes the
   * current one. False when the halting check said stop inside the layer.
   */
  merge(l: CoreLayer): boolean {
    const { scratch, count } = this;
    const { sw, sv, sh, tw, tv, th, hItem, hParent } = scratch;
    const cap = this.#cap;
    this.swap = -2;
    let x = 0;
    let y = 0;
    let out = 0;
    let lastV = Number.NEGATIVE_INFINITY;
    // The heads of both lists (weight +Infinity once a list is spent).
    let wx = sw[0]!;
    let vx = sv[0]!;
    let wy = wx + l.dw;
    let vy = vx + l.dv;
    // Merge steps left before the next halting check.
    let poll = scratch.pollSteps;
    while (x < count || y < count) {
      if (poll-- === 0) {
        if (!this.meter.poll()) return false;
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
          wy = sw[y]! + l.dw;
          vy = sv[y]! + l.dv;
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
        if (vv > this.z) {
          if (hh <= -3) {
            hItem[this.hist] = l.pos;
            hParent[this.hist] = sh[-3 - hh]!;
            hh = this.hist++;
          }
          this.z = vv;
          this.bestH = hh;
          this.bestW = ww;
        }
        keep = this.keepsWithin(l, vv, cap - ww);
      } else keep = this.keepsOver(l, vv, ww - cap);
      if (!keep) continue;
      if (hh <= -3) {
        hItem[this.hist] = l.pos;
        hParent[this.hist] = sh[-3 - hh]!;
        hh = this.hist++;
      }
      tw[out] = ww;
      tv[out] = vv;
      th[out] = hh;
      out++;
    }
    scratch.sw = tw;
    scratch.sv = tv;
    scratch.sh = th;
    scratch.tw = sw;
    scratch.tv = sv;
    scratch.th = sh;
    this.count = out;
    return true;
  }

  /** The swap bound's term for the layer, computed when a state first needs it. */
  swapTerm(l: CoreLayer): number {
    if (this.swap === -2) this.swap = swapTerm(this.items, this.s, this.p, this.w, l.pAdd, l.wAdd);
    return this.swap;
  }

  /** Whether a state of value v within the capacity, with room r, passes its bounds. */
  keepsWithin(l: CoreLayer, v: number, r: number): boolean {
    // Bound v + ceil(r pAdd / wAdd) > z, i.e. r pAdd > (z - v) wAdd (integers).
    const gap = this.z - v;
    if (!l.canAdd) return gap < 0;
    if (gap < 0) return true;
    const lhs = r * l.pAdd;
    const g = gap * l.wAdd;
    let keep = lhs < EXACT && g < EXACT ? lhs > g : ceilRatio(r, l.pAdd, l.wAdd) > gap;
    // No addable item fits the room: the swap bound v + (r pAdd - M wAdd) / wAdd > z.
    if (keep && this.#swapping && r < l.roomless) {
      if (!l.canRemove) keep = false;
      else if (lhs < EXACT && g < EXACT && this.swapTerm(l) >= 0 && lhs - this.swap <= g) {
        keep = false;
        this.scratch.swapCuts++;
      }
    }
    return keep;
  }

  /** Whether a state of value v over the capacity by o passes its bounds. */
  keepsOver(l: CoreLayer, v: number, o: number): boolean {
    if (!l.canRemove) return false;
    // Bound v - floor(o pRemove / wRemove) > z, i.e. o pRemove < (v - z) wRemove (integers).
    const gap = v - this.z;
    if (gap <= 0) return false;
    const lhs = o * l.pRemove;
    const g = gap * l.wRemove;
    let keep = lhs < EXACT && g < EXACT ? lhs < g : floorRatio(o, l.pRemove, l.wRemove) < gap;
    // The swap bound v - (o pAdd + M wAdd) / wAdd > z, i.e. (v - z) wAdd > o pAdd + M wAdd.
    if (keep && this.#swapping && this.swapTerm(l) >= 0) {
      const left = gap * l.wAdd;
      const right = o * l.pAdd + this.swap;
      if (left < EXACT && right < EXACT && left <= right) {
        keep = false;
        this.scratch.swapCuts++;
      }
    }
    return keep;
  }

  /**
   * Pairing (see the module comment), on lists that doubled since the last one: each item outside the core
   * with the heaviest state it can join.
   */
  pair(): void {
    const { items, k, p, w, scratch, count } = this;
    const cap = this.#cap;
    const { sw: tw, sv: tv, sh: th, hItem, hParent } = scratch;
    this.pairAt = 2 * count;
    for (let x = this.t; x < k; x++) {
      const j = heaviestWithin(tw, count, cap - w[items[x]!]!);
      if (j >= 0 && tv[j]! + p[items[x]!]! > this.z) {
        this.z = tv[j]! + p[items[x]!]!;
        this.bestW = tw[j]! + w[items[x]!]!;
        hItem[this.hist] = x;
        hParent[this.hist] = th[j]!;
        this.bestH = this.hist++;
      }
    }
    for (let x = 0; x <= this.s; x++) {
      const j = heaviestWithin(tw, count, cap + w[items[x]!]!);
      if (j >= 0 && tv[j]! - p[items[x]!]! > this.z) {
        this.z = tv[j]! - p[items[x]!]!;
        this.bestW = tw[j]! - w[items[x]!]!;
        hItem[this.hist] = x;
        hParent[this.hist] = th[j]!;
        this.bestH = this.hist++;
      }
    }
  }
}
