/**
 * Options of the solver pool: the caller's object merged once over frozen defaults into a fully
 * populated, validated one (as `options.ts` does for solves).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { anyNumber, checkOptionsObject, integerIn } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import type { WasmBuild } from '../solve/wasm/abi.js';

/** What a caller may set when creating a pool. */
export interface PoolOptions {
  /**
   * Workers kept alive even when idle: each holds an instantiated solver, so a solve never pays the
   * ~40 ms cold start. `0` lets the pool go cold.
   * @default 1
   */
  minThreads?: number;
  /**
   * Most worker threads, hence most solves running at once (one solver, one synchronous solve per
   * thread). A scheduler with one planner needs one.
   * @default 1
   */
  maxThreads?: number;
  /**
   * Milliseconds an idle worker above `minThreads` lives before it is terminated.
   * @default 60000
   */
  idleTimeout?: number;
  /**
   * The compiled worker module (path or file URL). Workers run JavaScript, never TypeScript sources:
   * by default `worker.js` next to this module in `dist/`, or `<package>/dist/pool/worker.js` when this module
   * runs from `src/` (tests). Run `npm run build:ts` after changing the worker's code.
   * @default DEFAULT_WORKER_FILE
   */
  workerFile?: string | URL;
  /**
   * WASM build the workers load.
   * @default 'release'
   */
  build?: WasmBuild;
  /**
   * Milliseconds `close()` lets running solves finish before it terminates the workers (a solve without
   * a deadline may run for as long as its state budget allows).
   * @default 10000
   */
  closeTimeoutMs?: number;
}

/** Pool options with every field filled in; `workerFile` as an absolute path. */
export interface ResolvedPoolOptions {
  minThreads: number;
  maxThreads: number;
  idleTimeout: number;
  workerFile: string;
  build: WasmBuild;
  closeTimeoutMs: number;
}

function resolveDefaultWorkerFile(): string {
  const here = fileURLToPath(import.meta.url);
  // From TypeScript sources (vitest, a TS loader) the sibling would be src/pool/worker.js, which never exists:
  // Piscina's threads bypass the caller's loader and need the compiled package.
  const relative = here.endsWith('.ts') ? '../../dist/pool/worker.js' : './worker.js';
  return fileURLToPath(new URL(relative, import.meta.url));
}

/** Where the workers are loaded from by default (see `PoolOptions.workerFile`). */
export const DEFAULT_WORKER_FILE: string = resolveDefaultWorkerFile();

/** The defaults, frozen. */
export const defaultPoolOptions: Readonly<ResolvedPoolOptions> = Object.freeze({
  minThreads: 1,
  maxThreads: 1,
  idleTimeout: 60_000,
  workerFile: DEFAULT_WORKER_FILE,
  build: 'release',
  closeTimeoutMs: 10_000,
});

/** setTimeout's largest delay; longer ones fire at once, which would reap idle workers immediately. */
const MAX_TIMEOUT_MS = 0x7fff_ffff;
/** A sanity bound: each thread holds a WASM instance of up to MEMORY_CAP_BYTES. */
const MAX_THREADS = 256;

function timeoutMs(x: unknown, path: string): number {
  const t = anyNumber(x, path);
  if (!Number.isInteger(t) || t < 0 || t > MAX_TIMEOUT_MS) {
    throw new InvalidValueError(`${path} must be an integer number of milliseconds from 0 to ${MAX_TIMEOUT_MS}`);
  }
  return t;
}

function workerPath(x: unknown, path: string): string {
  let file: string;
  if (x instanceof URL) {
    if (x.protocol !== 'file:') throw new InvalidValueError(`${path} must be a file: URL (got ${x.protocol})`);
    file = fileURLToPath(x);
  } else if (typeof x === 'string') {
    if (x.length === 0) throw new InvalidValueError(`${path} must be a non-empty path`);
    file = x.startsWith('file:') ? fileURLToPath(x) : x;
  } else {
    throw new InvalidTypeError(`${path} must be a string or a URL`);
  }
  if (!existsSync(file)) {
    throw new InvalidValueError(
      `${path} ${file} does not exist: the pool's workers run the compiled package, run \`npm run build:ts\` (or \`npm run build\`) first`,
    );
  }
  return file;
}

/** Merges a caller's pool options over the defaults, validating each field by name. */
export function resolvePoolOptions(options: PoolOptions | undefined, path = 'options'): ResolvedPoolOptions {
  if (options !== undefined) checkOptionsObject(options, defaultPoolOptions, path);
  const given = options ?? {};
  const out: ResolvedPoolOptions = { ...defaultPoolOptions };
  if (given.minThreads !== undefined)
    out.minThreads = integerIn(given.minThreads, `${path}.minThreads`, 0, MAX_THREADS);
  if (given.maxThreads !== undefined)
    out.maxThreads = integerIn(given.maxThreads, `${path}.maxThreads`, 1, MAX_THREADS);
  if (out.minThreads > out.maxThreads) {
    throw new InvalidValueError(
      `${path}.minThreads (${out.minThreads}) must not exceed ${path}.maxThreads (${out.maxThreads})`,
    );
  }
  if (given.idleTimeout !== undefined) out.idleTimeout = timeoutMs(given.idleTimeout, `${path}.idleTimeout`);
  if (given.closeTimeoutMs !== undefined)
    out.closeTimeoutMs = timeoutMs(given.closeTimeoutMs, `${path}.closeTimeoutMs`);
  if (given.build !== undefined) {
    if (given.build !== 'release' && given.build !== 'debug') {
      throw new InvalidValueError(`${path}.build must be "release" or "debug"`);
    }
    out.build = given.build;
  }
  // Checked even when defaulted: a missing build is the most likely failure and deserves this message
  // rather than a worker that dies at start-up.
  out.workerFile = workerPath(given.workerFile ?? out.workerFile, `${path}.workerFile`);
  return out;
}
