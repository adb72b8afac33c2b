/**
 * The frontier DP in plain TypeScript, with exact BigInt keys: the mirror the WASM frontier
 * (assembly/frontier.ts) is tested against bit for bit (same plan, same counters), and the solver's
 * `frontier-wide` path when the packed i64 key cannot hold the sums. Written for clarity, not speed:
 * usages are plain per-node numbers (the WASM packs them into words and tests dominance with SWAR).
 *
 * The DP folds the kept sessions in the setup's order. A layer is a list of states (usage vector u over
 * slots, value V = packed key sum of the admitted sessions), every state non-dominated, sorted by
 * (V descending, total usage ascending). Layer t + 1 is the merge of the children of layer t:
 *   list 0: every state unchanged (session t skipped);
 *   list s + 1: every state with session t added to slot s, if the session is a candidate on slot s and
 *   fits (u_s + w <= C_s).
 * Each list inherits its parents' order (adding a constant keeps it), so merging them by
 * (V desc, usage sum asc, list asc, parent asc) yields the whole layer in order without sorting.
 *
 * Filters, each exact (an optimal plan keeps a path of states that survives them):
 * - Bound: a child whose value plus an upper bound on what the remaining sessions can add (the LP
 *   relaxation over the total residual capacity, each session at its best key over the nodes; see
 *   `FrontierBound`) is strictly below the incumbent is dropped. Before the indifferent tail, while
 *   credited sessions remain, the per-node credit bound applies too (`#creditUpper`): relaxing "each
 *   session on at most one node" leaves one knapsack per node over the sessions credited there, each
 *   bounded by a `CreditTable` at the node's residual; their sum (capped by the remaining best credits)
 *   times the credit scale, plus the ready/tokens LP over the total residual, bounds the remaining key
 *   sum (see docs/solver.md). The incumbent starts at the solver's incumbent plan's value (heuristic or
 *   decomposition) and rises to the first (best) state of each layer, whose value is that of a feasible
 *   plan.
 * - Dominance: a child is dropped if a state kept earlier in this layer uses no more of any slot. Kept
 *   states come first in the merge order, so they are worth at least as much; a dominated state's
 *   completions are all available, at least as well, from its dominator. With one slot the test is one
 *   comparison with the least usage kept so far in the layer (counted as one dominance test); with more,
 *   a scan of the kept states.
 * - Interchangeable nodes (a class of contiguous slots, see src/solve/dp/frontier/setup.ts): usages within a class are
 *   kept sorted ascending, so one state stands for every permutation. A session is only added to the
 *   last slot of a run of equal usages (the others give the same canonical child), and the child is
 *   re-sorted by moving that slot right. Dominance between sorted class vectors compared slot by slot is
 *   dominance up to a permutation.
 * - The indifferent tail (from DP position `tailStart`, see src/solve/dp/frontier/setup.ts): the remaining sessions value
 *   every node alike and fit on a node iff its residual capacity holds them, so a node of capacity C_b
 *   and usage u_b behaves like a node of capacity Cmax (the largest) and usage u_b + Cmax - C_b. Before
 *   folding that layer every state is rewritten so, all slots become one class of capacity Cmax, and the
 *   usages are sorted: one state per multiset of residuals. Usage sums shift by the same constant for
 *   every state, so the layer's order and each state's residual total (the bound's input) are unchanged.
 *
 * The answer is the first state of the last layer; parents and slot codes lead back to each session's
 * slot in canonical terms, and `assignClassNodes` turns that into real slots.
 */
import { MEMORY_CAP_BYTES } from '../../../limits.js';
import type { Plan, Problem } from '../../../types.js';
import { solverIncumbent } from '../../credit-level.js';
import { UP } from '../../exact.js';
import { fallbackPath } from '../../incumbent.js';
import type { SolveOptions } from '../../options.js';
import { keyScales, nodesKept, type PackedProblem, pairKeys, sessionsKept } from '../../pack.js';
import { workStats } from '../../plan.js';
import { solvePrepared } from '../../prepared.js';
import { DpStatus } from '../protocol.js';
import { type FrontierCounters, type FrontierEngine, zeroFrontierCounters } from './engine.js';
import { creditGrid, creditTableRows, type FrontierSetup, frontierSetup, slotsToNodes } from './setup.js';

/** Work units between the bounded mirror's checks of `maxWork`. */
const REFERENCE_STEP_WORK = 1 << 16;

