/**
 * Sorting a list of indices by a comparator with at most one allocation (one buffer of the list's length,
 * none up to one run). `Array.prototype.sort` and `TypedArray.prototype.sort` with a comparator copy the
 * list into several fresh work arrays on every call, and a solve sorts several such lists. The sort is stable
 * (insertion sort on runs, then merges that take the left run's entry on ties): a list in index order comes
 * out as with a comparator whose last tie-break is the index, the order those sorts give.
 */

/** Ascending numeric order, for sorting a set of indices. */
export const ascending = (a: number, b: number): number => a - b;

/** Runs of at most this many indices are sorted by insertion before the merges. */
const RUN = 16;

/** Sorts the first `length` entries of `ids` in place, `compare(a, b) < 0` meaning a comes first. */
export function sortIndices(
  ids: number[] | Int32Array,
  length: number,
  compare: (a: number, b: number) => number,
): void {
  for (let lo = 0; lo < length; lo += RUN) insertionSort(ids, lo, Math.min(lo + RUN, length), compare);
  if (length <= RUN) return;
  // The merges' second buffer: only lists longer than one run need it.
  let from: number[] | Int32Array = ids;
  let to: number[] | Int32Array = new Int32Array(length);
  for (let width = RUN; width < length; width *= 2) {
    for (let lo = 0; lo < length; lo += 2 * width)
      merge(from, to, lo, Math.min(lo + width, length), Math.min(lo + 2 * width, length), compare);
    const t = from;
    from = to;
    to = t;
  }
  if (from !== ids) for (let i = 0; i < length; i++) ids[i] = from[i]!;
}

function insertionSort(
  a: number[] | Int32Array,
  lo: number,
  hi: number,
  compare: (a: number, b: number) => number,
): void {
  for (let i = lo + 1; i < hi; i++) {
    const x = a[i]!;
    let k = i;
    while (k > lo && compare(x, a[k - 1]!) < 0) {
      a[k] = a[k - 1]!;
      k--;
    }
    a[k] = x;
  }
}

/** Merges the sorted ranges [lo, mid) and [mid, hi) of `from` into the same range of `to`. */
function merge(
  from: number[] | Int32Array,
  to: number[] | Int32Array,
  lo: number,
  mid: number,
  hi: number,
  compare: (a: number, b: number) => number,
): void {
  let i = lo;
  let j = mid;
  for (let k = lo; k < hi; k++) {
    if (i < mid && (j >= hi || compare(from[j]!, from[i]!) >= 0)) to[k] = from[i++]!;
    else to[k] = from[j++]!;
  }
}

/** One key of `radixSortIndices`: a value per index, an integer from 0 to 2^32 - 1, and its direction. */
export interface RadixKey {
  readonly values: ArrayLike<number>;
  readonly descending: boolean;
}

/**
 * From this many indices on, the triple orders sort by `radixSortIndices` (a pass costs a fixed 256-bucket
 * histogram; below it, the comparator sort's few comparisons cost less).
 */
export const RADIX_MIN_LENGTH = 128;

/**
 * Sorts the first `length` entries of `ids`, which must be ascending, by `keys` (the first the most
 * significant), ties keeping the ascending order: the order `sortIndices` gives with a comparator over the
 * same keys whose last tie-break is the index. A least-significant-digit radix sort, one pass per byte of
 * each key that the values do not all share, each pass stable: O(length) per pass, with one buffer of the
 * list's length. Returns false, leaving `ids` as it was, when a value is not an integer from 0 to 2^32 - 1
 * or `ids` is not ascending.
 */
export function radixSortIndices(ids: number[] | Int32Array, length: number, keys: readonly RadixKey[]): boolean {
  for (let i = 1; i < length; i++) if (ids[i]! <= ids[i - 1]!) return false;
  // Per key, the bytes any value has: the passes over bytes no value has would move nothing.
  const used = new Array<number>(keys.length);
  for (let k = 0; k < keys.length; k++) {
    const values = keys[k]!.values;
    let any = 0;
    for (let i = 0; i < length; i++) {
      const v = values[ids[i]!]!;
      if (v >>> 0 !== v) return false;
      any |= v;
    }
    used[k] = any >>> 0;
  }
  let from: number[] | Int32Array = ids;
  let to: number[] | Int32Array = new Int32Array(length);
  const count = new Int32Array(257);
  for (let k = keys.length - 1; k >= 0; k--) {
    const { values, descending } = keys[k]!;
    const flip = descending ? 255 : 0;
    for (let shift = 0; shift < 32 && used[k]! >>> shift !== 0; shift += 8) {
      count.fill(0);
      for (let i = 0; i < length; i++) count[(((values[from[i]!]! >>> shift) & 255) ^ flip) + 1]!++;
      // A byte every value shares moves nothing.
      let shared = false;
      for (let d = 1; d <= 256 && !shared; d++) shared = count[d] === length;
      if (shared) continue;
      for (let d = 1; d <= 256; d++) count[d]! += count[d - 1]!;
      for (let i = 0; i < length; i++) {
        const id = from[i]!;
        to[count[((values[id]! >>> shift) & 255) ^ flip]!++] = id;
      }
      const t = from;
      from = to;
      to = t;
    }
  }
  if (from !== ids) for (let i = 0; i < length; i++) ids[i] = from[i]!;
  return true;
}
