/**
 * Packing: a validated problem and resolved options become the quantized, reduced arrays every solver
 * path reads (WASM dense, TS dense-wide, BFD). The result is a plain object of typed arrays, numbers and
 * booleans, so it survives structured cloning and its buffers can be transferred to a worker.
 */
import type { ResolvedSolveOptions } from './options.js';
import { Slab } from './slab.js';
import { EVERY_NODE, LISTED_NODES, UNLISTED_NODES, type IndexedArrays } from './validate.js';
import { sortIndices } from './sort-indices.js';

/** 2^63 - 1: the largest packed key sum the i64 table can hold. */
const I64_MAX = (1n << 63n) - 1n;

/**
 * A problem after quantization and exact reductions. "Kept" sessions and nodes are the ones the DP sees;
 * pair arrays are session-major over kept indices: entry `j * nodesKept + b`.
 *
 * Reductions (none changes the optimal value):
 * - a pair (i, b) is a candidate iff it is eligible and w'_i <= floor(C_b / quantum);
 * - a node's DP capacity is min(floor(C_b / quantum), sum of w' of its candidate sessions): no plan can
 *   use more than that sum on it;
 * - nodes whose DP capacity is 0 and sessions with no candidate node are dropped.
 */
export interface PackedProblem {
  /** Sessions in the original problem. */
  readonly sessionCount: number;
  /** Nodes in the original problem. */
  readonly nodeCount: number;
  /** The capacity quantum (tokens) the arrays were quantized at. */
  readonly quantum: number;
  /** Kept session j -> original session index, ascending (input order is preserved). */
  readonly sessionIndex: Int32Array;
  /**
   * Kept node b -> original node index. Ordered by DP capacity descending (ties: lower original index)
   * so the largest radix is the innermost, contiguous digit of the state index.
   */
  readonly nodeIndex: Int32Array;
  /** Quantized weight w'_j = ceil(weight / quantum) per kept session. */
  readonly qweight: Float64Array;
  /** Unquantized weight (tokens) per kept session; BFD breaks ties with it. */
  readonly weight: Float64Array;
  /** floor(capacity / quantum) per kept node: where BFD's residuals start. */
  readonly qcapacity: Float64Array;
  /** DP capacity C'_b per kept node (qcapacity reduced as above); the state radix is C'_b + 1. */
  readonly capacity: Float64Array;
  /** 1 where kept session j may go to kept node b and fits there. */
  readonly candidate: Uint8Array;
  /** Credit of each kept pair (0 where not a candidate). */
  readonly credit: Float64Array;
  /**
   * Kept session j's credited candidate nodes (kept indices, credit > 0) are `creditNode[creditStart[j]]`
   * up to `creditNode[creditStart[j + 1]]`, in the order of the problem's entries: the pairs with credit
   * without a pass over every pair.
   */
  readonly creditStart: Int32Array;
  readonly creditNode: Int32Array;
  /** Per kept session, the form of its eligibility in the problem (IndexedArrays.limited). */
  readonly limited: Uint8Array;
  /** 1 if the kept session is ready. */
  readonly ready: Uint8Array;
  /** Tokens of each kept session. */
  readonly tokens: Float64Array;
  /**
   * Packed key of each kept pair: credit * (R + 1) * (T + 1) + ready * (T + 1) + tokens, with R the number
   * of kept ready sessions and T the kept tokens' sum; -1 where not a candidate. Numeric order of key sums
   * equals lexicographic order of triple sums. Empty when `keyFits` is false.
   */
  readonly key: BigInt64Array;
  /** (Kmax + 1) * (R + 1) * (T + 1) <= 2^63 - 1, Kmax = sum over kept sessions of their best credit. */
  readonly keyFits: boolean;
  /** Product of (C'_b + 1) over kept nodes: DP states per layer. A double; Infinity past its range. */
  readonly states: number;
  /** Kept sessions x states: the dense DP's cells. */
  readonly cells: number;
}

/**
 * 2^52: when (Kmax + 1) * (R + 1) * (T + 1), computed in doubles (two roundings of relative error
 * 2^-53 each), is at most this, the exact product is below 2^53, so every packed key and every partial
 * product of it is an exact double and the keys can be computed without BigInt.
 */
const DOUBLE_KEY_MAX = 2 ** 52;

