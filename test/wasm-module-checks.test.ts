/**
 * What the loader checks of a module before the solver uses it (src/solve/wasm/loader.ts, instance.ts):
 * its memory, every function of the ABI and nothing else, and the ABI version, each refusal an
 * InvalidValueError naming the field, its message the check that failed, its cause the check's error; and
 * bytes or URLs it cannot read or compile. The modules are made by hand (test/helpers/wasm-module.ts).
 */
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ABI_FUNCTIONS, ABI_VERSION, InvalidValueError, SolverTrapError, TaoInstance } from './helpers/internals.js';
import { type AbortArgs, assemblyString, wasmModule } from './helpers/wasm-module.js';

/** Every ABI function (abiVersion answering `version`), and `extra` more. */
function abiModule(version: number, extra: Record<string, number> = {}): Uint8Array {
  const functions: Record<string, number> = Object.fromEntries(ABI_FUNCTIONS.map((f) => [f, 0]));
  functions.abiVersion = version;
  return wasmModule({ ...functions, ...extra });
}

/** This package's ABI, where denseStep calls the module's `abort` import with `args` (the string "boom" at 64). */
function abortingModule(args: AbortArgs): Uint8Array {
  const functions: Record<string, number> = Object.fromEntries(
    ABI_FUNCTIONS.filter((f) => f !== 'denseStep').map((f) => [f, 0]),
  );
  functions.abiVersion = ABI_VERSION;
  return wasmModule(functions, true, { aborting: { denseStep: args }, data: assemblyString(64, 'boom') });
}

/** The error a call of denseStep throws on an instance of `bytes`. */
async function trapOf(bytes: Uint8Array): Promise<SolverTrapError> {
  const instance = await TaoInstance.create('release', bytes);
  let caught: unknown;
  try {
    instance.call('denseStep', (x) => x.denseStep(0, 0));
  } catch (err) {
    caught = err;
  }
  instance.close();
  expect(caught).toBeInstanceOf(SolverTrapError);
  return caught as SolverTrapError;
}

/** The error `create` rejects with. */
async function refusal(source: Uint8Array | URL, field?: string): Promise<InvalidValueError> {
  const err = await TaoInstance.create('release', source, field).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidValueError);
  return err as InvalidValueError;
}

describe('a module handed to the solver', () => {
  it('without a memory is refused, under the field name "wasm" by default, with the check as its cause', async () => {
    const err = await refusal(wasmModule({ abiVersion: ABI_VERSION }, false));
    expect(err.message).toBe('wasm is not a tao-solver module: tao.wasm does not export its memory');
    expect((err.cause as Error).message).toBe('tao.wasm does not export its memory');
  });

  it('missing a function of the ABI is refused, naming the first one missing', async () => {
    const functions: Record<string, number> = Object.fromEntries(ABI_FUNCTIONS.slice(1).map((f) => [f, 0]));
    const err = await refusal(wasmModule(functions), 'options.wasm');
    expect(err.message).toBe(`options.wasm is not a tao-solver module: tao.wasm does not export ${ABI_FUNCTIONS[0]}()`);
  });

  it('exporting a function the ABI does not have is refused, naming it', async () => {
    const err = await refusal(abiModule(ABI_VERSION, { surplus: 1 }));
    expect(err.message).toBe(
      'wasm is not a tao-solver module: tao.wasm exports surplus, which this package does not know',
    );
  });

  it('speaking another ABI version is refused, naming both', async () => {
    const err = await refusal(abiModule(ABI_VERSION + 1));
    expect(err.message).toBe(
      `wasm is not a tao-solver module: tao.wasm speaks ABI ${ABI_VERSION + 1}, this package expects ${ABI_VERSION}`,
    );
  });

  it('with every function of the ABI at its version is taken', async () => {
    const instance = await TaoInstance.create('release', abiModule(ABI_VERSION));
    expect(instance.live().abiVersion()).toBe(ABI_VERSION);
    instance.close();
  });

  it("calling its abort import traps the call, naming the export and the module's message and place", async () => {
    const err = await trapOf(abortingModule([64, 64, 7, 9]));
    expect(err.message).toBe('WASM trap in denseStep: abort: boom at boom:7:9');
    expect((err.cause as Error).name).toBe('WasmAbort');
  });

  it('calling its abort import without a message or a file names none', async () => {
    const err = await trapOf(abortingModule([0, 0, 1, 2]));
    expect(err.message).toBe('WASM trap in denseStep: abort:  at :1:2');
  });

  it('calling its abort import while it is instantiated is refused, before its memory is known', async () => {
    const functions: Record<string, number> = Object.fromEntries(ABI_FUNCTIONS.map((f) => [f, 0]));
    functions.abiVersion = ABI_VERSION;
    const err = await refusal(
      wasmModule(functions, true, { startAbort: [64, 64, 1, 1], data: assemblyString(64, 'x') }),
    );
    expect(err.message).toBe('wasm is not a tao-solver module: abort: ');
  });

  it('that is not WebAssembly is refused with the compiler error as its cause', async () => {
    const err = await refusal(new Uint8Array([1, 2, 3]));
    expect(err.message).toMatch(/^wasm is not a WebAssembly module: /);
    expect(err.cause).toBeInstanceOf(Error);
  });

  it('at a file: URL that cannot be read is refused, the URL cut to 200 characters, with the read error as its cause', async () => {
    const url = pathToFileURL(`/nonexistent-${'x'.repeat(300)}.wasm`);
    const err = await refusal(url);
    expect(err.message).toBe(`wasm (${url.href.slice(0, 200)}) could not be read: ${(err.cause as Error).message}`);
    expect(url.href.length).toBeGreaterThan(200);
    expect((err.cause as NodeJS.ErrnoException).code).toBe('ENAMETOOLONG');
  });
});
