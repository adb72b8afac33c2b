// The core DP of the multiple-knapsack path's surrogate 0-1 knapsack: an expanding core from the break
// item, with dominance, Dantzig's bound, the swap bound, pairing and the ceiling.
//
// The algorithm, its bounds and why each is exact are stated once, in src/solve/dp/surrogate-core/mirror.ts (the
// TypeScript mirror this kernel is tested against: same value, same set, same states and swap cuts). This
// file is its flat-array form:
//
// - Items are positions 0..k-1 in efficiency order: profit f64[k] and weight f64[k], written by the host;
//   every sum is an integer below 2^53, so f64 arithmetic is exact and rounds as in the mirror.
// - A state list is records of 24 bytes (weight f64, value f64, history entry i32); two lists alternate
//   (the current one and the next), followed by the history: records of 8 bytes (position i32, parent
//   entry i32), append-only for the walk back, which the host does.
// - A step runs until the DP ends, until a layer is about to merge (the host pays for its states and
//   checks its caps, then steps again), until `steps` merge steps ran inside a layer (the host asks its
//   deadline, then steps again), or until the DP wants its cardinality ceiling (the host computes it,
//   passes it with coreCeiling, then steps again): every loop variable is module state, so the run
//   resumes exactly there.
// - Memory grows on demand above the item region; a failed grow (the module's declared maximum) ends the
//   run with CORE_MEMORY, no trap.

import { align16, ensureMemory } from './memory';
import { EXACT, UP } from './exact';

export const CORE_DONE: i32 = 0;
export const CORE_LAYER: i32 = 1;
export const CORE_MEMORY: i32 = 2;
export const CORE_PAUSED: i32 = 3;
export const CORE_CEILING: i32 = 4;


/** f64 entries of coreReport. */
export const CORE_REPORT: i32 = 9;

const STATE: usize = 24;
const ENTRY: usize = 8;

// Regions (byte addresses) and capacities.
let profit: usize = 0;
let weight: usize = 0;
let light: usize = 0;
let lists: usize = 0;
let listCap: i32 = 0;
let history: usize = 0;
let historyCap: i32 = 0;
let cur: usize = 0;
let nxt: usize = 0;

// The run.
let k: i32 = 0;
let cap: f64 = 0;
let z: f64 = 0;
let bestH: i32 = -2;
let bestW: f64 = 0;
let count: i32 = 0;
let hist: i32 = 0;
let s: i32 = 0;
let t: i32 = 0;
let adding: bool = true;
let swapping: bool = false;
let swapCuts: f64 = 0;
/** A proven ceiling on the optimum, and whether the run ended at it with layers left. */
let ceiling: f64 = Infinity;
let atCeiling: bool = false;
/** States generated so far, and after how many the host is asked for the cardinality ceiling (once). */
let made: f64 = 0;
let ceilingStates: f64 = 0;
let asked: bool = false;
/** The least list the next pairing needs (lists that doubled since the last one are paired). */
let pairAt: i32 = 0;
/** 0: between layers; 1: a layer is paid for and waits to merge; 2: merging. */
let phase: i32 = 0;
/** The host's caps: most states in one layer, most history entries. */
let maxStates: f64 = 0;
let maxHistory: f64 = 0;
/** Units of work this step may spend on layers by itself (the host's meter neither stops nor checks within them), and those it spent. */
let allowance: f64 = 0;
let paid: f64 = 0;

// The layer.
let pos: i32 = 0;
let dw: f64 = 0;
let dv: f64 = 0;
let canAdd: bool = false;
let canRemove: bool = false;
let pAdd: f64 = 0;
let wAdd: f64 = 1;
let pRemove: f64 = 0;
let wRemove: f64 = 1;
let swap: f64 = -2;
let roomless: f64 = 0;
let x: i32 = 0;
let y: i32 = 0;
let out: i32 = 0;
let lastV: f64 = -Infinity;
let wx: f64 = 0;
let vx: f64 = 0;
let wy: f64 = 0;
let vy: f64 = 0;

// @ts-ignore: decorator
@inline function P(i: i32): f64 {
  return load<f64>(profit + (<usize>i << 3));
}

// @ts-ignore: decorator
@inline function W(i: i32): f64 {
  return load<f64>(weight + (<usize>i << 3));
}

// @ts-ignore: decorator
@inline function stW(list: usize, i: i32): f64 {
  return load<f64>(list + <usize>i * STATE);
}

// @ts-ignore: decorator
@inline function stV(list: usize, i: i32): f64 {
  return load<f64>(list + <usize>i * STATE, 8);
}

// @ts-ignore: decorator
@inline function stH(list: usize, i: i32): i32 {
  return load<i32>(list + <usize>i * STATE, 16);
}

