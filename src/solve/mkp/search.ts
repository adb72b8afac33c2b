/**
 * The bound-and-bound search of the multiple-knapsack path (after Pisinger's MULKNAP, "An exact
 * algorithm for large multiple knapsack problems", EJOR 1999), over items whose value is the same on
 * every candidate knapsack. At each node of a depth-first search that assigns items to knapsacks:
 *
 * 1. Surrogate bound: one knapsack over the free items with capacity the sum of the residuals (each at
 *    most the weight of the free items that may go there), solved exactly (src/solve/mkp/knapsack.ts).
 *    Every completion of the node is a set of free items whose weights fit the residuals knapsack by
 *    knapsack, hence fit their sum: the surrogate optimum plus the fixed value bounds every completion.
 *    A node whose bound does not beat the incumbent is closed.
 * 2. Split: the surrogate's items are packed knapsack by knapsack (smallest residual first, each taking
 *    the largest subset sum of the remaining ones that are candidates there; largest residual first when
 *    that leaves items out). When all of them are placed, the node's completion reaches its bound: it is
 *    the best completion, and the node is closed. Otherwise the placed part, completed greedily with the
 *    other free items, is an incumbent candidate. At the root, when that falls short of the bound, the
 *    knapsacks are also filled one by one with an optimal single knapsack of the free items left (fill).
 * 3. Capacity tightening, when the split fell short: each knapsack's residual becomes the largest subset
 *    sum of the free items that are candidates there and fit (src/solve/mkp/subset-sum.ts); no completion
 *    can use more of it, since whatever is placed there later is such a subset. If any residual dropped,
 *    1-2 run again.
 * 4. Branching on the heaviest surrogate item the split left out: to each knapsack it is a candidate on
 *    and fits, then excluded. Knapsacks with the same residual and the same candidacy for every item are
 *    interchangeable, so only the first of them is tried; in the exclusion branch the item's identical
 *    copies (same weight, value and candidacy) are excluded with it, since any completion using a copy
 *    maps to one using the item, which the assignment branches cover.
 *
 * Every node decides at least one item, so the search ends; the work meter bounds it.
 */
import { KnapsackScratch, knapsack, type CoreDpKernel } from './knapsack.js';
import { MkpHalt, type WorkMeter } from './meter.js';
import { SubsetSumScratch, maxSubsetSum } from './subset-sum.js';
import { denser } from '../knapsack.js';
import { nodesKept, sessionsKept, type PackedProblem } from '../pack.js';
import type { MultipleKnapsackStats } from '../../types.js';

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
  readonly counters: MkpCounters;
}

/** The buffers of a search, kept between solves while they are small. */
interface Scratch {
  readonly ks: KnapsackScratch;
  readonly ss: SubsetSumScratch;
}
let kept: Scratch | null = null;

/**
 * Residuals above this many quanta are not tightened: a bitset pass over one item costs r / 32 word
 * operations, and on such capacities a few hundred items would spend the state budget on a bound that
 * only ever tightens (measured: 500 sessions x 16 nodes of ~400k quanta each spent all 2^22 units there).
 */
export const TIGHTEN_MAX_CAPACITY = 1 << 16;

/** The split's exact subset sums run on rooms of about this many quanta; larger rooms are first filled greedily. */
export const SPLIT_BITSET_ROOM = 1 << 16;

const FREE = -2;
const EXCLUDED = -1;

class Search {
  readonly n: number;
  readonly m: number;
  /** Items (kept sessions with a positive value) in efficiency order. */
  readonly order: Int32Array;
  /** Per node: the first node with the same candidacy column. */
  readonly nodeClass: Int32Array;
  readonly assign: Int32Array;
  readonly resid: Float64Array;
  fixed = 0;
  bestValue = -1;
  /** The root's fill ran (see fill). */
  filled = false;
  readonly best: Int32Array;
  readonly counters: MkpCounters = { nodes: 0, knapsacks: 0, states: 0, splits: 0, splitHits: 0, tightened: 0 };
  readonly ks: KnapsackScratch;
  readonly ss: SubsetSumScratch;
  readonly buf: Int32Array;

