/**
 * The bound-and-bound search of the multiple-knapsack path (after Pisinger's MULKNAP, "An exact
 * algorithm for large multiple knapsack problems", EJOR 1999), over items whose value is the same on
 * every candidate knapsack. At each node of a depth-first search that assigns items to knapsacks:
 *
 * 1. Surrogate bound: one knapsack over the free items with capacity the sum of the residuals (each at
 *    most the weight of the free items that may go there), solved exactly (src/solve/dp/surrogate-core/mirror.ts).
 *    Every completion of the node is a set of free items whose weights fit the residuals knapsack by
 *    knapsack, hence fit their sum: the surrogate optimum plus the fixed value bounds every completion.
 *    A node whose bound does not beat the incumbent is closed. With values in two tiers (Tiers: a
 *    credit-free problem's ready bit above its tokens), a root's bound is also at most base x (a bound on
 *    how many top-tier items fit together, tierCount) plus the Dantzig bound of the lower parts (tierBound).
 * 2. Split: the surrogate's items are packed knapsack by knapsack (smallest residual first, each taking
 *    the largest subset sum of the remaining ones that are candidates there; largest residual first when
 *    that leaves items out). When all of them are placed, the node's completion reaches its bound: it is
 *    the best completion, and the node is closed. Otherwise the placed part, completed greedily with the
 *    other free items, is an incumbent candidate. At the root, when that falls short of the bound, the
 *    knapsacks are also filled one by one with an optimal single knapsack of the free items left (fill).
 *    With one knapsack the surrogate is that knapsack and the split places its items whole: the search
 *    is its root alone, run without the search's set-up (singleKnapsack).
 * 3. Capacity tightening, when the split fell short: each knapsack's residual becomes the largest subset
 *    sum of the free items that are candidates there and fit (src/solve/dp/subset-sum/setup.ts); no completion
 *    can use more of it, since whatever is placed there later is such a subset. A knapsack the split (or
 *    its greedy completion) filled exactly with free candidates is skipped: its residual is such a sum
 *    already. If any residual dropped, 1-2 run again.
 * 4. Branching on the heaviest surrogate item the split left out: to each knapsack it is a candidate on
 *    and fits, then excluded. Knapsacks with the same residual and the same candidacy for every item are
 *    interchangeable, so only the first of them is tried; in the exclusion branch the item's identical
 *    copies (same weight, value and candidacy) are excluded with it, since any completion using a copy
 *    maps to one using the item, which the assignment branches cover.
 *
 *    Or, in the aimed searches (see searchMultipleKnapsack), knapsack by knapsack (branchInOrder).
 *
 * Every node decides at least one item, so the search ends; the work meter bounds it: when it halts, every
 * frame returns at once (see src/solve/mkp/meter.ts).
 */
import type { CoreDpKernel } from '../dp/surrogate-core/engine.js';
import { KnapsackScratch, knapsack, type KnapsackAnswer } from '../dp/surrogate-core/setup.js';
import { sortIndices } from '../sort-indices.js';
import { type MkpHalt, WorkMeter } from './meter.js';
import type { SubsetSumKernel } from '../dp/subset-sum/engine.js';
import { SubsetSumScratch, maxSubsetSum } from '../dp/subset-sum/setup.js';
import { regroup, type Incumbent, type MkpInstance, type Reoptimise } from './regroup.js';
import { denser } from '../credit-knapsack.js';
import type { MultipleKnapsackStats } from '../../types.js';

/** The WebAssembly kernels the search runs its surrogate core DPs and subset sums in (none: their mirrors). */
export interface MkpKernels {
  readonly surrogateCore: CoreDpKernel;
  readonly subsetSum: SubsetSumKernel;
}

/** Counters of one search (see MultipleKnapsackStats). */
export type MkpCounters = Omit<MultipleKnapsackStats, 'outcome'>;

/** The search's answer: the best plan found and whether it is proven optimal. */
export interface MkpOutcome {
  /** Kept node per kept session, -1 = not admitted. */
  readonly node: Int32Array;
  readonly value: number;
  /** Proven optimal. */
  readonly optimal: boolean;
  /** Why the search stopped early (when not optimal). */
  readonly reason?: string;
  /** The work budget stopped it (not the deadline, the stop flag or the memory cap). */
  readonly atBudget?: boolean;
  /** The resumed first search stopped at a plan worth the ceiling the aimed searches proved (stage 4). */
  readonly reachedCeiling?: true;
  /** When not optimal: the least value the searches proved no plan exceeds, if any (the root bound, an aimed search's ceiling). */
  readonly bound?: number;
  readonly counters: MkpCounters;
}

/** Search buffers are kept between solves while their entries (items and knapsacks, times the depths reached) stay below this. */
export const SEARCH_KEEP_ENTRIES = 1 << 16;

/** The buffers of one search node on the current path: written when it starts, read by its branches between their yields. */
class Level {
  /** The residuals when the node started (restored when it ends). */
  readonly saved: Float64Array;
  /** The node's free items (`k` of them), its surrogate bound and the item branch branches on. */
  readonly free: Int32Array;
  k = 0;
  bound = 0;
  item = -1;
  /** branch: the knapsacks by residual ascending, those tried (`tried` of them) and the items excluded with the item. */
  readonly byRoom: Int32Array;
  readonly tried: Int32Array;
  readonly excluded: Int32Array;

  constructor(n: number, m: number) {
    this.saved = new Float64Array(m);
    this.free = new Int32Array(n);
    this.byRoom = new Int32Array(m);
    this.tried = new Int32Array(m);
    this.excluded = new Int32Array(n);
  }
}

/**
 * The arrays of one search, for up to `n` items and `m` knapsacks (a search uses the first entries), and
 * its levels by depth: kept from one search to the next, grown on demand. Per item and per knapsack, they
 * are filled and read between two yields of the search (or set up by its constructor); per depth, they
 * are its Level.
 */
class SearchBuffers {
  n = 0;
  m = 0;
  order = new Int32Array(0);
  assign = new Int32Array(0);
  best = new Int32Array(0);
  pick = new Int32Array(0);
  heavy = new Int32Array(0);
  placedBy: [Int32Array, Int32Array] = [new Int32Array(0), new Int32Array(0)];
  filledAt = new Int32Array(0);
  from = new Int32Array(0);
  mark = new Uint8Array(0);
  tiered = new Int32Array(0);
  prefix = new Float64Array(0);
  nodeClass = new Int32Array(0);
  resid = new Float64Array(0);
  roomBy: [Float64Array, Float64Array] = [new Float64Array(0), new Float64Array(0)];
  reach = new Float64Array(0);
  counts = new Int32Array(0);
  exact = new Uint8Array(0);
  byRoom = new Int32Array(0);
  byRank = new Int32Array(0);
  rank = new Int32Array(0);
  readonly levels: Level[] = [];

