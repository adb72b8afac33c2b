// The ABI of tao.wasm: numeric exports only. JS writes inputs and reads outputs through typed-array
// views over `memory.buffer`; nothing is allocated by the module and there are no generated bindings.
//
// Memory layout (byte addresses; all regions 16-byte aligned):
//   fixed, in the data segment (addresses constant for the module's life):
//     radix    i32[MAX_NODES]     JS writes C'_b + 1 per kept node, node 0 = innermost digit
//     stride   i32[MAX_NODES]     written by begin(): stride_0 = 1, stride_b = stride_{b-1} * radix_{b-1}
//     weight   i32[MAX_SESSIONS]  JS writes w'_j per kept session
//     nodeOut  i32[MAX_SESSIONS]  finish() writes the kept-node index per kept session, -1 = not admitted
//     valueOut i64[1]             finish() writes the optimal packed key
//   dynamic, from the first 16-byte boundary after the static data, laid out by reserve(n, m, S):
//     keys     i64[n * m]         JS writes the packed key of each (session, node) pair, -1 = not a candidate
//     table    i64[S]             the DP layer, updated in place
//     choice   u8[n * S]          0 = skip, b + 1 = node b, per (session, state)
//
// Call order: reserve -> (write radix, weight, keys) -> begin -> step(j0, j1)... -> finish.
// A failed reserve (memory would pass the declared maximum) returns 0 and leaves the module usable.
//
// Frontier DP (assembly/frontier.ts), over the same weight, keys and nodeOut regions plus:
//   fixed: capacity i32[MAX_NODES] (DP capacity per kept node), order i32[MAX_SESSIONS] (DP position ->
//          kept session), slotNode i32[MAX_NODES] (slot -> kept node), classStart i32[MAX_NODES] (per
//          slot), incumbent i32[MAX_SESSIONS] (kept node per kept session, -1 = not admitted),
//          counters f64[8] (written by frontierCounters)
//   dynamic: keys i64[n * m] as above, then the frontier's arena (grown on demand, reset per solve).
// Call order: frontierReserve(n, m) -> (write weight, keys, capacity, order, slotNode, classStart,
// incumbent) -> frontierBegin(tailStart) -> frontierStep(quota)... -> frontierFinish; frontierCounters at any
// time.
// Statuses: 0 done, 1 paused (quota spent), 2 memory (the arena could not grow), 3 incumbent optimal
// (nothing to fold), 4 a layer lost every state (a bug, reported instead of trapping).

import { MAX_NODES, foldSessions, walkBack, setSimdKernel } from './dense';
import {
  frontierReset,
  frontierBegin as beginRun,
  frontierStep as stepRun,
  frontierFinish as finishRun,
  frontierCounters as writeCounters,
} from './frontier';

/** Bumped on any change to the exports or the layout above. */
const ABI_VERSION: i32 = 2;
const MAX_SESSIONS: i32 = 4096;
const PAGE: f64 = 65536;

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
const counters: usize = memory.data(8 * 8, 16);

let gN: i32 = 0;
let gM: i32 = 0;
let gS: i32 = 0;
let keys: usize = 0;
let table: usize = 0;
let choice: usize = 0;
// begin() ran since the last reserve(): the table is zeroed and strides match radix.
let begun: bool = false;

// @ts-ignore: decorator
@inline function align16(x: f64): f64 {
  return Math.ceil(x / 16) * 16;
}

// @ts-ignore: decorator
@inline function dynamicBase(): f64 {
  return align16(<f64>__heap_base);
}

export function abiVersion(): i32 {
  return ABI_VERSION;
}
export function maxNodes(): i32 {
  return MAX_NODES;
}
export function maxSessions(): i32 {
  return MAX_SESSIONS;
}
export function radixPtr(): usize {
  return radix;
}
export function weightPtr(): usize {
  return weight;
}
export function nodeOutPtr(): usize {
  return nodeOut;
}
export function valueOutPtr(): usize {
  return valueOut;
}
export function keysPtr(): usize {
  return keys;
}
export function tablePtr(): usize {
  return table;
}
export function choicePtr(): usize {
  return choice;
}

/** One past the last byte the dynamic layout of (n, m, states) needs. f64: exact, never overflows. */
export function layoutEnd(n: i32, m: i32, states: f64): f64 {
  const keysEnd = dynamicBase() + align16(<f64>n * <f64>m * 8);
  const tableEnd = keysEnd + align16(states * 8);
  return tableEnd + align16(<f64>n * states);
}

