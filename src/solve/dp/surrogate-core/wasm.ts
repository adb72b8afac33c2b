/**
 * The surrogate core DP's WebAssembly adapter (the kernel: assembly/surrogate-core.ts): the stepping
 * protocol (src/solve/dp/protocol.ts) over the kernel's exports. It writes the items' profits and weights
 * into the kernel's regions and copies the report each call writes (see coreReport in
 * assembly/surrogate-core.ts); the kernel does the work.
 */
import type { TaoInstance } from '../../wasm/instance.js';
import {
  CEILING_STATES,
  type CoreCounters,
  type CoreDpKernel,
  type CoreEnd,
  type CoreInput,
  CoreStatus,
  historyPath,
  KNAPSACK_MAX_HISTORY,
  KNAPSACK_MAX_STATES,
  PAIR_STATES,
} from './engine.js';

/** The entries of the kernel's report (coreReport in assembly/surrogate-core.ts). */
const REPORT = {
  pendingStates: 0,
  history: 1,
  historyAt: 2,
  swapCuts: 3,
  z: 4,
  bestH: 5,
  bestW: 6,
  paid: 7,
  atCeiling: 8,
} as const;

export class SurrogateCoreWasm implements CoreDpKernel {
  readonly #wasm: TaoInstance;
  /** The last call's report, copied (sized from the layout table). */
  #report = new Float64Array(0);
  #pollSteps = 0;

  constructor(wasm: TaoInstance) {
    this.#wasm = wasm;
  }

  /** Copies the report after a core call. */
  #copyReport(): void {
    const f64 = this.#wasm.whole().f64;
    const at = this.#wasm.at('coreOut') >>> 3;
    if (this.#report.length === 0) this.#report = new Float64Array(this.#wasm.at('coreReport'));
    for (let i = 0; i < this.#report.length; i++) this.#report[i] = f64[at + i]!;
  }

  /** Writes the profits and weights of the items at positions 0..k-1 and starts: `paused`, or `memory` when memory cannot grow. */
  start(input: CoreInput): CoreStatus {
    const { items, k, p, w, start } = input;
    const reserved = this.#wasm.call('coreReserve', (x) => x.coreReserve(k));
    if (reserved === 0) return CoreStatus.memory;
    if (reserved !== 1) throw new RangeError(`coreReserve(${k}) rejected its argument`);
    const f64 = this.#wasm.whole().f64;
    const profit = this.#wasm.at('coreProfit') >>> 3;
    const weight = this.#wasm.at('coreWeight') >>> 3;
    for (let x = 0; x < k; x++) {
      const i = items[x]!;
      f64[profit + x] = p[i]!;
      f64[weight + x] = w[i]!;
    }
    this.#pollSteps = input.pollSteps;
    const status = this.#wasm.call('coreBegin', (x) =>
      x.coreBegin(
        k,
        start.b,
        start.cap,
        start.bw,
        start.bv,
        start.z,
        start.ceiling,
        start.bestH,
        start.bestW,
        KNAPSACK_MAX_STATES,
        KNAPSACK_MAX_HISTORY,
        PAIR_STATES,
        CEILING_STATES,
      ),
    );
    if (status < 0) throw new RangeError(`coreBegin rejected its arguments (break item ${start.b})`);
    this.#copyReport();
    return status === 1 ? CoreStatus.paused : CoreStatus.memory;
  }

  step(quota: number): CoreStatus {
    const status = this.#wasm.call('coreStep', (x) => x.coreStep(this.#pollSteps, quota));
    this.#copyReport();
    return status as CoreStatus;
  }

  lowerCeiling(ceiling: number): void {
    this.#wasm.call('coreCeiling', (x) => x.coreCeiling(ceiling));
  }

  counters(): CoreCounters {
    const r = this.#report;
    return {
      paid: r[REPORT.paid]!,
      pendingStates: r[REPORT.pendingStates]!,
      history: r[REPORT.history]!,
      swapCuts: r[REPORT.swapCuts]!,
    };
  }

  /** After `done`: the best value and its state. */
  finish(): CoreEnd {
    const i32 = this.#wasm.whole().i32;
    const r = this.#report;
    const history = r[REPORT.historyAt]! >>> 2;
    const bestH = r[REPORT.bestH]!;
    return {
      z: r[REPORT.z]!,
      atCeiling: r[REPORT.atCeiling] === 1,
      bestH,
      bestW: r[REPORT.bestW]!,
      toggled: historyPath(
        bestH,
        (e) => i32[history + 2 * e]!,
        (e) => i32[history + 2 * e + 1]!,
      ),
    };
  }
}
