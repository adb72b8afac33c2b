/**
 * The surrogate knapsack of the multiple-knapsack path (the DP: src/solve/dp/surrogate-core/mirror.ts): the
 * break solution, the first incumbent (greedy refills), the core DP run in WebAssembly or in its mirror
 * through one stepping protocol, and the optimal set read back from the best state's history.
 */
import { cardinalityCeiling, CardinalityScratch } from './cardinality.js';
import type { WorkMeter } from '../../mkp/meter.js';
import {
  CoreStatus,
  type CoreDpKernel,
  type CoreEnd,
  type CoreStart,
  capHalt,
  KNAPSACK_MAX_HISTORY,
  KNAPSACK_MAX_STATES,
  KNAPSACK_POLL_STEPS,
  type KnapsackCounters,
} from './engine.js';
import { ceilRatio, coreDp } from './mirror.js';

/** A knapsack answer: the optimum and an optimal set. */
export interface KnapsackAnswer {
  readonly value: number;
  readonly weight: number;
  /** The items of an optimal set: chosen[0..count). */
  readonly chosen: Int32Array;
  readonly count: number;
}

/**
 * The DP's first incumbent also tries the break solution less each of its last this many items, refilled
 * greedily (about all that trying every item gives, at a bounded cost).
 */
export const REFILL_WINDOW = 16;

/** Scratch arrays up to this many states are kept for the next solve; larger ones are released. */
const RETAIN_STATES = 1 << 16;

/** A copy of `a` in a new array of `size` entries. */
function grown<T extends Float64Array | Int32Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

/** Growable typed arrays reused across calls (the search solves thousands of knapsacks). */
export class KnapsackScratch {
  sw = new Float64Array(256);
  sv = new Float64Array(256);
  sh = new Int32Array(256);
  tw = new Float64Array(256);
  tv = new Float64Array(256);
  th = new Int32Array(256);
  /** History entries: the position (into the item list) a state toggled, and its parent entry. */
  hItem = new Int32Array(1024);
  hParent = new Int32Array(1024);
  /** Per position: the lightest weight from it on. */
  light = new Float64Array(256);
  /** Per position of the break solution: whether the best state removed it (all 0 between calls). */
  gone = new Uint8Array(256);
  /**
   * The answer `knapsack` returns, rewritten by its next call with this scratch (a caller keeping it
   * longer copies it), and where the core DP starts.
   */
  readonly answer = { value: 0, weight: 0, chosen: new Int32Array(256), count: 0 };
  readonly start: { -readonly [K in keyof CoreStart]: CoreStart[K] } = {
    b: 0,
    cap: 0,
    bw: 0,
    bv: 0,
    z: 0,
    ceiling: 0,
    bestH: 0,
    bestW: 0,
  };
  /** States dropped by the swap bound where the Dantzig bound kept them (summed over solves). */
  swapCuts = 0;
  /** The cardinality ceiling's working arrays. */
  readonly cardinality = new CardinalityScratch();
  /** The WebAssembly core DP to run instead of the TypeScript one (null: the TypeScript one). */
  kernel: CoreDpKernel | null = null;
  /** Merge steps between two halting checks inside a layer. */
  pollSteps = KNAPSACK_POLL_STEPS;

  /** Room for `n` positions in `light`. */
  lightest(n: number): void {
    if (this.light.length < n) this.light = new Float64Array(Math.max(n, this.light.length * 2));
  }

  /** Room for `n` states in every state array. */
  states(n: number): void {
    if (this.sw.length >= n) return;
    const size = Math.max(n, this.sw.length * 2);
    this.sw = grown(this.sw, size);
    this.sv = grown(this.sv, size);
    this.sh = grown(this.sh, size);
    this.tw = grown(this.tw, size);
    this.tv = grown(this.tv, size);
    this.th = grown(this.th, size);
  }

  /** Room for `n` items in the answer's set and `n` positions in `gone`. */
  items(n: number): void {
    if (this.answer.chosen.length < n) this.answer.chosen = new Int32Array(Math.max(n, this.answer.chosen.length * 2));
    if (this.gone.length < n) this.gone = new Uint8Array(Math.max(n, this.gone.length * 2));
  }

  /** Small enough to keep for the next solve. */
  get small(): boolean {
    return (
      this.sw.length <= RETAIN_STATES &&
      this.hItem.length <= 4 * RETAIN_STATES &&
      this.answer.chosen.length <= RETAIN_STATES
    );
  }

  /** Room for `n` history entries. */
  history(n: number): void {
    if (this.hItem.length >= n) return;
    const size = Math.max(n, this.hItem.length * 2);
    this.hItem = grown(this.hItem, size);
    this.hParent = grown(this.hParent, size);
  }
}

/**
 * The best set of `items` (ids into `p`, `w`, in efficiency order) within `cap` if it is worth more than
 * `threshold`, else null (null too when the meter halted: the caller asks `meter.halt`). Spends one unit of
 * work per state generated. With `scratch.kernel` set, the core DP runs in WebAssembly, with the same steps
 * and the same answer. The answer is `scratch.answer`, valid until the next call with `scratch`.
 */
