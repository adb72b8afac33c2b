/**
 * A `tao` command whose standard output fails for a reason other than a closed pipe (`> /dev/full`: no
 * space left) prints one line on stderr, without a stack trace, and exits 1 (a failure of the system,
 * not of the input). Linux: needs /dev/full.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STACK_FRAME } from './helpers/cli.js';
import { CLI } from './helpers/sidecar.js';

const hasFull = existsSync('/dev/full');

function toFull(args: string[], input = ''): { status: number | null; stderr: string } {
  const fd = openSync('/dev/full', 'w');
  try {
    const r = spawnSync(process.execPath, [CLI, ...args], {
      input,
      stdio: ['pipe', fd, 'pipe'],
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: r.status, stderr: r.stderr };
  } finally {
    closeSync(fd);
  }
}

describe('stdout that fails (no space left)', () => {
  const cases: [string, string[], string][] = [
    ['tao --version', ['--version'], ''],
    ['tao demo', ['demo'], ''],
    ['tao serve', ['serve'], '{"id": 1, "op": "hello"}\n'],
  ];
  for (const [name, args, input] of cases) {
    it.skipIf(!hasFull)(`${name} > /dev/full: exit 1, one line naming the error`, () => {
      const r = toFull(args, input);
      expect(r.stderr).toBe('tao: cannot write to standard output: ENOSPC\n');
      expect(r.stderr).not.toMatch(STACK_FRAME);
      expect(r.status).toBe(1);
    });
  }
});