/** ceil(a * p / w), as ceilRatio in the mirror. */
function ceilRatio(a: f64, p: f64, w: f64): f64 {
  const num = a * p;
  if (num >= EXACT) return Math.ceil((num / w) * UP);
  let q = Math.floor(num / w);
  while (q * w < num) q += 1;
  while (q > 0 && (q - 1) * w >= num) q -= 1;
  return q;
}

/** floor(a * p / w), as floorRatio in the mirror. */
function floorRatio(a: f64, p: f64, w: f64): f64 {
  const num = a * p;
  if (num >= EXACT) return Math.floor(num / w / UP);
  let q = Math.floor(num / w);
  while (q * w > num) q -= 1;
  while ((q + 1) * w <= num) q += 1;
  return q;
}

/** The swap bound's term, as swapTerm in the mirror: -1 when the bound is not used. */
function swapTerm(last: i32, pa: f64, wa: f64): f64 {
  let least = Infinity;
  for (let i = 0; i <= last; i++) {
    const a = P(i) * wa;
    const c = pa * W(i);
    if (a >= EXACT || c >= EXACT || a <= c) return -1;
    if (a - c < least) least = a - c;
  }
  return least;
}

/** Whether no state of the current list moved by (dw, dv) can be kept by its Dantzig bound, as movesBeyondReach in the mirror. */
function movesBeyondReach(): bool {
  const reach = stV(cur, count - 1) + Math.abs(dv) + Math.abs(z);
  const far = stW(cur, count - 1) + cap + Math.abs(dw);
  if (!(reach * wAdd + far * pAdd < EXACT && reach * wRemove + far * pRemove < EXACT)) return false;
  const over = heaviestWithin(cap - dw) + 1;
  const needAdd = z * wAdd - dv * wAdd - (cap - dw) * pAdd;
  for (let i = over - 1; i >= 0; i--) if (stV(cur, i) * wAdd - stW(cur, i) * pAdd > needAdd) return false;
  if (!canRemove) return true;
  const needRemove = z * wRemove - dv * wRemove - (cap - dw) * pRemove;
  for (let i = over; i < count; i++) if (stV(cur, i) * wRemove - stW(cur, i) * pRemove > needRemove) return false;
  return true;
}

/** The byte address just past the item region of `n` items. */
function itemsEnd(base: usize, n: i32): usize {
  return align16(base + ((<usize>n + 1) << 3) * 3);
}

/**
 * Lays out the item region for `n` items at `base` (profit, weight, lightest-from-here), growing memory
 * if needed. Returns 1, 0 when memory cannot grow that far. The state lists follow, laid out by coreBegin.
 */
export function coreReserve(base: usize, n: i32): i32 {
  const end = itemsEnd(base, n);
  if (!ensureMemory(<f64>end)) return 0;
  profit = base;
  weight = base + ((<usize>n + 1) << 3);
  light = weight + ((<usize>n + 1) << 3);
  lists = end;
  listCap = 0;
  historyCap = 0;
  return 1;
}

/** The profit region (f64 per item position) of the last coreReserve. */
export function coreProfit(): usize {
  return profit;
}

/** The weight region (f64 per item position) of the last coreReserve. */
export function coreWeight(): usize {
  return weight;
}

/**
 * Room for `states` states per list and `entries` history entries, keeping the current list and the
 * history (the next list is empty between layers). False when memory cannot grow.
 */
function room(states: i32, entries: i32): bool {
  if (states <= listCap && entries <= historyCap) return true;
  let ns = max(listCap, 256);
  while (ns < states) ns <<= 1;
  let nh = max(historyCap, 1024);
  while (nh < entries) nh <<= 1;
  const nHistory = lists + 2 * <usize>ns * STATE;
  if (!ensureMemory(<f64>nHistory + <f64>nh * <f64>ENTRY)) return false;
  // The history moves up first (it only moves up), then the current list if it is the second one.
  const second = listCap > 0 && cur != lists;
  if (listCap > 0) memory.copy(nHistory, history, <usize>hist * ENTRY);
  if (second) memory.copy(lists + <usize>ns * STATE, cur, <usize>count * STATE);
  history = nHistory;
  listCap = ns;
  historyCap = nh;
  cur = second ? lists + <usize>ns * STATE : lists;
  nxt = second ? lists : lists + <usize>ns * STATE;
  return true;
}

