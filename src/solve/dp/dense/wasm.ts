/**
 * The dense DP's WebAssembly adapter (the kernel: assembly/dense.ts, over the packed i64 key): the stepping
 * protocol (src/solve/dp/protocol.ts) over the kernel's exports, and the engine the driver runs over one
 * packed problem. It only moves inputs into the kernel and reads its answer; the kernel does the work.
 */
import { MEMORY_CAP_BYTES } from '../../../limits.js';
import { nodesKept, type PackedProblem, sessionsKept } from '../../pack.js';
import type { KernelResult } from '../../wasm/abi.js';
import type { TaoInstance } from '../../wasm/instance.js';
import { type DpCounters, DpStatus, type StepProtocol } from '../protocol.js';
import type { DenseEngine } from './engine.js';

/** What a dense run reads: C'_b + 1 per node (node 0 innermost), w' per session, session-major packed keys (-1 = not a candidate). */
export interface DenseInput {
  readonly radix: ArrayLike<number>;
  readonly weight: ArrayLike<number>;
  readonly keys: BigInt64Array;
}

/** The dense kernel in one instance: `start` (paused, or memory past MEMORY_CAP_BYTES without trapping), `step` by sessions, `finish`. */
export class DenseWasm implements StepProtocol<DenseInput, DpStatus, DpCounters, KernelResult> {
  readonly #wasm: TaoInstance;
  #n = 0;
  #states = 1;
  #done = 0;

  constructor(wasm: TaoInstance) {
    this.#wasm = wasm;
  }

  /** Bytes of linear memory a solve of n sessions, m nodes and `states` states needs, in total. */
  bytesNeeded(n: number, m: number, states: number): number {
    return this.#wasm.live().denseLayoutEnd(n, m, states);
  }

  start(input: DenseInput): DpStatus {
    const { radix, weight, keys } = input;
    const n = weight.length;
    const m = radix.length;
    let states = 1;
    for (let b = 0; b < m; b++) states *= radix[b]!;
    if (keys.length !== n * m) throw new RangeError(`keys has ${keys.length} entries, expected ${n * m}`);
    if (!Number.isSafeInteger(states) || states > 0x7fff_ffff)
      throw new RangeError(`${states} states do not fit the ABI`);
    if (this.bytesNeeded(n, m, states) > MEMORY_CAP_BYTES) return DpStatus.memory;
    const status = this.#wasm.call('denseReserve', (x) => x.denseReserve(n, m, states));
    if (status === 0) return DpStatus.memory;
    if (status !== 1) throw new RangeError(`denseReserve(${n}, ${m}, ${states}) rejected its arguments`);
    const views = this.#wasm.fixed();
    views.radix.set(radix);
    for (let j = 0; j < n; j++) views.weight[j] = weight[j]!;
    this.#wasm.keys(n * m).set(keys);
    if (this.#wasm.call('denseBegin', (e) => e.denseBegin()) !== 0)
      throw new RangeError('denseBegin() found radix inconsistent with states');
    this.#n = n;
    this.#states = states;
    this.#done = 0;
    return DpStatus.paused;
  }

  /** Folds at least one session, and as many as `quota` cells pay for. */
  step(quota: number): DpStatus {
    const until = Math.min(this.#n, this.#done + Math.max(1, Math.floor(quota / this.#states)));
    this.fold(this.#done, until);
    this.#done = until;
    return this.#done === this.#n ? DpStatus.done : DpStatus.paused;
  }

  /** The kernel's own step: folds sessions j0..j1-1 (they must follow the previous range). */
  fold(j0: number, j1: number): void {
    this.#wasm.call('denseStep', (x) => x.denseStep(j0, j1));
  }

  counters(): DpCounters {
    return { layers: this.#done, work: this.#done * this.#states };
  }

  /** Walks back the choices of the last started run. */
  finish(): KernelResult {
    this.#wasm.call('denseFinish', (x) => x.denseFinish());
    return this.#wasm.result(this.#n);
  }
}

/** The dense DP in the kernel over a packed problem whose key fits. */
export function denseWasm(kernel: DenseWasm, packed: PackedProblem): DenseEngine {
  const input: DenseInput = {
    radix: Array.from(packed.capacity, (c) => c + 1),
    weight: packed.qweight,
    keys: packed.key,
  };
  return {
    path: 'dense',
    boundedSteps: false,
    bytes: kernel.bytesNeeded(sessionsKept(packed), nodesKept(packed), packed.states),
    start: () => kernel.start(input),
    step: (quota) => kernel.step(quota),
    counters: () => kernel.counters(),
    finish: () => kernel.finish().node,
  };
}
