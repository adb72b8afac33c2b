/** Both builds of the WebAssembly kernel, created before a test file's tests and closed after them. */
import { afterAll, beforeAll } from 'vitest';
import { TaoKernel } from './internals.js';

export interface Kernels {
  readonly release: TaoKernel;
  readonly debug: TaoKernel;
}

/** Registers the file's set-up and tear-down; read the builds inside tests (they exist once set up). */
export function useKernels(): Kernels {
  const k = {} as { release: TaoKernel; debug: TaoKernel };
  beforeAll(async () => {
    k.release = await TaoKernel.create('release');
    k.debug = await TaoKernel.create('debug');
  });
  afterAll(() => {
    k.release.close();
    k.debug.close();
  });
  return k;
}
