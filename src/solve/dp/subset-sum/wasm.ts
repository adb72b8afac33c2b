/**
 * The subset sums' WebAssembly adapter (the kernel: assembly/subset-sum.ts): the stepping protocol
 * (src/solve/dp/protocol.ts) over the kernel's exports. `start` writes the weights of the items at
 * positions 0..k-1, a skipped one (or one above `cap`) as `cap + 1`, which the fold passes over; the first
 * step starts the fold within `cap`, the later ones continue it.
 */
import type { TaoInstance } from '../../wasm/instance.js';
import {
  type SubsetSum,
  type SubsetSumCounters,
  type SubsetSumInput,
  type SubsetSumKernel,
  SubsetSumStatus,
} from './engine.js';

/** The entries of the kernel's report (subsetReport in assembly/subset-sum.ts). */
const REPORT = { paid: 0, pending: 1, sum: 2, count: 3 } as const;

export class SubsetSumWasm implements SubsetSumKernel {
  readonly #wasm: TaoInstance;
  #k = 0;
  #cap = 0;
  /** The next step begins the fold. */
  #begun = false;

  constructor(wasm: TaoInstance) {
    this.#wasm = wasm;
  }

  start(input: SubsetSumInput): SubsetSumStatus {
    const { items, k, w, cap, skipped } = input;
    const weight = this.#wasm.fixed().subsetWeight;
    if (k > weight.length) throw new RangeError(`${k} items do not fit the subset sums' weight region`);
    for (let x = 0; x < k; x++) {
      const wi = w[items[x]!]!;
      weight[x] = wi > cap || (skipped !== null && skipped[x] === 1) ? cap + 1 : wi;
    }
    this.#k = k;
    this.#cap = cap;
    this.#begun = false;
    return SubsetSumStatus.pending;
  }

  step(quota: number): SubsetSumStatus {
    if (this.#begun) return this.#wasm.call('subsetStep', (x) => x.subsetStep(quota)) as SubsetSumStatus;
    this.#begun = true;
    const status = this.#wasm.call('subsetBegin', (x) => x.subsetBegin(this.#k, this.#cap, quota));
    if (status < 0) throw new RangeError(`subsetBegin(${this.#k}, ${this.#cap}) rejected its arguments`);
    return status as SubsetSumStatus;
  }

  counters(): SubsetSumCounters {
    const out = this.#wasm.fixed().subsetOut;
    return { paid: out[REPORT.paid]!, pending: out[REPORT.pending]! };
  }

  /** After `done`: the largest sum and the positions of the subset reaching it. */
  finish(): SubsetSum {
    const views = this.#wasm.fixed();
    const count = views.subsetOut[REPORT.count]!;
    const chosen = new Array<number>(count);
    for (let e = 0; e < count; e++) chosen[e] = views.subsetChosen[e]!;
    return { sum: views.subsetOut[REPORT.sum]!, chosen };
  }
}