  /** Room for `n` items and `m` knapsacks (the levels are made again for larger ones). */
  reserve(n: number, m: number): void {
    if (n <= this.n && m <= this.m) return;
    this.n = n = Math.max(n, this.n);
    this.m = m = Math.max(m, this.m);
    this.levels.length = 0;
    this.order = new Int32Array(n);
    this.assign = new Int32Array(n);
    this.best = new Int32Array(n);
    this.pick = new Int32Array(n);
    this.heavy = new Int32Array(n);
    this.placedBy = [new Int32Array(n), new Int32Array(n)];
    this.filledAt = new Int32Array(n);
    this.from = new Int32Array(n);
    this.mark = new Uint8Array(n);
    this.tiered = new Int32Array(n);
    this.prefix = new Float64Array(n + 1);
    this.nodeClass = new Int32Array(m);
    this.resid = new Float64Array(m);
    this.roomBy = [new Float64Array(m), new Float64Array(m)];
    this.reach = new Float64Array(m);
    this.counts = new Int32Array(m);
    this.exact = new Uint8Array(m);
    this.byRoom = new Int32Array(m);
    this.byRank = new Int32Array(m);
    this.rank = new Int32Array(m);
  }

  /** The level of search depth `d` (1: the root). */
  level(d: number): Level {
    while (this.levels.length < d) this.levels.push(new Level(this.n, this.m));
    return this.levels[d - 1]!;
  }

  /** Small enough to keep for the next solve. */
  get small(): boolean {
    return (this.n + this.m) * (this.levels.length + 1) <= SEARCH_KEEP_ENTRIES;
  }
}

/**
 * The buffers of a solve, kept between solves while they are small: the knapsack and subset-sum scratch,
 * the first search's buffers, and those of the searches that run while it is paused (the aimed searches
 * and the regrouping sub-searches, one at a time, each ended or dropped before the next starts).
 */
export class MkpScratch {
  readonly ks = new KnapsackScratch();
  readonly ss = new SubsetSumScratch();
  readonly first = new SearchBuffers();
  readonly side = new SearchBuffers();
  readonly tiers = new TierBuffers();

  get small(): boolean {
    return this.ks.small && this.ss.small && this.first.small && this.side.small;
  }
}

/** Where a solver keeps the search's buffers between solves (null: none kept, or a search holds them). */
export interface MkpScratchStore {
  mkp: MkpScratch | null;
}

/**
 * Residuals above this many quanta are not tightened: a bitset pass over one item costs r / 32 word
 * operations, and on such capacities a few hundred items would spend the state budget on a bound that
 * only ever tightens.
 */
export const TIGHTEN_MAX_CAPACITY = 1 << 16;

/** The split's exact subset sums run on rooms of about this many quanta; larger rooms are first filled greedily. */
export const SPLIT_BITSET_ROOM = 1 << 16;

/** The share of the meter's budget the first, plain search may spend before the search aims at its root bound. */
export const FIRST_SEARCH_SHARE = 1 / 40;
/** The share of the budget the aimed searches may spend together, and how many knapsack orders they try at most. */
export const AIM_SHARE = 1 / 4;
export const AIM_RESTARTS = 8;
/**
 * An aimed search stopped at its share having visited fewer nodes than this ends the aiming: there one
 * surrogate DP can cost a whole share (strongly correlated classes), and a larger value gives up the aimed
 * searches' gain where they help.
 */
export const AIM_MIN_NODES = 3;

/**
 * Sorts the first `k` of `items` into the search's efficiency order: density descending; equal densities
 * lightest first (where every density is equal, as in subset-sum classes, this order falls back least),
 * then by index.
 */
function efficiencyOrder(items: Int32Array, k: number, value: Float64Array, w: Float64Array): void {
  // The sign of `denser`: a product difference past 2^31 would be returned as a fresh heap number per comparison.
  sortIndices(items, k, (a, b) => Math.sign(denser(value[b]!, w[b]!, value[a]!, w[a]!)) || w[a]! - w[b]! || a - b);
}

/** The items 0..n-1 with a positive value in the search's efficiency order, into `out`; how many. */
function valuedItems(n: number, value: Float64Array, w: Float64Array, out: Int32Array): number {
  let k = 0;
  for (let j = 0; j < n; j++) if (value[j]! > 0) out[k++] = j;
  efficiencyOrder(out, k, value, w);
  return k;
}

/** The nodes 0..m-1 by `room` ascending, then by index, into `out`. */
function ascending(room: ArrayLike<number>, m: number, out: Int32Array): Int32Array {
  for (let b = 0; b < m; b++) out[b] = b;
  sortIndices(out, m, (a, b) => room[a]! - room[b]! || a - b);
  return out;
}

/**
 * Values in two tiers: every item's value is top x base + low with top 0 or 1 and 0 <= low < base, and no
 * sum of lows reaches base (a credit-free remainder's keys: top the ready bit, low the tokens; base the
 * packed key's token radix). Then a plan's value is base x (its top-tier items) + (its lows), and a bound
 * on the top-tier count bounds the plan (Search.tierBound).
 */
export interface Tiers {
  readonly base: number;
  /** Per item: its top tier (0 or 1) and its lower part. */
  readonly top: Uint8Array;
  readonly low: Float64Array;
  /** The items with top 1 by weight ascending (then by index): the first `topCount` (see `sorted`). */
  readonly byWeight: Int32Array;
  readonly topCount: number;
  /** The items with a positive lower part in the efficiency order of their lower parts: the first `lowCount` (see `sorted`). */
  readonly lowOrder: Int32Array;
  lowCount: number;
  /** The two orders are made (sortTiers), on the first bound that reads them. */
  sorted: boolean;
}

/**
 * The two tiers of `value` at `base` (see Tiers), or null when some positive value's top part is above 1
 * or the lows sum to base or more (base 0: none).
 */
export function tiersOf(value: Float64Array, base: number, buffers: TierBuffers = new TierBuffers()): Tiers | null {
  if (base <= 0) return null;
  const n = value.length;
  buffers.reserve(n);
  const { top, low, byWeight, lowOrder } = buffers;
  let lows = 0;
  let topCount = 0;
  for (let j = 0; j < n; j++) {
    const v = value[j]!;
    const t = v > 0 ? Math.floor(v / base) : 0;
    if (t > 1) return null;
    top[j] = t;
    low[j] = v > 0 ? v - t * base : 0;
    lows += low[j]!;
    topCount += t;
  }
  if (lows >= base) return null;
  return { base, top, low, byWeight, topCount, lowOrder, lowCount: 0, sorted: false };
}

/** Makes the two orders of `t` over `n` items of weights `w` (Tiers.byWeight, Tiers.lowOrder), once. */
export function sortTiers(t: Tiers, n: number, w: Float64Array): void {
  if (t.sorted) return;
  for (let j = 0, x = 0; j < n; j++) if (t.top[j] === 1) t.byWeight[x++] = j;
  sortIndices(t.byWeight, t.topCount, (a, b) => w[a]! - w[b]! || a - b);
  t.lowCount = valuedItems(n, t.low, w, t.lowOrder);
  t.sorted = true;
}

/**
 * The arrays of a solve's Tiers (a search reads their first n entries), kept with the search's buffers:
 * they hold one entry per item of the largest staged search, as the first search's buffers do, whose
 * size decides whether the store keeps them all.
 */
export class TierBuffers {
  top = new Uint8Array(0);
  low = new Float64Array(0);
  byWeight = new Int32Array(0);
  lowOrder = new Int32Array(0);

