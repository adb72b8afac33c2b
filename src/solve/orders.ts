/**
 * The named session orders, each defined once. Three of them rank by a value triple (a credit, ready,
 * tokens, all descending) and differ only in how they break the remaining ties by weight, which is why
 * they are named here rather than written out where they are used:
 *
 * - `bfdValueOrder`: kept sessions by best triple, ties by LARGER weight first (best-fit decreasing
 *   places big items early), then input order;
 * - `frontierOrder`: kept sessions by best triple, ties by SMALLER weight first (a valuable light session
 *   early leaves more room for the frontier's first incumbents), then input order;
 * - `assignmentOrder`: a plan's assignments by the triple on the chosen node, ties by SMALLER weight
 *   first, then input order (a prefix is a sensible partial plan: light sessions first among equals);
 * - `tokensOrder`: kept sessions by tokens, ties by larger weight, then input order (ThunderAgent's BFD);
 * - `weightOrder`: kept sessions by quantized weight descending, then input order (placements that
 *   spread: the closed-form best-nodes plan and the tie spreading).
 *
 * Kept sessions keep input order, so comparing kept indices last is "then input order". Each function
 * returns the indices sorted and modifies none of its inputs, except `assignmentOrder`, which sorts the
 * plan's list in place.
 */
import type { PackedProblem } from './pack.js';
import { RADIX_MIN_LENGTH, radixSortIndices, sortIndices } from './sort-indices.js';

/** Per-index arrays of a triple order: ready flags, token counts and weights. */
interface TripleParts {
  readonly ready: ArrayLike<number>;
  readonly tokens: ArrayLike<number>;
  readonly weight: ArrayLike<number>;
}

/**
 * The first `length` of `ids` sorted by (credit, ready, tokens) descending, then by weight (heavier first
 * when `heavierFirst`), then index: by the radix sort from RADIX_MIN_LENGTH indices on when `ids` is
 * ascending (every caller's is: its order is the last tie-break), else by the comparator.
 */
function byTriple<T extends number[] | Int32Array>(
  ids: T,
  length: number,
  credit: ArrayLike<number>,
  parts: TripleParts,
  heavierFirst: boolean,
): T {
  if (
    length >= RADIX_MIN_LENGTH &&
    radixSortIndices(ids, length, [
      { values: credit, descending: true },
      { values: parts.ready, descending: true },
      { values: parts.tokens, descending: true },
      { values: parts.weight, descending: heavierFirst },
    ])
  )
    return ids;
  const sign = heavierFirst ? -1 : 1;
  sortIndices(
    ids,
    length,
    (a, b) =>
      credit[b]! - credit[a]! ||
      parts.ready[b]! - parts.ready[a]! ||
      parts.tokens[b]! - parts.tokens[a]! ||
      sign * (parts.weight[a]! - parts.weight[b]!) ||
      a - b,
  );
  return ids;
}

function indices(n: number): number[] {
  const out = new Array<number>(n);
  for (let j = 0; j < n; j++) out[j] = j;
  return out;
}

/** BFD's `value` order over the kept sessions (`best`: best credit per kept session). */
export function bfdValueOrder(packed: PackedProblem, best: ArrayLike<number>): number[] {
  return byTriple(indices(best.length), best.length, best, packed, true);
}

/** The frontier DP's order over the kept sessions (`best`: best credit per kept session). */
export function frontierOrder(packed: PackedProblem, best: ArrayLike<number>): number[] {
  return byTriple(indices(best.length), best.length, best, packed, false);
}

/** Sorts a plan's assignments in place: the first `count` of `chosen` (session indices) by `credit[i]`, the credit on i's node. */
export function assignmentOrder(
  chosen: Int32Array,
  count: number,
  credit: ArrayLike<number>,
  parts: TripleParts,
): void {
  byTriple(chosen, count, credit, parts, false);
}

/** BFD's `tokens` order over the kept sessions. */
export function tokensOrder(packed: PackedProblem): number[] {
  const n = packed.tokens.length;
  const out = indices(n);
  if (
    n >= RADIX_MIN_LENGTH &&
    radixSortIndices(out, n, [
      { values: packed.tokens, descending: true },
      { values: packed.weight, descending: true },
    ])
  )
    return out;
  sortIndices(
    out,
    n,
    (a, b) => packed.tokens[b]! - packed.tokens[a]! || packed.weight[b]! - packed.weight[a]! || a - b,
  );
  return out;
}

/** The kept sessions by quantized weight descending, then input order, in the first n entries of `out` (n kept sessions). */
export function weightOrder(
  packed: PackedProblem,
  out: Int32Array = new Int32Array(packed.qweight.length),
): Int32Array {
  // One number per session, qweight * n + (n - 1 - j), sorted natively: descending, it orders by qweight
  // descending, then j ascending. Quantized weights are integers below 2^32 and n <= 4096, so every such
  // number is an integer below 2^44, exact in a double.
  const n = packed.qweight.length;
  const rank = new Float64Array(n);
  for (let j = 0; j < n; j++) rank[j] = packed.qweight[j]! * n + (n - 1 - j);
  rank.sort();
  for (let r = n - 1; r >= 0; r--) out[n - 1 - r] = n - 1 - (rank[r]! % n);
  return out;
}
