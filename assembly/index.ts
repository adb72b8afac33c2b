// The ABI of tao.wasm: numeric exports only. JS writes inputs and reads outputs through typed-array
// views over `memory.buffer`; nothing is allocated by the module and there are no generated bindings.
//
// Exports: abiVersion, layout (the address of the layout table below), the dense DP denseLayoutEnd,
// denseReserve, denseBegin, denseStep, denseFinish and setSimd, the frontier DP frontierReserve,
// frontierBegin, frontierStep, frontierFinish and frontierCounters, the core DP of the surrogate knapsack
// coreReserve, coreBegin, coreStep and coreCeiling, the subset sums' bitset fold subsetBegin and
// subsetStep, and memory.
//
// Layout table: i32[LAYOUT_ENTRIES] at layout(), entries in this order (byte addresses are those of
// the region named; all regions 16-byte aligned):
//   0 MAX_NODES  1 MAX_SESSIONS
//   fixed, in the data segment (addresses constant for the module's life):
//   2 radix      i32[MAX_NODES]     JS writes C'_b + 1 per kept node, node 0 = innermost digit
//   3 weight     i32[MAX_SESSIONS]  JS writes w'_j per kept session
//   4 nodeOut    i32[MAX_SESSIONS]  the finish calls write the kept-node index per kept session, -1 = not admitted
//   5 valueOut   i64[1]             the finish calls write the optimal packed key
//   6 capacity   i32[MAX_NODES]     frontier: DP capacity per kept node
//   7 order      i32[MAX_SESSIONS]  frontier: DP position -> kept session
//   8 slotNode   i32[MAX_NODES]     frontier: slot -> kept node
//   9 classStart i32[MAX_NODES]     frontier: per slot, the first slot of its class
//  10 incumbent  i32[MAX_SESSIONS]  frontier: kept node per kept session, -1 = not admitted
//  11 counters   f64[COUNTERS]      frontierCounters writes layers, generated, kept, maxLayer,
//                                   prunedBound, prunedDominance, comparisons, work, prunedCredit
//   dynamic, from the first 16-byte boundary after the static data (rewritten by each reserve call):
//  12 keys       i64[n * m]         JS writes the packed key of each (session, node) pair, -1 = not a candidate
//  13 table      i64[S]             dense: the DP layer, updated in place
//  14 choice     u8[n * S]          dense: 0 = skip, b + 1 = node b, per (session, state)
//  15 coreProfit f64[k]             core DP: JS writes the profit per item position (after coreReserve)
//  16 coreWeight f64[k]             core DP: JS writes the weight per item position (after coreReserve)
//   fixed again:
//  17 coreOut    f64[CORE_REPORT]   core DP: each coreStep writes its report (see coreReport in surrogate-core.ts)
//  18 subsetWeight i32[MAX_SESSIONS] subset sums: JS writes the weight per item position
//  19 subsetChosen i32[MAX_SESSIONS] subset sums: the finished fold writes the subset's item positions
//  20 subsetOut  f64[SUBSET_REPORT] subset sums: each step writes its report (see subsetReport in subset-sum.ts)
//  21 CORE_REPORT  22 SUBSET_REPORT  (the f64 entries of coreOut and subsetOut)
//   the frontier's arena follows the keys (grown on demand, reset per run); the core DP's item region,
//   state lists and history, and the subset sums' bitset and log start at the same base (one DP runs at
//   a time).
// (The dense DP's strides live in a private region written by denseBegin.)
//
// Dense DP: denseReserve(n, m, S) -> (write radix, weight, keys) -> denseBegin -> denseStep(j0, j1)...
// -> denseFinish.
// Frontier DP: frontierReserve(n, m) -> (write weight, keys, capacity, order, slotNode, classStart,
// incumbent) -> frontierBegin(tailStart, creditScale, creditGrid) -> frontierStep(quota)... -> frontierFinish; frontierCounters at
// any time.
// Core DP: coreReserve(k) -> (write coreProfit, coreWeight) -> coreBegin(...) -> coreStep(steps, allowance)...
// until 0 (after 4, coreCeiling(ceiling) first); each step writes coreOut.
// Subset sums: (write subsetWeight) -> subsetBegin(k, capacity, allowance), then subsetStep(allowance)...
// until 0 (after 1, the host pays the pending item's units first); each writes subsetOut, the last one
// subsetChosen.
// A failed reserve (memory would pass the declared maximum) returns 0 and leaves the module usable.
// Frontier statuses: 0 done, 1 paused (quota spent), 2 memory (the arena could not grow), 3 incumbent
// optimal (nothing to fold), 4 a layer lost every state (a bug, reported instead of trapping).

