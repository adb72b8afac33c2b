/**
 * The WebAssembly instance's life (src/solve/wasm/instance.ts, loader.ts): the bundled module is compiled
 * once per thread; an exception inside a call is a trap, reported as a SolverTrapError naming the export,
 * and the next call runs on a fresh instance; views over the module's memory follow it when it grows; a
 * closed instance refuses every use.
 */
import { describe, expect, it } from 'vitest';
import { compileTaoModule, SolverTrapError, TaoInstance, WasmKernels } from './helpers/internals.js';

describe('the WebAssembly instance', () => {
  it('shares one compiled module per build within a thread', async () => {
    expect(await compileTaoModule('release')).toBe(await compileTaoModule('release'));
    expect(await compileTaoModule('debug')).not.toBe(await compileTaoModule('release'));
  });

  it('does not keep a compile that failed: a later call tries again', async () => {
    const build = 'missing' as Parameters<typeof compileTaoModule>[0];
    const first = compileTaoModule(build);
    await expect(first).rejects.toThrow();
    const second = compileTaoModule(build);
    expect(second).not.toBe(first);
    await expect(second).rejects.toThrow();
  });

  it('reports an exception inside a call as a trap naming the export, with the exception as its cause, and runs the next call on a fresh instance', async () => {
    const instance = await TaoInstance.create();
    const before = instance.live();
    const boom = new Error('boom');
    let caught: unknown;
    try {
      instance.call('probe', () => {
        throw boom;
      });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SolverTrapError);
    expect((caught as Error).message).toBe('WASM trap in probe: boom');
    expect((caught as Error).cause).toBe(boom);
    const after = instance.live();
    expect(after).not.toBe(before);
    expect(after.abiVersion()).toBe(before.abiVersion());
    instance.close();
  });

  it('gives views over the memory as it is after it grew, not the detached ones', async () => {
    const kernels = await WasmKernels.create();
    const { instance } = kernels;
    const small = instance.fixed();
    expect(small.subsetOut.length).toBeGreaterThan(0);
    const bytes = instance.memoryBytes();
    // A dense run over 2^22 states grows the memory past its first size.
    kernels.dense.start({ radix: [1 << 11, 1 << 11], weight: [1], keys: new BigInt64Array(2) });
    expect(instance.memoryBytes()).toBeGreaterThan(bytes);
    expect(small.subsetOut.length).toBe(0);
    const grown = instance.fixed();
    expect(grown.subsetOut.length).toBeGreaterThan(0);
    expect(grown.buffer).toBe(instance.live().memory.buffer);
    kernels.close();
  });

  it("the solver's kernels close their instance, and name a module that does not compile under the field 'wasm' by default", async () => {
    const kernels = await WasmKernels.create();
    kernels.close();
    expect(() => kernels.instance.live()).toThrow(new Error('the WASM instance is closed'));
    await expect(WasmKernels.create('release', new Uint8Array([1, 2, 3]))).rejects.toThrow(
      /^wasm is not a WebAssembly module: /,
    );
  });

  it('refuses every use once closed', async () => {
    const instance = await TaoInstance.create();
    instance.close();
    expect(() => instance.live()).toThrow(new Error('the WASM instance is closed'));
    expect(() => instance.fixed()).toThrow(new Error('the WASM instance is closed'));
    expect(() => instance.call('abiVersion', (x) => x.abiVersion())).toThrow(new Error('the WASM instance is closed'));
  });
});
