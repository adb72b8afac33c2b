/**
 * Adversarial fuzzing of `tao serve`: one sidecar process receives random bytes, random JSON values and
 * random, often almost valid requests (every op, random fields, random problems, snapshots, calls and
 * predictor states), one line at a time. Every non-blank line but a notification (an observe without an
 * id, answered by nothing) must get exactly one response line within a time bound, in order, that is valid JSON and passes the shipped response schema; a refusal carries a
 * package error code and a one-line message without a stack trace; the sidecar keeps serving (a `hello`
 * after the storm still answers) and ends with exit 0 on `shutdown`, with nothing on stderr.
 *
 * Over the socket, several clients do the same at once, and each may vanish at random: mid-line, with
 * requests unanswered, or while responses are still being written. The clients that stay get one valid
 * response per line, in order; the sidecar logs nothing, and shutdown removes the socket.
 *
 * Seeded and reproducible: TAO_FUZZ_SEED=<n> replays a run, TAO_FUZZ_CASES=<n> changes its length. Runs the
 * compiled CLI: `npm run build` first.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from './helpers/internals.js';
import { SIDECAR_OPS } from './helpers/internals.js';
import { int, pick, randomValue, STRINGS, type Rand } from './helpers/fuzz.js';
import { STACK_FRAME } from './helpers/cli.js';
import { loadSchemas } from './helpers/schemas.js';
import { exitWithin, SidecarProcess, socketSidecar, SocketClient, type Json } from './helpers/sidecar.js';

const SEED = Number(process.env.TAO_FUZZ_SEED ?? 20261130);
const CASES = Number(process.env.TAO_FUZZ_CASES ?? 400);
/** A response slower than this counts as a hang. */
const RESPONSE_TIMEOUT_MS = 10_000;

const KEYS = [
  'id',
  'op',
  'problem',
  'options',
  'snapshot',
  'calls',
  'call',
  'state',
  'json',
  'nodes',
  'sessions',
  'capacity',
  'weight',
  'tokens',
  'ready',
  'credit',
  'eligible',
  'time',
  'tool',
  'cache',
  'name',
  'startedAt',
  'returnedAt',
  'quantum',
  'stateBudget',
  'deadlineMs',
  'path',
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
];
const value = (r: Rand, depth: number): unknown => randomValue(r, KEYS, depth);

function nearProblem(r: Rand): Json {
  const m = 1 + int(r, 3);
  return {
    nodes: Array.from({ length: m }, (_, b) => ({ id: `n${b}`, capacity: 16 * int(r, 9) })),
    sessions: Array.from({ length: int(r, 7) }, (_, i) => ({
      id: `s${i}`,
      weight: 1 + int(r, 64),
      tokens: int(r, 100),
      ready: r() < 0.5,
      ...(r() < 0.4 ? { credit: { [`n${int(r, m)}`]: int(r, 50) } } : {}),
      ...(r() < 0.2 ? { eligible: [`n${int(r, m)}`] } : {}),
    })),
  };
}

function nearSnapshot(r: Rand): Json {
  return {
    time: 100,
    nodes: [{ id: 'n0', capacity: 16 * int(r, 2000) }],
    sessions: Array.from({ length: int(r, 4) }, (_, i) => ({
      id: `s${i}`,
      tokens: int(r, 5000),
      ...(r() < 0.5
        ? {
            tool: {
              name: pick(r, ['bash', 'pytest']),
              startedAt: 90 + int(r, 10),
              ...(r() < 0.3 ? { command: 'sleep 3' } : {}),
            },
          }
        : {}),
      ...(r() < 0.4 ? { cache: [{ node: 'n0', tokens: int(r, 4000), observedAt: 95 }] } : {}),
    })),
  };
}