  /** Room for `n` items. */
  reserve(n: number): void {
    if (this.top.length >= n) return;
    this.top = new Uint8Array(n);
    this.low = new Float64Array(n);
    this.byWeight = new Int32Array(n);
    this.lowOrder = new Int32Array(n);
  }
}

const FREE = -2;
const EXCLUDED = -1;

class Search {
  readonly n: number;
  readonly m: number;
  /** Items (kept sessions with a positive value) in efficiency order: the first `items` entries. */
  readonly order: Int32Array;
  readonly items: number;
  /** Per node: the first node with the same candidacy column. */
  readonly nodeClass: Int32Array;
  readonly assign: Int32Array;
  readonly resid: Float64Array;
  fixed = 0;
  bestValue = -1;
  /** The root's fill ran (see fill). */
  filled = false;
  readonly best: Int32Array;
  readonly counters: MkpCounters = noCounters();
  readonly ks: KnapsackScratch;
  readonly ss: SubsetSumScratch;
  /** The arrays below, and the levels of the nodes on the current path. */
  readonly buffers: SearchBuffers;
  /**
   * The items offered to one knapsack (split, tighten, fill, branchInOrder), and the split's heaviest-first
   * copy of them: filled and read before any deeper search node runs, so one buffer serves every node.
   */
  readonly pick: Int32Array;
  readonly heavy: Int32Array;
  /**
   * Per item, the knapsack each of a node's two splits placed it on (-1: not placed), their rooms left,
   * and the knapsack the root's fill gave it: filled and read before any deeper node runs.
   */
  readonly placedBy: readonly [Int32Array, Int32Array];
  readonly roomBy: readonly [Float64Array, Float64Array];
  readonly filledAt: Int32Array;
  /** Per item, marks of an optimal set (all 0 between uses), and per knapsack, a node's surrogate capacity and exact fills, and knapsacks by residual: the same. */
  readonly mark: Uint8Array;
  readonly reach: Float64Array;
  readonly exact: Uint8Array;
  readonly byRoom: Int32Array;
  /** The knapsack order of branchInOrder (see reorder) and each node's place in it. */
  readonly byRank: Int32Array;
  readonly rank: Int32Array;
  /** Per item: the first place in the knapsack order it may still go to (branchInOrder bars it from earlier ones). */
  readonly from: Int32Array;
  /** Branch knapsack by knapsack (branchInOrder) instead of on the surrogate's left-out items (branch). */
  ordered = false;
  /** This search's own work limit (it pauses past it), and a proven bound on every plan (`reached` at it). */
  stopAt = Number.POSITIVE_INFINITY;
  ceiling = Number.POSITIVE_INFINITY;
  /** A plan worth the ceiling (a proven upper bound) was found: it is optimal, and the search stops. */
  reached = false;
  /** Search nodes open on the current path, and the root's surrogate bound (its tightest, after tightening). */
  depth = 0;
  rootBound = Number.POSITIVE_INFINITY;
  /** Surrogate answers at the root, by threshold and residuals, shared by the aimed searches (null: not kept). */
  rootMemo: Map<string, KnapsackAnswer | null> | null = null;

  /** A search of `packed` in `buffers` (no other search may use them until this one has ended or is dropped). */
  constructor(
    readonly packed: MkpInstance,
    readonly value: Float64Array,
    readonly meter: WorkMeter,
    scratch: MkpScratch,
    buffers: SearchBuffers,
    readonly tiers: Tiers | null = null,
  ) {
    this.ks = scratch.ks;
    this.ss = scratch.ss;
    const n = packed.qweight.length;
    const m = packed.capacity.length;
    this.n = n;
    this.m = m;
    buffers.reserve(n, m);
    this.buffers = buffers;
    this.order = buffers.order;
    this.items = valuedItems(n, value, packed.qweight, this.order);
    this.nodeClass = buffers.nodeClass;
    for (let b = 0; b < m; b++) {
      this.nodeClass[b] = b;
      for (let c = 0; c < b; c++) {
        if (this.nodeClass[c] !== c) continue;
        let same = true;
        for (let j = 0; j < n && same; j++) same = packed.candidate[j * m + b] === packed.candidate[j * m + c];
        if (same) {
          this.nodeClass[b] = c;
          break;
        }
      }
    }
    this.assign = buffers.assign;
    this.assign.fill(EXCLUDED, 0, n);
    for (let x = 0; x < this.items; x++) this.assign[this.order[x]!] = FREE;
    this.resid = buffers.resid;
    this.resid.set(packed.capacity);
    this.best = buffers.best;
    this.best.fill(-1, 0, n);
    this.pick = buffers.pick;
    this.heavy = buffers.heavy;
    this.placedBy = buffers.placedBy;
    this.roomBy = buffers.roomBy;
    this.filledAt = buffers.filledAt;
    this.mark = buffers.mark;
    this.mark.fill(0, 0, n);
    this.reach = buffers.reach;
    this.exact = buffers.exact;
    this.byRoom = buffers.byRoom;
    this.byRank = buffers.byRank;
    this.rank = buffers.rank;
    this.reorder(0);
    this.from = buffers.from;
    this.from.fill(0, 0, n);
  }

  /** Sets the knapsack order of branchInOrder: 0 capacity ascending, 1 descending, k > 1 ascending rotated by k - 1. */
  reorder(k: number): void {
    const { m } = this;
    const asc = ascending(this.packed.capacity, m, this.byRoom);
    const shift = k > 1 ? (k - 1) % m : 0;
    for (let r = 0; r < m; r++) this.byRank[r] = k === 1 ? asc[m - 1 - r]! : asc[(r + shift) % m]!;
    for (let r = 0; r < m; r++) this.rank[this.byRank[r]!] = r;
  }

  /** The best plan found (per item, its node; -1: out), in an array of its own. */
  plan(): Int32Array {
    return this.best.slice(0, this.n);
  }

  /** Items i and j have the same weight, value and candidate nodes. */
  identical(i: number, j: number): boolean {
    if (this.packed.qweight[i] !== this.packed.qweight[j] || this.value[i] !== this.value[j]) return false;
    for (let b = 0; b < this.m; b++) if (this.candidate(i, b) !== this.candidate(j, b)) return false;
    return true;
  }

  candidate(j: number, b: number): boolean {
    return this.packed.candidate[j * this.m + b] === 1;
  }

  /** Item j may still go to node b: a candidate there, and b not before the item's first allowed rank. */
  allowed(j: number, b: number): boolean {
    return this.packed.candidate[j * this.m + b] === 1 && this.rank[b]! >= this.from[j]!;
  }

  /** Records the current assignment plus `extra` (per item, a node for an unassigned one; -1: none) as the incumbent. */
  record(value: number, extra: Int32Array): void {
    this.bestValue = value;
    for (let j = 0; j < this.n; j++) {
      const b = this.assign[j]!;
      this.best[j] = b >= 0 ? b : extra[j]!;
    }
    if (value >= this.ceiling) this.reached = true;
  }

  /** The search stops: it reached its ceiling, or its meter halted. Every frame returns at once. */
  get stopped(): boolean {
    return this.reached || this.meter.halt !== null;
  }

