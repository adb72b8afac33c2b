/**
 * The README cannot drift from the package: its quick start runs (against the compiled package, dist/)
 * and prints exactly the output it shows; every options table marked with the name of an exported
 * defaults object lists that object's keys with its values; the CLI table names every flag each command's
 * --help prints; it cites no source path the package does not ship, and every docs/ page it links is
 * shipped with it; it stays under 20 KB.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';

const ROOT = new URL('..', import.meta.url);
const README = readFileSync(new URL('README.md', ROOT), 'utf8');
const CLI = fileURLToPath(new URL('dist/cli.js', ROOT));

/** The body of the first fenced block after `after` in the README. */
function blockAfter(after: string): string {
  const start = README.indexOf(after);
  expect(start, after).toBeGreaterThanOrEqual(0);
  const m = /```[a-z]*\n([\s\S]*?)```/.exec(README.slice(start));
  expect(m, `a code block after ${after}`).not.toBeNull();
  return m![1]!;
}

/** A default as the README writes it: `16`, `'auto'`, `Infinity`. */
function shown(v: unknown): string {
  if (typeof v === 'string') return `\`'${v}'\``;
  return `\`${String(v)}\``;
}

describe('README', () => {
  it('the quick start prints what the README shows', () => {
    const code = blockAfter('## Quick start').replace(
      "from 'tao-solver'",
      `from ${JSON.stringify(pathToFileURL(fileURLToPath(new URL('dist/index.js', ROOT))).href)}`,
    );
    const expected = blockAfter('\nprints\n');
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    expect(out).toBe(expected);
  });

  it('every defaults table lists its exported defaults, value for value', () => {
    const marked = [...README.matchAll(/<!-- defaults: (\w+) -->\n((?:\|.*\n)+)/g)];
    expect(marked.map((m) => m[1])).toEqual([
      'defaultSolveOptions',
      'defaultEvaluateOptions',
      'defaultPredictorOptions',
      'defaultPoolOptions',
      'defaultPlannerOptions',
    ]);
    for (const [, name, table] of marked) {
      const defaults = (root as Record<string, unknown>)[name!] as Record<string, unknown>;
      const rows = new Map(
        table!
          .trim()
          .split('\n')
          .slice(2)
          .map((line) => line.split('|').map((c) => c.trim()))
          .map((cells) => [cells[1]!.replace(/`/g, ''), cells[2]!] as const),
      );
      expect([...rows.keys()].sort(), name).toEqual(Object.keys(defaults).sort());
      for (const [key, value] of Object.entries(defaults)) {
        // The worker file is a path on the installing machine: the README names it instead.
        if (key === 'workerFile') continue;
        expect(rows.get(key), `${name}.${key}`).toBe(shown(value));
      }
    }
  });

  it('the CLI table names every flag of every command', () => {
    const usage = execFileSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    const commands = [...usage.matchAll(/^ {2}tao ([a-z-]+)/gm)].map((m) => m[1]!);
    expect(commands.length).toBeGreaterThan(5);
    for (const command of commands) {
      const row = README.split('\n').find((l) => l.startsWith(`| \`tao ${command}`));
      expect(row, `a CLI row for tao ${command}`).toBeDefined();
      const help = execFileSync(process.execPath, [CLI, command, '--help'], { encoding: 'utf8' });
      const flags = new Set([...help.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!));
      flags.delete('help');
      for (const flag of flags) expect(row, `tao ${command} --${flag}`).toContain(`--${flag}`);
    }
  });

  it('cites no unshipped source path, and ships every docs page it links', () => {
    expect(README).not.toMatch(/(^|[\s(`])(src|test|bench|assembly)\//m);
    const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('docs');
    const linked = [...README.matchAll(/\]\((docs\/[\w.-]+\.md)\)/g)].map((m) => m[1]!);
    expect(linked).toContain('docs/solver.md');
    for (const page of ['docs/solver.md', 'docs/abi.md', 'docs/sidecar.md', 'docs/architecture.md']) {
      expect(existsSync(new URL(page, ROOT)), page).toBe(true);
    }
  });

  it('stays under 20 KB', () => {
    expect(Buffer.byteLength(README)).toBeLessThan(20_000);
  });
});
