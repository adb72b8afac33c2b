// Frontier DP: the multiple-knapsack lexmax over reachable, non-dominated states only.
//
// The algorithm, its filters and why each is exact are stated once, in src/solve/dp/frontier/mirror.ts (the
// TypeScript mirror this kernel is tested against bit for bit: same plan, same counters). This file
// is its flat-array form:
//
// - A state is (usage words, value, usage sum). Usages are packed into i64 words, one field per slot of
//   `bits` value bits plus one guard bit above them; fields never straddle words. "u <= v in every field"
//   is then one SWAR test per word: ((v | G) - u) & G == G, G the word's guard bits (each field of v | G
//   is at least 2^bits > any field of u, so no borrow crosses a field, and a field's guard survives iff
//   v_field >= u_field).
// - Layers are struct-of-arrays: usage i64[K * W], value i64[K], sum i64[K] (current layer), plus parent
//   i32[K] and slot code u8[K] for the layer being built; each finished layer's parents and codes are
//   copied to an append-only history for the walk back.
// - The merge of the m + 1 child lists keeps one head per list; a step can stop between two pops when its
//   work quota is spent and resume exactly there (every loop variable is module state).
// - Memory is a bump arena above the key region, reset per solve, grown with memory.grow; a failed grow
//   (the module's declared maximum, the solver's memory cap) ends the run with STATUS_MEMORY, no trap.
//
// Keys: the packed i64 key of each (session, node) pair, -1 = not a candidate; every sum of keys the DP
// forms is at most the sum over sessions of their best key, which the caller guarantees fits in i64.

import { MAX_LAYERS, MAX_LISTS, MAX_NODES, MAX_WORDS } from './limits';
import { LP_RECORD, lpBytes, lpInit, lpRestrict, lpUpper } from './frontier-bound';
import { align16, ensureMemory } from './memory';

export const STATUS_DONE: i32 = 0;
export const STATUS_PAUSED: i32 = 1;
export const STATUS_MEMORY: i32 = 2;
/** The incumbent meets the upper bound of the empty plan: it is optimal, nothing was folded. */
export const STATUS_INCUMBENT: i32 = 3;
/** A layer lost every state: impossible with a sound bound; reported rather than trapped. */
export const STATUS_EMPTY_LAYER: i32 = 4;

// Per-slot field layout and class bounds.
const fWord = memory.data(MAX_NODES * 4, 16);
const fShift = memory.data(MAX_NODES * 8, 16); // i64 shift amounts
const fMask = memory.data(MAX_NODES * 8, 16); // i64 value masks
const fCap = memory.data(MAX_NODES * 8, 16); // i64 capacity per slot
const fClassEnd = memory.data(MAX_NODES * 4, 16);
const fClassStart = memory.data(MAX_NODES * 4, 16);
// The classes and capacities as given (fCap, fClassStart, fClassEnd change at the indifferent tail).
const origCap = memory.data(MAX_NODES * 8, 16);
const origClassStart = memory.data(MAX_NODES * 4, 16);
const origClassEnd = memory.data(MAX_NODES * 4, 16);
const offset = memory.data(MAX_NODES * 8, 16); // walk-back replay: Cmax - C per slot in the tail
const sortBuf = memory.data(MAX_NODES * 8, 16); // the tail rewrite: one state's values
const fSlotNode = memory.data(MAX_NODES * 4, 16);
const guard = memory.data(MAX_WORDS * 8, 16); // i64 guard bits per word
const tmpU = memory.data(MAX_WORDS * 8, 16); // the child being offered
const canon = memory.data(MAX_NODES * 8, 16); // walk-back replay: canonical usages
const actual = memory.data(MAX_NODES * 8, 16); // walk-back replay: real usages

// Merge heads, one per list (0 = skip, s + 1 = slot s).
const headP = memory.data(MAX_LISTS * 4, 16);
const headLive = memory.data(MAX_LISTS * 4, 16);
const headV = memory.data(MAX_LISTS * 8, 16);
const headSum = memory.data(MAX_LISTS * 8, 16);
const headInc = memory.data(MAX_LISTS * 8, 16);

// History of finished layers: parents i32[K_t] and codes u8[K_t] at these addresses.
const histParent = memory.data(MAX_LAYERS * 4, 16);
const histSlot = memory.data(MAX_LAYERS * 4, 16);

