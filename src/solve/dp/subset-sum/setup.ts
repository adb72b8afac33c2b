/**
 * The largest subset sum within a capacity, by a bitset of reachable sums (bit s of the set: some subset
 * of the items folded so far weighs exactly s). Folding an item of weight w ORs the set shifted by w into
 * itself, 32 sums per word operation, and only up to the largest sum reachable after the fold. Each fold
 * logs, per word it adds sums to, the item and the mask of those sums, so every sum names the position of
 * the item that first reached it; the sum minus that item's weight was reachable before that item, with
 * an earlier position, so walking back from the best sum names a subset that reaches it exactly.
 *
 * Used by the multiple-knapsack path to split the surrogate solution over the knapsacks and to tighten
 * each knapsack's capacity to the largest sum its candidate items reach.
 */
import { SolverTrapError } from '../../../errors.js';
import { MkpHalt, type WorkMeter } from '../../mkp/meter.js';
import { type SubsetSum, type SubsetSumKernel, SubsetSumStatus } from './engine.js';
import { foldMirror } from './mirror.js';

/** Capacities above this many quanta are not tightened or split by a bitset (it would need more than 256 KiB). */
export const SUBSET_SUM_MAX_CAPACITY = 1 << 21;

/**
 * Buffers are kept between solves while the capacities seen stay below this many quanta and the folds
 * logged no more than this many word entries: at most 64 KiB of bitset and 768 KiB of log.
 */
export const SUBSET_SUM_KEEP_CAPACITY = 1 << 18;
export const SUBSET_SUM_KEEP_ENTRIES = 1 << 16;

/**
 * Folds whose rows could pass this many bytes (one bitset of the room per item) run in TypeScript: the
 * kernel keeps a row per item folded, and the module's memory, once grown, is never returned; the
 * TypeScript buffers are released above their kept size. (The multiple-knapsack search folds rooms of
 * about 2^16 quanta at most, 8 KiB a row: up to 2048 items stay in WebAssembly.)
 */
export const SUBSET_SUM_KERNEL_MAX_BYTES = 1 << 24;

/** Reused buffers: the bitset, each word's latest log entry, and the log (item, mask, the word's previous entry). */
export class SubsetSumScratch {
  /** The WebAssembly fold to run instead of the TypeScript one (null: the TypeScript one). */
  kernel: SubsetSumKernel | null = null;
  /** Folds whose rows could pass this many bytes run in TypeScript (see SUBSET_SUM_KERNEL_MAX_BYTES). */
  kernelMaxBytes = SUBSET_SUM_KERNEL_MAX_BYTES;
  bits = new Int32Array(64);
  head = new Int32Array(64);
  item = new Int32Array(1024);
  mask = new Int32Array(1024);
  prev = new Int32Array(1024);

  /** Small enough to keep for the next solve. */
  get small(): boolean {
    return this.bits.length <= SUBSET_SUM_KEEP_CAPACITY >>> 5 && this.item.length <= SUBSET_SUM_KEEP_ENTRIES;
  }

  reserve(cap: number): void {
    const words = (cap >>> 5) + 1;
    if (this.bits.length < words) {
      // Doubling stops at the kept size, so a capacity below it never grows the buffers past it.
      const n = Math.max(words, Math.min(this.bits.length * 2, SUBSET_SUM_KEEP_CAPACITY >>> 5));
      this.bits = new Int32Array(n);
      this.head = new Int32Array(n);
    }
  }

  /** Room for one more log entry after `used`. */
  grow(used: number): void {
    if (used < this.item.length) return;
    const n = used < SUBSET_SUM_KEEP_ENTRIES ? Math.min(used * 2, SUBSET_SUM_KEEP_ENTRIES) : used * 2;
    const item = new Int32Array(n);
    const mask = new Int32Array(n);
    const prev = new Int32Array(n);
    item.set(this.item);
    mask.set(this.mask);
    prev.set(this.prev);
    this.item = item;
    this.mask = mask;
    this.prev = prev;
  }
}

/**
 * The first window of a large capacity (see maxSubsetSum): the heaviest items fill the capacity greedily
 * while at least this much room is left, and the exact subset sum runs on that room only. Each later
 * window is WINDOW_GROWTH times the room the previous one left, and a room above 1 / WINDOW_GROWTH of the
 * capacity is not tried.
 */
export const SUBSET_SUM_WINDOW = 1 << 12;
export const WINDOW_GROWTH = 4;

/**
 * The largest sum of a subset of `items` (ids into `w`, the first `k` entries) that is at most `cap`, with
 * such a subset; null when `cap` exceeds SUBSET_SUM_MAX_CAPACITY and the items do not all fit, or when the
 * meter halted (the caller asks `meter.halt`). Spends one unit of work per word of the room per item folded
 * (whether or not the fold visits every word).
 *
 * Windows first: the heaviest items go in greedily while they leave at least a window of room, and the
 * bitset runs on the other items over that room alone; when it fills the room exactly, those items with
 * the greedy ones fill `cap` exactly, which no subset beats. Otherwise the next window is tried, and then
 * the whole capacity is folded. The rooms tried grow by WINDOW_GROWTH and stay within cap / WINDOW_GROWTH,
 * so together they cost at most 1 / (WINDOW_GROWTH - 1) of the whole fold's words per item (on near-fitting
 * pools the first window fills most of the split's rooms exactly, at a fraction of the work).
 */