export function knapsack(
  items: ArrayLike<number>,
  k: number,
  p: ArrayLike<number>,
  w: ArrayLike<number>,
  cap: number,
  threshold: number,
  meter: WorkMeter,
  scratch: KnapsackScratch,
  counters: KnapsackCounters,
): KnapsackAnswer | null {
  counters.knapsacks++;
  let bw = 0;
  let bv = 0;
  let b = 0;
  while (b < k && bw + w[items[b]!]! <= cap) {
    bw += w[items[b]!]!;
    bv += p[items[b]!]!;
    b++;
  }
  if (b === k) return bv > threshold ? answer(scratch, bv, bw, prefix(items, b, scratch)) : null;
  // Dantzig's bound of the whole problem: nothing beats it.
  const rootBound = bv + ceilRatio(cap - bw, p[items[b]!]!, w[items[b]!]!);
  if (rootBound <= threshold) return null;

  // The greedy completions (every later item that still fits) of the break solution and of the break
  // solution less one of its last REFILL_WINDOW items are reachable: states that cannot reach the best of
  // their values are dropped from the start (the DP still finds a set worth it).
  let gv = greedy(items, k, p, w, cap, b, bw, bv);
  for (let x = b - 1; x >= 0 && x >= b - REFILL_WINDOW; x--)
    gv = Math.max(gv, greedy(items, k, p, w, cap, b, bw - w[items[x]!]!, bv - p[items[x]!]!));
  let z = Math.max(threshold, gv - 1);
  let bestH = -2;
  let bestW = 0;
  if (bv > z) {
    z = bv;
    bestH = -1;
    bestW = bw;
  }
  const start = scratch.start;
  start.b = b;
  start.cap = cap;
  start.bw = bw;
  start.bv = bv;
  start.z = z;
  start.ceiling = rootBound;
  start.bestH = bestH;
  start.bestW = bestW;
  const end =
    scratch.kernel === null
      ? coreDp(items, k, p, w, start, meter, scratch, counters)
      : kernelDp(scratch.kernel, items, k, p, w, start, meter, scratch, counters);
  if (end === null) return null;
  if (end.atCeiling) counters.ceilingStops++;
  if (end.bestH === -2) return null;
  return answer(scratch, end.z, end.bestW, chosenSet(items, b, end.toggled, scratch));
}

/** The greedy completion from position `from` of a set weighing `fw`, worth `fv`: every later item that still fits; its value. */
function greedy(
  items: ArrayLike<number>,
  k: number,
  p: ArrayLike<number>,
  w: ArrayLike<number>,
  cap: number,
  from: number,
  fw: number,
  fv: number,
): number {
  for (let x = from; x < k && fw < cap; x++) {
    const i = items[x]!;
    if (fw + w[i]! <= cap) {
      fw += w[i]!;
      fv += p[i]!;
    }
  }
  return fv;
}

/** `scratch.answer` set to a value and weight, its set the first `count` entries of its `chosen`. */
function answer(scratch: KnapsackScratch, value: number, weight: number, count: number): KnapsackAnswer {
  const out = scratch.answer;
  out.value = value;
  out.weight = weight;
  out.count = count;
  return out;
}

/** The first `b` items into the answer's set; how many. */
function prefix(items: ArrayLike<number>, b: number, scratch: KnapsackScratch): number {
  scratch.items(b);
  const out = scratch.answer.chosen;
  for (let x = 0; x < b; x++) out[x] = items[x]!;
  return b;
}

/**
 * The best state's set into the answer's set: the break set without the positions its history
 * (`toggled`) removed, then the positions it added, latest decision first (each position is decided at
 * most once on a history path); how many.
 */
function chosenSet(items: ArrayLike<number>, b: number, toggled: readonly number[], scratch: KnapsackScratch): number {
  scratch.items(b + toggled.length);
  const { gone } = scratch;
  const out = scratch.answer.chosen;
  for (let y = 0; y < toggled.length; y++) if (toggled[y]! < b) gone[toggled[y]!] = 1;
  let t = 0;
  for (let x = 0; x < b; x++) {
    if (gone[x] === 0) out[t++] = items[x]!;
    else gone[x] = 0;
  }
  for (let y = 0; y < toggled.length; y++) if (toggled[y]! >= b) out[t++] = items[toggled[y]!]!;
  return t;
}

/**
 * The core DP in WebAssembly: the same layers, paid for (by the kernel within the meter's quiet units) and
 * polled from here; null when the meter halted.
 */
function kernelDp(
  kernel: CoreDpKernel,
  items: ArrayLike<number>,
  k: number,
  p: ArrayLike<number>,
  w: ArrayLike<number>,
  start: CoreStart,
  meter: WorkMeter,
  scratch: KnapsackScratch,
  counters: KnapsackCounters,
): CoreEnd | null {
  if (kernel.start({ items, k, p, w, start, pollSteps: scratch.pollSteps }) === CoreStatus.memory) return capped(meter);
  try {
    for (;;) {
      // The layers the kernel pays for by itself are those the meter would neither stop nor check on.
      const status = kernel.step(meter.quiet());
      const { paid } = kernel.counters();
      if (paid > 0) {
        if (!meter.spend(paid)) return null;
        counters.states += paid;
      }
      if (status === CoreStatus.done) break;
      if (status === CoreStatus.paused) {
        if (!meter.poll()) return null;
      } else if (status === CoreStatus.ceiling)
        kernel.lowerCeiling(cardinalityCeiling(items, k, p, w, start.cap, scratch.cardinality));
      else if (status === CoreStatus.layer) {
        const { pendingStates: states, history } = kernel.counters();
        if (!meter.spend(states)) return null;
        counters.states += states;
        if (states > KNAPSACK_MAX_STATES || history + states > KNAPSACK_MAX_HISTORY) return capped(meter);
      } else return capped(meter);
    }
  } finally {
    scratch.swapCuts += kernel.counters().swapCuts;
  }
  return kernel.finish();
}

/** The meter halted at the core DP's memory cap; null, the halted core DP's end. */
function capped(meter: WorkMeter): null {
  meter.stop(capHalt());
  return null;
}
