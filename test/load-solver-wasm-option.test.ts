/**
 * `loadSolver({ wasm })` takes the module itself, as bytes or as a URL, instead of a bundled build: it then
 * solves exactly as the bundled build does. What is not a module, not this package's module, not
 * readable, or not bytes/URL at all is a typed error naming `options.wasm`.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError, loadSolver, type Plan, type Solver } from '../src/index.js';
import { randomTickProblem } from './helpers/internals.js';

const WASM = new URL('../build/tao.wasm', import.meta.url);
const problem = randomTickProblem(11, { nodes: 3, sessions: 24 });

/** A plan without its timing. */
function timeless(plan: Plan): unknown {
  return { ...plan, stats: { ...plan.stats, micros: 0 } };
}

let bundled: Solver;
let expected: unknown;
let server: Server;
let base: string;
beforeAll(async () => {
  bundled = await loadSolver();
  expected = timeless(bundled.solve(problem, { quantum: 1024 }));
  const bytes = await readFile(WASM);
  server = createServer((req, res) => {
    if (req.url === '/tao.wasm') res.writeHead(200, { 'content-type': 'application/wasm' }).end(bytes);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  bundled.close();
  await new Promise((resolve) => server.close(resolve));
});

async function solvesLikeBundled(wasm: ArrayBuffer | Uint8Array | URL): Promise<void> {
  const solver = await loadSolver({ wasm });
  try {
    expect(timeless(solver.solve(problem, { quantum: 1024 }))).toEqual(expected);
  } finally {
    solver.close();
  }
}

describe('loadSolver({ wasm })', () => {
  it('solves like the bundled build from a Uint8Array, an ArrayBuffer, a file: URL and an http: URL', async () => {
    const bytes = await readFile(WASM);
    await solvesLikeBundled(new Uint8Array(bytes));
    await solvesLikeBundled(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    await solvesLikeBundled(WASM);
    await solvesLikeBundled(new URL('/tao.wasm', base));
  });

  it('refuses what is not bytes or a URL with InvalidTypeError naming options.wasm', async () => {
    for (const wasm of ['build/tao.wasm', 42, {}, [0, 97, 115, 109], new Int32Array(4)]) {
      await expect(loadSolver({ wasm } as never)).rejects.toThrow(InvalidTypeError);
      await expect(loadSolver({ wasm } as never)).rejects.toThrow(
        'options.wasm must be an ArrayBuffer, a Uint8Array or a URL',
      );
    }
  });

  it('refuses bytes that are not a WebAssembly module', async () => {
    await expect(loadSolver({ wasm: new Uint8Array([1, 2, 3]) })).rejects.toThrow(InvalidValueError);
    await expect(loadSolver({ wasm: new Uint8Array(0) })).rejects.toThrow(
      /^options\.wasm is not a WebAssembly module: /,
    );
  });

  it('refuses a valid module that is not this package’s (no memory, no ABI)', async () => {
    // The smallest valid module: magic and version, no sections.
    const empty = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    await expect(loadSolver({ wasm: empty })).rejects.toThrow(/^options\.wasm is not a tao-solver module: /);
  });

  it('refuses unreadable URLs and other schemes, naming options.wasm', async () => {
    await expect(loadSolver({ wasm: new URL('file:///nonexistent/tao.wasm') })).rejects.toThrow(
      /^options\.wasm \(file:\/\/\/nonexistent\/tao\.wasm\) could not be read: /,
    );
    await expect(loadSolver({ wasm: new URL('/missing.wasm', base) })).rejects.toThrow(/could not be read: HTTP 404$/);
    await expect(loadSolver({ wasm: new URL('ftp://example.com/tao.wasm') })).rejects.toThrow(InvalidValueError);
    await expect(loadSolver({ wasm: new URL('ftp://example.com/tao.wasm') })).rejects.toThrow(
      'options.wasm must be a file:, http:, https:, data: URL, not ftp:',
    );
  });

  it('refuses build and wasm together', async () => {
    await expect(loadSolver({ build: 'debug', wasm: WASM })).rejects.toThrow(
      'options.build and options.wasm exclude each other',
    );
  });
});