/** Exact packed keys of a packed problem as BigInt (see PackedProblem.key), also when they do not fit an i64; -1 = not a candidate. */
export function bigKeys(packed: PackedProblem): BigInt64Array | bigint[] {
  if (packed.keyFits) return packed.key;
  const out = new Array<bigint>(sessionsKept(packed) * nodesKept(packed));
  return pairKeys(
    packed.candidate,
    packed.credit,
    packed.ready,
    packed.tokens,
    keyScales(packed.ready, packed.tokens),
    out,
  );
}

/**
 * An upper bound on floor(p * rem / w) for 0 <= rem < w, computed the way the WASM frontier computes it.
 * f = p * rem / w in f64 carries three roundings (p to f64, the product, the quotient), each within a
 * relative 2^-53, so the exact quotient q satisfies q <= f / (1 - 3 * 2^-53) < f * (1 + 2^-51); one more
 * rounding of f * (1 + 2^-50) keeps it above f * (1 + 2^-51) >= q, hence floor of it >= floor(q). The
 * result is capped at p (q < p since rem < w).
 */
export function fractionalUpper(p: bigint, rem: number, w: number): bigint {
  if (rem === 0 || p === 0n) return 0n;
  const pf = Number(p);
  const g = ((pf * rem) / w) * UP;
  if (g >= pf) return p;
  const up = BigInt(Math.floor(g));
  return up < p ? up : p;
}

/**
 * The LP bound of the sessions still to fold: greedy over them by density (key / weight, exact order,
 * ties by DP position), the last one fractional. Rebuilt per layer as sessions leave.
 */
export class FrontierBound {
  readonly #byDensity: number[];
  readonly #pmax: readonly bigint[];
  readonly #w: ArrayLike<number>;
  #wp: number[] = [0];
  #pp: bigint[] = [0n];
  #items: number[] = [];