// Problem.
let n: i32 = 0;
let m: i32 = 0;
let W: i32 = 1;
let tailStart: i32 = 0;
let cmax: i64 = 0;
let rtot: i64 = 0;
let inc: i64 = 0;
let dpKeys: usize = 0; // i64[n * m], DP position major, slot minor
let dpW: usize = 0; // i64[n] quantized weight per DP position
let pmax: usize = 0; // i64[n] best key per DP position
let items: usize = 0; // i32[n] scratch: the density sorts, then the walk back's slot codes
// The bounds (lp.ts lists): the total-capacity LP over best keys; the per-node credit bound's
// ready/tokens LP (its credit part: the credit tables below; see src/solve/dp/frontier/mirror.ts).
let keyList: usize = 0;
let rtList: usize = 0;
let rtVals: usize = 0; // i64[n] the ready/tokens part of each position's key
let creditVals: usize = 0; // i64[m * n] credit per slot (slot-major), 0 where not a candidate
let bestCredit: usize = 0; // i64[n] best credit per DP position
let creditScale: i64 = 1;
// The credit tables (CreditTable in src/solve/dp/frontier/mirror.ts), per slot: positions i32[n] (slot-major),
// count, grid step g, columns cg + 1, rows i64[(count + 1) * (cg + 1)], next row.
let tPos: usize = 0;
let tCount: usize = 0; // i32[m]
let tG: usize = 0; // i64[m]
let tCg: usize = 0; // i64[m]
let tRows: usize = 0; // usize[m] (as i64)
let tNext: usize = 0; // i32[m]
let lastCredited: i32 = -1;
let creditOn: bool = false;
let minU: i64 = 0; // with one slot: the least usage kept in the layer being built
let creditRest: i64 = 0;
let restFrom: i32 = 0; // the position creditRest sums from; past n until the first restriction

// Arena.
let arenaTop: usize = 0;

// Two layer buffers, swapped after each layer: `cur` (read) and the other one (written). Each holds
// usage i64[cap * W], value i64[cap], sum i64[cap], parent i32[cap], code u8[cap].
const bufU = memory.data(2 * 4, 16);
const bufV = memory.data(2 * 4, 16);
const bufSum = memory.data(2 * 4, 16);
const bufParent = memory.data(2 * 4, 16);
const bufSlot = memory.data(2 * 4, 16);
const bufCap = memory.data(2 * 4, 16);
let cur: i32 = 0;
// Views of the current buffer (read) and of the next one (written), refreshed by useBuffers().
let curU: usize = 0;
let curV: usize = 0;
let curSum: usize = 0;
let curK: i32 = 0;
let nxtU: usize = 0;
let nxtV: usize = 0;
let nxtSum: usize = 0;
let nxtParent: usize = 0;
let nxtSlot: usize = 0;
let nxtK: i32 = 0;
let nxtCap: i32 = 0;

// Progress.
let layer: i32 = 0; // DP position being folded
let inLayer: bool = false;
let finished: bool = false;
let incumbentOptimal: bool = false;
let curW: i64 = 0; // weight of the session being folded
let keyRow: usize = 0; // its keys

// Counters (f64: exact to 2^53, far beyond any budget).
let cGenerated: f64 = 0;
let cKept: f64 = 0;
let cMaxLayer: f64 = 0;
let cPrunedBound: f64 = 0;
let cPrunedDominance: f64 = 0;
let cComparisons: f64 = 0;
let cPrunedCredit: f64 = 0;
let work: f64 = 0;

/** Bump-allocates `bytes` (16-byte aligned), growing memory; 0 if memory cannot grow that far. */
function alloc(bytes: u64): usize {
  const at = arenaTop;
  if (<u64>at + bytes + 16 > <u64>0xffff0000) return 0;
  const end = align16(at + <usize>bytes);
  if (!ensureMemory(<f64>end)) return 0;
  arenaTop = end;
  return at;
}

// @ts-ignore: decorator
@inline function field(words: usize, s: i32): i64 {
  const wi = load<i32>(fWord + (<usize>s << 2));
  return (load<i64>(words + (<usize>wi << 3)) >>> load<i64>(fShift + (<usize>s << 3))) & load<i64>(fMask + (<usize>s << 3));
}

// @ts-ignore: decorator
@inline function setField(words: usize, s: i32, value: i64): void {
  const wi = load<i32>(fWord + (<usize>s << 2));
  const p = words + (<usize>wi << 3);
  const sh = load<i64>(fShift + (<usize>s << 3));
  const mask = load<i64>(fMask + (<usize>s << 3));
  store<i64>(p, (load<i64>(p) & ~(mask << sh)) | (value << sh));
}

// ---- the bounds ----

/** Restricts every bound to DP positions >= from (the mirror's #restrictBounds). */
function restrictBounds(from: i32): void {
  lpRestrict(keyList, from);
  creditOn = from <= lastCredited && from <= tailStart;
  if (!creditOn) return;
  lpRestrict(rtList, from);
  for (let s = 0; s < m; s++) {
    const count = load<i32>(tCount + (<usize>s << 2));
    const pos = tPos + (<usize>s * <usize>n << 2);
    let next = load<i32>(tNext + (<usize>s << 2));
    while (next < count && load<i32>(pos + (<usize>next << 2)) < from) next++;
    store<i32>(tNext + (<usize>s << 2), next);
  }
  // The best credits of the positions >= from: the positions passed since the last call leave the sum
  // (the DP restricts once per layer; a sum over the rest per layer was O(n^2) over a run).
  if (from < restFrom) {
    restFrom = from;
    creditRest = 0;
    for (let t = from; t < n; t++) creditRest += load<i64>(bestCredit + (<usize>t << 3));
  }
  for (; restFrom < from; restFrom++) creditRest -= load<i64>(bestCredit + (<usize>restFrom << 3));
}

