/**
 * What `tao serve` holds of its clients' input, and what it refuses: pipelined requests written before any
 * response is read are read ahead (both transports), a connection past `--max-connections` and input past
 * `--max-buffered-bytes` are refused with one error line, a line nested deeper than the protocol ever
 * needs or made of millions of empty containers is refused before it is built (with its peak memory near
 * the line's size), a byte order mark before the first request is ignored, and a long-lived connection
 * answering large responses to a slow reader keeps no listeners behind. Runs the compiled CLI.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_DEPTH } from './helpers/internals.js';
import { exitWithin, SidecarProcess, socketSidecar, SocketClient } from './helpers/sidecar.js';
import { ReadinessPredictor, type PlanValue, type Problem } from './helpers/internals.js';

const dirs: string[] = [];
function socketPath(): string {
  const d = mkdtempSync(join(tmpdir(), 'tao-limits-'));
  dirs.push(d);
  return join(d, 'tao.sock');
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const caseFile = JSON.parse(readFileSync(new URL('./cases/appendix-h-cache.json', import.meta.url), 'utf8')) as {
  problem: Problem;
};
const solveLine = (id: number): string =>
  JSON.stringify({ id, op: 'solve', problem: caseFile.problem, options: { quantum: 512 } }) + '\n';

/** Resolves once everything written to `stream` has been taken by the other side, or rejects after `ms`. */
function accepted(stream: Writable, ms: number): Promise<void> {
  if (stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`${stream.writableLength} bytes still unsent after ${ms} ms: the sidecar stopped reading`)),
      ms,
    );
    stream.once('drain', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Peak resident memory of a process, in MB (Linux), or undefined where /proc does not say. */
function peakRssMb(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? undefined : Number(m[1]) / 1024;
  } catch {
    return undefined;
  }
}

describe('pipelining: a client may send its requests before reading any response', () => {
  it('stdio: 1,200 solves (600 KiB) written before reading are all read and answered in order', async () => {
    const s = new SidecarProcess();
    s.child.stdout.pause();
    let text = '';
    for (let k = 0; k < 1200; k++) text += solveLine(k);
    expect(text.length).toBeGreaterThan(600 * 1024);
    s.write(text);
    await accepted(s.child.stdin, 10_000);
    s.child.stdout.resume();
    for (let k = 0; k < 1200; k++) {
      const r = await s.next();
      expect(r.id).toBe(k);
      expect((r.plan as { value: PlanValue }).value.credit).toBe(16_791);
    }
    await s.shutdown();
  });

  it('socket: 1,000 solves written before reading are all read and answered in order', async () => {
    const path = socketPath();
    const s = await socketSidecar(path);
    const c = await SocketClient.connect(path);
    c.socket.pause();
    let text = '';
    for (let k = 0; k < 1000; k++) text += solveLine(k);
    c.write(text);
    await accepted(c.socket, 20_000);
    c.socket.resume();
    for (let k = 0; k < 1000; k++) {
      const r = JSON.parse((await c.nextLine())!) as { id: number; ok: boolean };
      expect(r).toMatchObject({ id: k, ok: true });
    }
    expect(await c.request({ id: 'bye', op: 'shutdown' })).toEqual({ id: 'bye', op: 'shutdown', ok: true });
    expect(await exitWithin(s, 2000)).toBe(0);
  });
});

describe('connections and the input they hold', () => {
  it('a connection past --max-connections gets one error line and is closed; the others are served', async () => {
    const path = socketPath();
    const s = await socketSidecar(path, ['--max-connections', '2']);
    const a = await SocketClient.connect(path);
    const b = await SocketClient.connect(path);
    expect(await a.request({ id: 1, op: 'hello' })).toMatchObject({ ok: true });
    const c = await SocketClient.connect(path);
    expect(JSON.parse((await c.nextLine())!)).toEqual({
      id: null,
      op: null,
      ok: false,
      error: { code: 'ERR_TAO_INVALID_VALUE', message: 'too many connections (at most 2)' },
    });
    expect(await c.nextLine()).toBeUndefined();
    expect(await b.request({ id: 2, op: 'hello' })).toMatchObject({ ok: true });
    a.socket.end();
    await a.closed;
    const d = await SocketClient.connect(path);
    expect(await d.request({ id: 3, op: 'hello' })).toMatchObject({ ok: true });
    expect(await d.request({ id: 'bye', op: 'shutdown' })).toEqual({ id: 'bye', op: 'shutdown', ok: true });
    expect(await exitWithin(s, 2000)).toBe(0);
    expect(s.stderr).toBe(`tao serve: listening on ${path}\n`);
  });

  it('the connection whose input passes --max-buffered-bytes is refused and closed; the others keep their lines', async () => {
    const path = socketPath();
    const s = await socketSidecar(path, ['--max-line-bytes', '1048576', '--max-buffered-bytes', '2097152']);
    const partial = '{"id": "p", "op": "hello", "pad": "' + 'x'.repeat(800_000);
    const a = await SocketClient.connect(path);
    const b = await SocketClient.connect(path);
    a.write(partial);
    b.write(partial);
    await Promise.all([accepted(a.socket, 5000), accepted(b.socket, 5000)]);
    await new Promise((r) => setTimeout(r, 200));
    const c = await SocketClient.connect(path);
    c.write(partial);
    expect(JSON.parse((await c.nextLine())!)).toEqual({
      id: null,
      op: null,
      ok: false,
      error: {
        code: 'ERR_TAO_INVALID_VALUE',
        message:
          'the sidecar holds more than 2097152 bytes of unanswered input across its connections: this connection is closed',
      },
    });
    expect(await c.nextLine()).toBeUndefined();
    // The lines held were not lost: each ends and is answered for what it is.
    a.write('"}\n');
    expect(JSON.parse((await a.nextLine())!)).toMatchObject({
      id: 'p',
      error: { message: 'pad is not a field of a "hello" request' },
    });
    b.write('"}\n');
    expect(JSON.parse((await b.nextLine())!)).toMatchObject({
      id: 'p',
      error: { message: 'pad is not a field of a "hello" request' },
    });
    expect(await b.request({ id: 'bye', op: 'shutdown' })).toEqual({ id: 'bye', op: 'shutdown', ok: true });
    expect(await exitWithin(s, 2000)).toBe(0);
  });
});

