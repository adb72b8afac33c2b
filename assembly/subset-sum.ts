// The bitset fold of the multiple-knapsack path's subset sums: the largest sum of a subset of the items
// within a capacity, and a subset reaching it.
//
// The fold and its walk back are stated once, in src/solve/dp/subset-sum/setup.ts (the TypeScript mirror this
// kernel is tested against: same sum, same subset in the same order, same work). The mirror names, per sum,
// the item that first reached it through a log of the words each fold changed; this kernel keeps instead
// the whole bitset after each fold (a row per item folded), which needs no branch per word:
//
// - Items are positions 0..k-1: weight i32[k], written by the host (a weight above the capacity is not
//   folded, which is how the host skips a position); the walk back writes the subset's positions, i32.
// - Row r is the bitset after r folds, words 0..top (bit s: sum s is reachable), with a zero guard vector
//   below word 0 (so the shifted read of word -1 is 0); words above the row's extent (the highest word the
//   fold could reach) are zero by definition and are zeroed before the next fold reads them. Row r + 1 is
//   row r, and from the weight's word up to its extent, row r ORed with row r shifted by the weight: four
//   words per i32x4 vector, read from row r and written to row r + 1.
// - The item that first reached a sum s is the one whose fold made the first row holding s; rows only
//   gain sums, so a binary search over the rows finds it. Walking back from the best sum, each sum minus
//   that item's weight lies in the row before it, and the search goes on among the earlier rows: the same
//   items, in the same order, as the mirror's log names.
// - A step folds items while their units of work (one per word from the weight's word to the top, as the
//   mirror spends) fit the host's allowance; the next item past it waits for the host to pay for it
//   (SUBSET_PENDING), and the step after that folds it first. Every loop variable is module state.
// - The rows grow on demand; a failed grow (the module's declared maximum) ends the run with
//   SUBSET_MEMORY, no trap.

import { PAGE } from './limits';
import { ensureMemory } from './memory';

export const SUBSET_DONE: i32 = 0;
export const SUBSET_PENDING: i32 = 1;
export const SUBSET_MEMORY: i32 = 2;
/** A sum of the walk back missing from the row it must be in (a bug, reported instead of trapping). */
export const SUBSET_BROKEN: i32 = 3;

/** f64 entries of subsetReport: units paid by the last step, units of the item waiting to be paid, the sum, the subset's size. */
export const SUBSET_REPORT: i32 = 4;

/** The largest capacity the fold takes: a sum plus a weight stays within i32. */
export const SUBSET_MAX_CAPACITY: i32 = 0x3fffffff;

// Regions (byte addresses).
let weight: usize = 0;
let chosen: usize = 0;
/** Per row r >= 1: the position of the item whose fold made it. */
let itemOf: usize = 0;
/** Per row: its extent (its highest word that may hold a sum). */
let extent: usize = 0;
/** Row 0's word 0; row r's is at rows + r * stride. */
let rows: usize = 0;
let stride: usize = 0;
/** Rows that fit in memory as it is. */
let rowsCap: i32 = 0;

// The run.
let k: i32 = 0;
let cap: i32 = 0;
let top: i32 = 0;
let topMask: i32 = 0;
let x: i32 = 0;
let r: i32 = 0;
let best: i32 = 0;
let prepaid: bool = false;
let paid: f64 = 0;
let pending: f64 = 0;
let count: i32 = 0;

/**
 * Starts a fold of the `n` items whose weights are at `weights` within `capacity`, its rows laid out at
 * `base` (growing memory if needed), and steps it (see subsetStep); the walk back writes the subset's
 * positions at `out`. Returns a status.
 */
export function subsetBegin(base: usize, weights: usize, out: usize, n: i32, capacity: i32, allowance: f64): i32 {
  weight = weights;
  chosen = out;
  k = n;
  cap = capacity;
  top = cap >>> 5;
  topMask = (cap & 31) == 31 ? -1 : (1 << ((cap & 31) + 1)) - 1;
  // A row: the guard vector, words 0..top rounded up to whole vectors, and one vector a last fold's vector may pass its extent into.
  stride = (<usize>(((top + 4) & ~3) + 8)) << 2;
  itemOf = base;
  extent = itemOf + ((<usize>n + 4) << 2);
  rows = ((extent + ((<usize>n + 4) << 2) + 15) & ~(<usize>15)) + 16;
  x = 0;
  r = 0;
  best = 0;
  prepaid = false;
  paid = 0;
  pending = 0;
  count = 0;
  rowsCap = 0;
  if (!moreRows()) return SUBSET_MEMORY;
  v128.store(rows - 16, i32x4.splat(0));
  store<i32>(rows, 1);
  store<i32>(extent, 0);
  return subsetStep(allowance);
}