/** Starts a run over the `n` items written at coreReserve: the break solution's state first. Returns 1, 0 (memory). */
export function coreBegin(n: i32, b: i32, capacity: f64, bw: f64, bv: f64, z0: f64, ceiling0: f64, bestH0: i32, bestW0: f64, statesCap: f64, historyCap0: f64, pairStates0: i32, ceilingStates0: f64): i32 {
  k = n;
  ceiling = ceiling0;
  atCeiling = false;
  made = 0;
  ceilingStates = ceilingStates0;
  asked = false;
  pairAt = pairStates0;
  maxStates = statesCap;
  maxHistory = historyCap0;
  paid = 0;
  cap = capacity;
  z = z0;
  bestH = bestH0;
  bestW = bestW0;
  hist = 0;
  count = 0;
  listCap = 0;
  historyCap = 0;
  if (!room(2, 0)) return 0;
  store<f64>(cur, bw);
  store<f64>(cur, bv, 8);
  store<i32>(cur, -1, 16);
  count = 1;
  swapping = P(0) * W(k - 1) != P(k - 1) * W(0);
  store<f64>(light + (<usize>k << 3), Infinity);
  for (let i = k - 1; i >= 0; i--) store<f64>(light + (<usize>i << 3), Math.min(load<f64>(light + ((<usize>i + 1) << 3)), W(i)));
  s = b - 1;
  t = b;
  adding = true;
  swapCuts = 0;
  phase = 0;
  return 1;
}

/** Lowers the ceiling to `c` (after CORE_CEILING). */
export function coreCeiling(c: f64): void {
  if (c < ceiling) ceiling = c;
}