import { foldSessions, walkBack, setSimdKernel } from './dense';
import {
  frontierReset,
  frontierBegin as beginRun,
  frontierStep as stepRun,
  frontierFinish as finishRun,
  frontierCounters as writeCounters,
} from './frontier';
import { CORE_REPORT, coreBegin as beginCore, coreCeiling as setCoreCeiling, coreProfit, coreReport, coreReserve as reserveCore, coreStep as stepCore, coreWeight } from './surrogate-core';
import { SUBSET_MAX_CAPACITY, SUBSET_REPORT, subsetBegin as beginSubset, subsetReport, subsetStep as stepSubset } from './subset-sum';
import { COUNTERS, MAX_NODES, MAX_SESSIONS } from './limits';
import { align16f, ensureMemory } from './memory';

/** Bumped on any change to the exports or the layout above. */
const ABI_VERSION: i32 = 7;

const radix: usize = memory.data(MAX_NODES * 4, 16);
const stride: usize = memory.data(MAX_NODES * 4, 16);
const weight: usize = memory.data(MAX_SESSIONS * 4, 16);
const nodeOut: usize = memory.data(MAX_SESSIONS * 4, 16);
const valueOut: usize = memory.data(16, 16);
const capacity: usize = memory.data(MAX_NODES * 4, 16);
const order: usize = memory.data(MAX_SESSIONS * 4, 16);
const slotNode: usize = memory.data(MAX_NODES * 4, 16);
const classStart: usize = memory.data(MAX_NODES * 4, 16);
const incumbent: usize = memory.data(MAX_SESSIONS * 4, 16);
const counters: usize = memory.data(COUNTERS * 8, 16);
const coreOut: usize = memory.data(CORE_REPORT * 8, 16);
const subsetWeight: usize = memory.data(MAX_SESSIONS * 4, 16);
const subsetChosen: usize = memory.data(MAX_SESSIONS * 4, 16);
const subsetOut: usize = memory.data(SUBSET_REPORT * 8, 16);

const LAYOUT_ENTRIES: i32 = 23;
const LAYOUT_KEYS: i32 = 12;
const LAYOUT_TABLE: i32 = 13;
const LAYOUT_CHOICE: i32 = 14;
const LAYOUT_CORE_PROFIT: i32 = 15;
const LAYOUT_CORE_WEIGHT: i32 = 16;
const layoutTable: usize = memory.data(LAYOUT_ENTRIES * 4, 16);

// @ts-ignore: decorator
@inline function setLayout(entry: i32, value: usize): void {
  store<i32>(layoutTable + (<usize>entry << 2), <i32>value);
}

setLayout(0, MAX_NODES);
setLayout(1, MAX_SESSIONS);
setLayout(2, radix);
setLayout(3, weight);
setLayout(4, nodeOut);
setLayout(5, valueOut);
setLayout(6, capacity);
setLayout(7, order);
setLayout(8, slotNode);
setLayout(9, classStart);
setLayout(10, incumbent);
setLayout(11, counters);
setLayout(17, coreOut);
setLayout(18, subsetWeight);
setLayout(19, subsetChosen);
setLayout(20, subsetOut);
setLayout(21, CORE_REPORT);
setLayout(22, SUBSET_REPORT);

let gN: i32 = 0;
let gM: i32 = 0;
let gS: i32 = 0;
let keys: usize = 0;
let table: usize = 0;
let choice: usize = 0;
// denseBegin() ran since the last denseReserve(): the table is zeroed and strides match radix.
let begun: bool = false;

// @ts-ignore: decorator
@inline function dynamicBase(): f64 {
  return align16f(<f64>__heap_base);
}

/** The end of the key region of n sessions and m nodes (the start of the dense table or the frontier's arena). */
// @ts-ignore: decorator
@inline function keysEnd(n: i32, m: i32): f64 {
  return dynamicBase() + align16f(<f64>n * <f64>m * 8);
}