/** The credit table of slot s at residual r (the mirror's CreditTable.upper). */
// @ts-ignore: decorator
@inline function tableUpper(s: i32, r: i64): i64 {
  const width = load<i64>(tCg + (<usize>s << 3)) + 1;
  const row = <i64>load<i32>(tNext + (<usize>s << 2));
  const base = <usize>load<i64>(tRows + (<usize>s << 3));
  return load<i64>(base + (<usize>(row * width + r / load<i64>(tG + (<usize>s << 3))) << 3));
}

/** The per-node credit bound of the usages at `pu` plus the current weight on `slot` (-1: none); r the total residual. */
function creditUpper(r: i64, pu: usize, slot: i32): i64 {
  work += <f64>m; // one unit per slot looked up (see the mirror)
  let cb: i64 = 0;
  for (let s = 0; s < m; s++) {
    let res = load<i64>(fCap + (<usize>s << 3)) - field(pu, s);
    if (s == slot) res -= curW;
    cb += tableUpper(s, res);
  }
  if (cb > creditRest) cb = creditRest;
  return cb * creditScale + lpUpper(rtList, r);
}

/** The child of parent p in list L (value v, usage sum `sum`) cannot beat the incumbent. */
function belowIncumbent(v: i64, sum: i64, p: i32, list: i32): bool {
  const r = rtot - sum;
  if (v + lpUpper(keyList, r) < inc) return true;
  if (!creditOn) return false;
  if (v + creditUpper(r, curU + (<usize>p * <usize>W << 3), list - 1) < inc) {
    cPrunedCredit += 1;
    return true;
  }
  return false;
}

/** Builds every slot's credit table over the original capacities with grid `grid` (see the mirror). */
function buildTables(grid: i32): bool {
  tPos = alloc(<u64>m * <u64>n * 4);
  tCount = alloc(<u64>m * 4);
  tG = alloc(<u64>m * 8);
  tCg = alloc(<u64>m * 8);
  tRows = alloc(<u64>m * 8);
  tNext = alloc(<u64>m * 4);
  if (tPos == 0 || tCount == 0 || tG == 0 || tCg == 0 || tRows == 0 || tNext == 0) return false;
  for (let s = 0; s < m; s++) {
    const vals = creditVals + <usize>s * <usize>n * 8;
    const pos = tPos + (<usize>s * <usize>n << 2);
    let k = 0;
    for (let t = 0; t < n; t++) {
      if (load<i64>(vals + (<usize>t << 3)) > 0) {
        store<i32>(pos + (<usize>k << 2), t);
        k++;
      }
    }
    const cap = load<i64>(origCap + (<usize>s << 3));
    let g = (cap + <i64>grid - 1) / <i64>grid;
    if (g < 1) g = 1;
    const cg = cap / g;
    const width = cg + 1;
    const rows = alloc(<u64>(k + 1) * <u64>width * 8);
    if (rows == 0) return false;
    store<i32>(tCount + (<usize>s << 2), k);
    store<i64>(tG + (<usize>s << 3), g);
    store<i64>(tCg + (<usize>s << 3), cg);
    store<i64>(tRows + (<usize>s << 3), <i64>rows);
    store<i32>(tNext + (<usize>s << 2), 0);
    memory.fill(rows + <usize>(<i64>k * width * 8), 0, <usize>(width * 8));
    for (let r = k - 1; r >= 0; r--) {
      const t = load<i32>(pos + (<usize>r << 2));
      const wg = load<i64>(dpW + (<usize>t << 3)) / g;
      const p = load<i64>(vals + (<usize>t << 3));
      const below = rows + <usize>(<i64>(r + 1) * width * 8);
      const here = rows + <usize>(<i64>r * width * 8);
      for (let c: i64 = 0; c < width; c++) {
        const skip = load<i64>(below + <usize>(c << 3));
        let best = skip;
        if (c >= wg) {
          const take = load<i64>(below + <usize>((c - wg) << 3)) + p;
          if (take > skip) best = take;
        }
        store<i64>(here + <usize>(c << 3), best);
      }
    }
  }
  return true;
}

// ---- layers ----

// @ts-ignore: decorator
@inline function slotOf(table: usize, b: i32): usize {
  return table + (<usize>b << 2);
}