/** Room for row r + 1 (twice the rows so far when memory allows); false when memory cannot grow. */
function moreRows(): bool {
  const need = <f64>rows + <f64>(r + 2) * <f64>stride;
  if (!ensureMemory(need + <f64>(r + 2) * <f64>stride) && !ensureMemory(need)) return false;
  rowsCap = <i32>((<f64>memory.size() * <f64>PAGE - <f64>rows) / <f64>stride);
  return true;
}

/** Folds item `item` of weight wi (at most the capacity) from row r into row r + 1. */
function foldItem(item: i32, wi: i32): void {
  const ws = wi >>> 5;
  const bs = wi & 31;
  const from = rows + <usize>r * stride;
  const to = from + stride;
  const had = load<i32>(extent + (<usize>r << 2));
  const hi = min(top, (best + wi) >>> 5);
  // Row r's words past its extent up to the new one are zero.
  if (hi > had) memory.fill(from + ((<usize>had + 1) << 2), 0, <usize>(hi - had) << 2);
  v128.store(to - 16, i32x4.splat(0));
  // Words below the weight's word gain nothing.
  memory.copy(to, from, <usize>ws << 2);
  const shift = <usize>ws << 2;
  if (bs == 0) {
    for (let i = ws; i <= hi; i += 4) {
      const at = <usize>i << 2;
      v128.store(to + at, v128.or(v128.load(from + at), v128.load(from + at - shift)));
    }
  } else {
    const back = 32 - bs;
    for (let i = ws; i <= hi; i += 4) {
      const at = <usize>i << 2;
      const lo = from + at - shift;
      const shifted = v128.or(i32x4.shl(v128.load(lo), bs), i32x4.shr_u(v128.load(lo - 4), back));
      v128.store(to + at, v128.or(v128.load(from + at), shifted));
    }
  }
  if (hi == top) store<i32>(to + (<usize>top << 2), load<i32>(to + (<usize>top << 2)) & topMask);
  // The best sum: the highest bit of the highest non-zero word (the old best is in row r + 1, so one is found).
  let i = hi;
  while (load<i32>(to + (<usize>i << 2)) == 0) i--;
  best = (i << 5) + (31 - clz(load<i32>(to + (<usize>i << 2))));
  r++;
  store<i32>(extent + (<usize>r << 2), hi);
  store<i32>(itemOf + (<usize>r << 2), item);
}

/**
 * Folds items while their units fit within `allowance` in all (an item the host paid for after
 * SUBSET_PENDING first); stops when the best sum reaches the capacity or the items run out, then walks back.
 * Returns a status and writes the report.
 */
export function subsetStep(allowance: f64): i32 {
  paid = 0;
  pending = 0;
  for (; x < k && best < cap; x++) {
    const wi = load<i32>(weight + (<usize>x << 2));
    if (wi > cap) continue;
    const units = <f64>(top - (wi >>> 5) + 1);
    if (prepaid) prepaid = false;
    else {
      if (paid + units > allowance) {
        pending = units;
        prepaid = true;
        return SUBSET_PENDING;
      }
      paid += units;
    }
    if (r + 1 >= rowsCap && !moreRows()) {
      // The item stays unfolded; the host was charged for it, as the mirror charges before it folds.
      return SUBSET_MEMORY;
    }
    foldItem(x, wi);
  }
  return walkBack();
}

/** Whether row `row` holds the sum s. */
// @ts-ignore: decorator
@inline function holds(row: i32, s: i32): bool {
  const word = s >>> 5;
  if (word > load<i32>(extent + (<usize>row << 2))) return false;
  return (load<i32>(rows + <usize>row * stride + (<usize>word << 2)) & (1 << (s & 31))) != 0;
}

/** Names a subset reaching the best sum into the subset region (see the module comment). */
function walkBack(): i32 {
  count = 0;
  let last = r;
  for (let s = best; s > 0; ) {
    if (!holds(last, s)) return SUBSET_BROKEN;
    // The first row holding s, among rows 1..last (row 0 holds only the sum 0).
    let lo = 1;
    let hi = last;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (holds(mid, s)) hi = mid;
      else lo = mid + 1;
    }
    const item = load<i32>(itemOf + (<usize>lo << 2));
    store<i32>(chosen + (<usize>count << 2), item);
    count++;
    s -= load<i32>(weight + (<usize>item << 2));
    last = lo - 1;
  }
  return SUBSET_DONE;
}

/** Writes the report (SUBSET_REPORT f64 entries) at `at`. */
export function subsetReport(at: usize): void {
  store<f64>(at, paid);
  store<f64>(at, pending, 8);
  store<f64>(at, <f64>best, 16);
  store<f64>(at, <f64>count, 24);
}