/** Lays the key region out for n sessions and m nodes; the table and choice regions are none until denseReserve. */
function setKeys(n: i32, m: i32, states: i32): void {
  keys = <usize>dynamicBase();
  setLayout(LAYOUT_KEYS, keys);
  gN = n;
  gM = m;
  gS = states;
  begun = false;
}

export function abiVersion(): i32 {
  return ABI_VERSION;
}

/** The address of the layout table (see above). */
export function layout(): usize {
  return layoutTable;
}

/** One past the last byte the dense layout of (n, m, states) needs. f64: exact, never overflows. */
export function denseLayoutEnd(n: i32, m: i32, states: f64): f64 {
  const tableEnd = keysEnd(n, m) + align16f(states * 8);
  return tableEnd + align16f(<f64>n * states);
}

/**
 * Lays out the dynamic regions for n sessions, m nodes and `states` DP states, growing memory if
 * needed. Returns 1 on success, 0 if memory cannot grow that far (the declared maximum), -1 for
 * arguments out of range. Never traps.
 */
export function denseReserve(n: i32, m: i32, states: i32): i32 {
  if (n < 1 || n > MAX_SESSIONS || m < 1 || m > MAX_NODES || states < 1) return -1;
  if (!ensureMemory(denseLayoutEnd(n, m, <f64>states))) return 0;
  setKeys(n, m, states);
  table = <usize>keysEnd(n, m);
  setLayout(LAYOUT_TABLE, table);
  choice = <usize>(<f64>table + align16f(<f64>states * 8));
  setLayout(LAYOUT_CHOICE, choice);
  return 1;
}

/**
 * Computes strides from radix, checks their product equals the reserved state count, and zeroes
 * the table (the empty plan is feasible in every state). Returns 0, or -1 if radix disagrees.
 */
export function denseBegin(): i32 {
  let product: i64 = 1;
  for (let b = 0; b < gM; b++) {
    const r = load<i32>(radix + (<usize>b << 2));
    if (r < 1) return -1;
    store<i32>(stride + (<usize>b << 2), <i32>product);
    product *= <i64>r;
    if (product > <i64>gS) return -1;
  }
  if (product != <i64>gS) return -1;
  memory.fill(table, 0, <usize>gS << 3);
  begun = true;
  return 0;
}

/** Folds kept sessions j0..j1-1 into the table; the caller steps through 0..n in order. */
export function denseStep(j0: i32, j1: i32): void {
  // Checked in the debug build only (release is built with --noAssert).
  assert(begun, 'denseStep: denseBegin() has not run since denseReserve()');
  assert(j0 >= 0 && j0 <= j1 && j1 <= gN, 'denseStep: session range outside 0..n');
  foldSessions(j0, j1, gM, gS, keys, weight, radix, stride, table, choice);
}

/** 1 = SIMD segment kernels (default), 0 = scalar; for measurement, both give identical results. */
export function setSimd(on: i32): void {
  setSimdKernel(on != 0);
}

/** Walks the choices back: writes nodeOut[0..n) and valueOut[0]. */
export function denseFinish(): void {
  assert(begun, 'denseFinish: denseBegin() has not run since denseReserve()');
  store<i64>(valueOut, walkBack(gN, gS, weight, stride, table, choice, nodeOut));
}

/**
 * Lays out the key region for a frontier run of n sessions and m nodes (growing memory if needed) and
 * resets the frontier's arena just above it. Returns 1 on success, 0 if memory cannot grow that far,
 * -1 for arguments out of range. Never traps.
 */
export function frontierReserve(n: i32, m: i32): i32 {
  if (n < 1 || n > MAX_SESSIONS || m < 1 || m > MAX_NODES) return -1;
  const end = keysEnd(n, m);
  if (!ensureMemory(end)) return 0;
  setKeys(n, m, 0);
  frontierReset(<usize>end);
  return 1;
}

/**
 * Starts the frontier run on the written inputs; DP positions from `tailStart` on form the indifferent
 * tail (n: none). Returns a status (1 = ready to step).
 */
export function frontierBegin(tailStart: i32, creditScale: i64, creditGrid: i32): i32 {
  if (tailStart < 0 || tailStart > gN || creditScale < 1 || creditGrid < 1) return -1;
  return beginRun(gN, gM, keys, weight, capacity, order, slotNode, classStart, incumbent, tailStart, creditScale, creditGrid);
}

