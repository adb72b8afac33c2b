import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runPredictReportCommand as run } from './helpers/internals.js';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { predictReport } from './helpers/internals.js';

const dir = mkdtempSync(join(tmpdir(), 'tao-predict-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const calls = [
  { name: 'bash', startedAt: 0, returnedAt: 2 },
  { name: 'bash', startedAt: 1, returnedAt: 4 },
  { name: 'bash', startedAt: 5, returnedAt: 6 },
  { name: 'wait', startedAt: 5, returnedAt: 7.2, command: 'sleep 2' },
  { name: 'ci', startedAt: 6, returnedAt: 9, deadline: 9.4 },
];

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Runs the command, capturing what it writes. */
async function capture(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  const code = await run(args);
  vi.restoreAllMocks();
  return { code, out, err };
}

afterEach(() => vi.restoreAllMocks());

describe('tao predict-report', () => {
  const jsonl = `${calls.map((c) => JSON.stringify(c)).join('\n')}\n\n`;

  it('prints the same report as the library with --json', async () => {
    const { code, out } = await capture([file('calls.jsonl', jsonl), '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(predictReport(calls))));
  });

  it('prints a table with the headline numbers and the confusion matrix', async () => {
    const { code, out } = await capture([file('calls.jsonl', jsonl)]);
    expect(code).toBe(0);
    expect(out).toContain('calls          5\n');
    expect(out).toContain('MAE            2.465 s\n');
    expect(out).toContain('within 0.5 s   40.0%\n');
    expect(out).toMatch(/^sleep\s+1\s+0\.200 s\s+100\.0%$/m);
    expect(out).toContain('ready decisions: 12 (every 1 s while a call runs; horizon 1 s)');
    expect(out).toMatch(/^ready\s+1\s+1$/m);
    expect(out).toMatch(/^not ready\s+4\s+6$/m);
    expect(out).toContain('precision 50.0%, recall 20.0%, accuracy 58.3%');
  });

  it('names the record and its line for an invalid call', async () => {
    const path = file(
      'bad.jsonl',
      `${JSON.stringify(calls[0])}\n\n${JSON.stringify({ name: 'x', startedAt: 3, returnedAt: 1 })}\n`,
    );
    await expect(run([path])).rejects.toThrow(
      new InvalidValueError(`calls[1].returnedAt must not be before calls[1].startedAt (${path} line 3)`),
    );
    const typed = file('typed.jsonl', `${JSON.stringify({ name: 5, startedAt: 0, returnedAt: 1 })}\n`);
    await expect(run([typed])).rejects.toThrow(
      new InvalidTypeError(`calls[0].name must be a string (${typed} line 1)`),
    );
  });

  it('names the line that is not JSON', async () => {
    const path = file('broken.jsonl', `${JSON.stringify(calls[0])}\n{oops\n`);
    await expect(run([path])).rejects.toThrow(InvalidValueError);
    await expect(run([path])).rejects.toThrow(`${path} line 2 is not valid JSON (`);
  });

  it('exits 2 on usage errors and prints help with --help', async () => {
    expect((await capture([])).code).toBe(2);
    expect((await capture(['a', 'b'])).code).toBe(2);
    const unknown = await capture(['x.jsonl', '--csv']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown option "--csv"');
    const missing = await capture([join(dir, 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('cannot read');
    const help = await capture(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('usage: tao predict-report <calls.jsonl> [--json]');
  });
});
