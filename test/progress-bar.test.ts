/**
 * The progress bar draws only when enabled (the CLI enables it on a terminal), and log lines written
 * through it land above the bar without leaving bar fragments behind.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ProgressBar } from './helpers/internals.js';

function sink(): { write: (t: string) => void; text: () => string } {
  let out = '';
  return { write: (t) => void (out += t), text: () => out };
}

describe('progress bar', () => {
  it('writes nothing but log lines when disabled (not a terminal)', () => {
    const s = sink();
    const bar = new ProgressBar(4, 'bench', s, false);
    bar.tick(1, 'ds-16 wasm');
    bar.log('ds-16: 200 problems');
    bar.tick(3);
    bar.finish();
    expect(s.text()).toBe('ds-16: 200 problems\n');
  });

  it('draws on a terminal, clears its line for a log line, then draws again', () => {
    const s = sink();
    const bar = new ProgressBar(2, 'bench', s, true, 4);
    bar.tick(1, 'ds-16 wasm');
    bar.log('ds-32: 200 problems');
    bar.tick(1);
    bar.finish();
    const first = 'bench [##..] 1/2 ds-16 wasm';
    expect(s.text()).toBe(
      `\r${first}\r${' '.repeat(first.length)}\rds-32: 200 problems\n\rbench [##..] 1/2\rbench [####] 2/2\n`,
    );
  });
});

describe('tao bench progress', () => {
  const cache = mkdtempSync(join(tmpdir(), 'bench-progress-'));
  const bench = (extra: string[]): string =>
    spawnSync(
      process.execPath,
      [
        fileURLToPath(new URL('../dist/cli.js', import.meta.url)),
        'bench',
        '--settings',
        'ds-16',
        '--count',
        '3',
        '--runners',
        'wasm,reference',
        '--highs-sample',
        '0',
        '--cycles',
        '1',
        '--warmup',
        '0',
        '--cache-dir',
        cache,
        ...extra,
      ],
      { encoding: 'utf8' },
    ).stderr;

  it('stays quiet when stderr is not a terminal, and draws one step per runner with --progress', () => {
    expect(bench([])).not.toContain('bench [');
    const err = bench(['--progress']);
    expect(err).toContain('\rbench [###############...............] 1/2 ds-16 wasm');
    expect(err).toContain('] 2/2 ds-16 reference\n');
  });
});