/** Points the cur* and nxt* views at buffer `cur` and the other one. */
function useBuffers(): void {
  const c = cur;
  const x = 1 - cur;
  curU = load<usize>(slotOf(bufU, c));
  curV = load<usize>(slotOf(bufV, c));
  curSum = load<usize>(slotOf(bufSum, c));
  nxtU = load<usize>(slotOf(bufU, x));
  nxtV = load<usize>(slotOf(bufV, x));
  nxtSum = load<usize>(slotOf(bufSum, x));
  nxtParent = load<usize>(slotOf(bufParent, x));
  nxtSlot = load<usize>(slotOf(bufSlot, x));
  nxtCap = load<i32>(slotOf(bufCap, x));
}

/** (Re)allocates buffer b for at least `need` states, keeping its first `keep` states. */
function growBuffer(b: i32, need: i32, keep: i32): bool {
  const old = load<i32>(slotOf(bufCap, b));
  let cap = old < 16 ? 16 : old;
  while (cap < need) cap <<= 1;
  if (cap <= old) return true;
  const u = alloc(<u64>cap * <u64>W * 8);
  const v = alloc(<u64>cap * 8);
  const s = alloc(<u64>cap * 8);
  const par = alloc(<u64>cap * 4);
  const sl = alloc(<u64>cap);
  if (u == 0 || v == 0 || s == 0 || par == 0 || sl == 0) return false;
  if (keep > 0) {
    memory.copy(u, load<usize>(slotOf(bufU, b)), <usize>keep * <usize>W * 8);
    memory.copy(v, load<usize>(slotOf(bufV, b)), <usize>keep * 8);
    memory.copy(s, load<usize>(slotOf(bufSum, b)), <usize>keep * 8);
    memory.copy(par, load<usize>(slotOf(bufParent, b)), <usize>keep * 4);
    memory.copy(sl, load<usize>(slotOf(bufSlot, b)), <usize>keep);
  }
  store<usize>(slotOf(bufU, b), u);
  store<usize>(slotOf(bufV, b), v);
  store<usize>(slotOf(bufSum, b), s);
  store<usize>(slotOf(bufParent, b), par);
  store<usize>(slotOf(bufSlot, b), sl);
  store<i32>(slotOf(bufCap, b), cap);
  return true;
}

/** Whether parent p has a child in list L; counts it as generated. */
function exists(list: i32, p: i32): bool {
  if (list > 0) {
    const s = list - 1;
    const pu = curU + (<usize>p * <usize>W << 3);
    const us = field(pu, s);
    if (us + curW > load<i64>(fCap + (<usize>s << 3))) return false;
    if (s + 1 < load<i32>(fClassEnd + (<usize>s << 2)) && field(pu, s + 1) == us) return false;
  }
  cGenerated += 1;
  work += 1;
  return true;
}

/** Moves list L's head to its next child that exists and passes the bound. */
function advance(list: i32): void {
  const key = list == 0 ? <i64>0 : load<i64>(keyRow + (<usize>(list - 1) << 3));
  const w = list == 0 ? <i64>0 : curW;
  for (let p = load<i32>(headP + (<usize>list << 2)); p < curK; p++) {
    if (!exists(list, p)) continue;
    const v = load<i64>(curV + (<usize>p << 3)) + key;
    const sum = load<i64>(curSum + (<usize>p << 3)) + w;
    if (belowIncumbent(v, sum, p, list)) {
      cPrunedBound += 1;
      continue;
    }
    store<i32>(headP + (<usize>list << 2), p);
    store<i64>(headV + (<usize>list << 3), v);
    store<i64>(headSum + (<usize>list << 3), sum);
    store<i64>(headInc + (<usize>list << 3), inc);
    store<i32>(headLive + (<usize>list << 2), 1);
    return;
  }
  store<i32>(headP + (<usize>list << 2), curK);
  store<i32>(headLive + (<usize>list << 2), 0);
}

/** Writes parent p's child in list L to tmpU, re-sorted within the class. */
function build(list: i32, p: i32): void {
  memory.copy(tmpU, curU + (<usize>p * <usize>W << 3), <usize>W << 3);
  if (list == 0) return;
  const s = list - 1;
  setField(tmpU, s, field(tmpU, s) + curW);
  const end = load<i32>(fClassEnd + (<usize>s << 2));
  for (let x = s; x + 1 < end; x++) {
    const a = field(tmpU, x);
    const b = field(tmpU, x + 1);
    if (a <= b) break;
    setField(tmpU, x, b);
    setField(tmpU, x + 1, a);
  }
}