/** Sets a random field (at any depth) to a random value, or deletes one. */
function mutate(r: Rand, x: unknown): unknown {
  if (typeof x !== 'object' || x === null) return value(r, 1);
  const keys = Object.keys(x);
  if (keys.length === 0 || r() < 0.3) {
    (x as Record<string, unknown>)[pick(r, KEYS)] = value(r, 1);
    return x;
  }
  const k = pick(r, keys);
  if (r() < 0.2) delete (x as Record<string, unknown>)[k];
  else (x as Record<string, unknown>)[k] = mutate(r, (x as Record<string, unknown>)[k]);
  return x;
}

function nearRequest(r: Rand, i: number): Json {
  const ops = SIDECAR_OPS.filter((op) => op !== 'shutdown');
  const op = r() < 0.9 ? pick(r, ops) : pick(r, STRINGS);
  const request: Json = { id: r() < 0.8 ? i : value(r, 2), op };
  if (op === 'solve') request.problem = nearProblem(r);
  if (op === 'evaluate' || op === 'tick') request.snapshot = nearSnapshot(r);
  if (op === 'observe') request.calls = [{ name: 'bash', startedAt: 10, returnedAt: 10 + int(r, 20) }];
  if (op === 'predictor.load') request.state = { format: 'tao-readiness-predictor', version: 1 };
  return r() < 0.7 ? (mutate(r, request) as Json) : request;
}

/** One line of input: random bytes, a random JSON value, or an almost valid request. Never blank. */
function randomLine(r: Rand, i: number): string {
  const k = int(r, 10);
  let line: string;
  if (k === 0) {
    line = Buffer.from(Array.from({ length: 1 + int(r, 200) }, () => int(r, 256))).toString('latin1');
  } else if (k === 1) {
    line = JSON.stringify(value(r, 0)) ?? 'undefined';
  } else {
    line = JSON.stringify(nearRequest(r, i));
    if (r() < 0.1) line = line.slice(0, int(r, line.length));
  }
  line = line.replace(/[\r\n]/g, ' ');
  return line.trim() === '' ? '{' : line;
}

/** A line the sidecar reads as a notification: an observe request without an id, which gets no response. */
function isNotification(line: string): boolean {
  try {
    const x = JSON.parse(line) as unknown;
    return (
      typeof x === 'object' &&
      x !== null &&
      !Array.isArray(x) &&
      !Object.hasOwn(x, 'id') &&
      (x as Json).op === 'observe'
    );
  } catch {
    return false;
  }
}

function withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, reject) =>
      setTimeout(
        () => reject(new Error(`no response within ${RESPONSE_TIMEOUT_MS} ms to ${what}`)),
        RESPONSE_TIMEOUT_MS,
      ),
    ),
  ]);
}

/** Checks one response line from the storm: schema-valid, a refusal with a package code and one line without a stack. */
function checkResponse(validate: (x: unknown) => boolean, text: string, what: string): Json {
  const response = JSON.parse(text) as Json;
  expect(validate(response), `${what} -> ${text.slice(0, 300)}`).toBe(true);
  if (response.ok === false) {
    const error = response.error as { code: string; message: string };
    expect(error.code, what).toMatch(/^ERR_TAO_/);
    expect(error.code, `${what}: an internal error is a bug: ${error.message}`).not.toBe('ERR_TAO_INTERNAL');
    expect(error.message, what).not.toMatch(STACK_FRAME);
    expect(error.message.includes('\n'), what).toBe(false);
  }
  return response;
}