  /** The free items that are candidates on some node with room for them, in efficiency order, into `out`; how many. */
  freeItems(out: Int32Array): number {
    const w = this.packed.qweight;
    let k = 0;
    for (let x = 0; x < this.items; x++) {
      const j = this.order[x]!;
      if (this.assign[j] !== FREE) continue;
      for (let b = 0; b < this.m; b++) {
        if (this.allowed(j, b) && w[j]! <= this.resid[b]!) {
          out[k++] = j;
          break;
        }
      }
    }
    return k;
  }

  /**
   * Tightens every residual to the largest subset sum of the free items (the first `k` of `items`) that
   * are candidates there; whether any dropped. Knapsacks marked in `exact` are skipped: free items that
   * are candidates there already fill them exactly (the node's split found them), so their residual is
   * that largest sum.
   */
  tighten(items: Int32Array, k: number, exact: Uint8Array): boolean {
    const w = this.packed.qweight;
    let changed = false;
    const mine = this.pick;
    for (let b = 0; b < this.m; b++) {
      const r = this.resid[b]!;
      if (r === 0 || r > TIGHTEN_MAX_CAPACITY || exact[b] === 1) continue;
      let c = 0;
      for (let x = 0; x < k; x++) if (this.allowed(items[x]!, b) && w[items[x]!]! <= r) mine[c++] = items[x]!;
      const s = maxSubsetSum(mine, c, w, r, this.meter, this.ss);
      if (this.stopped) return false;
      if (s !== null && s.sum < r) {
        this.resid[b] = s.sum;
        this.counters.tightened++;
        changed = true;
      }
    }
    return changed;
  }

  /**
   * One search node: the surrogate bound and the split on the residuals as they are; when the split
   * falls short, the residuals tightened and, if that lowered any, the bound and the split again; then
   * the branches. A generator: it pauses (yields) at the start of a node while the work is past stopAt,
   * and resumes where it stopped when the caller raises stopAt and asks for the next step.
   */
  *node(): Generator<void, void, void> {
    if (!this.meter.spend(1)) return;
    while (this.meter.work > this.stopAt) yield;
    this.counters.nodes++;
    this.depth++;
    try {
      const { m } = this;
      const level = this.buffers.level(this.depth);
      const saved = level.saved;
      for (let b = 0; b < m; b++) saved[b] = this.resid[b]!;
      let tightened = false;
      for (;;) {
        if (!this.boundAndSplit(level)) break;
        if (!tightened) {
          const dropped = this.tighten(level.free, level.k, this.exact);
          if (this.stopped) break;
          if (dropped) {
            tightened = true;
            continue;
          }
        }
        if (this.ordered) yield* this.branchInOrder(level);
        else yield* this.branch(level);
        break;
      }
      for (let b = 0; b < m; b++) this.resid[b] = saved[b]!;
    } finally {
      this.depth--;
    }
  }

  /**
   * Packs `chosen` (its first `count` entries) knapsack by knapsack in `order` (its first m entries, or
   * its first m backwards when `backwards`), each taking the largest subset sum of the remaining items
   * that are its candidates (greedily, heaviest first, above the bitset's capacity limit), into `placed`
   * (per item: its knapsack, -1 when not placed) and `room` (per knapsack: the room left). Returns how
   * many of `chosen` it left out.
   */
  split(
    chosen: Int32Array,
    count: number,
    order: Int32Array,
    backwards: boolean,
    placed: Int32Array,
    room: Float64Array,
  ): number {
    const { m } = this;
    const w = this.packed.qweight;
    const mine = this.pick;
    placed.fill(-1, 0, this.n);
    for (let b = 0; b < m; b++) room[b] = this.resid[b]!;
    let left = count;
    for (let r = 0; r < m; r++) {
      const b = order[backwards ? m - 1 - r : r]!;
      if (left === 0) break;
      let c = 0;
      for (let x = 0; x < count; x++) {
        const j = chosen[x]!;
        if (placed[j]! < 0 && this.allowed(j, b) && w[j]! <= room[b]!) mine[c++] = j;
      }
      if (c === 0) continue;
      if (room[b]! > SPLIT_BITSET_ROOM) {
        // A large room: the heaviest items go in greedily while they leave at least SPLIT_BITSET_ROOM, so
        // the exact subset sum below runs on a room about that size.
        const heavy = this.heaviestFirst(c);
        const offered = c;
        c = 0;
        for (let x = 0; x < offered; x++) {
          const j = heavy[x]!;
          if (room[b]! - w[j]! >= SPLIT_BITSET_ROOM) {
            room[b] = room[b]! - w[j]!;
            placed[j] = b;
            left--;
          } else mine[c++] = j;
        }
      }
      const s = maxSubsetSum(mine, c, w, room[b]!, this.meter, this.ss);
      if (this.stopped) return left;
      if (s === null) {
        const heavy = this.heaviestFirst(c);
        for (let x = 0; x < c; x++) {
          const j = heavy[x]!;
          if (w[j]! <= room[b]!) {
            room[b] = room[b]! - w[j]!;
            placed[j] = b;
            left--;
          }
        }
        continue;
      }
      for (const x of s.chosen) {
        placed[mine[x]!] = b;
        left--;
      }
      room[b] = room[b]! - s.sum;
    }
    return left;
  }

  /** The first `c` items of `pick` heaviest first, equal weights in the order offered (a stable sort), in `heavy`. */
  heaviestFirst(c: number): Int32Array {
    const w = this.packed.qweight;
    for (let x = 0; x < c; x++) this.heavy[x] = this.pick[x]!;
    sortIndices(this.heavy, c, (x, y) => w[y]! - w[x]!);
    return this.heavy;
  }

  /**
   * The node's surrogate bound and split into `level`: false when the node is closed (its bound does not
   * beat the incumbent, or the split reached it), else true with the bound, the heaviest surrogate item
   * the split left out (the lowest index among equal weights) and the free items in `level`, and in
   * `exact` the knapsacks a split or its completion filled exactly with them.
   */
  boundAndSplit(level: Level): boolean {
    const free = level.free;
    const k = this.freeItems(free);
    level.k = k;
    // The passes over free items x nodes below (capacity, split, completion) count as work too.
    if (!this.meter.spend(k * this.m)) return false;
    const cap = this.surrogateCapacity(free, k);
    const sur = this.surrogate(free, k, cap, this.bestValue - this.fixed);
    if (sur === null) return false;
    let bound = this.fixed + sur.value;
    if (this.depth === 1) this.rootBound = Math.min(this.rootBound, bound);
    const { left, placed, room } = this.splitSurrogate(sur);
    if (this.stopped) return false;
    if (left === 0) {
      this.counters.splitHits++;
      this.record(bound, placed);
      return false;
    }
    if (this.tiers !== null && this.depth === 1) {
      // At a search's root only (the first search's and each aimed search's) whose split fell short:
      // at every node its count cost 4-node pools 14% of their time for nodes the search closes anyway.
      bound = Math.min(bound, this.tierBound(cap, sur));
      this.rootBound = Math.min(this.rootBound, bound);
      if (this.stopped || bound <= this.bestValue) return false;
    }
    const item = this.heaviestLeftOut(sur, placed);
    const lower = this.completeGreedily(free, k, placed, room);
    if (lower > this.bestValue) this.record(lower, placed);
    if (this.reached) return false;
    for (let b = 0; b < this.m; b++) if (room[b] === 0) this.exact[b] = 1;
    if (!this.filled && this.bestValue < bound) {
      this.filled = true;
      this.fill(free, k);
      if (this.stopped) return false;
    }
    if (this.bestValue >= bound) return false;
    level.bound = bound;
    level.item = item;
    return true;
  }