/** Index of the low 32-bit word of a 64-bit integer in a Uint32Array view (0 on little-endian platforms). */
/** Index of a key's low 32-bit word within its pair in `keyWords` (the platform's byte order). */
export const LOW_WORD = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0 : 1;

/** The packed keys' 32-bit words, two per key (LOW_WORD first or second), read without a BigInt per key. */
export function keyWords(key: BigInt64Array): Uint32Array {
  return new Uint32Array(key.buffer, key.byteOffset, 2 * key.length);
}

/**
 * Writes the packed keys (see PackedProblem.key) into `key` as two 32-bit words each, the bits of the
 * exact key, in O(kept pairs + credited pairs) arithmetic: a pair without credit has the key
 * ready * (T + 1) + tokens of its session, whose words are computed once per session and copied along the
 * row (two fills when its candidates are the first `prefix[j]` nodes, see fitsIn); only credited pairs (from the packed lists) compute credit * scales.ready + that. In doubles when
 * `exact` (every key below 2^53, see DOUBLE_KEY_MAX), else in BigInt (keys below 2^63).
 */
function writeKeys(
  packed: Pick<PackedProblem, 'candidate' | 'credit' | 'creditStart' | 'creditNode' | 'ready' | 'tokens'>,
  m: number,
  readyCount: number,
  tokenSum: number,
  exact: boolean,
  key: BigInt64Array,
  prefix: Int32Array,
): BigInt64Array {
  const { candidate, credit, creditStart, creditNode, ready, tokens } = packed;
  const n = ready.length;
  const words = keyWords(key);
  const HI = 1 - LOW_WORD;
  const tokenScale = tokenSum + 1;
  const readyScale = (readyCount + 1) * tokenScale;
  const bigTokenScale = exact ? 0n : BigInt(tokenSum) + 1n;
  const bigReadyScale = exact ? 0n : (BigInt(readyCount) + 1n) * bigTokenScale;
  for (let j = 0; j < n; j++) {
    let low: number;
    let high: number;
    let bigRt = 0n;
    const rt = exact ? ready[j]! * tokenScale + tokens[j]! : 0;
    if (exact) {
      low = rt % 4_294_967_296;
      high = (rt - low) / 4_294_967_296;
    } else {
      bigRt = BigInt(ready[j]!) * bigTokenScale + BigInt(tokens[j]!);
      low = Number(bigRt & 0xffff_ffffn);
      high = Number(bigRt >> 32n);
    }
    const row = j * m;
    const first = prefix[j]!;
    if (first >= 0) {
      // Its candidates are the first `first` nodes: two fills.
      key.fill(exact ? BigInt(rt) : bigRt, row, row + first);
      key.fill(-1n, row + first, row + m);
    } else {
      for (let b = 0; b < m; b++) {
        const e = row + b;
        if (candidate[e] !== 1) {
          words[2 * e] = 0xffff_ffff;
          words[2 * e + 1] = 0xffff_ffff;
        } else {
          words[2 * e + LOW_WORD] = low;
          words[2 * e + HI] = high;
        }
      }
    }
    for (let t = creditStart[j]!; t < creditStart[j + 1]!; t++) {
      const e = row + creditNode[t]!;
      if (exact) {
        const k = credit[e]! * readyScale + rt;
        const kl = k % 4_294_967_296;
        words[2 * e + LOW_WORD] = kl;
        words[2 * e + HI] = (k - kl) / 4_294_967_296;
      } else {
        const k = BigInt(credit[e]!) * bigReadyScale + bigRt;
        words[2 * e + LOW_WORD] = Number(k & 0xffff_ffffn);
        words[2 * e + HI] = Number(k >> 32n);
      }
    }
  }
  return key;
}

/** Number of kept sessions. */
export function sessionsKept(packed: PackedProblem): number {
  return packed.sessionIndex.length;
}

/** T + 1, the packed key's token radix (keyScales' token scale, as a number): T the kept sessions' tokens summed. */
export function tokenRadix(packed: PackedProblem): number {
  return Number(keyScales(packed.ready, packed.tokens).tokens);
}

/** Number of kept nodes. */
export function nodesKept(packed: PackedProblem): number {
  return packed.nodeIndex.length;
}