  constructor(
    readonly packed: PackedProblem,
    readonly value: Float64Array,
    readonly meter: WorkMeter,
    scratch: Scratch,
  ) {
    this.ks = scratch.ks;
    this.ss = scratch.ss;
    const n = sessionsKept(packed);
    const m = nodesKept(packed);
    this.n = n;
    this.m = m;
    const w = packed.qweight;
    const items: number[] = [];
    for (let j = 0; j < n; j++) if (value[j]! > 0) items.push(j);
    // Density order; equal densities lightest first (measured on the subset-sum 50x5 class, where every
    // density is equal: 0 of 20 instances fall back this way, 7 in input order, 20 heaviest first).
    this.order = Int32Array.from(items.sort((a, b) => denser(value[b]!, w[b]!, value[a]!, w[a]!) || w[a]! - w[b]! || a - b));
    this.nodeClass = new Int32Array(m);
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
    this.assign = new Int32Array(n).fill(EXCLUDED);
    for (const j of items) this.assign[j] = FREE;
    this.resid = Float64Array.from(packed.capacity);
    this.best = new Int32Array(n).fill(-1);
    this.buf = new Int32Array(n);
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

  /** Records the current assignment plus `extra` (item -> node) as the incumbent. */
  record(value: number, extra: ReadonlyMap<number, number>): void {
    this.bestValue = value;
    for (let j = 0; j < this.n; j++) {
      const b = this.assign[j]!;
      this.best[j] = b >= 0 ? b : (extra.get(j) ?? -1);
    }
  }

  /** The free items that are candidates on some node with room for them, in efficiency order, into buf. */
  freeItems(): number {
    const w = this.packed.qweight;
    let k = 0;
    for (const j of this.order) {
      if (this.assign[j] !== FREE) continue;
      for (let b = 0; b < this.m; b++) {
        if (this.candidate(j, b) && w[j]! <= this.resid[b]!) {
          this.buf[k++] = j;
          break;
        }
      }
    }
    return k;
  }

  /** Tightens every residual to the largest subset sum of the free items that are candidates there; whether any dropped. */
  tighten(items: Int32Array): boolean {
    const w = this.packed.qweight;
    const k = items.length;
    let changed = false;
    const mine = new Int32Array(k);
    for (let b = 0; b < this.m; b++) {
      const r = this.resid[b]!;
      if (r === 0 || r > TIGHTEN_MAX_CAPACITY) continue;
      let c = 0;
      for (let x = 0; x < k; x++) if (this.candidate(items[x]!, b) && w[items[x]!]! <= r) mine[c++] = items[x]!;
      const s = maxSubsetSum(mine, c, w, r, this.meter, this.ss);
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
   * the branches.
   */
  node(): void {
    this.meter.spend(1);
    this.counters.nodes++;
    const saved = Float64Array.from(this.resid);
    let tightened = false;
    for (;;) {
      const step = this.boundAndSplit();
      if (step === null) {
        this.resid.set(saved);
        return;
      }
      if (tightened || !this.tighten(step.free)) {
        this.branch(step.left, step.bound, step.free);
        this.resid.set(saved);
        return;
      }
      tightened = true;
    }
  }

  /**
   * Packs `chosen` knapsack by knapsack in `order`, each taking the largest subset sum of the remaining
   * items that are its candidates (greedily, heaviest first, above the bitset's capacity limit).
   */
  split(chosen: readonly number[], order: readonly number[]): { left: Set<number>; placed: Map<number, number>; room: Float64Array } {
    const w = this.packed.qweight;
    const left = new Set(chosen);
    const placed = new Map<number, number>();
    const room = Float64Array.from(this.resid);
    for (const b of order) {
      if (left.size === 0) break;
      let mine: number[] = [];
      for (const j of left) if (this.candidate(j, b) && w[j]! <= room[b]!) mine.push(j);
      if (mine.length === 0) continue;
      if (room[b]! > SPLIT_BITSET_ROOM) {
        // A large room: the heaviest items go in greedily while they leave at least SPLIT_BITSET_ROOM, so
        // the exact subset sum below runs on a room about that size.
        mine.sort((x, y) => w[y]! - w[x]!);
        const rest: number[] = [];
        for (const j of mine) {
          if (room[b]! - w[j]! >= SPLIT_BITSET_ROOM) {
            room[b] = room[b]! - w[j]!;
            placed.set(j, b);
            left.delete(j);
          } else rest.push(j);
        }
        mine = rest;
      }
      const s = maxSubsetSum(mine, mine.length, w, room[b]!, this.meter, this.ss);
      if (s === null) {
        mine.sort((x, y) => w[y]! - w[x]!);
        for (const j of mine) {
          if (w[j]! <= room[b]!) {
            room[b] = room[b]! - w[j]!;
            placed.set(j, b);
            left.delete(j);
          }
        }
        continue;
      }
      for (const x of s.chosen) {
        const j = mine[x]!;
        placed.set(j, b);
        left.delete(j);
      }
      room[b] = room[b]! - s.sum;
    }
    return { left, placed, room };
  }

  /**
   * The node's surrogate bound and split: null when the node is closed (its bound does not beat the
   * incumbent, or the split reached it), else the bound, the surrogate items the split left out and the
   * free items.
   */
  boundAndSplit(): { bound: number; left: Set<number>; free: Int32Array } | null {
    const { m } = this;
    const w = this.packed.qweight;
    const p = this.value;
    const k = this.freeItems();
    const free = this.buf.slice(0, k);
    // The passes over free items x nodes below (capacity, split, completion) count as work too.
    this.meter.spend(k * m);
    // The surrogate capacity: each residual, but no more than its free candidates weigh.
    const reach = new Float64Array(m);
    for (let x = 0; x < k; x++) {
      const j = free[x]!;
      for (let b = 0; b < m; b++) if (this.candidate(j, b) && w[j]! <= this.resid[b]!) reach[b] = reach[b]! + w[j]!;
    }
    let cap = 0;
    for (let b = 0; b < m; b++) cap += Math.min(reach[b]!, this.resid[b]!);
    const sur = knapsack(free, k, p, w, cap, this.bestValue - this.fixed, this.meter, this.ks, this.counters);
    if (sur === null) return null;
    const bound = this.fixed + sur.value;

    // Split the surrogate solution over the knapsacks, smallest residual first, then largest first.
    this.counters.splits++;
    const ascending = Array.from({ length: m }, (_, b) => b).sort((a, b) => this.resid[a]! - this.resid[b]! || a - b);
    let split = this.split(sur.chosen, ascending);
    if (split.left.size > 0 && m > 1) {
      const second = this.split(sur.chosen, ascending.reverse());
      if (second.left.size < split.left.size) split = second;
    }
    const { left, placed, room } = split;
    if (left.size === 0) {
      this.counters.splitHits++;
      this.record(bound, placed);
      return null;
    }
    // The placed part completed greedily with the other free items (efficiency order, best fit).
    let lower = this.fixed;
    for (const j of placed.keys()) lower += p[j]!;
    for (let x = 0; x < k; x++) {
      const j = free[x]!;
      if (placed.has(j)) continue;
      let pick = -1;
      for (let b = 0; b < m; b++) {
        if (this.candidate(j, b) && w[j]! <= room[b]! && (pick < 0 || room[b]! < room[pick]!)) pick = b;
      }
      if (pick < 0) continue;
      room[pick] = room[pick]! - w[j]!;
      placed.set(j, pick);
      lower += p[j]!;
    }
    if (lower > this.bestValue) this.record(lower, placed);
    if (!this.filled && this.bestValue < bound) {
      this.filled = true;
      this.fill(free);
    }
    if (this.bestValue >= bound) return null;
    return { bound, left, free };
  }

  /**
   * An incumbent candidate from all the free items: the knapsacks filled one by one, smallest residual
   * first, each with an optimal single knapsack of the free items not yet placed that are its candidates
   * and fit. (Measured on the subset-sum 100x10 class: the split of the surrogate's own items, completed
   * greedily, stays 10-60 short of a perfect packing that this finds at once.)
   */
  fill(free: Int32Array): void {
    const w = this.packed.qweight;
    const p = this.value;
    const placed = new Map<number, number>();
    const mine = new Int32Array(free.length);
    let value = this.fixed;
    const ascending = Array.from({ length: this.m }, (_, b) => b).sort((a, b) => this.resid[a]! - this.resid[b]! || a - b);
    for (const b of ascending) {
      const r = this.resid[b]!;
      let c = 0;
      for (const j of free) if (!placed.has(j) && this.candidate(j, b) && w[j]! <= r) mine[c++] = j;
      this.meter.spend(free.length);
      if (c === 0) continue;
      const best = knapsack(mine, c, p, w, r, 0, this.meter, this.ks, this.counters);
      if (best === null) continue;
      for (const j of best.chosen) placed.set(j, b);
      value += best.value;
    }
    if (value > this.bestValue) this.record(value, placed);
  }

  /** The branches on the heaviest surrogate item the split left out: to each node it may go to, then excluded. */
  branch(left: ReadonlySet<number>, bound: number, free: Int32Array): void {
    const { m } = this;
    const w = this.packed.qweight;
    const p = this.value;
    const k = free.length;
    let j = -1;
    for (const x of left) if (j < 0 || w[x]! > w[j]! || (w[x] === w[j] && x < j)) j = x;
    const tried: number[] = [];
    const targets = Array.from({ length: m }, (_, b) => b).sort((a, b) => this.resid[a]! - this.resid[b]! || a - b);
    for (const b of targets) {
      if (!this.candidate(j, b) || w[j]! > this.resid[b]!) continue;
      if (tried.some((c) => this.nodeClass[c] === this.nodeClass[b] && this.resid[c] === this.resid[b])) continue;
      tried.push(b);
      this.assign[j] = b;
      this.resid[b] = this.resid[b]! - w[j]!;
      this.fixed += p[j]!;
      this.node();
      this.fixed -= p[j]!;
      this.resid[b] = this.resid[b]! + w[j]!;
      this.assign[j] = FREE;
      if (this.bestValue >= bound) break;
    }
    if (this.bestValue < bound) {
      const excluded: number[] = [];
      for (let x = 0; x < k; x++) {
        const i = free[x]!;
        if (this.assign[i] === FREE && this.identical(i, j)) {
          this.assign[i] = EXCLUDED;
          excluded.push(i);
        }
      }
      this.node();
      for (const i of excluded) this.assign[i] = FREE;
    }
  }
}

/**
 * Solves the multiple knapsack of a packed problem whose values do not depend on the node (`value`: per
 * kept session), within the meter's budget. On a halt, the best plan found so far (possibly empty). With
 * `kernel`, the surrogate knapsacks' core DP runs in WebAssembly (the same answers).
 */
export function searchMultipleKnapsack(packed: PackedProblem, value: Float64Array, meter: WorkMeter, kernel?: CoreDpKernel): MkpOutcome {
  const scratch = kept ?? { ks: new KnapsackScratch(), ss: new SubsetSumScratch() };
  kept = null;
  scratch.ks.kernel = kernel ?? null;
  const s = new Search(packed, value, meter, scratch);
  try {
    s.node();
  } catch (e) {
    if (!(e instanceof MkpHalt)) throw e;
    return { node: s.best, value: Math.max(0, s.bestValue), optimal: false, reason: e.reason, atBudget: e.atBudget, counters: s.counters };
  } finally {
    if (scratch.ks.small && scratch.ss.small) kept = scratch;
  }
  return { node: s.best, value: Math.max(0, s.bestValue), optimal: true, counters: s.counters };
}