  /**
   * The tier bound of the node (see Tiers), or +Infinity when it cannot beat the surrogate's: at most H of
   * the free items of the top tier go in, H from tierCount, so every completion is worth at most
   * base x H plus the lower parts of free items that fit the surrogate capacity `cap` together, at most
   * their Dantzig bound (the LP relaxation: the items in the efficiency order of their lower parts while
   * they fit, then the next one's fraction, rounded down). Computed when H is below the top-tier items of
   * the surrogate's answer `sur`; the fixed items' value included. (An exact knapsack of the lower parts
   * costs a strongly correlated DP: tokens against their quantized weights.)
   */
  tierBound(cap: number, sur: KnapsackAnswer): number {
    const t = this.tiers!;
    sortTiers(t, this.n, this.packed.qweight);
    let top = 0;
    for (let x = 0; x < sur.count; x++) top += t.top[sur.chosen[x]!]!;
    const h = this.tierCount(top);
    if (h >= top || this.stopped) return Number.POSITIVE_INFINITY;
    if (!this.meter.spend(t.lowCount)) return Number.POSITIVE_INFINITY;
    const w = this.packed.qweight;
    let room = cap;
    let lows = 0;
    for (let x = 0; x < t.lowCount; x++) {
      const j = t.lowOrder[x]!;
      if (this.assign[j] !== FREE) continue;
      if (w[j]! <= room) {
        room -= w[j]!;
        lows += t.low[j]!;
      } else {
        lows += Math.floor((t.low[j]! * room) / w[j]!);
        break;
      }
    }
    return this.fixed + t.base * h + lows;
  }

