/**
 * The ABI of tao.wasm (assembly/index.ts) as the TypeScript side knows it: the version, every exported
 * function, and the layout table's entries. One file, so a change of the module's interface is one change
 * here; the loader (src/solve/wasm/loader.ts) checks a module against it, the instance
 * (src/solve/wasm/instance.ts) reads memory through it, and each DP's adapter (src/solve/dp/<name>/wasm.ts)
 * calls its kernel's exports.
 */

/** The ABI version this package speaks; `abiVersion()` of the module must match. */
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
export interface TaoExports {
  /** The module's memory, typed by what the package reads of it, so that the declarations need no WebAssembly lib. */
  readonly memory: { readonly buffer: ArrayBuffer };
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
export const LAYOUT = [
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
export type LayoutEntry = (typeof LAYOUT)[number];
/** Each layout entry's index in the table. */
export const LAYOUT_INDEX = Object.freeze(Object.fromEntries(LAYOUT.map((name, i) => [name, i]))) as Readonly<
  Record<LayoutEntry, number>
>;

/** The layout table of an instance, by entry name. */
export function readLayout(x: TaoExports): Record<LayoutEntry, number> {
  const raw = new Int32Array(x.memory.buffer, x.layout() >>> 0, LAYOUT.length);
  const out = {} as Record<LayoutEntry, number>;
  LAYOUT.forEach((name, i) => (out[name] = raw[i]! >>> 0));
  return out;
}

/** What a DP kernel's finish yields: per kept session its kept node (-1 = not admitted), and the optimal packed key. */
export interface KernelResult {
  readonly node: Int32Array;
  readonly value: bigint;
}
