/**
 * Adversarial fuzzing of the `tao` command: random bytes and random (often almost valid) JSON on stdin and
 * as input files, and random argument lists. Every run must end on its own within a time bound (no hang,
 * no worker thread keeping the process alive), leave no process behind in its process group, and exit 0
 * (valid input) or 2 with exactly one line on stderr; never a stack trace.
 *
 * Seeded and reproducible: TAO_FUZZ_SEED=<n> replays a run, TAO_FUZZ_CASES=<n> changes its length. A
 * failure names the case and its input. Runs the compiled CLI (dist/cli.js): `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from './helpers/internals.js';
import { int, pick, randomValue, type Rand } from './helpers/fuzz.js';
import { isOneLineError, STACK_FRAME } from './helpers/cli.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const SEED = Number(process.env.TAO_FUZZ_SEED ?? 20261130);
const CASES = Number(process.env.TAO_FUZZ_CASES ?? 180);
/** A run taking longer than this counts as a hang. */
const SPAWN_TIMEOUT_MS = 20_000;
const CONCURRENCY = 3;

const KEYS = [
  'id',
  'capacity',
  'weight',
  'tokens',
  'ready',
  'credit',
  'eligible',
  'signature',
  'nodes',
  'sessions',
  'name',
  'extends',
  'workers',
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'startedAt',
  'returnedAt',
  'command',
];
const value = (r: Rand, depth: number): unknown => randomValue(r, KEYS, depth);

/** A valid Problem, then a few random edits: most cases sit near the boundary of validity. */
function nearProblem(r: Rand): string {
  const m = 1 + int(r, 3);
  const nodes = Array.from({ length: m }, (_, b) => ({ id: `n${b}`, capacity: 16 * (1 + int(r, 8)) }));
  const sessions = Array.from({ length: int(r, 6) }, (_, i) => ({
    id: `s${i}`,
    weight: 1 + int(r, 64),
    tokens: int(r, 100),
    ready: r() < 0.5,
    ...(r() < 0.3 ? { credit: { [`n${int(r, m)}`]: int(r, 50) } } : {}),
    ...(r() < 0.3 ? { eligible: [`n${int(r, m)}`] } : {}),
  }));
  const problem: Record<string, unknown> = { nodes, sessions };
  let text = JSON.stringify(problem);
  for (let e = int(r, 3); e > 0; e--) {
    const o = JSON.parse(text) as Record<string, unknown[]>;
    const list = pick(r, [o.nodes!, o.sessions!]);
    const target =
      list.length > 0 ? (list[int(r, list.length)] as Record<string, unknown>) : (o as Record<string, unknown>);
    const key = pick(r, KEYS);
    // Written into the text so that "__proto__" stays an own key, as JSON.parse will read it.
    text = JSON.stringify(o);
    const edit = JSON.stringify({ [key]: value(r, 1) });
    const where = JSON.stringify(target);
    text = text.replace(where, where === '{}' ? edit : `${where.slice(0, -1)},${edit.slice(1)}`);
  }
  return text;
}

function randomBytes(r: Rand): Buffer {
  const b = Buffer.alloc(int(r, 2048));
  for (let i = 0; i < b.length; i++) b[i] = int(r, 256);
  if (b.length > 0 && r() < 0.3) b[0] = 0x7b; // '{': gets past the first byte of a JSON parser
  return b;
}

const ARG_POOL = [
  '--help',
  '-h',
  '--',
  '-',
  '=',
  '--json',
  '--compact',
  '--compact=yes',
  '--quantum',
  '--budget',
  '--deadline',
  '--setting',
  '--setting-file',
  '--workload',
  '--policy',
  '--seeds',
  '--tasks',
  '--duration',
  '--param',
  '--record',
  '--svg',
  '--half-life',
  '--horizon',
  '--delta',
  '--state-budget',
  '--sample',
  '--progress',
  '--check',
  '--nope',
  '-x',
  'constructor',
  '__proto__',
  'toString',
  '0x10',
  '1e999',
  '-1',
  '0',
  '1',
  '2.5',
  'NaN',
  'Infinity',
  'h=1,1',
  'quantum=1,2',
  'h=',
  'ds-16',
  'tao',
  'all',
  'claude-code',
  'out.json',
  'é',
  '\u0000x',
  'x'.repeat(500),
];

/** Flags that keep a valid simulate or sweep short; given last, they win over random repeats. */
const BOUNDED_RUN = ['--setting', 'ds-16', '--duration', '2', '--seeds', '1'];

interface Case {
  label: string;
  args: string[];
  stdin: Buffer;
  /** Random bytes can never be valid input: exit 2 only. */
  mustFail: boolean;
}