/**
 * floor(x / q) for safe integers x >= 0 and q >= 1, exact in doubles: `x % q` is exact (the IEEE
 * remainder of two doubles is representable), so `x - x % q` is an exact multiple k * q of q with
 * 0 <= k <= x, and dividing it by q rounds to the representable k itself.
 */
function floorDiv(x: number, q: number): number {
  return (x - (x % q)) / q;
}

/**
 * ceil(x / q) for integers x in [0, 2^32) and safe integers q >= 1, exact without a remainder (a
 * floating-point `%` is a library call): the rounded quotient's floor r is floor(x / q), since a
 * non-integer x / q lies at least 1/q below the next integer k and q * k <= x + q < 2^53 makes that more
 * than half an ulp of k; and r * q <= x is exact.
 */
function ceilDiv(x: number, q: number): number {
  const r = Math.floor(x / q);
  return r * q === x ? r : r + 1;
}

/**
 * From this many kept nodes on, a row of an unlimited session's candidates and keys is written by typed
 * array fills; below it, entry by entry (a fill's call and the key's BigInt cost more than a few writes:
 * 4-node solves were 6% slower with fills).
 */
const FILL_NODES = 16;

/**
 * How many kept nodes have a DP capacity of at least `w` (`capacity`, the first `mk` entries, does not
 * increase): for a session that may go to every node, or to every node but the listed ones, of quantized
 * weight w, the nodes it fits are those first ones, but for listed nodes it fits whose capacity is below w.
 * A node it fits and may use counts it in its sum of fitting weights, so C'_b = min(floor(C_b / q), that
 * sum) >= w; a node it does not fit has C'_b <= floor(C_b / q) < w.
 */
function fitsIn(capacity: Float64Array, mk: number, w: number): number {
  let lo = 0;
  let hi = mk;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (w <= capacity[mid]!) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * packProblem's working arrays by original index, grown on demand and kept by the caller between calls
 * (packing is synchronous and calls out to nothing): per node its quantized capacity, the sum of w' of
 * the sessions that fit on it (< 4096 * 2^32 < 2^53: exact), the nodes in ascending order of quantized
 * capacity (places) with a sum per place, and its kept index; per session its quantized weight and 1 where
 * it fits some node.
 */
export class PackScratch {
  qcap: Float64Array;
  fitSum: Float64Array;
  placeSum: Float64Array;
  byCap: Int32Array;
  kept: Int32Array;
  qweight: Float64Array;
  fits: Uint8Array;
  /** Per kept session: how many first kept nodes are its candidates when they are all of them, else -1. */
  prefix: Int32Array;
  /** The buffer of the packed arrays of `packProblem(..., reuse)`. */
  readonly output: { buffer: ArrayBuffer | null } = { buffer: null };

  constructor(nodes = 64, sessions = 1024) {
    this.qcap = new Float64Array(nodes);
    this.fitSum = new Float64Array(nodes);
    this.placeSum = new Float64Array(nodes);
    this.byCap = new Int32Array(nodes);
    this.kept = new Int32Array(nodes);
    this.qweight = new Float64Array(sessions);
    this.fits = new Uint8Array(sessions);
    this.prefix = new Int32Array(sessions);
  }

  /** Grows the arrays to m nodes and n sessions. */
  reserve(m: number, n: number): void {
    if (this.qcap.length < m) {
      this.qcap = new Float64Array(2 * m);
      this.fitSum = new Float64Array(2 * m);
      this.placeSum = new Float64Array(2 * m);
      this.byCap = new Int32Array(2 * m);
      this.kept = new Int32Array(2 * m);
    }
    if (this.qweight.length < n) {
      this.qweight = new Float64Array(2 * n);
      this.fits = new Uint8Array(2 * n);
      this.prefix = new Int32Array(2 * n);
    }
  }
}

/**
 * Fills `scratch` with the quantized capacities and weights of `problem` at quantum q, and per node the
 * sum of w' of the sessions that fit on it (eligible and w'_i <= floor(C_b / q)), per session whether it
 * fits some node. O(sessions log nodes + nodes log nodes + listed nodes): a session that lists no nodes
 * fits exactly on the nodes whose quantized capacity is at least its w', a suffix of the nodes in
 * ascending order of quantized capacity, found by binary search; its w' is added at the suffix's start
 * of a difference array over that order, and the prefix sums give each node its sum. A session limited
 * to its listed nodes is added node by node; one that may go anywhere but its listed nodes is added over
 * its suffix and taken back out of the listed nodes in it (it fits somewhere iff the suffix holds more
 * nodes than that). The sums are of integers below 2^53, exact in any order.
 */
export function fitSums(problem: IndexedArrays, q: number, scratch: PackScratch): void {
  const m = problem.capacity.length;
  const n = problem.weight.length;
  scratch.reserve(m, n);
  const { qcap, fitSum, placeSum, byCap, qweight, fits } = scratch;
  for (let b = 0; b < m; b++) {
    qcap[b] = floorDiv(problem.capacity[b]!, q);
    byCap[b] = b;
  }
  sortIndices(byCap, m, (a, c) => qcap[a]! - qcap[c]! || a - c);
  placeSum.fill(0, 0, m);
  const most = m === 0 ? -1 : qcap[byCap[m - 1]!]!;
  for (let i = 0; i < n; i++) {
    const w = ceilDiv(problem.weight[i]!, q);
    qweight[i] = w;
    fits[i] = 0;
    const form = problem.limited[i]!;
    if (form === LISTED_NODES || w > most) continue;
    // The first place whose capacity is at least w.
    let lo = 0;
    let hi = m - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (qcap[byCap[mid]!]! >= w) hi = mid;
      else lo = mid + 1;
    }
    placeSum[lo] = placeSum[lo]! + w;
    // Every node but the listed ones: it fits somewhere iff the suffix has a node it does not list.
    let excluded = 0;
    if (form === UNLISTED_NODES) {
      for (let e = problem.eligibleStart[i]!; e < problem.eligibleStart[i + 1]!; e++)
        if (w <= qcap[problem.eligibleNode[e]!]!) excluded++;
    }
    fits[i] = m - lo > excluded ? 1 : 0;
  }
  // Prefix sums over the places give each place's sum; byCap maps places to nodes.
  let run = 0;
  for (let t = 0; t < m; t++) {
    run += placeSum[t]!;
    fitSum[byCap[t]!] = run;
  }
  // Listed nodes: added for LISTED_NODES, taken back out of the suffix for UNLISTED_NODES.
  for (let i = 0; i < n; i++) {
    const form = problem.limited[i]!;
    if (form === EVERY_NODE) continue;
    const w = qweight[i]!;
    const sign = form === LISTED_NODES ? 1 : -1;
    for (let e = problem.eligibleStart[i]!; e < problem.eligibleStart[i + 1]!; e++) {
      const b = problem.eligibleNode[e]!;
      if (w <= qcap[b]!) {
        fitSum[b] = fitSum[b]! + sign * w;
        if (sign > 0) fits[i] = 1;
      }
    }
  }
}

