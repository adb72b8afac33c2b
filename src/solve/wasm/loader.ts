/**
 * The one file that touches `WebAssembly`: compiles tao.wasm once per build (the Module is cached), or a
 * caller's module, and instantiates it against the ABI (src/solve/wasm/abi.ts), checking its exports both
 * ways and its ABI version.
 */
import { readFile } from 'node:fs/promises';
import { InvalidValueError } from '../../errors.js';
import {
  ABI_FUNCTIONS,
  ABI_VERSION,
  readLayout,
  type TaoExports,
  WASM_URL_PROTOCOLS,
  type WasmBuild,
  type WasmSource,
} from './abi.js';

const WASM_URL: Readonly<Record<WasmBuild, URL>> = {
  release: new URL('../../../build/tao.wasm', import.meta.url),
  debug: new URL('../../../build/tao.debug.wasm', import.meta.url),
};

const modules = new Map<WasmBuild, Promise<WebAssembly.Module>>();

/** Compiles a build once per thread; later calls share the cached Module. */
export function compileTaoModule(build: WasmBuild = 'release'): Promise<WebAssembly.Module> {
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
export function messageOf(err: unknown): string {
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
export async function compileSource(source: WasmSource, field: string): Promise<WebAssembly.Module> {
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

/** A new instance of a compiled module, its exports checked against the ABI. */
export function instantiate(module: WebAssembly.Module): TaoExports {
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