/**
 * Lays out the dynamic regions for n sessions, m nodes and `states` DP states, growing memory if
 * needed. Returns 1 on success, 0 if memory cannot grow that far (the declared maximum), -1 for
 * arguments out of range. Never traps.
 */
export function reserve(n: i32, m: i32, states: i32): i32 {
  if (n < 1 || n > MAX_SESSIONS || m < 1 || m > MAX_NODES || states < 1) return -1;
  const end = layoutEnd(n, m, <f64>states);
  const have = <f64>memory.size() * PAGE;
  if (end > have) {
    const pages = <i32>Math.ceil((end - have) / PAGE);
    if (memory.grow(pages) < 0) return 0;
  }
  const base = dynamicBase();
  keys = <usize>base;
  table = <usize>(base + align16(<f64>n * <f64>m * 8));
  choice = <usize>(<f64>table + align16(<f64>states * 8));
  gN = n;
  gM = m;
  gS = states;
  begun = false;
  return 1;
}

/**
 * Computes strides from radix, checks their product equals the reserved state count, and zeroes
 * the table (the empty plan is feasible in every state). Returns 0, or -1 if radix disagrees.
 */
export function begin(): i32 {
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
export function step(j0: i32, j1: i32): void {
  // Checked in the debug build only (release is built with --noAssert).
  assert(begun, 'step: begin() has not run since reserve()');
  assert(j0 >= 0 && j0 <= j1 && j1 <= gN, 'step: session range outside 0..n');
  foldSessions(j0, j1, gM, gS, keys, weight, radix, stride, table, choice);
}

/** 1 = SIMD segment kernels (default), 0 = scalar; for measurement, both give identical results. */
export function setSimd(on: i32): void {
  setSimdKernel(on != 0);
}

/** Walks the choices back: writes nodeOut[0..n) and valueOut[0]. */
export function finish(): void {
  assert(begun, 'finish: begin() has not run since reserve()');
  store<i64>(valueOut, walkBack(gN, gS, weight, stride, table, choice, nodeOut));
}

export function capacityPtr(): usize {
  return capacity;
}
export function orderPtr(): usize {
  return order;
}
export function slotNodePtr(): usize {
  return slotNode;
}
export function classStartPtr(): usize {
  return classStart;
}
export function incumbentPtr(): usize {
  return incumbent;
}
export function countersPtr(): usize {
  return counters;
}

/**
 * Lays out the key region for a frontier run of n sessions and m nodes (growing memory if needed) and
 * resets the frontier's arena just above it. Returns 1 on success, 0 if memory cannot grow that far,
 * -1 for arguments out of range. Never traps.
 */
export function frontierReserve(n: i32, m: i32): i32 {
  if (n < 1 || n > MAX_SESSIONS || m < 1 || m > MAX_NODES) return -1;
  const end = dynamicBase() + align16(<f64>n * <f64>m * 8);
  const have = <f64>memory.size() * PAGE;
  if (end > have) {
    const pages = <i32>Math.ceil((end - have) / PAGE);
    if (memory.grow(pages) < 0) return 0;
  }
  keys = <usize>dynamicBase();
  gN = n;
  gM = m;
  gS = 0;
  begun = false;
  frontierReset(<usize>end);
  return 1;
}

/**
 * Starts the frontier run on the written inputs; DP positions from `tailStart` on form the indifferent
 * tail (n: none). Returns a status (1 = ready to step).
 */
export function frontierBegin(tailStart: i32): i32 {
  if (tailStart < 0 || tailStart > gN) return -1;
  return beginRun(gN, gM, keys, weight, capacity, order, slotNode, classStart, incumbent, tailStart);
}

/** Folds until done or until `quota` more units of work were spent. Returns a status. */
export function frontierStep(quota: f64): i32 {
  return stepRun(quota);
}

/** After status 0 or 3: writes nodeOut[0..n) (kept node per kept session, -1 = not admitted) and valueOut[0]. */
export function frontierFinish(): void {
  store<i64>(valueOut, finishRun(order, incumbent, nodeOut));
}

/** Writes counters[0..8): layers, generated, kept, maxLayer, prunedBound, prunedDominance, comparisons, work. */
export function frontierCounters(): void {
  writeCounters(counters);
}