describe('lines the protocol never needs', () => {
  it(`refuses a line nested deeper than ${MAX_REQUEST_DEPTH} before building it, and keeps serving`, async () => {
    const s = new SidecarProcess();
    s.write(`{"id": 1, "op": "solve", "problem": ${'['.repeat(8 * 1024 * 1024)}\n`);
    expect(await s.next()).toEqual({
      id: null,
      op: null,
      ok: false,
      error: {
        code: 'ERR_TAO_INVALID_VALUE',
        message: `line must nest arrays and objects at most ${MAX_REQUEST_DEPTH} deep`,
      },
    });
    // Exactly the limit is parsed (and refused for what it is).
    const deep = `{"id": 2, "op": "hello", "x": ${'['.repeat(MAX_REQUEST_DEPTH - 1)}${']'.repeat(MAX_REQUEST_DEPTH - 1)}}`;
    s.write(deep + '\n');
    expect(await s.next()).toMatchObject({ id: 2, error: { message: 'x is not a field of a "hello" request' } });
    // Brackets inside strings are text, not nesting.
    s.write(`{"id": 3, "op": "hello", "x": "${'['.repeat(1000)}"}\n`);
    expect(await s.next()).toMatchObject({ id: 3, error: { message: 'x is not a field of a "hello" request' } });
    const peak = peakRssMb(s.child.pid!);
    if (peak !== undefined) expect(peak).toBeLessThan(300);
    await s.shutdown();
  });

  it('refuses a line of millions of empty containers before building it; peak memory stays near the line size', async () => {
    const s = new SidecarProcess();
    const n = 5_000_000;
    s.write('{"id": 1, "op": "observe", "calls": [' + '{},'.repeat(n) + '{}]}\n');
    const r = await s.next();
    expect(r).toMatchObject({ id: null, ok: false, error: { code: 'ERR_TAO_INVALID_VALUE' } });
    expect((r.error as { message: string }).message).toMatch(
      /^line must hold at most \d+ arrays and objects \(one per 16 characters\)$/,
    );
    const peak = peakRssMb(s.child.pid!);
    if (peak !== undefined) expect(peak).toBeLessThan(300);
    // A large valid batch of calls is still taken.
    const calls = Array.from({ length: 100_000 }, (_, k) => ({ name: 'bash', startedAt: k, returnedAt: k + 0.5 }));
    expect(await s.request({ id: 2, op: 'observe', calls })).toEqual({
      id: 2,
      op: 'observe',
      ok: true,
      learned: 100_000,
    });
    await s.shutdown();
  });

  it('ignores a UTF-8 byte order mark before the first request (stdio and socket), not later', async () => {
    const s = new SidecarProcess();
    s.write('\uFEFF{"id": 1, "op": "hello"}\n\uFEFF{"id": 2, "op": "hello"}\n');
    expect(await s.next()).toMatchObject({ id: 1, ok: true });
    expect(await s.next()).toMatchObject({
      id: null,
      ok: false,
      error: { message: expect.stringMatching(/^line is not valid JSON/) },
    });
    await s.shutdown();

    const path = socketPath();
    const server = await socketSidecar(path);
    const c = await SocketClient.connect(path);
    c.socket.write(Buffer.from([0xef]));
    await new Promise((r) => setTimeout(r, 50));
    c.socket.write(Buffer.concat([Buffer.from([0xbb, 0xbf]), Buffer.from('{"id": 1, "op": "hello"}\n')]));
    expect(JSON.parse((await c.nextLine())!)).toMatchObject({ id: 1, ok: true });
    expect(await c.request({ id: 'bye', op: 'shutdown' })).toEqual({ id: 'bye', op: 'shutdown', ok: true });
    expect(await exitWithin(server, 2000)).toBe(0);
  });
});

describe('a long-lived connection', () => {
  it('answers 40 large responses to a slow reader without piling up listeners', async () => {
    const path = socketPath();
    const s = await socketSidecar(path);
    const c = await SocketClient.connect(path);
    const p = new ReadinessPredictor({ globalWindow: 16_384 });
    for (let k = 0; k < 16_384; k++) p.observe({ name: `tool${k % 200}`, startedAt: k, returnedAt: k + 0.123456789 });
    expect(await c.request({ id: 'l', op: 'predictor.load', predictor: p.toJSON() })).toEqual({
      id: 'l',
      op: 'predictor.load',
      ok: true,
    });
    for (let k = 0; k < 40; k++) {
      c.write(JSON.stringify({ id: k, op: 'predictor.save' }) + '\n');
      c.socket.pause();
      await new Promise((r) => setTimeout(r, 20));
      c.socket.resume();
      const r = JSON.parse((await c.nextLine())!) as { id: number; ok: boolean };
      expect(r).toMatchObject({ id: k, ok: true });
    }
    expect(await c.request({ id: 'bye', op: 'shutdown' })).toEqual({ id: 'bye', op: 'shutdown', ok: true });
    expect(await exitWithin(s, 2000)).toBe(0);
    expect(s.stderr).not.toContain('MaxListenersExceededWarning');
    expect(s.stderr).toBe(`tao serve: listening on ${path}\n`);
    expect(existsSync(path)).toBe(false);
  });
});
