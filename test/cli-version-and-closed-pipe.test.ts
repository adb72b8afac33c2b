/**
 * `tao --version` / `-v` print the package version; a reader that closes the pipe early
 * (`tao demo | head -1`, a sidecar client that goes away) ends the command quietly: exit 0, nothing on
 * stderr.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI } from './helpers/sidecar.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

describe('tao --version', () => {
  for (const flag of ['--version', '-v']) {
    it(`${flag} prints the package version`, () => {
      const r = spawnSync(process.execPath, [CLI, flag], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`${pkg.version}\n`);
      expect(r.stderr).toBe('');
    });
  }
});

describe('closed stdout', () => {
  /** Runs `node cli.js <args> | head -c 1` in a shell; returns the CLI's exit code and stderr. */
  function closedEarly(args: string, stdin = '/dev/null'): { code: string; stderr: string; out: string } {
    const script = `"${process.execPath}" "${CLI}" ${args} < ${stdin} 2>"$ERR_FILE" | head -c 1; echo " $\{PIPESTATUS[0]}"; cat "$ERR_FILE"`;
    const r = spawnSync('bash', ['-c', `ERR_FILE=$(mktemp); ${script}; rm -f "$ERR_FILE"`], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const [first, ...rest] = r.stdout.split('\n');
    const code = first!.slice(first!.lastIndexOf(' ') + 1);
    return { code, stderr: rest.join('\n'), out: first!.slice(0, 1) };
  }

  it('tao demo | head -c 1: exit 0, no stack', () => {
    const r = closedEarly('demo');
    expect(r.out).toBe('a');
    expect(r.stderr).toBe('');
    expect(r.code).toBe('0');
  });

  it('tao serve whose reader goes away after one byte: exit 0, no stack', () => {
    const r = closedEarly('serve', `<(yes '{"id": 1, "op": "hello"}' | head -n 2000)`);
    expect(r.out).toBe('{');
    expect(r.stderr).toBe('');
    expect(r.code).toBe('0');
  });
});