function makeCase(r: Rand, n: number, dir: string): Case {
  const kind = n % 6;
  if (kind === 0)
    return { label: 'solve, random bytes on stdin', args: ['solve'], stdin: randomBytes(r), mustFail: true };
  if (kind === 1)
    return {
      label: 'solve, near-valid JSON on stdin',
      args: ['solve', '--compact'],
      stdin: Buffer.from(nearProblem(r)),
      mustFail: false,
    };
  if (kind === 2) {
    const file = join(dir, `case-${n}.json`);
    const bytes = r() < 0.5 ? Buffer.from(JSON.stringify(value(r, 0))) : randomBytes(r);
    writeFileSync(file, bytes);
    const command = pick(r, [
      ['solve', file],
      ['predict-report', file],
      ['simulate', '--setting-file', file, ...BOUNDED_RUN.slice(2)],
      ['bench', '--check', file],
    ]);
    return {
      label: `${command[0]}, random file`,
      args: command,
      stdin: Buffer.alloc(0),
      mustFail: command[0] === 'bench',
    };
  }
  if (kind === 3) {
    const lines = Array.from({ length: int(r, 5) }, () =>
      JSON.stringify(
        r() < 0.5
          ? {
              name: 'bash',
              startedAt: 0,
              returnedAt: int(r, 5),
              ...(r() < 0.5 ? { [pick(r, KEYS)]: value(r, 1) } : {}),
            }
          : value(r, 0),
      ),
    );
    const file = join(dir, `calls-${n}.jsonl`);
    writeFileSync(file, lines.join('\n'));
    return {
      label: 'predict-report, random JSON lines',
      args: ['predict-report', file],
      stdin: Buffer.alloc(0),
      mustFail: false,
    };
  }
  const command = pick(r, ['solve', 'simulate', 'sweep', 'predict-report', 'demo', 'constructor', '__proto__', 'nope']);
  const args = Array.from({ length: 1 + int(r, 5) }, () => pick(r, ARG_POOL));
  if (command === 'demo' && !args.some((a) => a.startsWith('-'))) args.push('--nope');
  const bounded = command === 'simulate' || command === 'sweep' ? [...args, ...BOUNDED_RUN] : args;
  return {
    label: `${command}, random arguments`,
    args: [command, ...bounded],
    stdin: Buffer.from(nearProblem(r)),
    mustFail: false,
  };
}

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  leftover: boolean;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function runCase(c: Case, cwd: string): Promise<Outcome> {
  return new Promise((resolve) => {
    // Its own process group, so anything it started can be seen (and cleaned up) afterwards.
    const child = spawn(process.execPath, [cli, ...c.args], { cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => {}); // the command may exit before reading all of its input
    child.stdin.end(c.stdin);
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-child.pid!, 'SIGKILL');
    }, SPAWN_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const leftover = groupAlive(child.pid!);
      if (leftover) process.kill(-child.pid!, 'SIGKILL');
      resolve({ code, signal, stdout, stderr, timedOut, leftover });
    });
  });
}

function describeCase(n: number, c: Case): string {
  const input =
    c.stdin.length === 0 ? '' : ` stdin(base64, first 200 bytes)=${c.stdin.subarray(0, 200).toString('base64')}`;
  return `seed ${SEED} case ${n} (${c.label}): tao ${JSON.stringify(c.args)}${input}`;
}

let dir: string;
beforeAll(() => {
  expect(existsSync(cli), `${cli} is missing: run \`npm run build\``).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'tao-fuzz-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tao under random input', () => {
  it(`exits 0, or 2 with one line and no stack, within ${SPAWN_TIMEOUT_MS / 1000} s and leaving no process (${CASES} cases)`, async () => {
    const r = seededRandom(SEED);
    const cases = Array.from({ length: CASES }, (_, n) => makeCase(r, n, dir));
    const failures: string[] = [];
    const counts = { ok: 0, invalid: 0 };
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < cases.length) {
        const n = next++;
        const c = cases[n]!;
        const o = await runCase(c, dir);
        const where = describeCase(n, c);
        if (o.timedOut) failures.push(`${where}: no exit within ${SPAWN_TIMEOUT_MS} ms`);
        else if (o.leftover) failures.push(`${where}: left a process running`);
        else if (STACK_FRAME.test(o.stderr))
          failures.push(`${where}: stack trace on stderr: ${o.stderr.slice(0, 300)}`);
        else if (o.code === 0 && !c.mustFail) counts.ok++;
        else if (isOneLineError(o)) counts.invalid++;
        else failures.push(`${where}: exit ${o.code ?? o.signal}, stderr ${JSON.stringify(o.stderr.slice(0, 300))}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(failures, failures.join('\n')).toEqual([]);
    // The generator must reach both sides of validity, or the suite tests less than it claims.
    expect(counts.ok).toBeGreaterThan(5);
    expect(counts.invalid).toBeGreaterThan(CASES / 3);
  }, 300_000);
});