describe('tao serve under random input', () => {
  it(`answers each of ${CASES} random lines with one schema-valid response, keeps serving, exits 0 (seed ${SEED})`, async () => {
    const { validate } = loadSchemas();
    const r = seededRandom(SEED);
    const s = new SidecarProcess();
    let refused = 0;
    let notifications = 0;
    for (let i = 0; i < CASES; i++) {
      const line = randomLine(r, i);
      s.write(line + '\n');
      if (isNotification(line)) {
        // No response to a notification: the next line out answers a ping sent after it.
        notifications++;
        expect(
          await withTimeout(s.request({ id: `ping${i}`, op: 'hello' }), `case ${i}: ${line.slice(0, 200)}`),
        ).toMatchObject({ ok: true });
        continue;
      }
      const text = await withTimeout(s.nextLine(), `case ${i}: ${line.slice(0, 200)}`);
      expect(text, `case ${i}: stdout ended; stderr: ${s.stderr}`).toBeDefined();
      if (checkResponse(validate.response, text!, `case ${i}: ${line.slice(0, 200)}`).ok === false) refused++;
    }
    // The storm is mostly refusals, but not only: valid requests slip through and are answered.
    expect(refused).toBeGreaterThan(CASES / 2);
    expect(refused).toBeLessThan(CASES);
    expect(await s.request({ id: 'after', op: 'hello' })).toMatchObject({ id: 'after', ok: true });
    await s.shutdown();
    expect(notifications).toBeGreaterThan(0);
    // The only stderr lines: refused notifications, one line each.
    expect(
      s.stderr
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('tao serve: observe notification refused: ERR_TAO_')),
    ).toEqual([]);
  });
});

describe('tao serve --socket under concurrent random clients', () => {
  const CLIENTS = 6;
  it(`${CLIENTS} clients send ${CASES} random lines in all, vanishing at random; the rest are answered (seed ${SEED})`, async () => {
    const { validate } = loadSchemas();
    const r = seededRandom(SEED + 1);
    const dir = mkdtempSync(join(tmpdir(), 'tao-fuzz-'));
    const path = join(dir, 'tao.sock');
    try {
      const s = await socketSidecar(path);
      let answered = 0;
      let vanished = 0;
      const client = async (c: number): Promise<void> => {
        let conn = await SocketClient.connect(path);
        for (let i = c; i < CASES; i += CLIENTS) {
          const line = randomLine(r, i);
          const k = r();
          if (k < 0.04) {
            // Vanish mid-line, or with a burst of requests whose responses are never read.
            conn.write(k < 0.02 ? line.slice(0, 1 + int(r, line.length)) : (line + '\n').repeat(1 + int(r, 200)));
            conn.socket.destroy();
            vanished++;
            conn = await SocketClient.connect(path);
            continue;
          }
          conn.write(line + '\n');
          if (isNotification(line)) {
            // No response to a notification: the next line out answers a ping sent after it.
            const ping = await withTimeout(
              conn.request({ id: `ping-${c}-${i}`, op: 'hello' }),
              `client ${c} case ${i}: ${line.slice(0, 200)}`,
            );
            expect(ping).toMatchObject({ id: `ping-${c}-${i}`, ok: true });
            continue;
          }
          const text = await withTimeout(conn.nextLine(), `client ${c} case ${i}: ${line.slice(0, 200)}`);
          expect(text, `client ${c} case ${i}: connection ended; stderr: ${s.stderr}`).toBeDefined();
          checkResponse(validate.response, text!, `client ${c} case ${i}: ${line.slice(0, 200)}`);
          answered++;
        }
        expect(await conn.request({ id: `after-${c}`, op: 'hello' })).toMatchObject({ id: `after-${c}`, ok: true });
        conn.socket.end();
      };
      await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
      expect(vanished).toBeGreaterThan(0);
      expect(answered).toBeGreaterThan(CASES / 2);
      const last = await SocketClient.connect(path);
      expect(await last.request({ id: 'bye', op: 'shutdown' })).toEqual({ id: 'bye', op: 'shutdown', ok: true });
      expect(await exitWithin(s, 2000)).toBe(0);
      expect(existsSync(path)).toBe(false);
      // Besides the listening line, only refused notifications, one line each.
      const lines = s.stderr.split('\n').filter((l) => l !== '');
      expect(lines[0]).toBe(`tao serve: listening on ${path}`);
      expect(lines.slice(1).filter((l) => !l.startsWith('tao serve: observe notification refused: ERR_TAO_'))).toEqual(
        [],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