/** Appends tmpU unless a state kept in this layer dominates it. false if memory ran out. */
function offer(v: i64, sum: i64, parent: i32, list: i32): bool {
  const k = nxtK;
  if (m == 1) {
    // One slot: dominated iff the least kept usage is at most the child's (one test; see the mirror).
    if (k > 0) {
      cComparisons += 1;
      work += 1;
      if (minU <= load<i64>(tmpU)) {
        cPrunedDominance += 1;
        return true;
      }
    }
  } else if (W == 1) {
    const u = load<i64>(tmpU);
    const g = load<i64>(guard);
    for (let i = 0; i < k; i++) {
      if (load<i64>(nxtSum + (<usize>i << 3)) > sum) continue;
      if ((((u | g) - load<i64>(nxtU + (<usize>i << 3))) & g) == g) {
        cComparisons += <f64>(i + 1);
        work += <f64>(i + 1);
        cPrunedDominance += 1;
        return true;
      }
    }
  } else {
    for (let i = 0; i < k; i++) {
      if (load<i64>(nxtSum + (<usize>i << 3)) > sum) continue;
      const ku = nxtU + (<usize>i * <usize>W << 3);
      let le = true;
      for (let x = 0; x < W; x++) {
        const g = load<i64>(guard + (<usize>x << 3));
        if ((((load<i64>(tmpU + (<usize>x << 3)) | g) - load<i64>(ku + (<usize>x << 3))) & g) != g) {
          le = false;
          break;
        }
      }
      if (le) {
        cComparisons += <f64>(i + 1);
        work += <f64>(i + 1);
        cPrunedDominance += 1;
        return true;
      }
    }
  }
  if (m > 1) {
    cComparisons += <f64>k;
    work += <f64>k;
  } else if (k == 0 || load<i64>(tmpU) < minU) minU = load<i64>(tmpU);
  if (k == nxtCap) {
    if (!growBuffer(1 - cur, k + 1, k)) return false;
    useBuffers();
  }
  memory.copy(nxtU + (<usize>k * <usize>W << 3), tmpU, <usize>W << 3);
  store<i64>(nxtV + (<usize>k << 3), v);
  store<i64>(nxtSum + (<usize>k << 3), sum);
  store<i32>(nxtParent + (<usize>k << 2), parent);
  store<u8>(nxtSlot + <usize>k, <u8>list);
  nxtK = k + 1;
  // The first state of a layer is its best, and its value is that of a feasible plan.
  if (k == 0 && v > inc) inc = v;
  return true;
}

/** Inserts x into the ascending i64 list buf[0..count), which grows by one (a step of insertion sort). */
function insertSorted(buf: usize, count: i32, x: i64): void {
  let i = count;
  for (; i > 0; i--) {
    const y = load<i64>(buf + (<usize>(i - 1) << 3));
    if (y <= x) break;
    store<i64>(buf + (<usize>i << 3), y);
  }
  store<i64>(buf + (<usize>i << 3), x);
}

/** Rewrites the current layer for the indifferent tail (see src/solve/dp/frontier/mirror.ts, #enterTail). */
function enterTail(): void {
  let total: i64 = 0;
  for (let s = 0; s < m; s++) total += cmax - load<i64>(fCap + (<usize>s << 3));
  for (let p = 0; p < curK; p++) {
    const pu = curU + (<usize>p * <usize>W << 3);
    // Insertion sort of (u_s + Cmax - C_s) ascending.
    for (let s = 0; s < m; s++) insertSorted(sortBuf, s, field(pu, s) + cmax - load<i64>(fCap + (<usize>s << 3)));
    for (let s = 0; s < m; s++) setField(pu, s, load<i64>(sortBuf + (<usize>s << 3)));
    const sp = curSum + (<usize>p << 3);
    store<i64>(sp, load<i64>(sp) + total);
  }
  rtot += total;
  for (let s = 0; s < m; s++) {
    store<i64>(fCap + (<usize>s << 3), cmax);
    store<i32>(fClassStart + (<usize>s << 2), 0);
    store<i32>(fClassEnd + (<usize>s << 2), m);
  }
}

function startLayer(): void {
  if (layer == tailStart && m > 1) enterTail();
  restrictBounds(layer + 1);
  nxtK = 0;
  curW = load<i64>(dpW + (<usize>layer << 3));
  keyRow = dpKeys + (<usize>layer * <usize>m << 3);
  for (let list = 0; list <= m; list++) {
    store<i32>(headP + (<usize>list << 2), 0);
    store<i32>(headLive + (<usize>list << 2), 0);
    if (list > 0 && load<i64>(keyRow + (<usize>(list - 1) << 3)) < 0) continue;
    advance(list);
  }
  inLayer = true;
}

function pick(): i32 {
  let best = -1;
  let bv: i64 = 0;
  let bs: i64 = 0;
  for (let list = 0; list <= m; list++) {
    if (load<i32>(headLive + (<usize>list << 2)) == 0) continue;
    const v = load<i64>(headV + (<usize>list << 3));
    const s = load<i64>(headSum + (<usize>list << 3));
    if (best < 0 || v > bv || (v == bv && s < bs)) {
      best = list;
      bv = v;
      bs = s;
    }
  }
  return best;
}

