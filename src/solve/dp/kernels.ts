/**
 * The WebAssembly kernels of one solver: one instance of the module (src/solve/wasm/instance.ts) and the
 * adapter of each DP over it. The solver owns one and closes it; a solve runs one kernel at a time.
 */
import type { WasmBuild, WasmSource } from '../wasm/abi.js';
import { TaoInstance } from '../wasm/instance.js';
import { DenseWasm } from './dense/wasm.js';
import { FrontierWasm } from './frontier/wasm.js';
import { SubsetSumWasm } from './subset-sum/wasm.js';
import { SurrogateCoreWasm } from './surrogate-core/wasm.js';

export class WasmKernels {
  readonly dense: DenseWasm;
  readonly frontier: FrontierWasm;
  readonly surrogateCore: SurrogateCoreWasm;
  readonly subsetSum: SubsetSumWasm;

  private constructor(readonly instance: TaoInstance) {
    this.dense = new DenseWasm(instance);
    this.frontier = new FrontierWasm(instance);
    this.surrogateCore = new SurrogateCoreWasm(instance);
    this.subsetSum = new SubsetSumWasm(instance);
  }

  /** Loads the module (see TaoInstance.create) and builds every adapter over it. */
  static async create(build: WasmBuild = 'release', source?: WasmSource, field = 'wasm'): Promise<WasmKernels> {
    return new WasmKernels(await TaoInstance.create(build, source, field));
  }

  /** Drops the instance; the kernels cannot be used afterwards. */
  close(): void {
    this.instance.close();
  }
}