  constructor(pmax: readonly bigint[], w: ArrayLike<number>) {
    this.#pmax = pmax;
    this.#w = w;
    const n = pmax.length;
    this.#byDensity = Array.from({ length: n }, (_, t) => t).sort((a, b) => {
      const lhs = pmax[a]! * BigInt(w[b]!);
      const rhs = pmax[b]! * BigInt(w[a]!);
      return lhs > rhs ? -1 : lhs < rhs ? 1 : a - b;
    });
  }

  /** Restricts the bound to DP positions >= from. */
  restrict(from: number): void {
    this.#items = this.#byDensity.filter((t) => t >= from);
    const wp = [0];
    const pp = [0n];
    for (const t of this.#items) {
      wp.push(wp[wp.length - 1]! + this.#w[t]!);
      pp.push(pp[pp.length - 1]! + this.#pmax[t]!);
    }
    this.#wp = wp;
    this.#pp = pp;
  }

  /** Upper bound on the value the restricted sessions can add within total residual capacity r. */
  upper(r: number): bigint {
    const wp = this.#wp;
    let lo = 0;
    let hi = this.#items.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (wp[mid]! <= r) lo = mid;
      else hi = mid - 1;
    }
    let ub = this.#pp[lo]!;
    if (lo < this.#items.length) {
      const t = this.#items[lo]!;
      ub += fractionalUpper(this.#pmax[t]!, r - wp[lo]!, this.#w[t]!);
    }
    return ub;
  }
}

/**
 * One slot's exact credit knapsack on a coarse grid, per suffix of the DP order: with g = ceil(C / G)
 * (C the slot's capacity, G the grid), row r holds, for every c <= floor(C / g), the best credit of a set
 * of the slot's credited positions pos[r..] whose weights floor(w / g) sum to at most c. A set of weight
 * at most a residual R has floored weights summing to at most floor(R / g), so row r at floor(R / g) is
 * an upper bound on the credit those positions can add on the slot within R: the same relaxation as the
 * per-node LP, exact per node up to the rounding of the weights. Integer arithmetic only.
 */
class CreditTable {
  readonly pos: number[];
  readonly g: number;
  readonly cg: number;
  readonly rows: Float64Array;
  #next = 0;

  constructor(credit: readonly number[], w: ArrayLike<number>, capacity: number, grid: number) {
    this.pos = [];
    for (let t = 0; t < credit.length; t++) if (credit[t]! > 0) this.pos.push(t);
    this.g = Math.max(1, Math.ceil(capacity / grid));
    this.cg = Math.floor(capacity / this.g);
    const k = this.pos.length;
    const width = this.cg + 1;
    this.rows = new Float64Array((k + 1) * width);
    for (let r = k - 1; r >= 0; r--) {
      const t = this.pos[r]!;
      const wg = Math.floor(w[t]! / this.g);
      const p = credit[t]!;
      for (let c = 0; c <= this.cg; c++) {
        const skip = this.rows[(r + 1) * width + c]!;
        const take = c >= wg ? this.rows[(r + 1) * width + c - wg]! + p : -1;
        this.rows[r * width + c] = take > skip ? take : skip;
      }
    }
  }

  /** Restricts the table to positions >= from (from never decreases). */
  restrict(from: number): void {
    while (this.#next < this.pos.length && this.pos[this.#next]! < from) this.#next++;
  }

  /** Upper bound on the credit the restricted positions add on the slot within residual r. */
  upper(r: number): number {
    return this.rows[this.#next * (this.cg + 1) + Math.floor(r / this.g)]!;
  }
}

/** Bytes the TypeScript frontier holds for `kept` history entries and `layer` live states over m slots (an estimate from above). */
function mirrorBytes(kept: number, layer: number, m: number): number {
  return kept * 16 + layer * (m * 8 + 96);
}

/**
 * One frontier run, a FrontierEngine. `step(quota)` folds until done, or until `quota` more units of work
 * (generated children plus dominance tests) were spent, so a caller can check a deadline or a budget in
 * between; before each step it checks its memory estimate against MEMORY_CAP_BYTES.
 */
export class FrontierMirror implements FrontierEngine {
  readonly path = 'frontier-wide';
  readonly boundedSteps = true;
  readonly #n: number;
  readonly #m: number;
  readonly #w: number[];
  #cap: number[];
  #classEnd: number[];
  readonly #capOriginal: readonly number[];
  /** keys[t][s]: key of DP position t on slot s, -1 = not a candidate. */
  readonly #keys: bigint[][];
  readonly #bound: FrontierBound;
  /** The per-node credit bound (see #creditUpper): the ready/tokens part's LP, one credit table per slot. */
  readonly #rtBound: FrontierBound;
  readonly #creditTables: CreditTable[];
  /** The credit scale of the packed key (key = credit * scale + ready/tokens part). */
  readonly #creditScale: bigint;
  /** Per DP position: its best credit. */
  readonly #bestCredit: bigint[];
  /** Last DP position with a positive credit on some slot (-1: none). */
  readonly #lastCredited: number;
  /** The credit bound applies to the layer being folded; the sum of best credits of the positions after it. */
  #creditOn = false;
  #creditRest = 0n;
  /** With one slot: the least usage kept in the layer being built. */
  #minU = 0;
  #rtot: number;
  readonly #setup: FrontierSetup;
  #inc: bigint;

  // Current layer (parents) and the one being built.
  #u: number[][] = [[]];
  #v: bigint[] = [0n];
  #sum: number[] = [0];
  #nu: number[][] = [];
  #nv: bigint[] = [];
  #nsum: number[] = [];
  #nparent: number[] = [];
  #nslot: number[] = [];
  /** Per finished layer t: parent index and slot code (0 skip, s + 1) of each kept state. */
  readonly #history: { parent: Int32Array; slot: Uint8Array }[] = [];

  // Merge heads of the layer in progress: per list, the next parent index, and its child if valid.
  #t = 0;
  #inLayer = false;
  #head: number[] = [];
  #headV: bigint[] = [];
  #headSum: number[] = [];
  #headLive: boolean[] = [];
  /** The incumbent a head's bound was checked against; a head is re-checked when it has risen since. */
  #headInc: bigint[] = [];

  #finished = false;
  #incumbentOptimal = false;
  readonly #counters = zeroFrontierCounters();

  constructor(packed: PackedProblem, setup: FrontierSetup) {
    const n = sessionsKept(packed);
    const m = nodesKept(packed);
    this.#n = n;
    this.#m = m;
    this.#setup = setup;
    const all = bigKeys(packed);
    this.#w = Array.from(setup.order, (j) => packed.qweight[j]!);
    this.#cap = Array.from(setup.slotNode, (b) => packed.capacity[b]!);
    this.#classEnd = new Array<number>(m);
    for (let s = m - 1; s >= 0; s--) {
      this.#classEnd[s] = s + 1 < m && setup.classStart[s + 1] === setup.classStart[s] ? this.#classEnd[s + 1]! : s + 1;
    }
    this.#capOriginal = this.#cap.slice();
    this.#keys = Array.from(setup.order, (j) => Array.from(setup.slotNode, (b) => all[j * m + b]!));
    const pmax = this.#keys.map((row) => row.reduce((a, k) => (k > a ? k : a), 0n));
    this.#bound = new FrontierBound(pmax, this.#w);
    const scale = keyScales(packed.ready, packed.tokens).ready;
    this.#creditScale = scale;
    this.#bestCredit = pmax.map((k) => k / scale);
    this.#rtBound = new FrontierBound(
      pmax.map((k) => k % scale),
      this.#w,
    );
    let last = -1;
    for (let t = 0; t < n; t++) if (this.#bestCredit[t]! > 0n) last = t;
    this.#lastCredited = last;
    const credits = Array.from({ length: m }, (_, s) =>
      this.#keys.map((row) => (row[s]! > 0n ? Number(row[s]! / scale) : 0)),
    );
    const grid = creditGrid(creditTableRows(packed));
    this.#creditTables = last < 0 ? [] : credits.map((c, s) => new CreditTable(c, this.#w, this.#cap[s]!, grid));
    this.#rtot = this.#cap.reduce((a, c) => a + c, 0);
    let inc = 0n;
    for (let t = 0; t < n; t++) {
      const s = setup.incumbentSlot[t]!;
      if (s >= 0) inc += this.#keys[t]![s]!;
    }
    this.#inc = inc;
    this.#u = [new Array<number>(m).fill(0)];
    // The incumbent already meets the bound of the empty plan: it is optimal, nothing to fold.
    this.#restrictBounds(0);
    if (this.#upper(this.#rtot, this.#u[0]!, -1) <= this.#inc) {
      this.#incumbentOptimal = true;
      this.#finished = true;
    }
  }

  /** The counters so far (a copy). */
  counters(): FrontierCounters {
    return { ...this.#counters };
  }

  /** `incumbent` when the incumbent is optimal (nothing to fold), else `paused`. */
  start(): DpStatus {
    return this.#incumbentOptimal ? DpStatus.incumbent : DpStatus.paused;
  }

  /**
   * Whether `parent` has a child in list L (the session fits there, and for interchangeable slots the
   * slot ends its run of equal usages). Counts it as generated.
   */
  #exists(list: number, parent: number): boolean {
    if (list > 0) {
      const s = list - 1;
      const pu = this.#u[parent]!;
      if (pu[s]! + this.#w[this.#t]! > this.#cap[s]!) return false;
      if (s + 1 < this.#classEnd[s]! && pu[s + 1] === pu[s]) return false;
    }
    this.#counters.generated++;
    this.#counters.work++;
    return true;
  }

  /** Restricts every bound to DP positions >= from; the credit bound applies while credited positions remain before the tail. */
  #restrictBounds(from: number): void {
    this.#bound.restrict(from);
    this.#creditOn = from <= this.#lastCredited && from <= this.#setup.tailStart;
    if (!this.#creditOn) return;
    this.#rtBound.restrict(from);
    for (const b of this.#creditTables) b.restrict(from);
    let rest = 0n;
    for (let t = from; t < this.#n; t++) rest += this.#bestCredit[t]!;
    this.#creditRest = rest;
  }

  /**
   * The per-node credit bound on what the remaining sessions add to a state of usages `pu` (plus the
   * current session's weight on slot `slot`, when slot >= 0) and total residual r: the credit part is at
   * most the sum over slots of each slot's credit table within its residual (and at most the remaining
   * best credits), the rest at most the ready/tokens LP over the total residual.
   */
  #creditUpper(r: number, pu: readonly number[], slot: number): bigint {
    // One unit of work per slot looked up, so the state budget keeps bounding the time with many nodes.
    this.#counters.work += this.#m;
    let cb = 0n;
    const w = this.#w[this.#t] ?? 0;
    for (let s = 0; s < this.#m; s++) {
      const res = this.#cap[s]! - pu[s]! - (s === slot ? w : 0);
      cb += BigInt(this.#creditTables[s]!.upper(res));
    }
    if (cb > this.#creditRest) cb = this.#creditRest;
    return cb * this.#creditScale + this.#rtBound.upper(r);
  }

  /** The least of the bounds that apply (for the root check). */
  #upper(r: number, pu: readonly number[], slot: number): bigint {
    const lp = this.#bound.upper(r);
    if (!this.#creditOn) return lp;
    const c = this.#creditUpper(r, pu, slot);
    return c < lp ? c : lp;
  }

  /**
   * The upper bound of the child of `parent` in list L, of value v and usage sum `sum`, is strictly below
   * the incumbent: the total-capacity LP first, then the per-node credit bound (counted in prunedCredit;
   * it costs one unit of work per slot).
   */
  #belowIncumbent(v: bigint, sum: number, parent: number, list: number): boolean {
    const r = this.#rtot - sum;
    if (v + this.#bound.upper(r) < this.#inc) return true;
    if (!this.#creditOn) return false;
    if (v + this.#creditUpper(r, this.#u[parent]!, list - 1) < this.#inc) {
      this.#counters.prunedCredit++;
      return true;
    }
    return false;
  }

  /** Moves list L's head to its next child that exists and passes the bound (or marks it exhausted). */
  #advance(list: number): void {
    const k = this.#u.length;
    const key = list === 0 ? 0n : this.#keys[this.#t]![list - 1]!;
    const w = list === 0 ? 0 : this.#w[this.#t]!;
    for (let p = this.#head[list]!; p < k; p++) {
      if (!this.#exists(list, p)) continue;
      const v = this.#v[p]! + key;
      const sum = this.#sum[p]! + w;
      if (this.#belowIncumbent(v, sum, p, list)) {
        this.#counters.prunedBound++;
        continue;
      }
      this.#head[list] = p;
      this.#headV[list] = v;
      this.#headSum[list] = sum;
      this.#headInc[list] = this.#inc;
      this.#headLive[list] = true;
      return;
    }
    this.#head[list] = k;
    this.#headLive[list] = false;
  }

  /** The child of `parent` in list L: its usage vector, re-sorted within the class. */
  #build(list: number, parent: number): number[] {
    const pu = this.#u[parent]!;
    if (list === 0) return pu;
    const s = list - 1;
    const u = pu.slice();
    u[s] = u[s]! + this.#w[this.#t]!;
    for (let x = s; x + 1 < this.#classEnd[s]! && u[x]! > u[x + 1]!; x++) {
      const tmp = u[x]!;
      u[x] = u[x + 1]!;
      u[x + 1] = tmp;
    }
    return u;
  }

  /** Rewrites the current layer for the indifferent tail (see the module comment). */
  #enterTail(): void {
    const m = this.#m;
    const cmax = this.#cap.reduce((a, c) => (c > a ? c : a), 0);
    const shift = this.#cap.map((c) => cmax - c);
    const total = shift.reduce((a, x) => a + x, 0);
    this.#u = this.#u.map((u) => u.map((x, s) => x + shift[s]!).sort((a, b) => a - b));
    this.#sum = this.#sum.map((x) => x + total);
    this.#rtot += total;
    this.#cap = new Array<number>(m).fill(cmax);
    this.#classEnd = new Array<number>(m).fill(m);
  }

  #startLayer(): void {
    const t = this.#t;
    if (t === this.#setup.tailStart && this.#m > 1) this.#enterTail();
    this.#restrictBounds(t + 1);
    this.#nu = [];
    this.#nv = [];
    this.#nsum = [];
    this.#nparent = [];
    this.#nslot = [];
    const lists = this.#m + 1;
    this.#head = new Array<number>(lists).fill(0);
    this.#headV = new Array<bigint>(lists).fill(0n);
    this.#headSum = new Array<number>(lists).fill(0);
    this.#headLive = new Array<boolean>(lists).fill(false);
    this.#headInc = new Array<bigint>(lists).fill(0n);
    for (let list = 0; list < lists; list++) {
      if (list > 0 && this.#keys[t]![list - 1]! < 0n) continue;
      this.#advance(list);
    }
    this.#inLayer = true;
  }

  /** The list whose head comes first in (V desc, sum asc, list asc), or -1. */
  #pick(): number {
    let best = -1;
    for (let list = 0; list <= this.#m; list++) {
      if (!this.#headLive[list]) continue;
      if (
        best < 0 ||
        this.#headV[list]! > this.#headV[best]! ||
        (this.#headV[list] === this.#headV[best] && this.#headSum[list]! < this.#headSum[best]!)
      ) {
        best = list;
      }
    }
    return best;
  }

  #endLayer(): void {
    const k = this.#nv.length;
    if (k === 0) throw new Error('frontier mirror: a layer lost every state (the bound is unsound)');
    this.#history.push({ parent: Int32Array.from(this.#nparent), slot: Uint8Array.from(this.#nslot) });
    this.#u = this.#nu;
    this.#v = this.#nv;
    this.#sum = this.#nsum;
    this.#counters.kept += k;
    if (k > this.#counters.maxLayer) this.#counters.maxLayer = k;
    this.#t++;
    this.#counters.layers = this.#t;
    this.#inLayer = false;
    if (this.#t === this.#n) this.#finished = true;
  }

  /** Folds until done or until `quota` more units of work were spent. */
  step(quota: number): DpStatus {
    if (this.#incumbentOptimal) return DpStatus.incumbent;
    const c = this.#counters;
    if (mirrorBytes(c.kept, c.maxLayer * 2, this.#m) > MEMORY_CAP_BYTES) return DpStatus.memory;
    const stopAt = c.work + quota;
    while (!this.#finished) {
      if (!this.#inLayer) this.#startLayer();
      for (;;) {
        if (c.work >= stopAt) return DpStatus.paused;
        const list = this.#pick();
        if (list < 0) break;
        const parent = this.#head[list]!;
        const v = this.#headV[list]!;
        const sum = this.#headSum[list]!;
        if (this.#headInc[list] !== this.#inc && this.#belowIncumbent(v, sum, parent, list)) {
          this.#counters.prunedBound++;
        } else {
          this.#offer(this.#build(list, parent), v, sum, parent, list);
        }
        this.#head[list] = parent + 1;
        this.#advance(list);
      }
      this.#endLayer();
    }
    return DpStatus.done;
  }

  /** Appends a child to the layer being built unless a kept state dominates it. */
  #offer(u: number[], v: bigint, sum: number, parent: number, list: number): void {
    const k = this.#nv.length;
    const m = this.#m;
    if (m === 1 && k > 0) {
      // One slot: a kept state dominates iff the least kept usage is at most the child's (one test).
      this.#counters.comparisons++;
      this.#counters.work++;
      if (this.#minU <= u[0]!) {
        this.#counters.prunedDominance++;
        return;
      }
    }
    for (let i = 0; m > 1 && i < k; i++) {
      this.#counters.comparisons++;
      this.#counters.work++;
      if (this.#nsum[i]! > sum) continue;
      const ku = this.#nu[i]!;
      let le = true;
      for (let s = 0; s < m; s++) {
        if (ku[s]! > u[s]!) {
          le = false;
          break;
        }
      }
      if (le) {
        this.#counters.prunedDominance++;
        return;
      }
    }
    if (k === 0 || u[0]! < this.#minU) this.#minU = u[0]!;
    this.#nu.push(u);
    this.#nv.push(v);
    this.#nsum.push(sum);
    this.#nparent.push(parent);
    this.#nslot.push(list);
    // The first state of a layer is its best, and its value is that of a feasible plan.
    if (k === 0 && v > this.#inc) this.#inc = v;
  }

  /** The optimal value (packed key sum). Only after `done` or `incumbent`. */
  value(): bigint {
    if (this.#incumbentOptimal) return this.#inc;
    if (!this.#finished) throw new Error('frontier mirror: value() before the run finished');
    return this.#v[0]!;
  }

  /** Kept node per kept session (-1 = not admitted), for the best state. Only after `done` or `incumbent`. */
  finish(): Int32Array {
    return slotsToNodes(this.#setup, this.#slots());
  }

  /** Per DP position, the real slot of the session (-1 = not admitted), for the best state (the incumbent's after `incumbent`). */
  #slots(): Int32Array {
    if (this.#incumbentOptimal) return Int32Array.from(this.#setup.incumbentSlot);
    if (!this.#finished) throw new Error('frontier mirror: finish() before the run finished');
    const codes = new Int32Array(this.#n);
    let idx = 0;
    for (let t = this.#n - 1; t >= 0; t--) {
      const h = this.#history[t]!;
      codes[t] = h.slot[idx]!;
      idx = h.parent[idx]!;
    }
    return assignClassNodes(codes, this.#w, this.#setup.classStart, this.#capOriginal, this.#setup.tailStart);
  }
}

/**
 * Replays canonical slot codes (per DP position: 0 = skipped, s + 1 = added to canonical slot s) and
 * assigns real slots. The replay repeats the DP's transitions (add w to slot s, move it right while it
 * exceeds its neighbour in the class; the tail rewrite at `tailStart`), so it sees the canonical value
 * `v` the session was added to; the session goes to the first real slot of the class whose actual value
 * is `v` (actual usage, plus Cmax - C in the tail). The multiset of actual values in a class equals the
 * canonical vector at every step (both start equal and change one entry of value v by +w), so such a slot
 * always exists, and it has room: v + w is within the class's capacity.
 */
export function assignClassNodes(
  codes: Int32Array,
  w: ArrayLike<number>,
  classStart: ArrayLike<number>,
  cap: ArrayLike<number>,
  tailStart: number,
): Int32Array {
  const m = classStart.length;
  const start = Array.from(classStart);
  const end = new Array<number>(m);
  for (let s = m - 1; s >= 0; s--) end[s] = s + 1 < m && start[s + 1] === start[s] ? end[s + 1]! : s + 1;
  const canon = new Float64Array(m);
  const actual = new Float64Array(m);
  const offset = new Float64Array(m);
  const out = new Int32Array(codes.length).fill(-1);
  for (let t = 0; t < codes.length; t++) {
    if (t === tailStart && m > 1) {
      let cmax = 0;
      for (let s = 0; s < m; s++) if (cap[s]! > cmax) cmax = cap[s]!;
      for (let s = 0; s < m; s++) {
        offset[s] = cmax - cap[s]!;
        canon[s] = canon[s]! + offset[s]!;
        start[s] = 0;
        end[s] = m;
      }
      canon.sort();
    }
    const code = codes[t]!;
    if (code === 0) continue;
    const s = code - 1;
    const before = canon[s]!;
    let real = start[s]!;
    while (actual[real]! + offset[real]! !== before) real++;
    out[t] = real;
    actual[real] = actual[real]! + w[t]!;
    canon[s] = before + w[t]!;
    for (let x = s; x + 1 < end[s]! && canon[x]! > canon[x + 1]!; x++) {
      const tmp = canon[x]!;
      canon[x] = canon[x + 1]!;
      canon[x + 1] = tmp;
    }
  }
  return out;
}

/**
 * Solves a Problem exactly (at the options' quantum) with the TypeScript frontier, ignoring the state
 * budget, the deadline and the `path` option: the incumbent and the setup are the solver's (the heuristic
 * and decomposition plans; the same session order, slots and classes). Meant for tests and measurements where the
 * dense mirror's grid is too large (fine quanta, many nodes); it is the same algorithm as the WASM
 * frontier, so against that path it checks the implementation, not the method.
 *
 * `maxWork` bounds the frontier's work (units as in `stateBudget`) for callers that must finish, such as
 * the benchmark's reference runner: past it the plan is the solver's labelled fallback (its incumbent),
 * status `fallback`. Unbounded by default: an exact answer whatever it costs.
 */
export function solveFrontierReference(
  problem: Problem,
  options?: SolveOptions,
  maxWork = Number.POSITIVE_INFINITY,
): Plan {
  return solvePrepared(problem, options, (packed, base) => {
    const incumbent = solverIncumbent(packed);
    const setup = frontierSetup(packed, incumbent.node);
    const run = new FrontierMirror(packed, setup);
    let status = run.start();
    const quota = Number.isFinite(maxWork) ? REFERENCE_STEP_WORK : Number.POSITIVE_INFINITY;
    while (status === DpStatus.paused) {
      const spent = run.counters().work;
      if (spent >= maxWork) {
        return {
          status: 'fallback',
          reason: `state budget exceeded: the TypeScript frontier passed ${maxWork} units of work`,
          node: incumbent.node,
          stats: {
            ...base,
            path: fallbackPath(incumbent.heuristic),
            heuristic: incumbent.heuristic,
            ...workStats(spent),
          },
        };
      }
      status = run.step(Math.min(quota, maxWork - spent));
    }
    if (status !== DpStatus.done && status !== DpStatus.incumbent)
      throw new Error(`frontier mirror stopped with status ${status}`);
    const { work, ...counters } = run.counters();
    const stats = {
      ...base,
      path: status === DpStatus.incumbent ? ('bound' as const) : ('frontier-wide' as const),
      ...workStats(work),
      frontier: { outcome: 'solved' as const, ...counters, nodeClasses: setup.classes },
    };
    return { node: run.finish(), stats };
  });
}
