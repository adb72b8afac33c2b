/**
 * The one file that touches `WebAssembly`: compiles tao.wasm once per build (the Module is cached),
 * instantiates it per kernel (one per thread that loads a solver), keeps typed-array views over its
 * memory (rebuilt whenever memory grows and the old buffer detaches), and knows the ABI layout of
 * `assembly/index.ts` from the TypeScript side.
 *
 * A trap (out-of-bounds access, `unreachable`, an `abort` from the debug build) is reported as
 * SolverTrapError and the instance is discarded: the next call instantiates a fresh one from the cached
 * Module, so one trap never leaves a half-written memory behind.
 */
import { readFile } from 'node:fs/promises';
import { InvalidValueError, SolverTrapError } from '../errors.js';
import { MEMORY_CAP_BYTES } from '../limits.js';
import { DpStatus, FRONTIER_COUNTER_NAMES, type FrontierCounters } from './engine.js';
import { historyPath, type CoreDpKernel, type CoreEnd, type CoreStart, type CoreStatus } from './mkp/knapsack.js';
import type { SubsetSum, SubsetSumKernel, SubsetSumStatus } from './mkp/subset-sum.js';

/** The ABI version this file speaks; `abiVersion()` of the module must match. */
export const ABI_VERSION = 7;

/** `release`: -O3, no checks, SIMD. `debug`: unoptimized, with the ABI's argument assertions. */
export type WasmBuild = 'release' | 'debug';

/**
 * A module given by the caller instead of a bundled build: its bytes, or a URL to read them from
 * (`file:` from disk; `http:`, `https:`, `data:` through `fetch`).
 */
export type WasmSource = ArrayBuffer | Uint8Array | URL;

/** The URL schemes a WasmSource may use. */
export const WASM_URL_PROTOCOLS = ['file:', 'http:', 'https:', 'data:'] as const;

/** The module's exports, as `assembly/index.ts` declares them. Pointers are byte addresses. */
interface TaoExports {
  readonly memory: WebAssembly.Memory;
  abiVersion(): number;
  layout(): number;
  denseLayoutEnd(n: number, m: number, states: number): number;
  denseReserve(n: number, m: number, states: number): number;
  denseBegin(): number;
  denseStep(j0: number, j1: number): void;
  denseFinish(): void;
  setSimd(on: number): void;
  frontierReserve(n: number, m: number): number;
  frontierBegin(tailStart: number, creditScale: bigint, creditGrid: number): number;
  frontierStep(quota: number): number;
  frontierFinish(): void;
  frontierCounters(): void;
  coreReserve(k: number): number;
  coreBegin(
    k: number,
    b: number,
    capacity: number,
    bw: number,
    bv: number,
    z: number,
    ceiling: number,
    bestH: number,
    bestW: number,
    maxStates: number,
    maxHistory: number,
    pairStates: number,
    ceilingStates: number,
  ): number;
  coreStep(steps: number, allowance: number): number;
  coreCeiling(ceiling: number): void;
  subsetBegin(k: number, capacity: number, allowance: number): number;
  subsetStep(allowance: number): number;
}

type ExportedFunction = Exclude<keyof TaoExports, 'memory'>;

/** Every function the module exports, and nothing else besides `memory` (checked both ways at load). */
export const ABI_FUNCTIONS = [
  'abiVersion',
  'layout',
  'denseLayoutEnd',
  'denseReserve',
  'denseBegin',
  'denseStep',
  'denseFinish',
  'setSimd',
  'frontierReserve',
  'frontierBegin',
  'frontierStep',
  'frontierFinish',
  'frontierCounters',
  'coreReserve',
  'coreBegin',
  'coreStep',
  'coreCeiling',
  'subsetBegin',
  'subsetStep',
] as const satisfies readonly ExportedFunction[];

/**
 * The entries of the module's layout table (i32 each, at `layout()`), in order: the two size limits,
 * the byte address of each region, then the f64 entries of the core DP's and the subset sums' reports
 * (assembly/index.ts).
 */
