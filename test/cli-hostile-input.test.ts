/**
 * Hostile input through the `tao` command: every failure is one line on stderr and exit 2, never a stack
 * trace; input is read up to a documented size; outputs are checked writable before a run starts.
 * Runs the compiled CLI (dist/cli.js): `npm run build` first.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES } from './helpers/internals.js';
import { isOneLineError } from './helpers/cli.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function tao(args: string[], input: string | Buffer = ''): Result {
  const r = spawnSync(process.execPath, [cli, ...args], {
    input,
    encoding: 'utf8',
    timeout: 30_000,
    maxBuffer: 64 * 2 ** 20,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Exit 2 with exactly one line on stderr, no stack frame in it. */
function expectOneLineError(r: Result, pattern?: RegExp): void {
  expect(isOneLineError(r), `exit ${r.code}, stderr ${r.stderr}`).toBe(true);
  if (pattern !== undefined) expect(r.stderr).toMatch(pattern);
}

const problem = JSON.stringify({
  nodes: [{ id: 'a', capacity: 64 }],
  sessions: [{ id: 's', weight: 16, tokens: 1, ready: true }],
});

let dir: string;
beforeAll(() => {
  expect(existsSync(cli), `${cli} is missing: run \`npm run build\``).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'tao-hostile-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('command and option names are own keys', () => {
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    it(`refuses "tao ${name}" as an unknown command`, () => {
      expectOneLineError(tao([name]), new RegExp(`unknown command "${name}"`));
    });
  }

  it('refuses Object.prototype members as --setting and --workload', () => {
    expectOneLineError(tao(['simulate', '--setting', 'constructor']), /--setting must be one of/);
    expectOneLineError(tao(['simulate', '--workload', 'toString']), /--workload must be one of/);
    expectOneLineError(tao(['sweep', '--param', 'h=5', '--setting', '__proto__']), /--setting must be one of/);
  });

  it('refuses a setting file extending "constructor", naming the field', () => {
    const file = join(dir, 'extends-constructor.json');
    writeFileSync(file, JSON.stringify({ name: 'x', extends: 'constructor' }));
    expectOneLineError(tao(['simulate', '--setting-file', file]), /setting\.extends must be one of/);
  });
});

describe('flag values', () => {
  it('refuses a hexadecimal --deadline: decimal numbers only', () => {
    expectOneLineError(
      tao(['solve', '--deadline', '0x10'], problem),
      /--deadline must be a decimal number \(got "0x10"\)/,
    );
    expect(tao(['solve', '--deadline', '16'], problem).code).toBe(0);
  });

  it('refuses a value for a boolean flag', () => {
    expectOneLineError(tao(['solve', '--compact=yes'], problem), /--compact takes no value/);
  });

  it('refuses a sweep parameter that repeats a value', () => {
    expectOneLineError(tao(['sweep', '--param', 'quantum=1,1']), /--param quantum repeats the value 1/);
  });

  it('refuses more workers than a snapshot can hold, before any run', () => {
    const file = join(dir, 'workers.json');
    writeFileSync(file, JSON.stringify({ name: 'x', extends: 'ds-16', workers: 100000 }));
    expectOneLineError(
      tao(['simulate', '--setting-file', file, '--tasks', '1', '--seeds', '1']),
      /setting\.workers must be an integer from 1 to 4096/,
    );
  });
});

describe('files', () => {
  it('names a missing --setting-file or a directory in one line', () => {
    expectOneLineError(
      tao(['simulate', '--setting-file', join(dir, 'missing.json')]),
      /cannot read .*missing\.json: ENOENT/,
    );
    expectOneLineError(tao(['simulate', '--setting-file', dir]), /is a directory/);
  });

  it('checks --json, --svg and --record are writable before the run', () => {
    const bad = join(dir, 'no-such-dir', 'out');
    const t0 = performance.now();
    expectOneLineError(
      tao(['simulate', '--tasks', '1', '--seeds', '1', '--json', `${bad}.json`]),
      /--json .* directory .* does not exist/,
    );
    expectOneLineError(
      tao(['simulate', '--tasks', '1', '--seeds', '1', '--svg', `${bad}.svg`]),
      /--svg .* does not exist/,
    );
    expectOneLineError(
      tao(['simulate', '--tasks', '1', '--seeds', '1', '--record', `${bad}.jsonl`]),
      /--record .* does not exist/,
    );
    expectOneLineError(tao(['simulate', '--tasks', '1', '--seeds', '1', '--json', dir]), /--json .* is a directory/);
    expectOneLineError(
      tao(['sweep', '--param', 'h=5', '--tasks', '1', '--seeds', '1', '--svg', bad]),
      /--svg .* does not exist/,
    );
    expectOneLineError(tao(['bench', '--quick', '--json', dir]), /--json .* is a directory/);
    // Refused before simulating anything: each of the seven spawns is process start-up only.
    expect(performance.now() - t0).toBeLessThan(20_000);
  });

  it('accepts a UTF-8 byte order mark in tao solve input, on stdin and in a file', () => {
    const withBom = `\uFEFF${problem}`;
    const r = tao(['solve', '--compact'], withBom);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).assignments).toHaveLength(1);
    const file = join(dir, 'bom.json');
    writeFileSync(file, withBom);
    expect(tao(['solve', file]).code).toBe(0);
  });

  it('stops reading stdin past MAX_INPUT_BYTES: /dev/zero fails fast with bounded memory', async () => {
    const r = await new Promise<Result & { ms: number }>((resolve) => {
      const t0 = performance.now();
      const child = spawn(`exec ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} solve < /dev/zero`, {
        shell: '/bin/sh',
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, ms: performance.now() - t0 });
      });
    });
    expectOneLineError(r, new RegExp(`stdin is larger than ${MAX_INPUT_BYTES} bytes`));
    expect(r.ms).toBeLessThan(20_000);
    // The same through a file argument.
    expectOneLineError(tao(['solve', '/dev/zero']), new RegExp(`/dev/zero is larger than ${MAX_INPUT_BYTES} bytes`));
  });

  it('refuses an input file past MAX_INPUT_BYTES for predict-report', () => {
    const file = join(dir, 'big.jsonl');
    writeFileSync(file, Buffer.alloc(MAX_INPUT_BYTES + 1, 0x20));
    expectOneLineError(tao(['predict-report', file]), /is larger than/);
  });

  it('refuses a --check baseline that is a directory in one line', () => {
    mkdirSync(join(dir, 'baseline-dir'), { recursive: true });
    expectOneLineError(tao(['bench', '--check', join(dir, 'baseline-dir')]), /is a directory/);
  });
});