/** Folds until done or until `quota` more units of work were spent. Returns a status. */
export function frontierStep(quota: f64): i32 {
  return stepRun(quota);
}

/** After status 0 or 3: writes nodeOut[0..n) (kept node per kept session, -1 = not admitted) and valueOut[0]. */
export function frontierFinish(): void {
  store<i64>(valueOut, finishRun(order, incumbent, nodeOut));
}

/** Writes counters[0..COUNTERS): layers, generated, kept, maxLayer, prunedBound, prunedDominance, comparisons, work, prunedCredit. */
export function frontierCounters(): void {
  writeCounters(counters);
}

/**
 * Lays out the core DP's item region for k items (growing memory if needed); the host then writes
 * coreProfit and coreWeight. Returns 1, 0 if memory cannot grow that far, -1 for k out of range.
 */
export function coreReserve(k: i32): i32 {
  if (k < 1 || k > MAX_SESSIONS) return -1;
  if (reserveCore(<usize>dynamicBase(), k) == 0) return 0;
  setLayout(LAYOUT_CORE_PROFIT, coreProfit());
  setLayout(LAYOUT_CORE_WEIGHT, coreWeight());
  return 1;
}

/**
 * Starts the core DP over the k items written: items before b form the break solution (weight bw, value
 * bv); a state must beat z; the run ends once its best value reaches ceiling; the best state so far is
 * bestH (-1: the break solution, -2: none) of weight bestW; a layer may hold at most maxStates states, the
 * history maxHistory entries (past either, the layer goes to the host); lists of pairStates states are
 * paired with the items outside the core; after ceilingStates states the run asks for its cardinality
 * ceiling. Returns 1, 0 if memory cannot grow, -1 for arguments out of range.
 */
export function coreBegin(k: i32, b: i32, capacity: f64, bw: f64, bv: f64, z: f64, ceiling: f64, bestH: i32, bestW: f64, maxStates: f64, maxHistory: f64, pairStates: i32, ceilingStates: f64): i32 {
  if (k < 1 || k > MAX_SESSIONS || b < 0 || b >= k || bestH < -2 || bestH > -1 || pairStates < 1) return -1;
  const status = beginCore(k, b, capacity, bw, bv, z, ceiling, bestH, bestW, maxStates, maxHistory, pairStates, ceilingStates);
  coreReport(coreOut);
  return status;
}

/**
 * Runs the core DP until it ends (0), a layer waits for the host to pay for it (1), memory cannot grow
 * (2), `steps` merge steps ran (3) or it asks for its cardinality ceiling (4); layers within `allowance`
 * units in all are paid for by the step. Writes coreOut.
 */
export function coreStep(steps: i32, allowance: f64): i32 {
  const status = stepCore(steps, allowance);
  coreReport(coreOut);
  return status;
}

/** Lowers the core DP's ceiling to `ceiling` (after coreStep returned 4). */
export function coreCeiling(ceiling: f64): void {
  setCoreCeiling(ceiling);
}

/**
 * Starts a fold of the k items whose weights the host wrote to subsetWeight (a weight above `capacity`
 * skips its position) within `capacity`, its bitset and log laid out in the dynamic region (grown if
 * needed), and steps it (see subsetStep). Returns a status, -1 for arguments out of range; writes
 * subsetOut.
 */
export function subsetBegin(k: i32, capacity: i32, allowance: f64): i32 {
  if (k < 1 || k > MAX_SESSIONS || capacity < 1 || capacity > SUBSET_MAX_CAPACITY) return -1;
  const status = beginSubset(<usize>dynamicBase(), subsetWeight, subsetChosen, k, capacity, allowance);
  subsetReport(subsetOut);
  return status;
}

/**
 * Folds the items in position order while their units of work (one per word of the bitset from the item's
 * weight's word up, as the host's meter counts them) fit within `allowance` in all, until the best sum
 * reaches the capacity or the items run out: 0 = done (subsetChosen holds the subset's positions), 1 = the
 * next item waits for the host to pay for its units (the next step folds it first), 2 = memory, 3 = the
 * walk back found a sum without its item (a bug, reported instead of trapping). Writes subsetOut.
 */
export function subsetStep(allowance: f64): i32 {
  const status = stepSubset(allowance);
  subsetReport(subsetOut);
  return status;
}
