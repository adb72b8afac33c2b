/**
 * The largest subset sum within a capacity, by a bitset of reachable sums (bit s of the set: some subset
 * of the items folded so far weighs exactly s). Folding an item of weight w ORs the set shifted by w into
 * itself, 32 sums per word operation. Each sum records the position of the item that first reached it;
 * the sum minus that item's weight was reachable before that item, with an earlier position, so walking
 * back from the best sum names a subset that reaches it exactly.
 *
 * Used by the multiple-knapsack path to split the surrogate solution over the knapsacks and to tighten
 * each knapsack's capacity to the largest sum its candidate items reach.
 */
import type { WorkMeter } from './meter.js';

/** Capacities above this many quanta are not tightened or split by a bitset (it would need more than 256 KiB). */
export const SUBSET_SUM_MAX_CAPACITY = 1 << 21;

/** Reused buffers: the bitset and the first-reaching item per sum. */
export class SubsetSumScratch {
  bits = new Int32Array(64);
  from = new Int32Array(2048);

  /** Small enough to keep for the next solve (256 KiB). */
  get small(): boolean {
    return this.from.length <= 1 << 16;
  }

  reserve(cap: number): void {
    const words = (cap >>> 5) + 1;
    if (this.bits.length < words) this.bits = new Int32Array(Math.max(words, this.bits.length * 2));
    if (this.from.length < cap + 1) this.from = new Int32Array(Math.max(cap + 1, this.from.length * 2));
  }
}

/** A subset of the items and its weight. */
export interface SubsetSum {
  readonly sum: number;
  /** Positions (into the given item list) of the subset's items. */
  readonly chosen: number[];
}

/**
 * The largest sum of a subset of `items` (ids into `w`, the first `k` entries) that is at most `cap`, with
 * such a subset; null when `cap` exceeds SUBSET_SUM_MAX_CAPACITY and the items do not all fit. Spends one
 * unit of work per word operation.
 */
export function maxSubsetSum(items: ArrayLike<number>, k: number, w: ArrayLike<number>, cap: number, meter: WorkMeter, scratch: SubsetSumScratch): SubsetSum | null {
  let total = 0;
  for (let x = 0; x < k; x++) total += w[items[x]!]!;
  if (total <= cap) return { sum: total, chosen: Array.from({ length: k }, (_, x) => x) };
  if (cap > SUBSET_SUM_MAX_CAPACITY) return null;
  scratch.reserve(cap);
  const { bits, from } = scratch;
  const top = cap >>> 5;
  bits.fill(0, 0, top + 1);
  bits[0] = 1;
  // Bits above cap in the top word are masked off.
  const topMask = (cap & 31) === 31 ? -1 : (1 << ((cap & 31) + 1)) - 1;
  let best = 0;
  for (let x = 0; x < k && best < cap; x++) {
    const wi = w[items[x]!]!;
    if (wi > cap) continue;
    const ws = wi >>> 5;
    const bs = wi & 31;
    meter.spend(top - ws + 1);
    for (let i = top; i >= ws; i--) {
      let shifted = bits[i - ws]! << bs;
      if (bs !== 0 && i - ws - 1 >= 0) shifted |= bits[i - ws - 1]! >>> (32 - bs);
      if (i === top) shifted &= topMask;
      let fresh = shifted & ~bits[i]!;
      if (fresh === 0) continue;
      bits[i] = bits[i]! | fresh;
      while (fresh !== 0) {
        const low = fresh & -fresh;
        const s = i * 32 + (31 - Math.clz32(low));
        from[s] = x;
        if (s > best) best = s;
        fresh ^= low;
      }
    }
  }
  const chosen: number[] = [];
  for (let s = best; s > 0; ) {
    const x = from[s]!;
    chosen.push(x);
    s -= w[items[x]!]!;
  }
  return { sum: best, chosen };
}
