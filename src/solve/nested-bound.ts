/**
 * The nested-rooms bound on the ready and token levels of a credit-free packed problem (a credit split's
 * remainder): an LP relaxation that keeps which nodes a session fits, which the one-knapsack relaxations
 * of src/solve/bound.ts (the sum of the capacities) drop. Proof and measurements: docs/solver.md, "The
 * nested-rooms bound".
 *
 * Sort the kept nodes by DP capacity ascending, C_0 <= C_1 <= ... <= C_{m-1}. Session j may go to the
 * nodes where it is a candidate (hence fits); relax that set to the suffix from the first of them in this
 * order (a superset). In the LP, session j puts y_j <= w_j of its quantized weight into nodes of its
 * suffix, fractionally. The suffixes are nested, so by Hall's condition the y are feasible exactly when,
 * for every k, the sessions whose suffix starts at k or later put at most C_k + ... + C_{m-1} in all.
 * These constraints and 0 <= y_j <= w_j define a polymatroid, on which the greedy in the order of value
 * per unit of weight is optimal (Edmonds 1970): each session in turn takes the most its constraints
 * still leave. A plan is an integral point of the LP, so:
 * - ready: the floor of the LP's most ready sessions (the lightest first) bounds every plan's;
 * - tokens: for every mu >= 0, the LP of tokens_j + mu ready_j less mu R bounds the tokens of every plan
 *   with at least R ready sessions (Lagrangian relaxation of that count). On a credit-free problem the
 *   optimum has at least as many ready sessions as any plan, so R = a plan's ready count makes it a
 *   bound on the optimum's tokens. The least over the mu tried (0, one past which every ready session
 *   comes first, and a bisection between) is kept: any mu gives a valid bound.
 */
import { nodesKept, sessionsKept, type PackedProblem } from './pack.js';
import { sortIndices } from './sort-indices.js';

/** Bisection steps on mu (a greedy pass each): any mu gives a valid bound, more steps a tighter one. */
export const NESTED_MU_STEPS = 8;

/** Added before rounding an LP value down: far above the rounding errors of the doubles it is summed in. */
const ROUNDING_SLACK = 1e-6;

/** The bound's arrays, kept by the solver and grown on demand. */
export class NestedScratch {
  nodes = new Int32Array(0);
  suffix = new Float64Array(0);
  slack = new Float64Array(0);
  start = new Int32Array(0);
  ready = new Int32Array(0);
  order = new Int32Array(0);
  plain = new Int32Array(0);
  merged = new Int32Array(0);

  reserve(n: number, m: number): void {
    if (this.nodes.length < m) {
      this.nodes = new Int32Array(m);
      this.suffix = new Float64Array(m + 1);
      this.slack = new Float64Array(m + 1);
    }
    if (this.start.length < n) {
      this.start = new Int32Array(n);
      this.ready = new Int32Array(n);
      this.order = new Int32Array(n);
      this.plain = new Int32Array(n);
      this.merged = new Int32Array(n);
    }
  }
}

/** The nested-rooms bounds and the entries their passes read (each a step of a few nanoseconds). */
export interface NestedBound {
  /** At least the ready sessions of every plan. */
  readonly ready: number;
  /** At least the tokens of every plan with `atLeast` ready sessions or more. */
  readonly tokens: number;
  readonly reads: number;
}