/** Ends the layer: history, swap. Returns STATUS_DONE when it went well, else MEMORY or EMPTY_LAYER. */
function endLayer(): i32 {
  const k = nxtK;
  if (k == 0) return STATUS_EMPTY_LAYER;
  const par = alloc(<u64>k * 4);
  const sl = alloc(<u64>k);
  if (par == 0 || sl == 0) return STATUS_MEMORY;
  memory.copy(par, nxtParent, <usize>k * 4);
  memory.copy(sl, nxtSlot, <usize>k);
  store<usize>(histParent + (<usize>layer << 2), par);
  store<usize>(histSlot + (<usize>layer << 2), sl);
  cur = 1 - cur;
  useBuffers();
  curK = k;
  nxtK = 0;
  cKept += <f64>k;
  if (<f64>k > cMaxLayer) cMaxLayer = <f64>k;
  layer++;
  inLayer = false;
  if (layer == n) finished = true;
  return STATUS_DONE;
}

// ---- the run ----

/** Arena start: the caller's key region ends there. Resets every counter. */
export function frontierReset(base: usize): void {
  arenaTop = align16(base);
  for (let b = 0; b < 2; b++) {
    store<usize>(slotOf(bufU, b), 0);
    store<usize>(slotOf(bufV, b), 0);
    store<usize>(slotOf(bufSum, b), 0);
    store<usize>(slotOf(bufParent, b), 0);
    store<usize>(slotOf(bufSlot, b), 0);
    store<i32>(slotOf(bufCap, b), 0);
  }
  cur = 0;
  curK = nxtK = 0;
  layer = 0;
  inLayer = false;
  finished = false;
  incumbentOptimal = false;
  cGenerated = cKept = cMaxLayer = cPrunedBound = cPrunedDominance = cComparisons = cPrunedCredit = work = 0;
}

/**
 * Prepares a run over n sessions and m slots. Inputs (addresses): keys i64[n * m] in kept layout
 * (session-major over kept nodes), qweight i32[n] per kept session, capacity i32[m] per kept node,
 * order i32[n] (DP position -> kept session), slotNode i32[m] (slot -> kept node), classStart i32[m]
 * (per slot), incumbent i32[n] (kept node per kept session, -1 = not admitted). Returns STATUS_PAUSED
 * (ready to step), STATUS_INCUMBENT (nothing to fold) or STATUS_MEMORY.
 */
export function frontierBegin(
  nn: i32,
  mm: i32,
  keys: usize,
  qweight: usize,
  capacity: usize,
  order: usize,
  slotNode: usize,
  classStart: usize,
  incumbent: usize,
  tail: i32,
  scale: i64,
  grid: i32,
): i32 {
  n = nn;
  creditScale = scale;
  m = mm;
  tailStart = tail;
  copySlots(capacity, slotNode, classStart);
  layOutFields();
  markClassEnds();
  if (!allocRun()) return STATUS_MEMORY;
  loadKeys(keys, qweight, order, incumbent);
  restFrom = <i32>0x7fffffff;
  // The lists' arrays follow their records.
  const scratch = items;
  lpInit(keyList, keyList + LP_RECORD, pmax, dpW, n, scratch);
  lpInit(rtList, rtList + LP_RECORD, rtVals, dpW, n, scratch);
  if (lastCredited >= 0 && !buildTables(grid)) return STATUS_MEMORY;
  if (!startRoot()) return STATUS_MEMORY;
  if (rootUpper() <= inc) {
    incumbentOptimal = true;
    finished = true;
    return STATUS_INCUMBENT;
  }
  return STATUS_PAUSED;
}

/** Each slot's kept node, capacity (also kept as the original) and class start; the total and largest capacity. */
function copySlots(capacity: usize, slotNode: usize, classStart: usize): void {
  rtot = 0;
  cmax = 0;
  for (let s = 0; s < m; s++) {
    const b = load<i32>(slotNode + (<usize>s << 2));
    store<i32>(fSlotNode + (<usize>s << 2), b);
    const cap = <i64>load<i32>(capacity + (<usize>b << 2));
    store<i64>(fCap + (<usize>s << 3), cap);
    store<i64>(origCap + (<usize>s << 3), cap);
    rtot += cap;
    if (cap > cmax) cmax = cap;
    const cs = load<i32>(classStart + (<usize>s << 2));
    store<i32>(fClassStart + (<usize>s << 2), cs);
    store<i32>(origClassStart + (<usize>s << 2), cs);
  }
}

/**
 * Slot layout: fields of bits(C) value bits + 1 guard bit, packed into words without straddling. With an
 * indifferent tail every field must hold Cmax (the tail rewrite), so all take bits(Cmax).
 */