/**
 * Quantizes and reduces a validated problem. Pure: the inputs are not modified. With `reuse` (and `given`),
 * the packed arrays are views of `given.output`, overwritten by the next such call: for a solve that
 * drops the packed problem before the next one (a solver's in-thread solve), not for one handed out.
 */
export function packProblem(
  problem: IndexedArrays,
  options: ResolvedSolveOptions,
  given?: PackScratch,
  reuse = false,
): PackedProblem {
  const q = options.quantum;
  const m = problem.capacity.length;
  const n = problem.weight.length;
  const scratch = given ?? new PackScratch(m, n);
  fitSums(problem, q, scratch);
  const { qcap: qcapAll, fitSum, qweight: qweightAll, fits: sessionFits, kept: keptOf, prefix } = scratch;
  let nk = 0;
  for (let i = 0; i < n; i++) nk += sessionFits[i]!;
  // A node with fitSum 0 has no candidate; a session that fits somewhere keeps every node it fits on.
  let mk = 0;
  for (let b = 0; b < m; b++) if (fitSum[b]! > 0) mk++;

  // The credit entries of the kept sessions: at most their entries in the problem.
  let entryRoom = 0;
  for (let i = 0; i < n; i++)
    if (sessionFits[i] === 1) entryRoom += problem.creditStart[i + 1]! - problem.creditStart[i]!;
  // Every output array on one buffer (the key's part is unused when the keys do not fit an i64).
  const sizes = [2 * mk + 3 * nk + 2 * nk * mk, nk + mk + nk + 1 + entryRoom, 2 * nk + nk * mk] as const;
  const slab = reuse && given !== undefined ? Slab.reused(...sizes, given.output) : Slab.own(...sizes);
  const qcapacity = slab.f64(mk);
  const capacity = slab.f64(mk);
  const qweight = slab.f64(nk);
  const weight = slab.f64(nk);
  const tokens = slab.f64(nk);
  const credit = slab.f64(nk * mk);
  const keySpace = slab.i64(nk * mk);
  const keptNodes = slab.i32(mk);
  const keptSessions = slab.i32(nk);
  const creditStart = slab.i32(nk + 1);
  const creditNodeSpace = slab.i32(entryRoom);
  const candidate = slab.u8(nk * mk);
  const ready = slab.u8(nk);
  const limited = slab.u8(nk);
  for (let b = 0, k = 0; b < m; b++) if (fitSum[b]! > 0) keptNodes[k++] = b;
  const dpCap = (b: number): number => Math.min(qcapAll[b]!, fitSum[b]!);
  sortIndices(keptNodes, mk, (a, c) => dpCap(c) - dpCap(a) || a - c);
  for (let i = 0, j = 0; i < n; i++) if (sessionFits[i] === 1) keptSessions[j++] = i;
  const nodeIndex = keptNodes;
  const sessionIndex = keptSessions;
  let states = 1;
  for (let b = 0; b < mk; b++) {
    const ob = keptNodes[b]!;
    qcapacity[b] = qcapAll[ob]!;
    capacity[b] = dpCap(ob);
    states *= capacity[b]! + 1;
  }

  keptOf.fill(-1, 0, m);
  for (let b = 0; b < mk; b++) keptOf[keptNodes[b]!] = b;
  const fills = mk >= FILL_NODES;
  let entries = 0;
  let creditMaxSum = 0;
  let readyCount = 0;
  let tokenSum = 0;
  for (let j = 0; j < nk; j++) {
    const i = keptSessions[j]!;
    const w = qweightAll[i]!;
    qweight[j] = w;
    weight[j] = problem.weight[i]!;
    ready[j] = problem.ready[i]!;
    tokens[j] = problem.tokens[i]!;
    readyCount += ready[j]!;
    tokenSum += tokens[j]!;
    const row = j * mk;
    const form = problem.limited[i]!;
    if (form === LISTED_NODES) {
      prefix[j] = -1;
      for (let e = problem.eligibleStart[i]!; e < problem.eligibleStart[i + 1]!; e++) {
        const b = keptOf[problem.eligibleNode[e]!]!;
        if (b >= 0 && w <= qcapacity[b]!) candidate[row + b] = 1;
      }
    } else {
      // The nodes it fits, but for listed ones of an UNLISTED_NODES session, are the first ones (fitsIn).
      const first = fitsIn(capacity, mk, w);
      if (fills) candidate.fill(1, row, row + first);
      else for (let b = 0; b < first; b++) candidate[row + b] = 1;
      prefix[j] = fills && form === EVERY_NODE ? first : -1;
      if (form === UNLISTED_NODES) {
        for (let e = problem.eligibleStart[i]!; e < problem.eligibleStart[i + 1]!; e++) {
          const b = keptOf[problem.eligibleNode[e]!]!;
          if (b >= 0) candidate[row + b] = 0;
        }
      }
    }
    limited[j] = form;
    // Credit is written from the session's entries only (the slab starts zeroed): most pairs carry none.
    // The best credit is taken on the way.
    let best = 0;
    creditStart[j] = entries;
    for (let e = problem.creditStart[i]!; e < problem.creditStart[i + 1]!; e++) {
      const b = keptOf[problem.creditNode[e]!]!;
      if (b < 0 || candidate[row + b] !== 1) continue;
      const k = problem.creditValue[e]!;
      credit[row + b] = k;
      creditNodeSpace[entries++] = b;
      if (k > best) best = k;
    }
    creditMaxSum += best;
  }
  creditStart[nk] = entries;
  const creditNode = creditNodeSpace.subarray(0, entries);

  const exact = (creditMaxSum + 1) * (readyCount + 1) * (tokenSum + 1) <= DOUBLE_KEY_MAX;
  const keyFits = exact || (BigInt(creditMaxSum) + 1n) * keyScales(ready, tokens).ready <= I64_MAX;
  const lists = { candidate, credit, creditStart, creditNode, ready, tokens };
  const key = keyFits ? writeKeys(lists, mk, readyCount, tokenSum, exact, keySpace, prefix) : new BigInt64Array(0);

  return {
    sessionCount: n,
    nodeCount: m,
    quantum: q,
    sessionIndex,
    nodeIndex,
    qweight,
    weight,
    qcapacity,
    capacity,
    candidate,
    credit,
    creditStart,
    creditNode,
    limited,
    ready,
    tokens,
    key,
    keyFits,
    states,
    cells: nk * states,
  };
}