  /**
   * An upper bound on how many free top-tier items fit together in the residuals, computed while it stays
   * below `limit` (past it, `limit` is returned). With candidacy dropped (a relaxation), some plan with
   * the most top-tier items uses the lightest of them (a heavier one swaps for a lighter one left out),
   * so if h fit, the h lightest do. With them sorted by weight (w_0 <= w_1 <= ...) and c_b(i) the most of
   * items i, i + 1, ... that fit in residual R_b together (the lightest first: a prefix), the h - i items
   * i..h-1 lie in the knapsacks, at most min(c_b(i), h - i) in knapsack b. So h - i <= sum over b of
   * min(c_b(i), h - i): h - i is at most the largest x with sum_b min(c_b(i), x) >= x (that sum less x is
   * concave in x and 0 at 0), and h <= i + that for every i.
   */
  tierCount(limit: number): number {
    const t = this.tiers!;
    const w = this.packed.qweight;
    const { m } = this;
    const list = this.buffers.tiered;
    const prefix = this.buffers.prefix;
    const counts = this.buffers.counts;
    let most = 0;
    for (let b = 0; b < m; b++) most = Math.max(most, this.resid[b]!);
    let c = 0;
    prefix[0] = 0;
    for (let x = 0; x < t.topCount; x++) {
      const j = t.byWeight[x]!;
      if (this.assign[j] !== FREE) continue;
      if (w[j]! > most) break;
      list[c] = j;
      prefix[c + 1] = prefix[c]! + w[j]!;
      c++;
    }
    // The top-tier items a completion places on b weigh at most R_b and at most all those that may go
    // there: together at most `room`, so they are no more than the lightest that fit in it.
    const reach = this.reach;
    reach.fill(0, 0, m);
    for (let x = 0; x < c; x++) {
      const j = list[x]!;
      for (let b = 0; b < m; b++) if (this.allowed(j, b) && w[j]! <= this.resid[b]!) reach[b] = reach[b]! + w[j]!;
    }
    if (!this.meter.spend(c * m)) return limit;
    let room = 0;
    for (let b = 0; b < m; b++) room += Math.min(reach[b]!, this.resid[b]!);
    let h = Math.min(c, limit);
    while (h > 0 && prefix[h]! > room) h--;
    for (let i = 0; i < h; i++) {
      if (!this.meter.spend(m)) return limit;
      // c_b(i): the largest count with prefix[i + count] - prefix[i] <= R_b (binary search).
      for (let b = 0; b < m; b++) {
        const room = this.resid[b]!;
        let lo = 0;
        let hi = c - i;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (prefix[i + mid]! - prefix[i]! <= room) lo = mid;
          else hi = mid - 1;
        }
        counts[b] = lo;
      }
      // The largest x <= h - i with sum_b min(c_b(i), x) >= x (binary search: the set of such x is an interval from 0).
      let lo = 0;
      let hi = h - i;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        let sum = 0;
        for (let b = 0; b < m && sum < mid; b++) sum += Math.min(counts[b]!, mid);
        if (sum >= mid) lo = mid;
        else hi = mid - 1;
      }
      h = Math.min(h, i + lo);
    }
    return h;
  }

  /** The surrogate capacity of the first `k` free items: each residual, but no more than its free candidates weigh. */
  surrogateCapacity(free: Int32Array, k: number): number {
    const { m } = this;
    const w = this.packed.qweight;
    const reach = this.reach;
    reach.fill(0, 0, m);
    for (let x = 0; x < k; x++) {
      const j = free[x]!;
      for (let b = 0; b < m; b++) if (this.allowed(j, b) && w[j]! <= this.resid[b]!) reach[b] = reach[b]! + w[j]!;
    }
    let cap = 0;
    for (let b = 0; b < m; b++) cap += Math.min(reach[b]!, this.resid[b]!);
    return cap;
  }

  /**
   * The surrogate knapsack of the first `k` free items within `cap`, if it beats `threshold`. At the root of
   * an aimed search the call is the same as at the root of the aimed searches before it (no item decided or
   * barred; the same residuals, hence the same free items, and threshold): its answer is taken from them (a
   * copy: the knapsack's own answer is rewritten by its next call).
   */
  surrogate(free: Int32Array, k: number, cap: number, threshold: number): KnapsackAnswer | null {
    const memo = this.depth === 1 ? this.rootMemo : null;
    const key = memo === null ? '' : `${threshold}:${this.resid.subarray(0, this.m).join(',')}`;
    if (memo?.has(key) === true) return memo.get(key)!;
    const sur = knapsack(free, k, this.value, this.packed.qweight, cap, threshold, this.meter, this.ks, this.counters);
    if (this.meter.halt !== null) return null;
    memo?.set(
      key,
      sur === null
        ? null
        : { value: sur.value, weight: sur.weight, chosen: sur.chosen.slice(0, sur.count), count: sur.count },
    );
    return sur;
  }

  /**
   * Splits the surrogate solution over the knapsacks, smallest residual first, then largest first: the split
   * that left fewer items out (the first on a tie), its placement and rooms left; `exact` marks the other
   * split's exact fills.
   */
  splitSurrogate(sur: KnapsackAnswer): { left: number; placed: Int32Array; room: Float64Array } {
    const { m } = this;
    this.counters.splits++;
    const order = ascending(this.resid, m, this.byRoom);
    const [placedFirst, placedSecond] = this.placedBy;
    const [roomFirst, roomSecond] = this.roomBy;
    let left = this.split(sur.chosen, sur.count, order, false, placedFirst, roomFirst);
    let placed = placedFirst;
    let room = roomFirst;
    if (this.stopped) return { left, placed, room };
    const exact = this.exact;
    exact.fill(0, 0, m);
    if (left > 0 && m > 1) {
      const second = this.split(sur.chosen, sur.count, order, true, placedSecond, roomSecond);
      const other = second < left ? roomFirst : roomSecond;
      if (second < left) {
        left = second;
        placed = placedSecond;
        room = roomSecond;
      }
      for (let b = 0; b < m; b++) if (other[b] === 0) exact[b] = 1;
    }
    return { left, placed, room };
  }

  /** The item to branch on: the heaviest of the surrogate's items the split left out (the lowest id on a tie). */
  heaviestLeftOut(sur: KnapsackAnswer, placed: Int32Array): number {
    const w = this.packed.qweight;
    let item = -1;
    for (let x = 0; x < sur.count; x++) {
      const j = sur.chosen[x]!;
      if (placed[j]! < 0 && (item < 0 || w[j]! > w[item]! || (w[j] === w[item] && j < item))) item = j;
    }
    return item;
  }

  /** The placed part completed greedily with the other free items (efficiency order, best fit): its value. */
  completeGreedily(free: Int32Array, k: number, placed: Int32Array, room: Float64Array): number {
    const { m } = this;
    const w = this.packed.qweight;
    const p = this.value;
    let lower = this.fixed;
    for (let x = 0; x < k; x++) if (placed[free[x]!]! >= 0) lower += p[free[x]!]!;
    for (let x = 0; x < k; x++) {
      const j = free[x]!;
      if (placed[j]! >= 0) continue;
      let pick = -1;
      for (let b = 0; b < m; b++) {
        if (this.allowed(j, b) && w[j]! <= room[b]! && (pick < 0 || room[b]! < room[pick]!)) pick = b;
      }
      if (pick < 0) continue;
      room[pick] = room[pick]! - w[j]!;
      placed[j] = pick;
      lower += p[j]!;
    }
    return lower;
  }

  /**
   * An incumbent candidate from all the free items (the first `k` of `free`): the knapsacks filled one by
   * one, smallest residual first, each with an optimal single knapsack of the free items not yet placed
   * that are its candidates and fit. (On subset-sum classes the split of the surrogate's own items,
   * completed greedily, stays short of a perfect packing that this finds at once.)
   */
  fill(free: Int32Array, k: number): void {
    const w = this.packed.qweight;
    const p = this.value;
    const placed = this.filledAt;
    placed.fill(-1, 0, this.n);
    const mine = this.pick;
    let value = this.fixed;
    const order = ascending(this.resid, this.m, this.byRoom);
    for (let r = 0; r < this.m; r++) {
      const b = order[r]!;
      const room = this.resid[b]!;
      let c = 0;
      for (let x = 0; x < k; x++)
        if (placed[free[x]!]! < 0 && this.allowed(free[x]!, b) && w[free[x]!]! <= room) mine[c++] = free[x]!;
      if (!this.meter.spend(k)) return;
      if (c === 0) continue;
      const best = knapsack(mine, c, p, w, room, 0, this.meter, this.ks, this.counters);
      if (this.stopped) return;
      if (best === null) continue;
      for (let x = 0; x < best.count; x++) placed[best.chosen[x]!] = b;
      value += best.value;
    }
    if (value > this.bestValue) this.record(value, placed);
  }

  /**
   * Knapsack-by-knapsack branching: the first knapsack in order with a free item that fits; its optimal
   * single knapsack's most efficient item j; j on it, then j barred from it (and from every knapsack
   * before it, where no free item fits any more).
   */
  *branchInOrder(level: Level): Generator<void, void, void> {
    const w = this.packed.qweight;
    const p = this.value;
    const mine = this.pick;
    const { free, k, bound } = level;
    for (let r = 0; r < this.m; r++) {
      const b = this.byRank[r]!;
      const room = this.resid[b]!;
      if (room === 0) continue;
      let c = 0;
      for (let x = 0; x < k; x++) {
        const j = free[x]!;
        if (this.assign[j] === FREE && this.allowed(j, b) && w[j]! <= room) mine[c++] = j;
      }
      if (!this.meter.spend(k)) return;
      if (c === 0) continue;
      const best = knapsack(mine, c, p, w, room, 0, this.meter, this.ks, this.counters);
      if (this.stopped) return;
      if (best === null || best.count === 0) continue;
      // The first of the offered items in the optimal set.
      for (let x = 0; x < best.count; x++) this.mark[best.chosen[x]!] = 1;
      let j = -1;
      for (let x = 0; x < c; x++)
        if (this.mark[mine[x]!] === 1) {
          j = mine[x]!;
          break;
        }
      for (let x = 0; x < best.count; x++) this.mark[best.chosen[x]!] = 0;
      this.assign[j] = b;
      this.resid[b] = room - w[j]!;
      this.fixed += p[j]!;
      yield* this.node();
      if (this.stopped) return;
      this.fixed -= p[j]!;
      this.resid[b] = room;
      this.assign[j] = FREE;
      if (this.bestValue >= bound) return;
      const saved = this.from[j]!;
      this.from[j] = r + 1;
      yield* this.node();
      this.from[j] = saved;
      return;
    }
  }

  /** The branches on the heaviest surrogate item the split left out: to each node it may go to, then excluded. */
  *branch(level: Level): Generator<void, void, void> {
    const { m } = this;
    const w = this.packed.qweight;
    const p = this.value;
    const { free, k, bound, item: j, tried, excluded } = level;
    const order = ascending(this.resid, m, level.byRoom);
    let nTried = 0;
    for (let r = 0; r < m; r++) {
      const b = order[r]!;
      if (!this.candidate(j, b) || w[j]! > this.resid[b]!) continue;
      let interchangeable = false;
      for (let t = 0; t < nTried && !interchangeable; t++)
        interchangeable = this.nodeClass[tried[t]!] === this.nodeClass[b] && this.resid[tried[t]!] === this.resid[b];
      if (interchangeable) continue;
      tried[nTried++] = b;
      this.assign[j] = b;
      this.resid[b] = this.resid[b]! - w[j]!;
      this.fixed += p[j]!;
      yield* this.node();
      if (this.stopped) return;
      this.fixed -= p[j]!;
      this.resid[b] = this.resid[b]! + w[j]!;
      this.assign[j] = FREE;
      if (this.bestValue >= bound) break;
    }
    if (this.bestValue < bound) {
      let nExcluded = 0;
      for (let x = 0; x < k; x++) {
        const i = free[x]!;
        if (this.assign[i] === FREE && this.identical(i, j)) {
          this.assign[i] = EXCLUDED;
          excluded[nExcluded++] = i;
        }
      }
      yield* this.node();
      for (let x = 0; x < nExcluded; x++) this.assign[excluded[x]!] = FREE;
    }
  }
}

/**
 * The search's root with one knapsack, without its set-up: the surrogate knapsack is that knapsack (its
 * capacity, the weight of the items that fit, is at most the residual), so its optimal set is the optimal
 * plan, which the split would place whole. The same work and counters as the search's root; null when the meter halted.
 */