const LAYOUT = [
  'maxNodes',
  'maxSessions',
  'radix',
  'weight',
  'nodeOut',
  'valueOut',
  'capacity',
  'order',
  'slotNode',
  'classStart',
  'incumbent',
  'counters',
  'keys',
  'table',
  'choice',
  'coreProfit',
  'coreWeight',
  'coreOut',
  'subsetWeight',
  'subsetChosen',
  'subsetOut',
  'coreReport',
  'subsetReport',
] as const;
type LayoutEntry = (typeof LAYOUT)[number];
/** Each layout entry's index in the table. */
const LAYOUT_INDEX = Object.fromEntries(LAYOUT.map((name, i) => [name, i])) as Record<LayoutEntry, number>;

const WASM_URL: Readonly<Record<WasmBuild, URL>> = {
  release: new URL('../../build/tao.wasm', import.meta.url),
  debug: new URL('../../build/tao.debug.wasm', import.meta.url),
};

const modules = new Map<WasmBuild, Promise<WebAssembly.Module>>();

/** Compiles a build once per thread; later calls share the cached Module. */
function compileTaoModule(build: WasmBuild = 'release'): Promise<WebAssembly.Module> {
  let pending = modules.get(build);
  if (pending === undefined) {
    pending = readFile(WASM_URL[build]).then((bytes) => WebAssembly.compile(bytes));
    // A failed compile (missing build/, say) is not cached, so a later call can retry after a build.
    pending.catch(() => modules.delete(build));
    modules.set(build, pending);
  }
  return pending;
}

/** The message of an error, for wrapping it. */
function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The bytes of a caller's module; an unreadable URL is an InvalidValueError naming it. */
async function sourceBytes(source: WasmSource, field: string): Promise<ArrayBuffer | Uint8Array> {
  if (!(source instanceof URL)) return source;
  if (!(WASM_URL_PROTOCOLS as readonly string[]).includes(source.protocol)) {
    throw new InvalidValueError(`${field} must be a ${WASM_URL_PROTOCOLS.join(', ')} URL, not ${source.protocol}`);
  }
  try {
    if (source.protocol === 'file:') return await readFile(source);
    const response = await fetch(source);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  } catch (err) {
    throw new InvalidValueError(`${field} (${source.href.slice(0, 200)}) could not be read: ${messageOf(err)}`, {
      cause: err,
    });
  }
}

/** Compiles a caller's module (never cached: each call may pass other bytes). */
async function compileSource(source: WasmSource, field: string): Promise<WebAssembly.Module> {
  const bytes = await sourceBytes(source, field);
  try {
    return await WebAssembly.compile(bytes instanceof Uint8Array ? bytes.slice() : bytes);
  } catch (err) {
    throw new InvalidValueError(`${field} is not a WebAssembly module: ${messageOf(err)}`, { cause: err });
  }
}

/** The names the built module exports (`release` or `debug`), from its compiled Module. */
export async function moduleExportNames(build: WasmBuild = 'release'): Promise<string[]> {
  return WebAssembly.Module.exports(await compileTaoModule(build)).map((e) => e.name);
}

/** The module's size limits, read from its layout table: what the ABI's regions are sized for. */
export async function moduleLimits(build: WasmBuild = 'release'): Promise<{ maxNodes: number; maxSessions: number }> {
  const x = instantiate(await compileTaoModule(build));
  const table = readLayout(x);
  return { maxNodes: table.maxNodes, maxSessions: table.maxSessions };
}

/** The layout table of an instance, by entry name. */
function readLayout(x: TaoExports): Record<LayoutEntry, number> {
  const raw = new Int32Array(x.memory.buffer, x.layout() >>> 0, LAYOUT.length);
  const out = {} as Record<LayoutEntry, number>;
  LAYOUT.forEach((name, i) => (out[name] = raw[i]! >>> 0));
  return out;
}

/** Thrown from the debug build's `abort` import; becomes a SolverTrapError. */
class WasmAbort extends Error {
  override name = 'WasmAbort';
}

/** Reads an AssemblyScript string (UTF-16LE, byte length stored just before it) from memory. */
function readAsString(memory: WebAssembly.Memory, ptr: number): string {
  if (ptr === 0) return '';
  const bytes = new Uint32Array(memory.buffer, ptr - 4, 1)[0] ?? 0;
  return String.fromCharCode(...new Uint16Array(memory.buffer, ptr, bytes >>> 1));
}

