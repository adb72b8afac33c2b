/**
 * `tao serve` end to end, from a separate process over pipes (and a Unix socket): every op answers with
 * its request's id; solves reach the hand-derived optima of the known-answer cases; `evaluate` reads the
 * readiness state `observe` built, exactly as the library's evaluate with a predictor fed the same
 * calls; the predictor's JSON survives save/load across sidecars; malformed lines get an error naming
 * the field (id null when none could be read) and the sidecar keeps serving; stdout carries only
 * responses. Runs the compiled CLI: needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluate } from './helpers/internals.js';
import { ReadinessPredictor, type CompletedCall } from './helpers/internals.js';
import type { Snapshot } from './helpers/internals.js';
import { SIDECAR_OPS, SIDECAR_PROTOCOL_VERSION, SIDECAR_PROTOCOL_VERSIONS } from './helpers/internals.js';
import type { PlanValue, Problem } from './helpers/internals.js';
import { CLI, SidecarProcess, socketSidecar, type Json } from './helpers/sidecar.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

interface CaseFile {
  problem: Problem;
  runs: { options: Json; value: PlanValue }[];
}
const casesDir = new URL('./cases/', import.meta.url);
const cases = readdirSync(casesDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => [f, JSON.parse(readFileSync(new URL(f, casesDir), 'utf8')) as CaseFile] as const);

/** Now is 100 s; bash started 0.5 s ago, pytest runs `sleep 30`; s2 is new (no tool call). */
const snapshot: Snapshot = {
  time: 100,
  nodes: [
    { id: 'a', capacity: 20_000 },
    { id: 'b', capacity: 10_000 },
  ],
  sessions: [
    {
      id: 's1',
      tokens: 3000,
      tool: { name: 'bash', startedAt: 99.5 },
      cache: [{ node: 'a', tokens: 2000, observedAt: 90 }],
    },
    { id: 's2', tokens: 5000, cache: [{ node: 'b', tokens: 4000, observedAt: 100 }] },
    { id: 's3', tokens: 1000, reserve: 0, tool: { name: 'pytest', startedAt: 99.8, command: 'sleep 30' } },
  ],
};
/** Short bash calls that returned lately: afterwards a bash call 0.5 s old is predicted to return within 1 s. */
const calls: CompletedCall[] = [
  { name: 'bash', startedAt: 90, returnedAt: 90.6 },
  { name: 'bash', startedAt: 95, returnedAt: 95.7, session: 's1' },
  { name: 'bash', startedAt: 96, returnedAt: 96.1, command: 'sleep 0.1' },
];

