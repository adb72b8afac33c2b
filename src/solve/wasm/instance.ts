/**
 * One instance of the WASM module with its own memory, the generic half every DP's adapter
 * (src/solve/dp/<name>/wasm.ts) calls through: it runs each export under one trap rule, keeps typed-array
 * views over the ABI's regions (rebuilt whenever memory grows and the old buffer detaches), and reads the
 * layout table (src/solve/wasm/abi.ts).
 *
 * A trap (out-of-bounds access, `unreachable`, an `abort` from the debug build) is reported as
 * SolverTrapError and the instance is discarded: the next call instantiates a fresh one from the cached
 * Module, so one trap never leaves a half-written memory behind.
 */
import { InvalidValueError, SolverTrapError } from '../../errors.js';
import { LAYOUT_INDEX, type LayoutEntry, readLayout, type TaoExports, type WasmBuild, type WasmSource } from './abi.js';
import { compileSource, compileTaoModule, instantiate, messageOf } from './loader.js';

/** Views over the fixed regions; valid until memory grows. */
export interface FixedViews {
  readonly buffer: ArrayBuffer;
  readonly radix: Int32Array;
  readonly weight: Int32Array;
  readonly nodeOut: Int32Array;
  readonly valueOut: BigInt64Array;
  readonly capacity: Int32Array;
  readonly order: Int32Array;
  readonly slotNode: Int32Array;
  readonly classStart: Int32Array;
  readonly incumbent: Int32Array;
  readonly subsetWeight: Int32Array;
  readonly subsetChosen: Int32Array;
  readonly subsetOut: Float64Array;
}

/** f64 and i32 views over the whole memory, and the layout table's i32 index. */
export interface WholeViews {
  readonly f64: Float64Array;
  readonly i32: Int32Array;
  readonly layout: number;
}

export class TaoInstance {
  readonly build: WasmBuild;
  readonly #module: WebAssembly.Module;
  #exports: TaoExports | null;
  #views: FixedViews | null = null;
  #simd = true;
  /** Rebuilt when memory grows. */
  #whole: (WholeViews & { readonly buffer: ArrayBuffer }) | null = null;
  #closed = false;

  private constructor(module: WebAssembly.Module, build: WasmBuild) {
    this.#module = module;
    this.build = build;
    this.#exports = instantiate(module);
  }

  /**
   * Compiles (a bundled build once per thread) and instantiates. With `source`, compiles the caller's
   * module instead (`field` names it in errors); one that does not speak this package's ABI is an
   * InvalidValueError.
   */
  static async create(build: WasmBuild = 'release', source?: WasmSource, field = 'wasm'): Promise<TaoInstance> {
    if (source === undefined) return new TaoInstance(await compileTaoModule(build), build);
    const module = await compileSource(source, field);
    try {
      return new TaoInstance(module, build);
    } catch (err) {
      throw new InvalidValueError(`${field} is not a tao-solver module: ${messageOf(err)}`, { cause: err });
    }
  }

  /** The live instance; a fresh one if the last call trapped. */
  live(): TaoExports {
    if (this.#closed) throw new Error('the WASM instance is closed');
    if (this.#exports === null) {
      this.#exports = instantiate(this.#module);
      this.#views = null;
      this.#whole = null;
      if (!this.#simd) this.#exports.setSimd(0);
    }
    return this.#exports;
  }

  /** Runs one call into the module; any exception from inside it is a trap and retires the instance. */
  call<T>(op: string, fn: (x: TaoExports) => T): T {
    const x = this.live();
    try {
      return fn(x);
    } catch (err) {
      this.#exports = null;
      this.#views = null;
      this.#whole = null;
      const detail = err instanceof Error ? err.message : String(err);
      throw new SolverTrapError(`WASM trap in ${op}: ${detail}`, { cause: err });
    }
  }

  /** Views over the fixed regions. */
  fixed(): FixedViews {
    // A view over a buffer that memory growth detached has length 0; a trap or close() drops the views.
    if (this.#views !== null && this.#views.subsetOut.length !== 0) return this.#views;
    const x = this.live();
    const buffer = x.memory.buffer;
    if (this.#views === null || this.#views.buffer !== buffer) {
      const at = readLayout(x);
      const nodes = at.maxNodes;
      const sessions = at.maxSessions;
      this.#views = {
        buffer,
        radix: new Int32Array(buffer, at.radix, nodes),
        weight: new Int32Array(buffer, at.weight, sessions),
        nodeOut: new Int32Array(buffer, at.nodeOut, sessions),
        valueOut: new BigInt64Array(buffer, at.valueOut, 1),
        capacity: new Int32Array(buffer, at.capacity, nodes),
        order: new Int32Array(buffer, at.order, sessions),
        slotNode: new Int32Array(buffer, at.slotNode, nodes),
        classStart: new Int32Array(buffer, at.classStart, nodes),
        incumbent: new Int32Array(buffer, at.incumbent, sessions),
        subsetWeight: new Int32Array(buffer, at.subsetWeight, sessions),
        subsetChosen: new Int32Array(buffer, at.subsetChosen, sessions),
        subsetOut: new Float64Array(buffer, at.subsetOut, at.subsetReport),
      };
    }
    return this.#views;
  }

  /** Views over the whole memory. */
  whole(): WholeViews {
    const x = this.live();
    const buffer = x.memory.buffer;
    if (this.#whole === null || this.#whole.buffer !== buffer) {
      this.#whole = { buffer, f64: new Float64Array(buffer), i32: new Int32Array(buffer), layout: x.layout() >>> 2 };
    }
    return this.#whole;
  }

  /** The layout table's entry (an address, or a report's length) by name. */
  at(entry: LayoutEntry): number {
    const mem = this.whole();
    return mem.i32[mem.layout + LAYOUT_INDEX[entry]]! >>> 0;
  }

  /** The key region of the last reserve call, `count` entries. */
  keys(count: number): BigInt64Array {
    const x = this.live();
    return new BigInt64Array(x.memory.buffer, readLayout(x).keys, count);
  }

  /** The node per session of the last finish call (`n` sessions) and its packed key. */
  result(n: number): { readonly node: Int32Array; readonly value: bigint } {
    const views = this.fixed();
    return { node: views.nodeOut.slice(0, n), value: views.valueOut[0]! };
  }

  /** Current size of the instance's linear memory in bytes (it never shrinks). */
  memoryBytes(): number {
    return this.live().memory.buffer.byteLength;
  }

  /** Chooses the SIMD (default) or scalar dense kernel; the results are identical. */
  setSimd(on: boolean): void {
    this.#simd = on;
    this.call('setSimd', (x) => x.setSimd(on ? 1 : 0));
  }

  /** Drops the instance; it cannot be used afterwards. */
  close(): void {
    this.#closed = true;
    this.#exports = null;
    this.#views = null;
  }
}
