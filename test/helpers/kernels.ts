/** Both builds of the WebAssembly kernel, created before a test file's tests and closed after them. */
import { afterAll, beforeAll } from 'vitest';
import { WasmKernels } from './internals.js';

export interface Kernels {
  readonly release: WasmKernels;
  readonly debug: WasmKernels;
}

/** Registers the file's set-up and tear-down; read the builds inside tests (they exist once set up). */
export function useKernels(): Kernels {
  const k = {} as { release: WasmKernels; debug: WasmKernels };
  beforeAll(async () => {
    k.release = await WasmKernels.create('release');
    k.debug = await WasmKernels.create('debug');
  });
  afterAll(() => {
    k.release.close();
    k.debug.close();
  });
  return k;
}

/** The release build alone, created before a test file's tests and closed after them; read it inside tests. */
export function useReleaseKernels(): Pick<Kernels, 'release'> {
  const k = {} as { release: WasmKernels };
  beforeAll(async () => {
    k.release = await WasmKernels.create('release');
  });
  afterAll(() => k.release.close());
  return k;
}
