/**
 * The exact 0-1 knapsacks of the credit level (src/solve/credit-level.ts, src/solve/credit-branch.ts):
 * items are kept sessions with a weight and a profit (their credit on one node), the capacity is the
 * node's. Sparse DPs over non-dominated (weight, value) states in density order, pruned by the LP bound
 * of the items still to fold against a target value; the layers and the walk-back history live in
 * a CreditKnapsackScratch the caller owns and reuses from call to call (the DPs run one at a time and never nest), so a DP
 * allocates only its answer.
 */
import { UP } from './exact.js';
import { ascending, sortIndices } from './sort-indices.js';

/** p_a / w_a > p_b / w_b, exact (cross products in f64 when they stay below 2^53, else BigInt). */
export function denser(pa: number, wa: number, pb: number, wb: number): number {
  const l = pa * wb;
  const r = pb * wa;
  if (l < 2 ** 53 && r < 2 ** 53) return l - r;
  const L = BigInt(pa) * BigInt(wb);
  const R = BigInt(pb) * BigInt(wa);
  return L > R ? 1 : L < R ? -1 : 0;
}

/** An upper bound on the LP term p * rem / w (three f64 roundings, each within 2^-53, are covered by UP), rounded up to an integer. */
export function fractionalCeil(p: number, rem: number, w: number): number {
  if (rem <= 0 || p <= 0) return 0;
  return Math.min(p, Math.ceil(((p * rem) / w) * UP));
}

/**
 * Sorts `items` in place by density descending (exact order by cross products; ties by index ascending),
 * the order every DP here folds in, and returns it.
 */
export function densityOrder(items: number[], w: ArrayLike<number>, p: ArrayLike<number>): number[] {
  sortIndices(items, items.length, (a, b) => denser(p[b]!, w[b]!, p[a]!, w[a]!) || a - b);
  return items;
}

/** The items that fit within `cap`, in density order (`sorted`: `items` already are, and keep it). */
function fitting(
  items: readonly number[],
  w: ArrayLike<number>,
  p: ArrayLike<number>,
  cap: number,
  sorted: boolean,
): readonly number[] {
  const order = sorted ? items : densityOrder(items.slice(), w, p);
  for (let t = 0; t < order.length; t++) if (w[order[t]!]! > cap) return within(order, w, cap);
  return order;
}

/**
 * The items of `order` within `cap`: a function of its own, as the closure's variables would otherwise be
 * allocated on every call of `fitting`, where it is rarely needed.
 */
function within(order: readonly number[], w: ArrayLike<number>, cap: number): number[] {
  return order.filter((j) => w[j]! <= cap);
}

/** A Float64Array of at least `n` entries: `a` itself when it is large enough, else a larger one (contents not kept). */
function atLeast(a: Float64Array<ArrayBuffer>, n: number): Float64Array<ArrayBuffer> {
  return a.length >= n ? a : new Float64Array(Math.max(n, 2 * a.length));
}

/**
 * The knapsacks' scratch buffers: the current and next layer, the LP's prefix sums, the walk-back history
 * (`start`: where each layer's entries begin in it), and the members of the set a uniqueness test follows
 * (1 by item index, cleared after each test). One per solver, in the credit level's scratch
 * (src/solve/credit-level.ts `LevelScratch`).
 */
export class CreditKnapsackScratch {
  cw = new Float64Array(256);
  cv = new Float64Array(256);
  nw = new Float64Array(256);
  nv = new Float64Array(256);
  sw = new Float64Array(256);
  sp = new Float64Array(256);
  parent = new Int32Array(1024);
  take = new Uint8Array(1024);
  start = new Int32Array(256);
  member = new Uint8Array(256);
}

/** Room for `n` states in the next layer (its contents not kept). */
function nextLayerRoom(scratch: CreditKnapsackScratch, n: number): void {
  scratch.nw = atLeast(scratch.nw, n);
  scratch.nv = atLeast(scratch.nv, n);
}

/** The next layer becomes the current one (and the current one the space of the next). */
function swapLayers(scratch: CreditKnapsackScratch): void {
  const { cw, cv, nw, nv } = scratch;
  scratch.cw = nw;
  scratch.cv = nv;
  scratch.nw = cw;
  scratch.nv = cv;
}

/** Room for `n` more history entries after the first `used`, the used ones kept. */
function historyRoom(scratch: CreditKnapsackScratch, used: number, n: number): void {
  const need = used + n;
  if (scratch.parent.length >= need) return;
  const size = Math.max(need, 2 * scratch.parent.length);
  const parent = new Int32Array(size);
  parent.set(scratch.parent.subarray(0, used));
  const take = new Uint8Array(size);
  take.set(scratch.take.subarray(0, used));
  scratch.parent = parent;
  scratch.take = take;
}