function layOutFields(): void {
  const uniform = tailStart < n && m > 1;
  let word = 0;
  let at = 0;
  store<i64>(guard, 0);
  for (let s = 0; s < m; s++) {
    const bits = 64 - <i32>clz<i64>(uniform ? cmax : load<i64>(fCap + (<usize>s << 3)));
    if (at + bits + 1 > 64) {
      word++;
      at = 0;
      store<i64>(guard + (<usize>word << 3), 0);
    }
    store<i32>(fWord + (<usize>s << 2), word);
    store<i64>(fShift + (<usize>s << 3), <i64>at);
    store<i64>(fMask + (<usize>s << 3), (<i64>1 << <i64>bits) - 1);
    const gp = guard + (<usize>word << 3);
    store<i64>(gp, load<i64>(gp) | (<i64>1 << <i64>(at + bits)));
    at += bits + 1;
  }
  W = word + 1;
}

/** Per slot, the slot after the last of its class (also kept as the original). */
function markClassEnds(): void {
  for (let s = m - 1; s >= 0; s--) {
    const end =
      s + 1 < m && load<i32>(fClassStart + (<usize>(s + 1) << 2)) == load<i32>(fClassStart + (<usize>s << 2))
        ? load<i32>(fClassEnd + (<usize>(s + 1) << 2))
        : s + 1;
    store<i32>(fClassEnd + (<usize>s << 2), end);
    store<i32>(origClassEnd + (<usize>s << 2), end);
  }
}

/** The run's arrays in the arena; false when memory cannot grow. */
function allocRun(): bool {
  dpKeys = alloc(<u64>n * <u64>m * 8);
  dpW = alloc(<u64>n * 8);
  pmax = alloc(<u64>n * 8);
  items = alloc(<u64>n * 4);
  rtVals = alloc(<u64>n * 8);
  bestCredit = alloc(<u64>n * 8);
  creditVals = alloc(<u64>n * <u64>m * 8);
  keyList = alloc(<u64>LP_RECORD + lpBytes(n));
  rtList = alloc(<u64>LP_RECORD + lpBytes(n));
  return !(dpKeys == 0 || dpW == 0 || pmax == 0 || items == 0 || rtVals == 0 || bestCredit == 0 || creditVals == 0 || keyList == 0 || rtList == 0);
}

/** Keys and weights in DP order over slots, each position's best key and credit; the incumbent's value; the last credited position. */
function loadKeys(keys: usize, qweight: usize, order: usize, incumbent: usize): void {
  inc = 0;
  for (let t = 0; t < n; t++) {
    const j = load<i32>(order + (<usize>t << 2));
    store<i64>(dpW + (<usize>t << 3), <i64>load<i32>(qweight + (<usize>j << 2)));
    let best: i64 = 0;
    for (let s = 0; s < m; s++) {
      const k = load<i64>(keys + ((<usize>j * <usize>m + <usize>load<i32>(fSlotNode + (<usize>s << 2))) << 3));
      store<i64>(dpKeys + ((<usize>t * <usize>m + <usize>s) << 3), k);
      if (k > best) best = k;
      store<i64>(creditVals + ((<usize>s * <usize>n + <usize>t) << 3), k > 0 ? k / creditScale : 0);
    }
    store<i64>(pmax + (<usize>t << 3), best);
    store<i64>(rtVals + (<usize>t << 3), best % creditScale);
    store<i64>(bestCredit + (<usize>t << 3), best / creditScale);
    const b = load<i32>(incumbent + (<usize>j << 2));
    if (b >= 0) inc += load<i64>(keys + ((<usize>j * <usize>m + <usize>b) << 3));
  }
  lastCredited = -1;
  for (let t = 0; t < n; t++) if (load<i64>(bestCredit + (<usize>t << 3)) > 0) lastCredited = t;
}

/** The root: one empty state in buffer 0; false when memory cannot grow. */
function startRoot(): bool {
  if (!growBuffer(0, 16, 0) || !growBuffer(1, 16, 0)) return false;
  cur = 0;
  useBuffers();
  memory.fill(curU, 0, <usize>W * 8);
  store<i64>(curV, 0);
  store<i64>(curSum, 0);
  curK = 1;
  return true;
}

/** The root's bound over every position: the LP over best keys, or the per-node credit bound when lower. */
function rootUpper(): i64 {
  restrictBounds(0);
  let upper = lpUpper(keyList, rtot);
  if (creditOn) {
    const c = creditUpper(rtot, curU, -1);
    if (c < upper) upper = c;
  }
  return upper;
}