function singleKnapsack(
  packed: MkpInstance,
  value: Float64Array,
  meter: WorkMeter,
  scratch: MkpScratch,
  counters: MkpCounters,
): MkpOutcome | null {
  const n = packed.qweight.length;
  const w = packed.qweight;
  const room = packed.capacity[0]!;
  if (!meter.spend(1)) return null;
  counters.nodes++;
  scratch.first.reserve(n, 1);
  const order = scratch.first.order;
  let k = 0;
  let reach = 0;
  for (let j = 0; j < n; j++) {
    if (value[j]! > 0 && packed.candidate[j]! === 1 && w[j]! <= room) {
      order[k++] = j;
      reach += w[j]!;
    }
  }
  if (!meter.spend(k)) return null;
  efficiencyOrder(order, k, value, w);
  const answer = knapsack(order, k, value, w, Math.min(reach, room), -1, meter, scratch.ks, counters);
  if (answer === null) return null;
  counters.splits++;
  counters.splitHits++;
  const node = new Int32Array(n).fill(-1);
  for (let x = 0; x < answer.count; x++) node[answer.chosen[x]!] = 0;
  return { node, value: answer.value, optimal: true, counters };
}

/** How many different knapsack orders reorder gives for m knapsacks (one per k below it). */
function distinctOrders(m: number): number {
  return m <= 2 ? m : m + 1;
}

/** Counters at zero. */
export function noCounters(): MkpCounters {
  return {
    nodes: 0,
    knapsacks: 0,
    states: 0,
    ceilingStops: 0,
    splits: 0,
    splitHits: 0,
    tightened: 0,
    aims: 0,
    regroups: 0,
    regroupGains: 0,
  };
}

/** The counters' names. */
const COUNTER_NAMES = Object.keys(noCounters()) as readonly (keyof MkpCounters)[];

/** Runs a search (its root's generator) on: true when it ended (or reached its ceiling), false when it paused at its work limit. */
function runs(walk: Generator<void, void, void>): boolean {
  return walk.next().done === true;
}

/**
 * A meter of its own for one part of a solve, bounded by `budget`, whose checks pass its work on to
 * `parent` (so the parent's budget, deadline and stop flag still hold): when the parent halts, this meter
 * halts too, and a halt of this meter with the parent running is this share's own.
 */
class ShareMeter {
  readonly meter: WorkMeter;
  #moved = 0;

  constructor(
    readonly parent: WorkMeter,
    budget: number,
    reason: string,
  ) {
    this.meter = new WorkMeter(
      Math.min(budget, parent.budget - parent.work),
      () => (this.settle() ? undefined : parent.halt!.reason),
      () => reason,
    );
  }