/** Fills the prefix sums of weights and profits along `order` (scratch.sw, scratch.sp). */
function prefixSums(
  scratch: CreditKnapsackScratch,
  order: readonly number[],
  w: ArrayLike<number>,
  p: ArrayLike<number>,
): void {
  const k = order.length;
  scratch.sw = atLeast(scratch.sw, k + 1);
  scratch.sp = atLeast(scratch.sp, k + 1);
  const sw = scratch.sw;
  const sp = scratch.sp;
  sw[0] = 0;
  sp[0] = 0;
  for (let t = 0; t < k; t++) {
    sw[t + 1] = sw[t]! + w[order[t]!]!;
    sp[t + 1] = sp[t]! + p[order[t]!]!;
  }
}

/** The LP bound of the items from position t of `order` on within residual r (greedy in that order, the last one fractional, rounded up), from the prefix sums. */
function lpFrom(
  scratch: CreditKnapsackScratch,
  order: readonly number[],
  w: ArrayLike<number>,
  p: ArrayLike<number>,
  t: number,
  r: number,
): number {
  const sw = scratch.sw;
  const sp = scratch.sp;
  const k = order.length;
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
}

/** One knapsack's answer. */
export interface NodeKnapsack {
  /** The largest profit of a set of the items within the capacity, or -1 (no set reaches the target, or past the limit). */
  readonly value: number;
  /** An optimal set (item indices, ascending). */
  readonly set: number[];
  /** Non-dominated (weight, value) states the DP kept, plus one per layer. */
  readonly states: number;
}

/**
 * Exact 0-1 knapsack over `items` (indices into `w` and `p`) with weights `w`, profits `p`, capacity
 * `cap`, reaching at least `target` (a value known to be reachable, or the value to test for): returns
 * the optimum and an optimal set, or value -1 when no set reaches `target`. Past `limit` states it
 * stops with value -1 and states > limit. `sorted`: `items` are already in `densityOrder`.
 *
 * Items are folded in density order; a layer holds (weight, value) states with weight ascending and
 * value strictly ascending (a state is dominated when another weighs no more and is worth at least as
 * much; either completes every way the other can). A state is dropped when its value plus the LP bound
 * of the items still to fold within its residual capacity is below `target`: no completion of it
 * reaches the target.
 */
export function nodeKnapsack(
  items: readonly number[],
  w: ArrayLike<number>,
  p: ArrayLike<number>,
  cap: number,
  target: number,
  limit = Number.POSITIVE_INFINITY,
  sorted = false,
  scratch: CreditKnapsackScratch = new CreditKnapsackScratch(),
): NodeKnapsack {
  const order = fitting(items, w, p, cap, sorted);
  const k = order.length;
  prefixSums(scratch, order, w, p);
  scratch.cw[0] = 0;
  scratch.cv[0] = 0;
  let n0 = 1;
  if (scratch.start.length < k) scratch.start = new Int32Array(Math.max(k, 2 * scratch.start.length));
  const start = scratch.start;
  let h = 0;
  let states = 1;
  for (let t = 0; t < k; t++) {
    const i = order[t]!;
    const wi = w[i]!;
    const pi = p[i]!;
    nextLayerRoom(scratch, 2 * n0);
    historyRoom(scratch, h, 2 * n0);
    const { cw, cv, nw, nv, parent, take } = scratch;
    let len = 0;
    let a = 0;
    let b = 0;
    // Merge the skip list (a) and the take list (b) by weight ascending, value descending at equal weight.
    while (a < n0 || b < n0) {
      let fromTake: boolean;
      if (b >= n0 || cw[b]! + wi > cap) {
        if (a >= n0) break;
        fromTake = false;
      } else if (a >= n0) fromTake = true;
      else {
        const wa = cw[a]!;
        const wb = cw[b]! + wi;
        fromTake = wb < wa || (wb === wa && cv[b]! + pi > cv[a]!);
      }
      const idx = fromTake ? b++ : a++;
      const ww = fromTake ? cw[idx]! + wi : cw[idx]!;
      const vv = fromTake ? cv[idx]! + pi : cv[idx]!;
      if (len > 0 && vv <= nv[len - 1]!) continue;
      if (vv + lpFrom(scratch, order, w, p, t + 1, cap - ww) < target) continue;
      nw[len] = ww;
      nv[len] = vv;
      parent[h + len] = idx;
      take[h + len] = fromTake ? 1 : 0;
      len++;
    }
    start[t] = h;
    h += len;
    swapLayers(scratch);
    n0 = len;
    // A layer costs about one state besides the states it keeps.
    states += len + 1;
    if (len === 0 || states > limit) return { value: -1, set: [], states };
  }
  // The best state is the last (values ascend).
  let idx = n0 - 1;
  const value = scratch.cv[idx]!;
  if (value < target) return { value: -1, set: [], states };
  const set: number[] = [];
  for (let t = k - 1; t >= 0; t--) {
    const e = start[t]! + idx;
    if (scratch.take[e] === 1) set.push(order[t]!);
    idx = scratch.parent[e]!;
  }
  sortIndices(set, set.length, ascending);
  return { value, set, states };
}