/** Folds until done, or until `quota` more units of work were spent (checked between two pops). */
export function frontierStep(quota: f64): i32 {
  if (incumbentOptimal) return STATUS_INCUMBENT;
  const stopAt = work + quota;
  while (!finished) {
    if (!inLayer) startLayer();
    for (;;) {
      if (work >= stopAt) return STATUS_PAUSED;
      const list = pick();
      if (list < 0) break;
      const p = load<i32>(headP + (<usize>list << 2));
      const v = load<i64>(headV + (<usize>list << 3));
      const sum = load<i64>(headSum + (<usize>list << 3));
      if (load<i64>(headInc + (<usize>list << 3)) != inc && belowIncumbent(v, sum, p, list)) {
        cPrunedBound += 1;
      } else {
        build(list, p);
        if (!offer(v, sum, p, list)) return STATUS_MEMORY;
      }
      store<i32>(headP + (<usize>list << 2), p + 1);
      advance(list);
    }
    const status = endLayer();
    if (status != STATUS_DONE) return status;
  }
  return STATUS_DONE;
}

/**
 * After STATUS_DONE or STATUS_INCUMBENT: writes the kept node of every kept session (-1 = not
 * admitted) to `nodeOut` i32[n] and returns the optimal value. The walk back reads the canonical slot
 * codes, then replays them to assign real slots (see assignClassNodes in src/solve/dp/frontier/mirror.ts).
 */
export function frontierFinish(order: usize, incumbent: usize, nodeOut: usize): i64 {
  if (incumbentOptimal) {
    for (let j = 0; j < n; j++) store<i32>(nodeOut + (<usize>j << 2), load<i32>(incumbent + (<usize>j << 2)));
    return inc;
  }
  // Codes per DP position, walking parents back from the best state (index 0) of the last layer.
  // They go to the `items` array, free now (n entries).
  let idx = 0;
  for (let t = n - 1; t >= 0; t--) {
    const code = <i32>load<u8>(load<usize>(histSlot + (<usize>t << 2)) + <usize>idx);
    store<i32>(items + (<usize>t << 2), code);
    idx = load<i32>(load<usize>(histParent + (<usize>t << 2)) + (<usize>idx << 2));
  }
  for (let s = 0; s < m; s++) {
    store<i64>(canon + (<usize>s << 3), 0);
    store<i64>(actual + (<usize>s << 3), 0);
    store<i64>(offset + (<usize>s << 3), 0);
    store<i32>(fClassStart + (<usize>s << 2), load<i32>(origClassStart + (<usize>s << 2)));
    store<i32>(fClassEnd + (<usize>s << 2), load<i32>(origClassEnd + (<usize>s << 2)));
  }
  for (let t = 0; t < n; t++) {
    if (t == tailStart && m > 1) {
      // The tail rewrite of the canonical vector; real slots keep their usage plus an offset.
      for (let s = 0; s < m; s++) {
        const off = cmax - load<i64>(origCap + (<usize>s << 3));
        store<i64>(offset + (<usize>s << 3), off);
        insertSorted(sortBuf, s, load<i64>(canon + (<usize>s << 3)) + off);
        store<i32>(fClassStart + (<usize>s << 2), 0);
        store<i32>(fClassEnd + (<usize>s << 2), m);
      }
      memory.copy(canon, sortBuf, <usize>m << 3);
    }
    const j = load<i32>(order + (<usize>t << 2));
    const code = load<i32>(items + (<usize>t << 2));
    if (code == 0) {
      store<i32>(nodeOut + (<usize>j << 2), -1);
      continue;
    }
    const s = code - 1;
    const w = load<i64>(dpW + (<usize>t << 3));
    const was = load<i64>(canon + (<usize>s << 3));
    let real = load<i32>(fClassStart + (<usize>s << 2));
    while (load<i64>(actual + (<usize>real << 3)) + load<i64>(offset + (<usize>real << 3)) != was) real++;
    store<i32>(nodeOut + (<usize>j << 2), load<i32>(fSlotNode + (<usize>real << 2)));
    store<i64>(actual + (<usize>real << 3), load<i64>(actual + (<usize>real << 3)) + w);
    store<i64>(canon + (<usize>s << 3), was + w);
    const end = load<i32>(fClassEnd + (<usize>s << 2));
    for (let x = s; x + 1 < end; x++) {
      const a = load<i64>(canon + (<usize>x << 3));
      const b = load<i64>(canon + (<usize>(x + 1) << 3));
      if (a <= b) break;
      store<i64>(canon + (<usize>x << 3), b);
      store<i64>(canon + (<usize>(x + 1) << 3), a);
    }
  }
  return load<i64>(curV);
}

/** Writes the counters to out f64[9]: layers, generated, kept, maxLayer, prunedBound, prunedDominance, comparisons, work, prunedCredit. */
export function frontierCounters(out: usize): void {
  store<f64>(out, <f64>layer);
  store<f64>(out, cGenerated, 8);
  store<f64>(out, cKept, 16);
  store<f64>(out, cMaxLayer, 24);
  store<f64>(out, cPrunedBound, 32);
  store<f64>(out, cPrunedDominance, 40);
  store<f64>(out, cComparisons, 48);
  store<f64>(out, work, 56);
  store<f64>(out, cPrunedCredit, 64);
}