export function maxSubsetSum(
  items: ArrayLike<number>,
  k: number,
  w: ArrayLike<number>,
  cap: number,
  meter: WorkMeter,
  scratch: SubsetSumScratch,
): SubsetSum | null {
  let total = 0;
  for (let x = 0; x < k; x++) total += w[items[x]!]!;
  if (total <= cap) return { sum: total, chosen: Array.from({ length: k }, (_, x) => x) };
  if (cap > SUBSET_SUM_MAX_CAPACITY) return null;
  // The positions heaviest first (ties by position), the order every window fills its greedy part in.
  const heavy =
    SUBSET_SUM_WINDOW * WINDOW_GROWTH <= cap
      ? Array.from({ length: k }, (_, x) => x).sort((a, b) => w[items[b]!]! - w[items[a]!]! || a - b)
      : [];
  for (let window = SUBSET_SUM_WINDOW; window * WINDOW_GROWTH <= cap; ) {
    const tried = windowed(items, k, w, cap, window, heavy, meter, scratch);
    if (typeof tried !== 'number') return tried;
    if (tried === 0) break;
    window = tried * WINDOW_GROWTH;
  }
  return fold(items, k, w, cap, meter, scratch, null);
}

/**
 * A subset summing to exactly `cap` found through a window of at least `window` quanta, the greedy part
 * taken in the order `heavy`; else the room the window left (0 when that room is above cap / WINDOW_GROWTH
 * and was not tried); null when the meter halted.
 */
function windowed(
  items: ArrayLike<number>,
  k: number,
  w: ArrayLike<number>,
  cap: number,
  window: number,
  heavy: readonly number[],
  meter: WorkMeter,
  scratch: SubsetSumScratch,
): SubsetSum | number | null {
  const taken = new Uint8Array(k);
  const greedy: number[] = [];
  let room = cap;
  for (const x of heavy) {
    if (room - w[items[x]!]! >= window) {
      room -= w[items[x]!]!;
      taken[x] = 1;
      greedy.push(x);
    }
  }
  if (room * WINDOW_GROWTH > cap) return 0;
  const rest = fold(items, k, w, room, meter, scratch, taken);
  if (rest === null || rest.sum !== room) return rest === null ? null : room;
  return { sum: cap, chosen: [...greedy, ...rest.chosen] };
}

/**
 * The bitset fold over the items not `skipped` (see the module comment): the largest sum within `cap`. With
 * `scratch.kernel` set, it runs in WebAssembly (unless its rows could pass `scratch.kernelMaxBytes`), with
 * the same work and the same answer. Null when the meter halted.
 */
function fold(
  items: ArrayLike<number>,
  k: number,
  w: ArrayLike<number>,
  cap: number,
  meter: WorkMeter,
  scratch: SubsetSumScratch,
  skipped: Uint8Array | null,
): SubsetSum | null {
  const rowBytes = ((cap >>> 5) + 1) * 4;
  if (scratch.kernel === null || k * rowBytes > scratch.kernelMaxBytes)
    return foldMirror(items, k, w, cap, meter, scratch, skipped);
  return kernelFold(scratch.kernel, items, k, w, cap, meter, skipped);
}

/** The fold in WebAssembly: the same items folded, paid for (by the kernel within the meter's quiet units) from here. */
function kernelFold(
  kernel: SubsetSumKernel,
  items: ArrayLike<number>,
  k: number,
  w: ArrayLike<number>,
  cap: number,
  meter: WorkMeter,
  skipped: Uint8Array | null,
): SubsetSum | null {
  // The items the kernel pays for by itself are those the meter would neither stop nor check on.
  let status = kernel.start({ items, k, w, cap, skipped });
  for (;;) {
    status = kernel.step(meter.quiet());
    const { paid, pending } = kernel.counters();
    if (paid > 0 && !meter.spend(paid)) return null;
    if (status === SubsetSumStatus.done) return kernel.finish();
    if (status === SubsetSumStatus.pending) {
      if (!meter.spend(pending)) return null;
    } else if (status === SubsetSumStatus.memory) {
      meter.stop(memoryHalt(cap));
      return null;
    } else throw new SolverTrapError('subset sums: the kernel found no entry reaching a sum on the walk back');
  }
}

/** The memory-cap halt of the WebAssembly fold. */
function memoryHalt(cap: number): MkpHalt {
  return new MkpHalt(`memory cap exceeded: the subset sums' log within ${cap} quanta would pass the module's memory`);
}