/** Every distinct ArrayBuffer of a PackedProblem, for `postMessage`/Piscina transfer lists. */
export function packedTransferList(packed: PackedProblem): ArrayBuffer[] {
  const views: ArrayBufferView[] = [
    packed.sessionIndex,
    packed.nodeIndex,
    packed.qweight,
    packed.weight,
    packed.qcapacity,
    packed.capacity,
    packed.candidate,
    packed.credit,
    packed.creditStart,
    packed.creditNode,
    packed.limited,
    packed.ready,
    packed.tokens,
    packed.key,
  ];
  const out = new Set<ArrayBuffer>();
  for (const v of views) {
    // Packing allocates its arrays on ArrayBuffers (most share one), never on a SharedArrayBuffer.
    if (v.buffer instanceof ArrayBuffer) out.add(v.buffer);
  }
  return [...out];
}

/**
 * Maps a per-kept-session choice of kept nodes (-1 = not admitted) back to original indices: one entry
 * per original session, holding the original node index or -1.
 */
export function unpackNodes(packed: PackedProblem, keptChoice: Int32Array): Int32Array {
  const node = new Int32Array(packed.sessionCount).fill(-1);
  for (let j = 0; j < keptChoice.length; j++) {
    const b = keptChoice[j]!;
    if (b >= 0) node[packed.sessionIndex[j]!] = packed.nodeIndex[b]!;
  }
  return node;
}