/** The last of the current list's states whose weight is at most `limit`, -1 for none. */
function heaviestWithin(limit: f64): i32 {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (stW(cur, mid) <= limit) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The best so far becomes state `j` of the current list with position `at` toggled (value v, weight ww). */
function pairedBest(j: i32, at: i32, v: f64, ww: f64): void {
  const e = history + <usize>hist * ENTRY;
  store<i32>(e, at);
  store<i32>(e, stH(cur, j), 4);
  z = v;
  bestW = ww;
  bestH = hist++;
}

/** Pairs each item outside the core with the heaviest state it can join, as the mirror's pairing. */
function pair(): void {
  for (let i = t; i < k; i++) {
    const j = heaviestWithin(cap - W(i));
    if (j >= 0 && stV(cur, j) + P(i) > z) pairedBest(j, i, stV(cur, j) + P(i), stW(cur, j) + W(i));
  }
  for (let i = 0; i <= s; i++) {
    const j = heaviestWithin(cap + W(i));
    if (j >= 0 && stV(cur, j) - P(i) > z) pairedBest(j, i, stV(cur, j) - P(i), stW(cur, j) - W(i));
  }
}

/** Writes a history entry for the new state made from state `y0` of the current list; returns it. */
// @ts-ignore: decorator
@inline function entry(y0: i32): i32 {
  const e = history + <usize>hist * ENTRY;
  store<i32>(e, pos);
  store<i32>(e, stH(cur, y0), 4);
  return hist++;
}

/**
 * Runs the DP until it ends (CORE_DONE), a layer waits for the host to pay for it (CORE_LAYER: past the
 * allowance or a cap), memory cannot grow (CORE_MEMORY), or `steps` merge steps ran (CORE_PAUSED). Layers
 * within `allowance` units in all (and the caps) are paid for here and reported.
 */
export function coreStep(steps: i32, allowance0: f64): i32 {
  let left = steps;
  allowance = allowance0;
  paid = 0;
  for (;;) {
    if (phase == 0) {
      if (!(count > 0 && (s >= 0 || t < k))) return CORE_DONE;
      if (z >= ceiling) {
        atCeiling = true;
        return CORE_DONE;
      }
      if (!asked && made >= ceilingStates) {
        asked = true;
        return CORE_CEILING;
      }
      if (adding ? t >= k : s < 0) adding = !adding;
      pos = adding ? t : s;
      dw = adding ? W(pos) : -W(pos);
      dv = adding ? P(pos) : -P(pos);
      if (adding) t++;
      else s--;
      adding = !adding;
      canAdd = t < k;
      canRemove = s >= 0;
      pAdd = canAdd ? P(t) : 0;
      wAdd = canAdd ? W(t) : 1;
      pRemove = canRemove ? P(s) : 0;
      wRemove = canRemove ? W(s) : 1;
      const roomMost = Math.max(0, cap - stW(cur, 0) - dw);
      if (stV(cur, count - 1) + dv + (canAdd ? ceilRatio(roomMost, pAdd, wAdd) : 0) <= z) continue;
      if (movesBeyondReach()) continue;
      swap = -2;
      roomless = load<f64>(light + (<usize>t << 3));
      phase = 1;
      // A layer within the allowance and the caps is paid for here; any other goes to the host.
      const units = <f64>(2 * count);
      made += units;
      if (units > allowance - paid || units > maxStates || <f64>hist + units > maxHistory) return CORE_LAYER;
      paid += units;
    }
    if (phase == 1) {
      // The merge writes at most one history entry per state, the pairing after it at most one per item.
      if (!room(2 * count, hist + 2 * count + k)) return CORE_MEMORY;
      x = 0;
      y = 0;
      out = 0;
      lastV = -Infinity;
      wx = stW(cur, 0);
      vx = stV(cur, 0);
      wy = wx + dw;
      vy = vx + dv;
      phase = 2;
    }
    // Locals of the merge (written back when it pauses).
    let lx = x;
    let ly = y;
    let lout = out;
    let llast = lastV;
    let lwx = wx;
    let lvx = vx;
    let lwy = wy;
    let lvy = vy;
    let lz = z;
    const n = count;
    const c = cap;
    const from = cur;
    const to = nxt;
    while (lx < n || ly < n) {
      if (left == 0) {
        x = lx;
        y = ly;
        out = lout;
        lastV = llast;
        wx = lwx;
        vx = lvx;
        wy = lwy;
        vy = lvy;
        z = lz;
        return CORE_PAUSED;
      }
      left--;
      let ww: f64;
      let vv: f64;
      let hh: i32;
      if (lwy < lwx || (lwy == lwx && lvy > lvx)) {
        ww = lwy;
        vv = lvy;
        hh = -3 - ly;
        ly++;
        if (ly < n) {
          lwy = stW(from, ly) + dw;
          lvy = stV(from, ly) + dv;
        } else lwy = Infinity;
      } else {
        ww = lwx;
        vv = lvx;
        hh = stH(from, lx);
        lx++;
        if (lx < n) {
          lwx = stW(from, lx);
          lvx = stV(from, lx);
        } else lwx = Infinity;
      }
      if (vv <= llast) continue;
      llast = vv;
      let keep: bool;
      if (ww <= c) {
        if (vv > lz) {
          if (hh <= -3) hh = entry(-3 - hh);
          lz = vv;
          bestH = hh;
          bestW = ww;
        }
        const gap = lz - vv;
        const r = c - ww;
        if (!canAdd) keep = gap < 0;
        else if (gap < 0) keep = true;
        else {
          const l = r * pAdd;
          const g = gap * wAdd;
          keep = l < EXACT && g < EXACT ? l > g : ceilRatio(r, pAdd, wAdd) > gap;
          if (keep && swapping && r < roomless) {
            if (!canRemove) keep = false;
            else if (l < EXACT && g < EXACT) {
              if (swap == -2) swap = swapTerm(s, pAdd, wAdd);
              if (swap >= 0 && l - swap <= g) {
                keep = false;
                swapCuts += 1;
              }
            }
          }
        }
      } else if (!canRemove) keep = false;
      else {
        const gap = vv - lz;
        const o = ww - c;
        if (gap <= 0) keep = false;
        else {
          const l = o * pRemove;
          const g = gap * wRemove;
          keep = l < EXACT && g < EXACT ? l < g : floorRatio(o, pRemove, wRemove) < gap;
          if (keep && swapping) {
            if (swap == -2) swap = swapTerm(s, pAdd, wAdd);
            if (swap >= 0) {
              const lhs = gap * wAdd;
              const rhs = o * pAdd + swap;
              if (lhs < EXACT && rhs < EXACT && lhs <= rhs) {
                keep = false;
                swapCuts += 1;
              }
            }
          }
        }
      }
      if (!keep) continue;
      if (hh <= -3) hh = entry(-3 - hh);
      const at = to + <usize>lout * STATE;
      store<f64>(at, ww);
      store<f64>(at, vv, 8);
      store<i32>(at, hh, 16);
      lout++;
    }
    z = lz;
    cur = to;
    nxt = from;
    count = lout;
    phase = 0;
    if (count >= pairAt) {
      pairAt = 2 * count;
      pair();
    }
  }
  return CORE_DONE; // not reached: the loop returns
}

/**
 * Writes the run's report, f64[CORE_REPORT] at `at`: the states of the layer waiting to merge (after
 * CORE_LAYER), the history entries written, the history's address (records of position i32 and parent
 * entry i32, valid until the next step), the states the swap bound dropped, the best value, its state's
 * history entry (-1: the break solution, -2: none beat the threshold), its weight, the units the last
 * step paid for and whether the run ended at its ceiling with layers left (1, else 0).
 */
export function coreReport(at: usize): void {
  store<f64>(at, <f64>(2 * count));
  store<f64>(at, <f64>hist, 8);
  store<f64>(at, <f64>history, 16);
  store<f64>(at, swapCuts, 24);
  store<f64>(at, z, 32);
  store<f64>(at, <f64>bestH, 40);
  store<f64>(at, bestW, 48);
  store<f64>(at, paid, 56);
  store<f64>(at, atCeiling ? 1 : 0, 64);
}