/**
 * Whether a set of `items` other than `set` fits within `cap` and is worth at least `target` (the
 * uniqueness test of an optimal set, target = its value). One sparse DP in density order: the path of
 * `set` itself (one state), and the non-dominated states of the sets that left that path at some item
 * (took an item outside `set` or skipped one in it), pruned by the LP bound against `target`; stops at
 * the first such state reaching `target`. A dominated deviated state is dropped for a deviated state that
 * completes every way it can, at least as well, so a deviated set reaching the target is always found.
 * Past `limit` states it stops (states > limit). `sorted`: `items` are already in `densityOrder`.
 */
export function anotherSetReaches(
  items: readonly number[],
  w: ArrayLike<number>,
  p: ArrayLike<number>,
  cap: number,
  set: readonly number[],
  target: number,
  limit: number,
  sorted = false,
  scratch: CreditKnapsackScratch = new CreditKnapsackScratch(),
): { reaches: boolean; states: number } {
  let size = scratch.member.length;
  for (let t = 0; t < items.length; t++) size = Math.max(size, items[t]! + 1);
  for (let t = 0; t < set.length; t++) size = Math.max(size, set[t]! + 1);
  if (size > scratch.member.length) scratch.member = new Uint8Array(2 * size);
  const member = scratch.member;
  for (let t = 0; t < set.length; t++) member[set[t]!] = 1;
  const r = leavesPath(items, w, p, cap, member, target, limit, sorted, scratch);
  for (let t = 0; t < set.length; t++) member[set[t]!] = 0;
  return r;
}

/** `anotherSetReaches` with the set given as `inSet` (1 by item index). */
function leavesPath(
  items: readonly number[],
  w: ArrayLike<number>,
  p: ArrayLike<number>,
  cap: number,
  inSet: Uint8Array,
  target: number,
  limit: number,
  sorted: boolean,
  scratch: CreditKnapsackScratch,
): { reaches: boolean; states: number } {
  const order = fitting(items, w, p, cap, sorted);
  const k = order.length;
  prefixSums(scratch, order, w, p);
  let n0 = 0;
  let pw = 0;
  let pv = 0;
  let states = 0;
  for (let t = 0; t < k; t++) {
    const i = order[t]!;
    const wi = w[i]!;
    const pi = p[i]!;
    const member = inSet[i] === 1;
    // The state that leaves the path here.
    const xw = member ? pw : pw + wi;
    const xv = member ? pv : pv + pi;
    if (member) {
      pw += wi;
      pv += pi;
    }
    nextLayerRoom(scratch, 2 * n0 + 1);
    const { cw, cv, nw, nv } = scratch;
    let len = 0;
    let a = 0;
    let b = 0;
    let x = xw <= cap ? 1 : 0;
    for (;;) {
      // Next candidate by weight ascending, value descending at equal weight: skip list a, take list b, x.
      let ww = Infinity;
      let vv = -1;
      let from = -1;
      if (a < n0) {
        ww = cw[a]!;
        vv = cv[a]!;
        from = 0;
      }
      if (b < n0 && cw[b]! + wi <= cap) {
        const bw = cw[b]! + wi;
        const bv = cv[b]! + pi;
        if (bw < ww || (bw === ww && bv > vv)) {
          ww = bw;
          vv = bv;
          from = 1;
        }
      }
      if (x === 1 && (xw < ww || (xw === ww && xv > vv))) {
        ww = xw;
        vv = xv;
        from = 2;
      }
      if (from < 0) break;
      if (from === 0) a++;
      else if (from === 1) b++;
      else x = 0;
      if (len > 0 && vv <= nv[len - 1]!) continue;
      if (vv >= target) return { reaches: true, states: states + len + 1 };
      if (vv + lpFrom(scratch, order, w, p, t + 1, cap - ww) < target) continue;
      nw[len] = ww;
      nv[len] = vv;
      len++;
    }
    states += len + 1;
    if (states > limit) return { reaches: false, states };
    swapLayers(scratch);
    n0 = len;
  }
  return { reaches: false, states };
}

/** A lower bound for one knapsack: the items of `order` (in `densityOrder`), each taken when it fits. */
export function greedyValue(order: readonly number[], w: ArrayLike<number>, p: ArrayLike<number>, cap: number): number {
  let left = cap;
  let v = 0;
  for (let t = 0; t < order.length; t++) {
    const i = order[t]!;
    if (w[i]! <= left) {
      left -= w[i]!;
      v += p[i]!;
    }
  }
  return v;
}
