/**
 * Sorting a list of indices by a comparator with at most one allocation (one buffer of the list's length,
 * none up to one run). `Array.prototype.sort` and `TypedArray.prototype.sort` with a comparator copy the
 * list into several fresh work arrays on every call, and a solve sorts several such lists. Every comparator the solver
 * passes here is a total order (its last tie-break is the index), so the order is the one those sorts give.
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