  /** Passes the work counted since the last pass on to the parent; false when the parent halted. */
  settle(): boolean {
    if (!this.parent.spend(this.meter.work - this.#moved)) return false;
    this.#moved = this.meter.work;
    return true;
  }

  /** Runs `part` on this meter and passes its work on to the parent (the callers ask the two meters how it ended). */
  run(part: () => void): void {
    part();
    this.settle();
  }
}

/** The share of the budget regrouping may spend in all, and the share one group's sub-search may spend. */
export const REGROUP_SHARE = 1 / 8;
export const REGROUP_GROUP_SHARE = 1 / 256;

/**
 * The sub-problems of regrouping (src/solve/mkp/regroup.ts) solved by the search of stage 1 below on a
 * share of its own (REGROUP_GROUP_SHARE of the budget), asked for a plan worth more than `beat`: the best
 * it found, proven optimal or not. Their counters go to `counters`.
 */
function reoptimiser(scratch: MkpScratch, parent: WorkMeter, counters: MkpCounters): Reoptimise {
  let ids = new Int32Array(0);
  return (sub, value, beat) => {
    // The sub-problem's surrogate first (its items come in efficiency order): most groups end here.
    const k = sub.qweight.length;
    if (ids.length < k) ids = Int32Array.from({ length: k }, (_, x) => x);
    let cap = 0;
    for (const c of sub.capacity) cap += c;
    if (!parent.spend(k)) return null;
    if (knapsack(ids, k, value, sub.qweight, cap, beat, parent, scratch.ks, counters) === null) return null;
    const share = new ShareMeter(parent, parent.budget * REGROUP_GROUP_SHARE, 'regroup share');
    const s = new Search(sub, value, share.meter, scratch, scratch.side);
    s.bestValue = beat;
    share.run(() => runs(s.node()));
    if (parent.halt !== null) return null;
    counters.regroups++;
    for (const k of COUNTER_NAMES) if (k !== 'regroups' && k !== 'regroupGains') counters[k] += s.counters[k];
    if (s.bestValue <= beat) return null;
    counters.regroupGains++;
    return { node: s.best, value: s.bestValue };
  };
}

/**
 * Regroups `plan` (a feasible plan of `packed` and its value; see src/solve/mkp/regroup.ts) in place
 * until it reaches `goal` or no group of two or three knapsacks improves, the sub-problems solved by the
 * search, all within `meter`; on a halt (`meter.halt`) it returns with `plan` whole. Counts into `counters`.
 */
export function regroupPlan(
  packed: MkpInstance,
  value: Float64Array,
  plan: Incumbent,
  goal: number,
  meter: WorkMeter,
  counters: MkpCounters,
  scratch?: MkpScratch,
  order?: Int32Array,
): void {
  if (order === undefined) {
    const items = new Int32Array(value.length);
    order = items.subarray(0, valuedItems(value.length, value, packed.qweight, items));
  }
  regroup(packed, value, order, plan, goal, reoptimiser(scratch ?? new MkpScratch(), meter, counters), meter);
}

/**
 * Solves the multiple knapsack of a packed problem whose values do not depend on the node (`value`: per
 * kept session), within the meter's budget, in up to four stages:
 *
 * 1. The search above (branching on the surrogate's left-out items), within FIRST_SEARCH_SHARE of the
 *    budget; most problems end here.
 * 2. Aimed searches: with U the first search's root bound, a search whose incumbent value is set to U - 1
 *    (no plan) finds a plan worth U if one exists and otherwise ends having proven that none does; every
 *    node whose bound is below U is closed at once, and the surrogate DP drops every state that cannot
 *    reach U. These branch knapsack by knapsack (branchInOrder), one search per knapsack order (capacity
 *    ascending, descending, rotations; a search's length is heavy-tailed in its order) within AIM_SHARE
 *    of the budget in all, at most AIM_RESTARTS orders. A plan worth U is optimal (U bounds every plan);
 *    a search that ends without one proves the optimum below U, and the next aims at U - 1. Their roots
 *    share one surrogate answer (rootMemo) and skip the fill (the first search's root ran the same one).
 * 3. Regrouping (src/solve/mkp/regroup.ts) of the first search's incumbent, within REGROUP_SHARE of the
 *    budget: groups of two, then three knapsacks re-solved over their items and the left-out ones. A plan
 *    worth the bound stage 2 left (the root bound, or the least value it did not rule out) is optimal.
 *    It runs after stage 2, which solves most of the instances it would help more cheaply.
 * 4. Otherwise the search of stage 1 resumes where it paused, with the rest of the budget, ending as
 *    soon as a plan reaches the bound stage 2 proved.
 *
 * On a halt, the best plan found so far (possibly empty) and the least bound the stages proved (`bound`).
 * With `kernels`, the surrogate knapsacks' core DP and the subset sums run in WebAssembly (the same
 * answers). With `store`, the buffers come from it and go back to it while they are small. With `base`
 * (the packed key's token radix, tokenRadix), values in two tiers at that base get the tier bound.
 */
export function searchMultipleKnapsack(
  packed: MkpInstance,
  value: Float64Array,
  meter: WorkMeter,
  kernels?: MkpKernels,
  store: MkpScratchStore = { mkp: null },
  base = 0,
): MkpOutcome {
  const scratch = store.mkp ?? new MkpScratch();
  store.mkp = null;
  scratch.ks.kernel = kernels?.surrogateCore ?? null;
  scratch.ss.kernel = kernels?.subsetSum ?? null;
  try {
    if (packed.capacity.length === 1) return singleKnapsackOutcome(packed, value, meter, scratch);
    return stagedSearch(new StagedSearch(packed, value, meter, scratch, tiersOf(value, base, scratch.tiers)));
  } finally {
    if (scratch.small) store.mkp = scratch;
  }
}

/** One knapsack: its exact answer, or on a halt the empty plan. */
function singleKnapsackOutcome(
  packed: MkpInstance,
  value: Float64Array,
  meter: WorkMeter,
  scratch: MkpScratch,
): MkpOutcome {
  const counters = noCounters();
  const solved = singleKnapsack(packed, value, meter, scratch, counters);
  if (solved !== null) return solved;
  const { reason, atBudget } = meter.halt!;
  return { node: new Int32Array(packed.qweight.length).fill(-1), value: 0, optimal: false, reason, atBudget, counters };
}

/**
 * The stages of searchMultipleKnapsack in order (see there): each returns early once its plan is proven
 * optimal, or once the meter halted (with the first search's plan).
 */
function stagedSearch(st: StagedSearch): MkpOutcome {
  const { meter } = st;
  const first = st.start(st.scratch.first);
  first.stopAt = meter.budget * FIRST_SEARCH_SHARE;
  const walk = first.node();
  const ended = runs(walk);
  if (meter.halt !== null) return st.outcome(first, meter.halt, first.rootBound);
  if (ended) return st.outcome(first);
  const aimed = st.aim(first);
  const proven = Math.min(first.rootBound, aimed.ceiling);
  if (meter.halt !== null) return st.outcome(first, meter.halt, proven);
  if (aimed.reached !== null) return st.outcome(aimed.reached);
  const { ceiling } = aimed;
  if (first.bestValue >= ceiling) return st.outcome(first);
  const regrouped = st.regroup(first, ceiling);
  if (meter.halt !== null) return st.outcome(first, meter.halt, proven);
  if (regrouped) return st.outcome(first);
  first.stopAt = Number.POSITIVE_INFINITY;
  first.ceiling = ceiling;
  runs(walk);
  return st.outcome(first, meter.halt ?? undefined, proven);
}

/** What the searches of one solve share: the problem, the meter, the scratch, and every search's counters. */
class StagedSearch {
  readonly #tallies: MkpCounters[] = [];

  constructor(
    readonly packed: MkpInstance,
    readonly value: Float64Array,
    readonly meter: WorkMeter,
    readonly scratch: MkpScratch,
    readonly tiers: Tiers | null,
  ) {}

  /** A new search in `buffers` on `on` (by default the solve's meter), its counters tallied. */
  start(buffers: SearchBuffers, on: WorkMeter = this.meter): Search {
    const s = new Search(this.packed, this.value, on, this.scratch, buffers, this.tiers);
    this.#tallies.push(s.counters);
    return s;
  }

  /** The outcome with `s`'s plan and every search's counters: optimal, or stopped by `halt`. */
  outcome(s: Search, halt?: MkpHalt, bound = Number.POSITIVE_INFINITY): MkpOutcome {
    const counters = noCounters();
    for (const t of this.#tallies) for (const k of COUNTER_NAMES) counters[k] += t[k];
    const base = {
      node: s.plan(),
      value: Math.max(0, s.bestValue),
      counters,
      ...(s.reached && { reachedCeiling: true as const }),
    };
    return halt === undefined
      ? { ...base, optimal: true }
      : {
          ...base,
          optimal: false,
          reason: halt.reason,
          atBudget: halt.atBudget,
          ...(Number.isFinite(bound) && { bound }),
        };
  }

  /**
   * Stage 2, the aimed searches below the first search's root bound: the one that reached its target (its
   * plan is optimal), or none and the least value not ruled out (`ceiling`, Infinity when none was).
   */
  aim(first: Search): { readonly reached: Search | null; readonly ceiling: number } {
    let ceiling = Number.POSITIVE_INFINITY;
    let target = first.rootBound;
    if (!Number.isFinite(target)) return { reached: null, ceiling };
    const { meter, scratch } = this;
    const orders = Math.min(AIM_RESTARTS, distinctOrders(first.m));
    const share = (meter.budget * AIM_SHARE) / orders;
    let attempt = 0;
    const rootMemo = new Map<string, KnapsackAnswer | null>();
    while (target > first.bestValue && attempt < orders) {
      // Each aimed search counts its work on a meter of its own, bounded by its share.
      const own = new ShareMeter(meter, share, 'aimed search share');
      const aim = this.start(scratch.side, own.meter);
      aim.counters.aims = 1;
      aim.ordered = true;
      aim.reorder(attempt);
      aim.bestValue = target - 1;
      // The root's fill is the first search's (the same knapsacks, items and orders): it found no plan worth U.
      aim.filled = true;
      aim.rootMemo = rootMemo;
      let ended = false;
      own.run(() => (ended = runs(aim.node()) && own.meter.halt === null));
      if (meter.halt !== null) return { reached: null, ceiling };
      if (!ended) {
        // Stopped within AIM_MIN_NODES nodes (its surrogate DPs cost about its share each, or its root
        // was not even bounded): the others would be too, and the first search gets the budget back.
        if (aim.counters.nodes < AIM_MIN_NODES) break;
        attempt++;
        continue;
      }
      if (aim.bestValue >= target) return { reached: aim, ceiling };
      ceiling = target - 1;
      target--;
    }
    return { reached: null, ceiling };
  }

  /** Stage 3, regrouping of the first search's incumbent: whether it reached the bound (then it is optimal). */
  regroup(first: Search, ceiling: number): boolean {
    const goal = Math.min(first.rootBound, ceiling);
    if (first.bestValue < 0 || first.bestValue >= goal) return first.bestValue >= goal;
    const { meter, scratch } = this;
    const counters = noCounters();
    this.#tallies.push(counters);
    const share = new ShareMeter(meter, meter.budget * REGROUP_SHARE, 'regroup share');
    const plan = { node: first.plan(), value: first.bestValue };
    share.run(() =>
      regroupPlan(
        this.packed,
        this.value,
        plan,
        goal,
        share.meter,
        counters,
        scratch,
        first.order.subarray(0, first.items),
      ),
    );
    if (meter.halt !== null) return false;
    if (plan.value > first.bestValue) {
      first.bestValue = plan.value;
      first.best.set(plan.node);
    }
    return first.bestValue >= goal;
  }
}