/** The nested-rooms bounds of `packed` (its credit is not read), the tokens one for plans with at least `atLeast` ready sessions. */
export function nestedBound(
  packed: PackedProblem,
  atLeast: number,
  scratch: NestedScratch = new NestedScratch(),
): NestedBound {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const w = packed.qweight;
  const cap = packed.capacity;
  const { ready: isReady, tokens } = packed;
  scratch.reserve(n, m);
  const { nodes, suffix, start, ready, plain } = scratch;
  // The sorts below are stable (src/solve/sort-indices.ts) from index order: ties stay in index order.
  for (let b = 0; b < m; b++) nodes[b] = b;
  sortIndices(nodes, m, (a, c) => cap[a]! - cap[c]!);
  suffix[m] = 0;
  for (let r = m - 1; r >= 0; r--) suffix[r] = suffix[r + 1]! + cap[nodes[r]!]!;
  // Each session's first node (in capacity order) it is a candidate on; the ready ones and the others apart.
  let reads = m;
  let readyCount = 0;
  let plainCount = 0;
  for (let j = 0; j < n; j++) {
    // A candidate fits: no node before the first of capacity w_j or more is one.
    let first = -1;
    let r = lowerBound(nodes, m, cap, w[j]!);
    reads += Math.ceil(Math.log2(m + 1));
    for (; r < m && first < 0; r++) {
      reads++;
      if (packed.candidate[j * m + nodes[r]!] === 1) first = r;
    }
    start[j] = first;
    if (first < 0) continue;
    if (isReady[j] === 1) ready[readyCount++] = j;
    else if (tokens[j]! > 0) plain[plainCount++] = j;
  }
  // The most ready sessions: the lightest first. `ready` stays in index order; `order` is sorted.
  const order = scratch.order;
  order.set(ready.subarray(0, readyCount));
  sortIndices(order, readyCount, (a, c) => w[a]! - w[c]!);
  const most = greedy(scratch, order, readyCount, () => 1, w, isReady, m);
  reads += most.reads;
  const h = Math.floor(most.value + ROUNDING_SLACK);
  // The tokens: the other sessions by tokens per weight once, the ready ones by (tokens + mu) per weight
  // for each mu, merged.
  sortIndices(plain, plainCount, (a, c) => tokens[c]! * w[a]! - tokens[a]! * w[c]!);
  const atMu = (mu: number): { value: number; ready: number } => {
    order.set(ready.subarray(0, readyCount));
    sortIndices(order, readyCount, (a, c) => (tokens[c]! + mu) * w[a]! - (tokens[a]! + mu) * w[c]!);
    const merged = scratch.merged;
    let k = 0;
    for (let x = 0, y = 0; x < readyCount || y < plainCount; ) {
      const a = x < readyCount ? order[x]! : -1;
      const c = y < plainCount ? plain[y]! : -1;
      if (c < 0 || (a >= 0 && (tokens[a]! + mu) * w[c]! >= tokens[c]! * w[a]!)) {
        merged[k++] = a;
        x++;
      } else {
        merged[k++] = c;
        y++;
      }
    }
    const out = greedy(scratch, merged, k, (j) => tokens[j]! + mu * isReady[j]!, w, isReady, m);
    reads += out.reads + k;
    // Raised by far more than the doubles' rounding errors: the bound stays at or above the exact one.
    const value = out.value - mu * atLeast;
    return { value: value + 1e-9 * (Math.abs(out.value) + mu * atLeast), ready: out.top };
  };
  const zero = atMu(0);
  let best = zero.value;
  if (zero.ready < atLeast) {
    // Past `hi` every ready session comes before every other one, so the LP holds the most ready ones.
    let topRatio = 0;
    for (let y = 0; y < plainCount; y++) topRatio = Math.max(topRatio, tokens[plain[y]!]! / w[plain[y]!]!);
    let heaviest = 0;
    for (let x = 0; x < readyCount; x++) heaviest = Math.max(heaviest, w[ready[x]!]!);
    let lo = 0;
    let hi = heaviest * topRatio + 1;
    best = Math.min(best, atMu(hi).value);
    for (let step = 0; step < NESTED_MU_STEPS; step++) {
      const mu = (lo + hi) / 2;
      const at = atMu(mu);
      best = Math.min(best, at.value);
      if (at.ready < atLeast) lo = mu;
      else hi = mu;
    }
  }
  return { ready: h, tokens: Math.floor(best + ROUNDING_SLACK), reads };
}

/**
 * The polymatroid greedy over `order` (its first `count` sessions): each in turn puts the most of its
 * weight its constraints leave (the least slack of the suffixes 0 to its start), worth `value(j)` x that /
 * w_j. Returns the LP's value, its ready sessions (fractional) and the entries read.
 */
function greedy(
  scratch: NestedScratch,
  order: Int32Array,
  count: number,
  value: (j: number) => number,
  w: Float64Array,
  isReady: Uint8Array,
  m: number,
): { value: number; top: number; reads: number } {
  const { slack, suffix, start } = scratch;
  slack.set(suffix.subarray(0, m + 1));
  let total = 0;
  let top = 0;
  let reads = 0;
  for (let x = 0; x < count && slack[0]! > 0; x++) {
    const j = order[x]!;
    const s = start[j]!;
    let put = w[j]!;
    for (let k = 0; k <= s; k++) if (slack[k]! < put) put = slack[k]!;
    reads += s + 1;
    if (put <= 0) continue;
    for (let k = 0; k <= s; k++) slack[k] = slack[k]! - put;
    const share = put / w[j]!;
    total += value(j) * share;
    top += isReady[j]! * share;
  }
  return { value: total, top, reads };
}

/** The first place in `nodes` (by capacity ascending) whose capacity is at least `weight`. */
function lowerBound(nodes: Int32Array, m: number, cap: Float64Array, weight: number): number {
  let lo = 0;
  let hi = m;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cap[nodes[mid]!]! < weight) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