/** Best credit of each kept session over its candidate nodes. */
export function bestCredits(packed: PackedProblem): Float64Array {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const { credit, creditStart, creditNode } = packed;
  const out = new Float64Array(n);
  // The credited candidate pairs are the session's list: every other pair has credit 0.
  for (let j = 0; j < n; j++) {
    let best = 0;
    for (let t = creditStart[j]!; t < creditStart[j + 1]!; t++) best = Math.max(best, credit[j * m + creditNode[t]!]!);
    out[j] = best;
  }
  return out;
}

/**
 * The scales of the packed key credit * ready + ready * tokens + tokens (see PackedProblem.key):
 * `tokens` = T + 1 and `ready` = (R + 1) * (T + 1), with R the number of ready sessions and T the
 * tokens' sum over the given (kept) sessions.
 */
export interface KeyScales {
  readonly tokens: bigint;
  readonly ready: bigint;
}

/** The key scales of kept sessions with these ready flags and token counts. */
export function keyScales(ready: ArrayLike<number>, tokens: ArrayLike<number>): KeyScales {
  let readyCount = 0;
  let tokenSum = 0;
  for (let j = 0; j < ready.length; j++) {
    readyCount += ready[j]!;
    tokenSum += tokens[j]!;
  }
  const tokenScale = BigInt(tokenSum) + 1n;
  return { tokens: tokenScale, ready: (BigInt(readyCount) + 1n) * tokenScale };
}

/**
 * Writes the exact packed key of every pair (session-major, rows of `out.length / ready.length`) into
 * `out`: credit * scales.ready + ready * scales.tokens + tokens, -1 where not a candidate.
 */
export function pairKeys<T extends BigInt64Array | bigint[]>(
  candidate: ArrayLike<number>,
  credit: ArrayLike<number>,
  ready: ArrayLike<number>,
  tokens: ArrayLike<number>,
  scales: KeyScales,
  out: T,
): T {
  const n = ready.length;
  const m = n === 0 ? 0 : out.length / n;
  for (let j = 0; j < n; j++) {
    const rt = BigInt(ready[j]!) * scales.tokens + BigInt(tokens[j]!);
    for (let b = 0; b < m; b++) {
      const e = j * m + b;
      // Most pairs carry no credit (a session is cached on one node at most): no BigInt product for them.
      out[e] = candidate[e] !== 1 ? -1n : credit[e] === 0 ? rt : BigInt(credit[e]!) * scales.ready + rt;
    }
  }
  return out;
}