const json = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tao-serve-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('tao serve over stdio', () => {
  it('answers hello with the protocol and package versions, and shuts down with exit 0', async () => {
    const s = new SidecarProcess();
    expect(await s.request({ id: 1, op: 'hello' })).toEqual({
      id: 1,
      op: 'hello',
      ok: true,
      protocol: SIDECAR_PROTOCOL_VERSION,
      protocols: [...SIDECAR_PROTOCOL_VERSIONS],
      version: pkg.version,
      ops: [...SIDECAR_OPS],
      maxLineBytes: 16 * 1024 * 1024,
    });
    await s.shutdown();
    expect(s.stderr).toBe('');
  });

  it('solves every known-answer case to its hand-derived optimum', async () => {
    const s = new SidecarProcess();
    let n = 0;
    for (const [file, c] of cases) {
      for (const run of c.runs) {
        const id = `${file}#${n++}`;
        const r = await s.request({ id, op: 'solve', problem: c.problem, options: run.options });
        expect(r.ok, JSON.stringify(r)).toBe(true);
        const plan = r.plan as { status: string; value: PlanValue };
        expect(plan.status).toBe('optimal');
        expect(plan.value, id).toEqual(run.value);
      }
    }
    expect(n).toBeGreaterThanOrEqual(8);
    await s.shutdown();
  });

  it('evaluate reads the readiness state observe built, as the library does with the same calls', async () => {
    const s = new SidecarProcess();
    const twin = new ReadinessPredictor();
    const before = await s.request({ id: 'e0', op: 'evaluate', snapshot });
    expect(before.problem).toEqual(json(evaluate(snapshot, twin)));
    // No history yet: bash's 5 s default keeps s1 waiting.
    expect((before.problem as Problem).sessions.map((x) => x.ready)).toEqual([false, true, false]);

    expect(await s.request({ id: 'o', op: 'observe', calls })).toEqual({
      id: 'o',
      op: 'observe',
      ok: true,
      learned: 2,
    });
    for (const c of calls) twin.observe(c);
    const after = await s.request({ id: 'e1', op: 'evaluate', snapshot, options: { halfLife: 5 } });
    expect(after.problem).toEqual(json(evaluate(snapshot, twin, { halfLife: 5 })));
    const problem = after.problem as Problem;
    expect(problem.sessions.map((x) => x.ready)).toEqual([true, true, false]);
    expect(problem.sessions[0]!.credit).toEqual({ a: 500 }); // 2000 tokens, 10 s old, half-life 5 s
    expect(problem.sessions.map((x) => x.weight)).toEqual([3512, 5512, 1000]);

    const solved = await s.request({ id: 'p', op: 'solve', problem });
    expect((solved.plan as { status: string }).status).toBe('optimal');
    await s.shutdown();
  });

  it('predictor.save gives the library JSON, and predictor.load restores it in another sidecar', async () => {
    const first = new SidecarProcess();
    await first.request({ id: 1, op: 'observe', calls });
    // An overdue call gets a probe: the probe state is part of what is saved.
    const overdue: Snapshot = { ...snapshot, time: 130 };
    await first.request({ id: 2, op: 'evaluate', snapshot: overdue });
    const saved = await first.request({ id: 3, op: 'predictor.save' });
    const twin = new ReadinessPredictor();
    for (const c of calls) twin.observe(c);
    evaluate(overdue, twin);
    expect(saved.predictor).toEqual(json(twin.toJSON()));
    expect((saved.predictor as { probes: unknown[] }).probes.length).toBeGreaterThan(0);
    await first.shutdown();

    const second = new SidecarProcess();
    expect(await second.request({ id: 'l', op: 'predictor.load', predictor: saved.predictor })).toEqual({
      id: 'l',
      op: 'predictor.load',
      ok: true,
    });
    expect((await second.request({ id: 's', op: 'predictor.save' })).predictor).toEqual(saved.predictor);
    const later: Snapshot = { ...snapshot, time: 130.5 };
    expect((await second.request({ id: 'e', op: 'evaluate', snapshot: later })).problem).toEqual(
      json(evaluate(later, twin)),
    );
    await second.shutdown();
  });

  it('stats counts requests per op, invalid lines, errors per code and solve times', async () => {
    const s = new SidecarProcess();
    const [, c] = cases[0]!;
    await s.request({ id: 1, op: 'solve', problem: c.problem });
    await s.request({ id: 2, op: 'solve', problem: c.problem });
    await s.request({ id: 3, op: 'solve', problem: { nodes: 'x', sessions: [] } });
    s.write('not json\n');
    await s.next();
    await s.request({ id: 4, op: 'observe', calls });
    const stats = await s.request({ id: 5, op: 'stats' });
    expect(stats).toMatchObject({
      ok: true,
      protocol: SIDECAR_PROTOCOL_VERSION,
      version: pkg.version,
      requests: { hello: 0, solve: 3, observe: 1, stats: 1, invalid: 1, shutdown: 0 },
      errors: { ERR_TAO_INVALID_TYPE: 2 },
      predictor: { tools: 1, globalSamples: 2 },
    });
    expect((stats.solveMicros as { count: number }).count).toBe(2);
    expect(stats.uptimeMs).toBeGreaterThanOrEqual(0);
    await s.shutdown();
  });

  it('answers each malformed line with an error naming the field, and keeps serving', async () => {
    const s = new SidecarProcess();
    const table: [line: string, response: Json][] = [
      ['{"id": 1, "op": "solve"', { id: null, code: 'ERR_TAO_INVALID_TYPE', message: /^line is not valid JSON: / }],
      ['[1, 2]', { id: null, code: 'ERR_TAO_INVALID_TYPE', message: 'request must be a JSON object' }],
      ['"solve"', { id: null, code: 'ERR_TAO_INVALID_TYPE', message: 'request must be a JSON object' }],
      [
        '{"op": "hello"}',
        {
          id: null,
          code: 'ERR_TAO_INVALID_TYPE',
          message: 'id is missing (a string or a number; only observe may go without one)',
        },
      ],
      [
        '{"id": null, "op": "hello"}',
        { id: null, code: 'ERR_TAO_INVALID_TYPE', message: 'id must be a string or a number' },
      ],
      [
        '{"id": {"x": 1}, "op": "hello"}',
        { id: null, code: 'ERR_TAO_INVALID_TYPE', message: 'id must be a string or a number' },
      ],
      ['{"id": 7}', { id: 7, code: 'ERR_TAO_INVALID_TYPE', message: 'op must be a string' }],
      [
        '{"id": 8, "op": "solv"}',
        {
          id: 8,
          code: 'ERR_TAO_INVALID_VALUE',
          message: /^op must be one of "hello", "tick", "solve", .* \(got "solv"\)$/,
        },
      ],
      [
        '{"id": 9, "op": "hello", "problem": {}}',
        { id: 9, code: 'ERR_TAO_INVALID_VALUE', message: 'problem is not a field of a "hello" request' },
      ],
      ['{"id": 10, "op": "solve"}', { id: 10, code: 'ERR_TAO_INVALID_TYPE', message: 'problem must be an object' }],
      [
        '{"id": 11, "op": "solve", "problem": {"nodes": [{"id": "a", "capacity": 10}], "sessions": [{"id": "s", "weight": 1.5, "tokens": 0, "ready": true}]}}',
        {
          id: 11,
          code: 'ERR_TAO_INVALID_VALUE',
          message: 'problem.sessions[0].weight must be a positive integer <= 4294967295',
        },
      ],
      [
        '{"id": "12", "op": "solve", "problem": {"nodes": [], "sessions": []}, "options": {"quantum": 0}}',
        { id: '12', code: 'ERR_TAO_INVALID_VALUE', message: 'options.quantum must be a positive integer' },
      ],
      [
        '{"id": 13, "op": "solve", "problem": {"nodes": [], "sessions": []}, "options": {"quantun": 16}}',
        { id: 13, code: 'ERR_TAO_INVALID_VALUE', message: 'options.quantun is not a known option' },
      ],
      [
        '{"id": 14, "op": "evaluate", "snapshot": {"time": "now", "nodes": [], "sessions": []}}',
        { id: 14, code: 'ERR_TAO_INVALID_TYPE', message: 'snapshot.time must be a number' },
      ],
      [
        '{"id": 15, "op": "evaluate", "snapshot": {"time": 1, "nodes": [], "sessions": []}, "options": {"reserve": -1}}',
        { id: 15, code: 'ERR_TAO_INVALID_VALUE', message: 'options.reserve must be an integer from 0 to 4294967295' },
      ],
      [
        '{"id": 16, "op": "observe", "calls": {}}',
        { id: 16, code: 'ERR_TAO_INVALID_TYPE', message: 'calls must be an array' },
      ],
      [
        '{"id": 17, "op": "observe", "calls": [{"name": "bash", "startedAt": 2, "returnedAt": 1}]}',
        { id: 17, code: 'ERR_TAO_INVALID_VALUE', message: 'calls[0].returnedAt must not be before calls[0].startedAt' },
      ],
      [
        '{"id": 18, "op": "observe", "calls": [{"name": "bash", "startedAt": 1, "returnedAt": 2, "exitCode": 0}]}',
        { id: 18, code: 'ERR_TAO_INVALID_VALUE', message: 'calls[0].exitCode is not a known field' },
      ],
      [
        '{"id": 19, "op": "predictor.load", "predictor": {"format": "x"}}',
        { id: 19, code: 'ERR_TAO_INVALID_VALUE', message: 'predictor.format must be "tao-readiness-predictor"' },
      ],
      [
        '{"id": 20, "op": "predictor.load"}',
        { id: 20, code: 'ERR_TAO_INVALID_TYPE', message: 'predictor must be an object' },
      ],
      ['{"id": 21, "op": "tick"}', { id: 21, code: 'ERR_TAO_INVALID_TYPE', message: 'snapshot must be an object' }],
      [
        '{"id": 22, "op": "tick", "snapshot": {"time": 1, "nodes": [], "sessions": []}, "evaluateOptions": {"reserve": -1}}',
        {
          id: 22,
          code: 'ERR_TAO_INVALID_VALUE',
          message: 'evaluateOptions.reserve must be an integer from 0 to 4294967295',
        },
      ],
      [
        '{"id": 23, "op": "tick", "snapshot": {"time": 1, "nodes": [], "sessions": []}, "solveOptions": {"quantum": 0}}',
        { id: 23, code: 'ERR_TAO_INVALID_VALUE', message: 'solveOptions.quantum must be a positive integer' },
      ],
      [
        '{"id": 24, "op": "tick", "snapshot": {"time": 1, "nodes": [], "sessions": []}, "options": {}}',
        { id: 24, code: 'ERR_TAO_INVALID_VALUE', message: 'options is not a field of a "tick" request' },
      ],
      [
        '{"id": 25, "op": "tick", "snapshot": {"time": 1, "nodes": [], "sessions": []}, "previous": {"assignments": [{"session": "s", "node": "a"}], "signatures": {}}}',
        {
          id: 25,
          code: 'ERR_TAO_INVALID_VALUE',
          message: 'previous.signatures has no signature for session "s" of previous.assignments[0]',
        },
      ],
      [
        '{"id": 26, "op": "tick", "snapshot": {"time": 1, "nodes": [], "sessions": []}, "previous": {"assignments": [{"session": "s"}], "signatures": {}}}',
        { id: 26, code: 'ERR_TAO_INVALID_TYPE', message: 'previous.assignments[0].node must be a string' },
      ],
      [
        '{"id": 27, "op": "hello", "protocols": [3, 4]}',
        {
          id: 27,
          code: 'ERR_TAO_INVALID_VALUE',
          message: 'protocols shares no version with this sidecar: it speaks 1, 2, the client 3, 4',
        },
      ],
      [
        '{"id": 28, "op": "hello", "protocols": 1}',
        { id: 28, code: 'ERR_TAO_INVALID_TYPE', message: 'protocols must be an array of protocol versions' },
      ],
      [
        '{"id": 29, "op": "hello", "protocols": [1.5]}',
        { id: 29, code: 'ERR_TAO_INVALID_VALUE', message: 'protocols[0] must be a positive integer (got 1.5)' },
      ],
    ];
    for (const [line, expected] of table) {
      s.write(line + '\n');
      const r = await s.next();
      const { id, code, message } = expected;
      expect(r, line).toMatchObject({ id, ok: false, error: { code } });
      // The op is echoed as sent, when the line had one.
      const sent: unknown = (() => {
        try {
          return (JSON.parse(line) as { op?: unknown }).op;
        } catch {
          return undefined;
        }
      })();
      expect(r.op, line).toBe(typeof sent === 'string' ? sent : null);
      const error = r.error as { message: string };
      if (message instanceof RegExp) expect(error.message, line).toMatch(message);
      else expect(error.message, line).toBe(message);
      expect(Object.keys(r).sort()).toEqual(['error', 'id', 'ok', 'op']);
    }
    expect(await s.request({ id: 'still', op: 'hello' })).toMatchObject({ ok: true });
    await s.shutdown();
    expect(s.stderr).toBe('');
  });

  it('an observe batch with one bad call leaves the predictor as it was', async () => {
    const s = new SidecarProcess();
    const empty = (await s.request({ id: 1, op: 'predictor.save' })).predictor;
    const r = await s.request({ id: 2, op: 'observe', calls: [calls[0], { ...calls[1], startedAt: 'x' }] });
    expect(r).toEqual({
      id: 2,
      op: 'observe',
      ok: false,
      error: { code: 'ERR_TAO_INVALID_TYPE', message: 'calls[1].startedAt must be a number' },
    });
    expect((await s.request({ id: 3, op: 'predictor.save' })).predictor).toEqual(empty);
    await s.shutdown();
  });

  it('refuses a line over the cap with the cap in the message, then keeps serving', async () => {
    const s = new SidecarProcess(['--max-line-bytes', '4096']);
    // 1 MiB in pieces: the sidecar must drop it as it comes, not wait for its end.
    const piece = 'x'.repeat(64 * 1024);
    const head = '{"id": 1, "op": "hello", "pad": "';
    s.write(head);
    for (let k = 0; k < 16; k++) s.write(piece);
    s.write('"}\n');
    const r = await s.next();
    expect(r).toEqual({
      id: null,
      op: null,
      ok: false,
      error: {
        code: 'ERR_TAO_INVALID_VALUE',
        message: `line must be at most 4096 bytes (has ${head.length + 16 * piece.length + 2})`,
      },
    });
    // A line of exactly the cap is read (and answered for what it is).
    const exact = `{"id": 2, "op": "hello", "pad": "${'y'.repeat(4096 - head.length - 2)}"}`;
    expect(Buffer.byteLength(exact)).toBe(4096);
    s.write(exact + '\n');
    expect(await s.next()).toMatchObject({ id: 2, error: { message: 'pad is not a field of a "hello" request' } });
    expect(await s.request({ id: 3, op: 'hello' })).toMatchObject({ ok: true, maxLineBytes: 4096 });
    await s.shutdown();
  });

  it('answers pipelined requests in order', async () => {
    const s = new SidecarProcess();
    const [, c] = cases.find(([f]) => f === 'appendix-h-cache.json')!;
    const n = 300;
    let text = '';
    for (let k = 0; k < n; k++)
      text += JSON.stringify({ id: k, op: 'solve', problem: c.problem, options: { quantum: 512 } }) + '\n';
    s.write(text);
    for (let k = 0; k < n; k++) {
      const r = await s.next();
      expect(r.id).toBe(k);
      expect((r.plan as { value: PlanValue }).value.credit).toBe(16_791);
    }
    await s.shutdown();
  });

  it('takes CRLF line ends, skips blank lines, answers a last line without newline and exits 0 at end of input', async () => {
    const s = new SidecarProcess();
    s.write('\n   \r\n{"id": 1, "op": "hello"}\r\n\n{"id": 2, "op": "stats"}');
    s.child.stdin.end();
    expect(await s.next()).toMatchObject({ id: 1, ok: true });
    expect(await s.next()).toMatchObject({ id: 2, ok: true, requests: { hello: 1, stats: 1, invalid: 0 } });
    expect(await s.nextLine()).toBeUndefined();
    expect(await s.exited).toBe(0);
    expect(s.stderr).toBe('');
  });

  it('--help prints the usage with the protocol version and the line cap default', () => {
    const r = spawnSync(process.execPath, [CLI, 'serve', '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`(protocol ${SIDECAR_PROTOCOL_VERSION})`);
    expect(r.stdout).toContain(`ops: ${SIDECAR_OPS.join(', ')}`);
    expect(r.stdout).toContain('(default 16777216, at most 1073741824)');
  });

  it('refuses a bad --max-line-bytes: exit 2, one line', () => {
    const r = spawnSync(process.execPath, [CLI, 'serve', '--max-line-bytes', '0'], { encoding: 'utf8', input: '' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`tao serve: --max-line-bytes must be an integer from 1 to ${2 ** 30} (got "0")\n`);
  });
});

describe('tao serve --socket', () => {
  /** A sidecar serving a fresh socket path, once it listens. */
  async function freshSocketSidecar(args: string[] = []): Promise<{ s: SidecarProcess; path: string }> {
    const path = join(tempDir(), 'tao.sock');
    return { s: await socketSidecar(path, args), path };
  }

  /** Connects, sends the lines, resolves with the response lines once `count` have arrived. */
  function exchange(path: string, lines: Json[], count = lines.length): Promise<Json[]> {
    return new Promise((resolve, reject) => {
      const sock = connect(path);
      let text = '';
      sock.setEncoding('utf8');
      sock.on('error', reject);
      sock.on('data', (t: string) => {
        text += t;
        const got = text.split('\n').filter((l) => l !== '');
        if (got.length >= count) {
          sock.end();
          resolve(got.map((l) => JSON.parse(l) as Json));
        }
      });
      sock.write(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    });
  }

  it('serves several connections with one predictor and removes the socket on shutdown', async () => {
    const { s, path } = await freshSocketSidecar();
    expect(s.stderr).toBe(`tao serve: listening on ${path}\n`);
    const [, c] = cases.find(([f]) => f === 'appendix-h-cache.json')!;
    const [solved, observed] = await exchange(path, [
      { id: 1, op: 'solve', problem: c.problem, options: { quantum: 512 } },
      { id: 2, op: 'observe', calls },
    ]);
    expect((solved!.plan as { value: PlanValue }).value.credit).toBe(16_791);
    expect(observed).toEqual({ id: 2, op: 'observe', ok: true, learned: 2 });
    const [stats, bye] = await exchange(path, [
      { id: 3, op: 'stats' },
      { id: 4, op: 'shutdown' },
    ]);
    expect(stats).toMatchObject({ predictor: { tools: 1, globalSamples: 2 }, requests: { solve: 1, observe: 1 } });
    expect(bye).toEqual({ id: 4, op: 'shutdown', ok: true });
    expect(await s.exited).toBe(0);
    expect(existsSync(path)).toBe(false);
    expect(await s.nextLine()).toBeUndefined(); // nothing on stdout in socket mode
  });

  it('reads ahead at most one line cap, then stops reading a connection whose responses are not read', async () => {
    const { s, path } = await freshSocketSidecar(['--max-line-bytes', '65536']);
    const sock = connect(path);
    await new Promise((r) => sock.once('connect', r));
    sock.pause();
    const n = 20_000;
    // ~0.5 MB of requests, ~3.6 MB of responses: far more than the socket's buffers hold.
    sock.write((JSON.stringify({ id: 0, op: 'hello' }) + '\n').repeat(n));
    await new Promise((r) => setTimeout(r, 1000));
    // The sidecar holds back instead of buffering responses: past 64 KiB read ahead (and what the socket
    // buffers hold), requests it has not read stay queued here.
    expect(sock.writableLength).toBeGreaterThan(0);
    let text = '';
    sock.setEncoding('utf8');
    sock.on('data', (t: string) => (text += t));
    sock.resume();
    while (text.split('\n').length <= n) await new Promise((r) => setTimeout(r, 20));
    expect(text.split('\n').filter((l) => l.includes('"ok":true'))).toHaveLength(n);
    sock.end(JSON.stringify({ id: 'bye', op: 'shutdown' }) + '\n');
    expect(await s.exited).toBe(0);
  });

  it('a client that vanishes mid-stream does not stop the others', async () => {
    const { s, path } = await freshSocketSidecar();
    const rude = connect(path);
    await new Promise((r) => rude.once('connect', r));
    rude.pause();
    rude.write((JSON.stringify({ id: 0, op: 'hello' }) + '\n').repeat(20_000));
    await new Promise((r) => setTimeout(r, 300));
    rude.destroy();
    await new Promise((r) => setTimeout(r, 300));
    const [hello, bye] = await exchange(path, [
      { id: 1, op: 'hello' },
      { id: 2, op: 'shutdown' },
    ]);
    expect(hello).toMatchObject({ id: 1, ok: true });
    expect(bye).toEqual({ id: 2, op: 'shutdown', ok: true });
    expect(await s.exited).toBe(0);
    expect(existsSync(path)).toBe(false);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} closes the server and removes the socket: exit 0`, async () => {
      const { s, path } = await freshSocketSidecar();
      expect(existsSync(path)).toBe(true);
      s.child.kill(signal);
      expect(await s.exited).toBe(0);
      expect(existsSync(path)).toBe(false);
    });
  }

  it('refuses a path that exists: exit 2, one line on stderr', () => {
    const path = join(tempDir(), 'taken');
    writeFileSync(path, '');
    const r = spawnSync(process.execPath, [CLI, 'serve', '--socket', path], { encoding: 'utf8', input: '' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`tao serve: cannot listen on ${path}: EADDRINUSE\n`);
  });
});
