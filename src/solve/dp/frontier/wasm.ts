/**
 * The frontier DP's WebAssembly adapter (the kernel: assembly/frontier.ts with its bounds in
 * assembly/frontier-bound.ts, over the packed i64 key): the stepping protocol (src/solve/dp/protocol.ts)
 * over the kernel's exports, and the engine the driver runs over one packed problem with its setup.
 */
import { keyScales, type PackedProblem } from '../../pack.js';
import type { KernelResult } from '../../wasm/abi.js';
import type { TaoInstance } from '../../wasm/instance.js';
import { DpStatus, type StepProtocol } from '../protocol.js';
import { FRONTIER_COUNTER_NAMES, type FrontierCounters, type FrontierEngine } from './engine.js';
import { creditGrid, creditTableRows, type FrontierSetup } from './setup.js';

/** Inputs of a frontier run, in the packed problem's kept indices. */
export interface FrontierInput {
  /** Quantized weight per kept session. */
  readonly qweight: ArrayLike<number>;
  /** Packed keys, session-major over kept nodes, -1 = not a candidate. */
  readonly key: BigInt64Array;
  /** DP capacity per kept node (at most 2^31 - 1). */
  readonly capacity: ArrayLike<number>;
  /** DP position -> kept session. */
  readonly order: Int32Array;
  /** Slot -> kept node. */
  readonly slotNode: Int32Array;
  /** Per slot, the first slot of its class of interchangeable nodes. */
  readonly classStart: Int32Array;
  /** The incumbent plan: kept node per kept session, -1 = not admitted. */
  readonly incumbent: Int32Array;
  /** First DP position of the indifferent tail (the session count when there is none). */
  readonly tailStart: number;
  /** The credit scale of the packed key (key = credit * creditScale + the ready/tokens part), at least 1. */
  readonly creditScale: bigint;
  /** The grid of the frontier's credit tables (see creditGrid in src/solve/dp/frontier/setup.ts), at least 1. */
  readonly creditGrid: number;
}

/** The kernel's inputs for a frontier run over `packed` with this setup and incumbent plan. */
export function frontierInput(packed: PackedProblem, setup: FrontierSetup, incumbent: Int32Array): FrontierInput {
  return {
    qweight: packed.qweight,
    key: packed.key,
    capacity: packed.capacity,
    order: setup.order,
    slotNode: setup.slotNode,
    classStart: setup.classStart,
    incumbent,
    tailStart: setup.tailStart,
    creditScale: keyScales(packed.ready, packed.tokens).ready,
    creditGrid: creditGrid(creditTableRows(packed)),
  };
}

/**
 * The frontier kernel in one instance. `start` returns `paused` (ready to step), `incumbent` (the
 * incumbent is optimal, nothing to fold) or `memory` (memory would have to grow past MEMORY_CAP_BYTES;
 * nothing trapped).
 */
export class FrontierWasm implements StepProtocol<FrontierInput, DpStatus, FrontierCounters, KernelResult> {
  readonly #wasm: TaoInstance;
  #n = 0;

  constructor(wasm: TaoInstance) {
    this.#wasm = wasm;
  }

  start(input: FrontierInput): DpStatus {
    const n = input.qweight.length;
    const m = input.capacity.length;
    if (input.key.length !== n * m) throw new RangeError(`key has ${input.key.length} entries, expected ${n * m}`);
    if (input.order.length !== n || input.incumbent.length !== n)
      throw new RangeError('order and incumbent need one entry per session');
    if (input.slotNode.length !== m || input.classStart.length !== m)
      throw new RangeError('slotNode and classStart need one entry per node');
    const status = this.#wasm.call('frontierReserve', (x) => x.frontierReserve(n, m));
    if (status === 0) return DpStatus.memory;
    if (status !== 1) throw new RangeError(`frontierReserve(${n}, ${m}) rejected its arguments`);
    const views = this.#wasm.fixed();
    for (let j = 0; j < n; j++) views.weight[j] = input.qweight[j]!;
    for (let b = 0; b < m; b++) views.capacity[b] = input.capacity[b]!;
    views.order.set(input.order);
    views.slotNode.set(input.slotNode);
    views.classStart.set(input.classStart);
    views.incumbent.set(input.incumbent);
    this.#wasm.keys(n * m).set(input.key);
    this.#n = n;
    const begun = this.#wasm.call('frontierBegin', (e) =>
      e.frontierBegin(input.tailStart, input.creditScale, input.creditGrid),
    );
    if (begun < 0) throw new RangeError(`frontierBegin rejected tailStart ${input.tailStart} for ${n} sessions`);
    return begun as DpStatus;
  }

  step(quota: number): DpStatus {
    return this.#wasm.call('frontierStep', (x) => x.frontierStep(quota)) as DpStatus;
  }

  counters(): FrontierCounters {
    this.#wasm.call('frontierCounters', (x) => x.frontierCounters());
    const f64 = this.#wasm.whole().f64;
    const at = this.#wasm.at('counters') >>> 3;
    const out = {} as FrontierCounters;
    FRONTIER_COUNTER_NAMES.forEach((name, i) => (out[name] = f64[at + i]!));
    return out;
  }

  /** After `done` or `incumbent`: kept node per kept session (-1 = not admitted) and the optimal key sum. */
  finish(): KernelResult {
    this.#wasm.call('frontierFinish', (x) => x.frontierFinish());
    return this.#wasm.result(this.#n);
  }
}

/** The frontier DP in the kernel over a packed problem whose key fits, with this setup and incumbent. */
export function frontierWasm(
  kernel: FrontierWasm,
  packed: PackedProblem,
  setup: FrontierSetup,
  incumbent: Int32Array,
): FrontierEngine {
  return {
    path: 'frontier',
    boundedSteps: false,
    start: () => kernel.start(frontierInput(packed, setup, incumbent)),
    step: (quota) => kernel.step(quota),
    counters: () => kernel.counters(),
    finish: () => kernel.finish().node,
  };
}