function instantiate(module: WebAssembly.Module): TaoExports {
  let memory: WebAssembly.Memory | undefined;
  const imports = {
    env: {
      abort(message: number, file: number, line: number, column: number): never {
        const text =
          memory === undefined
            ? ''
            : `${readAsString(memory, message)} at ${readAsString(memory, file)}:${line}:${column}`;
        throw new WasmAbort(`abort: ${text}`);
      },
    },
  };
  const raw = new WebAssembly.Instance(module, imports).exports;
  const mem = raw['memory'];
  if (!(mem instanceof WebAssembly.Memory)) throw new Error('tao.wasm does not export its memory');
  for (const name of ABI_FUNCTIONS) {
    if (typeof raw[name] !== 'function') throw new Error(`tao.wasm does not export ${name}()`);
  }
  const expected = new Set<string>([...ABI_FUNCTIONS, 'memory']);
  for (const name of Object.keys(raw)) {
    if (!expected.has(name)) throw new Error(`tao.wasm exports ${name}, which this package does not know`);
  }
  memory = mem;
  // Every member of TaoExports was checked just above.
  const exports = raw as unknown as TaoExports;
  const version = exports.abiVersion();
  if (version !== ABI_VERSION) throw new Error(`tao.wasm speaks ABI ${version}, this package expects ${ABI_VERSION}`);
  return exports;
}

/** Views over the fixed regions; valid until memory grows. */
interface FixedViews {
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
  readonly counters: Float64Array;
  readonly subsetWeight: Int32Array;
  readonly subsetChosen: Int32Array;
  readonly subsetOut: Float64Array;
}

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
  /** The grid of the frontier's credit tables (see creditGrid in src/solve/ts/frontier.ts), at least 1. */
  readonly creditGrid: number;
}

/** What `finish()` yields: per kept session its kept node (-1 = not admitted), and the optimal packed key. */
export interface KernelResult {
  readonly node: Int32Array;
  readonly value: bigint;
}

/**
 * One instance of the WASM module with its own memory. Call order per solve: dense DP
 * `denseLoad(radix, weight, keys)` -> `denseStep(j0, j1)` over 0..n in order -> `denseFinish()`; frontier DP
 * `frontierStart(input)` -> `frontierStep(quota)` until done -> `frontierFinish()`.
 */
export class TaoKernel implements CoreDpKernel, SubsetSumKernel {
  readonly build: WasmBuild;
  readonly #module: WebAssembly.Module;
  #exports: TaoExports | null;
  #views: FixedViews | null = null;
  #n = 0;
  #simd = true;
  /** f64 and i32 views over the whole memory, and the layout table's i32 index; rebuilt when memory grows. */
  #whole: {
    readonly buffer: ArrayBuffer;
    readonly f64: Float64Array;
    readonly i32: Int32Array;
    readonly layout: number;
  } | null = null;
  /** The core DP's report (see coreReport in assembly/knapsack.ts), copied after each call (sized from the layout table). */
  #core = new Float64Array(0);
  /** Items of the last coreLoad. */
  #coreItems = 0;
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
  static async create(build: WasmBuild = 'release', source?: WasmSource, field = 'wasm'): Promise<TaoKernel> {
    if (source === undefined) return new TaoKernel(await compileTaoModule(build), build);
    const module = await compileSource(source, field);
    try {
      return new TaoKernel(module, build);
    } catch (err) {
      throw new InvalidValueError(`${field} is not a tao-solver module: ${messageOf(err)}`, { cause: err });
    }
  }

  /** The live instance; a fresh one if the last call trapped. */
  #live(): TaoExports {
    if (this.#closed) throw new Error('TaoKernel is closed');
    if (this.#exports === null) {
      this.#exports = instantiate(this.#module);
      this.#views = null;
      this.#whole = null;
      this.#n = 0;
      if (!this.#simd) this.#exports.setSimd(0);
    }
    return this.#exports;
  }

  /** Runs one call into the module; any exception from inside it is a trap and retires the instance. */
  #call<T>(op: string, fn: (x: TaoExports) => T): T {
    const x = this.#live();
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

  #fixed(): FixedViews {
    // A view over a buffer that memory growth detached has length 0; a trap or close() drops the views.
    if (this.#views !== null && this.#views.subsetOut.length !== 0) return this.#views;
    const x = this.#live();
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
        counters: new Float64Array(buffer, at.counters, FRONTIER_COUNTER_NAMES.length),
        subsetWeight: new Int32Array(buffer, at.subsetWeight, sessions),
        subsetChosen: new Int32Array(buffer, at.subsetChosen, sessions),
        subsetOut: new Float64Array(buffer, at.subsetOut, at.subsetReport),
      };
    }
    return this.#views;
  }

  #memory(): { readonly f64: Float64Array; readonly i32: Int32Array; readonly layout: number } {
    const x = this.#live();
    const buffer = x.memory.buffer;
    if (this.#whole === null || this.#whole.buffer !== buffer) {
      this.#whole = { buffer, f64: new Float64Array(buffer), i32: new Int32Array(buffer), layout: x.layout() >>> 2 };
    }
    return this.#whole;
  }

  /** The layout table's entry (an address) by name. */
  #at(entry: LayoutEntry): number {
    const mem = this.#memory();
    return mem.i32[mem.layout + LAYOUT_INDEX[entry]]! >>> 0;
  }

  /** Copies coreOut after a core call. */
  #coreReport(): void {
    const f64 = this.#memory().f64;
    const at = this.#at('coreOut') >>> 3;
    if (this.#core.length === 0) this.#core = new Float64Array(this.#at('coreReport'));
    for (let i = 0; i < this.#core.length; i++) this.#core[i] = f64[at + i]!;
  }

  /** The key region of the last reserve call, `count` entries. */
  #keys(count: number): BigInt64Array {
    const x = this.#live();
    return new BigInt64Array(x.memory.buffer, readLayout(x).keys, count);
  }

  /** Bytes of linear memory a solve of n sessions, m nodes and `states` states needs, in total. */
  bytesNeeded(n: number, m: number, states: number): number {
    return this.#live().denseLayoutEnd(n, m, states);
  }

  /** Current size of the instance's linear memory in bytes (it never shrinks). */
  memoryBytes(): number {
    return this.#live().memory.buffer.byteLength;
  }

  /** Chooses the SIMD (default) or scalar kernel; the results are identical. */
  setSimd(on: boolean): void {
    this.#simd = on;
    this.#call('setSimd', (x) => x.setSimd(on ? 1 : 0));
  }

  /**
   * Lays out memory for one solve and writes its inputs: `radix` (C'_b + 1 per node, node 0 innermost),
   * `weight` (w' per session), `keys` (session-major packed keys, -1 = not a candidate). Returns false,
   * without trapping, if memory would have to grow past MEMORY_CAP_BYTES.
   */
  denseLoad(radix: ArrayLike<number>, weight: ArrayLike<number>, keys: BigInt64Array): boolean {
    const n = weight.length;
    const m = radix.length;
    let states = 1;
    for (let b = 0; b < m; b++) states *= radix[b]!;
    if (keys.length !== n * m) throw new RangeError(`keys has ${keys.length} entries, expected ${n * m}`);
    if (!Number.isSafeInteger(states) || states > 0x7fff_ffff)
      throw new RangeError(`${states} states do not fit the ABI`);
    if (this.bytesNeeded(n, m, states) > MEMORY_CAP_BYTES) return false;
    const status = this.#call('denseReserve', (x) => x.denseReserve(n, m, states));
    if (status === 0) return false;
    if (status !== 1) throw new RangeError(`denseReserve(${n}, ${m}, ${states}) rejected its arguments`);
    const views = this.#fixed();
    views.radix.set(radix);
    for (let j = 0; j < n; j++) views.weight[j] = weight[j]!;
    this.#keys(n * m).set(keys);
    if (this.#call('denseBegin', (e) => e.denseBegin()) !== 0)
      throw new RangeError('denseBegin() found radix inconsistent with states');
    this.#n = n;
    return true;
  }

  /** Folds sessions j0..j1-1 (they must follow the previous step's range). */
  denseStep(j0: number, j1: number): void {
    this.#call('denseStep', (x) => x.denseStep(j0, j1));
  }

  /** Walks back the choices of the last loaded solve. */
  denseFinish(): KernelResult {
    this.#call('denseFinish', (x) => x.denseFinish());
    const views = this.#fixed();
    return { node: views.nodeOut.slice(0, this.#n), value: views.valueOut[0]! };
  }

  /**
   * Lays out and writes the inputs of a frontier run, then starts it. Returns a status: `paused` (ready
   * to step), `incumbent` (the incumbent is optimal, nothing to fold) or `memory` (memory would have to
   * grow past MEMORY_CAP_BYTES; nothing trapped).
   */
  frontierStart(input: FrontierInput): DpStatus {
    const n = input.qweight.length;
    const m = input.capacity.length;
    if (input.key.length !== n * m) throw new RangeError(`key has ${input.key.length} entries, expected ${n * m}`);
    if (input.order.length !== n || input.incumbent.length !== n)
      throw new RangeError('order and incumbent need one entry per session');
    if (input.slotNode.length !== m || input.classStart.length !== m)
      throw new RangeError('slotNode and classStart need one entry per node');
    const status = this.#call('frontierReserve', (x) => x.frontierReserve(n, m));
    if (status === 0) return DpStatus.memory;
    if (status !== 1) throw new RangeError(`frontierReserve(${n}, ${m}) rejected its arguments`);
    const views = this.#fixed();
    for (let j = 0; j < n; j++) views.weight[j] = input.qweight[j]!;
    for (let b = 0; b < m; b++) views.capacity[b] = input.capacity[b]!;
    views.order.set(input.order);
    views.slotNode.set(input.slotNode);
    views.classStart.set(input.classStart);
    views.incumbent.set(input.incumbent);
    this.#keys(n * m).set(input.key);
    this.#n = n;
    const begun = this.#call('frontierBegin', (e) =>
      e.frontierBegin(input.tailStart, input.creditScale, input.creditGrid),
    );
    if (begun < 0) throw new RangeError(`frontierBegin rejected tailStart ${input.tailStart} for ${n} sessions`);
    return begun as DpStatus;
  }

  /** Folds until done or until `quota` more work units were spent; returns a status. */
  frontierStep(quota: number): DpStatus {
    return this.#call('frontierStep', (x) => x.frontierStep(quota)) as DpStatus;
  }

  /** After `done` or `incumbent`: kept node per kept session (-1 = not admitted) and the optimal key sum. */
  frontierFinish(): KernelResult {
    this.#call('frontierFinish', (x) => x.frontierFinish());
    const views = this.#fixed();
    return { node: views.nodeOut.slice(0, this.#n), value: views.valueOut[0]! };
  }

  /** The run's counters so far. */
  frontierCounters(): FrontierCounters {
    this.#call('frontierCounters', (x) => x.frontierCounters());
    const c = this.#fixed().counters;
    const out = {} as FrontierCounters;
    FRONTIER_COUNTER_NAMES.forEach((name, i) => (out[name] = c[i]!));
    return out;
  }

  /**
   * The surrogate knapsack's core DP (CoreDpKernel, see src/solve/mkp/knapsack.ts): writes the profit and
   * weight of the items at positions 0..k-1; false when memory cannot grow.
   */
  coreLoad(items: ArrayLike<number>, k: number, p: ArrayLike<number>, w: ArrayLike<number>): boolean {
    const status = this.#call('coreReserve', (x) => x.coreReserve(k));
    if (status === 0) return false;
    if (status !== 1) throw new RangeError(`coreReserve(${k}) rejected its argument`);
    const f64 = this.#memory().f64;
    const profit = this.#at('coreProfit') >>> 3;
    const weight = this.#at('coreWeight') >>> 3;
    for (let x = 0; x < k; x++) {
      const i = items[x]!;
      f64[profit + x] = p[i]!;
      f64[weight + x] = w[i]!;
    }
    this.#coreItems = k;
    return true;
  }

  /**
   * Starts the core DP on the loaded items, with caps on a layer's states and the history, the least list
   * it pairs and the states after which it asks for its ceiling; false when memory cannot grow.
   */
  coreBegin(
    start: CoreStart,
    maxStates: number,
    maxHistory: number,
    pairStates: number,
    ceilingStates: number,
  ): boolean {
    const status = this.#call('coreBegin', (x) =>
      x.coreBegin(
        this.#coreItems,
        start.b,
        start.cap,
        start.bw,
        start.bv,
        start.z,
        start.ceiling,
        start.bestH,
        start.bestW,
        maxStates,
        maxHistory,
        pairStates,
        ceilingStates,
      ),
    );
    if (status < 0) throw new RangeError(`coreBegin rejected its arguments (break item ${start.b})`);
    this.#coreReport();
    return status === 1;
  }

  /**
   * Runs the core DP until it ends, a layer waits to be paid for, memory fails or `steps` merge steps ran;
   * layers within `allowance` units in all are paid for by the step (see corePending).
   */
  coreStep(steps: number, allowance: number): CoreStatus {
    const status = this.#call('coreStep', (x) => x.coreStep(steps, allowance));
    this.#coreReport();
    return status as CoreStatus;
  }

  /** After `ceiling`: lowers the core DP's ceiling. */
  coreCeiling(ceiling: number): void {
    this.#call('coreCeiling', (x) => x.coreCeiling(ceiling));
  }

  /** After `layer`: the states of the layer waiting to merge and the history entries so far. */
  corePending(): { readonly states: number; readonly history: number } {
    return { states: this.#core[0]!, history: this.#core[1]! };
  }

  /** Units the last step paid for by itself. */
  corePaid(): number {
    return this.#core[7]!;
  }

  /** States the swap bound dropped since coreBegin. */
  coreSwapCuts(): number {
    return this.#core[3]!;
  }

  /** After `done`: the best value and its state. */
  coreEnd(): CoreEnd {
    const i32 = this.#memory().i32;
    const history = this.#core[2]! >>> 2;
    const bestH = this.#core[5]!;
    return {
      z: this.#core[4]!,
      atCeiling: this.#core[8] === 1,
      bestH,
      bestW: this.#core[6]!,
      toggled: historyPath(
        bestH,
        (e) => i32[history + 2 * e]!,
        (e) => i32[history + 2 * e + 1]!,
      ),
    };
  }

  /**
   * The subset sums' bitset fold (SubsetSumKernel, see src/solve/mkp/subset-sum.ts): writes the weights of
   * the items at positions 0..k-1, a skipped one (or one above `cap`) as `cap + 1`, which the fold passes
   * over, then starts the fold within `cap` and steps it.
   */
  subsetBegin(
    items: ArrayLike<number>,
    k: number,
    w: ArrayLike<number>,
    cap: number,
    skipped: Uint8Array | null,
    allowance: number,
  ): SubsetSumStatus {
    const weight = this.#fixed().subsetWeight;
    if (k > weight.length) throw new RangeError(`${k} items do not fit the subset sums' weight region`);
    for (let x = 0; x < k; x++) {
      const wi = w[items[x]!]!;
      weight[x] = wi > cap || (skipped !== null && skipped[x] === 1) ? cap + 1 : wi;
    }
    const status = this.#call('subsetBegin', (x) => x.subsetBegin(k, cap, allowance));
    if (status < 0) throw new RangeError(`subsetBegin(${k}, ${cap}) rejected its arguments`);
    return status as SubsetSumStatus;
  }

  /** Folds items while their units fit within `allowance` in all; the next one past it waits (`pending`). */
  subsetStep(allowance: number): SubsetSumStatus {
    return this.#call('subsetStep', (x) => x.subsetStep(allowance)) as SubsetSumStatus;
  }

  /** Units the last step paid for by itself. */
  subsetPaid(): number {
    return this.#fixed().subsetOut[0]!;
  }

  /** After `pending`: the units of the item waiting to be folded. */
  subsetPending(): number {
    return this.#fixed().subsetOut[1]!;
  }

  /** After `done`: the largest sum and the positions of the subset reaching it. */
  subsetEnd(): SubsetSum {
    const views = this.#fixed();
    const count = views.subsetOut[3]!;
    const chosen = new Array<number>(count);
    for (let e = 0; e < count; e++) chosen[e] = views.subsetChosen[e]!;
    return { sum: views.subsetOut[2]!, chosen };
  }

  /** Drops the instance; the kernel cannot be used afterwards. */
  close(): void {
    this.#closed = true;
    this.#exports = null;
    this.#views = null;
  }
}
