/**
 * What `tao bench` (and so `npm start`) tells a newcomer: a legend naming every runner of the report and
 * every column of the table; the hardest settings by in-thread P95; one last verdict line, PASS only when
 * the goal is met and every plan exact, FAIL otherwise; the oracles said before the run (HiGHS missing is
 * said, with why); the corpus cache in the OS cache directory; no default to corpora the package lacks.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { osCacheDir } from '../src/bench/cache-dir.js';
import { defaultBenchOptions } from '../src/bench/options.js';
import { formatHardest, formatLegend, formatOracles, formatTable, formatVerdict } from '../src/bench/table.js';
import { report, runner } from './helpers/bench-report.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

describe('tao bench explains itself', () => {
  it('the legend names every runner of the report and every column header of the table', () => {
    const legend = formatLegend(report());
    expect(legend).toContain('wasm: wasm');
    expect(legend).toContain('pool: pool');
    const header = formatTable(report()).split('\n')[0]!;
    expect(header).not.toContain('cells');
    for (const column of [
      'mean',
      'P50',
      'P95',
      'P99',
      'max',
      'fallback',
      'exact',
      'mismatch',
      'work P50',
      'x ref',
      'paper mean',
    ]) {
      expect(header).toContain(column);
      expect(legend).toContain(column.replace(' P50', ''));
    }
  });

  it('lists the hardest settings by in-thread P95, hardest first', () => {
    const r = report();
    r.settings.find((s) => s.setting === 'qwen-160')!.runners.wasm = runner('wasm', 0.45);
    r.settings.find((s) => s.setting === 'ds-32')!.runners.wasm = runner('wasm', 0.3);
    expect(formatHardest(r, 2)).toMatch(
      /^hardest settings \(in-thread P95\): qwen-160 \(P95 0\.450 ms.*; ds-32 \(P95 0\.300 ms/,
    );
  });

  it('ends with PASS when the goal is met, FAIL with the count of misses otherwise', () => {
    const r = report();
    expect(formatVerdict(r, [])).toMatch(
      /^PASS: every setting meets the goal \(in-thread P95 <= 0\.5 ms, pool P95 <= 1 ms, fallback <= 0\.5%, every plan exact\)$/,
    );
    expect(formatVerdict(r, ['ds-16 wasm: 1 wrong answers'])).toMatch(/^FAIL: 1 miss against the goal/);
    r.goal.met = false;
    r.goal.misses = [
      { setting: 'ds-16', metric: 'wasm P95', target: 0.5, measured: 1, detail: 'x' },
      { setting: 'ds-32', metric: 'pool P95', target: 1, measured: 2, detail: 'y' },
    ];
    expect(formatVerdict(r, [])).toMatch(/^FAIL: 2 misses against the goal/);
  });

  it('says which oracles check the plans, and why HiGHS is missing when it is', () => {
    expect(formatOracles(['wasm', 'reference', 'highs'], [], 50)).toBe(
      'oracles: the TypeScript reference (exact, every tick); HiGHS (MILP, 50 ticks per setting)',
    );
    expect(
      formatOracles(['wasm', 'reference'], [{ name: 'highs', reason: 'the "highs" package is not installed' }], 50),
    ).toBe(
      'oracles: the TypeScript reference (exact, every tick)\n  HiGHS is not available: the "highs" package is not installed',
    );
    expect(formatOracles(['wasm'], [], 0)).toBe('oracles: none (no plan is checked for exactness)');
  });

  it('keeps its corpus cache in the OS cache directory, not the working directory', () => {
    expect(osCacheDir('linux', { XDG_CACHE_HOME: '/x/cache' }, '/home/u')).toBe('/x/cache');
    expect(osCacheDir('linux', { XDG_CACHE_HOME: 'relative' }, '/home/u')).toBe(join('/home/u', '.cache'));
    expect(osCacheDir('linux', {}, '/home/u')).toBe(join('/home/u', '.cache'));
    expect(osCacheDir('darwin', {}, '/Users/u')).toBe(join('/Users/u', 'Library', 'Caches'));
    expect(osCacheDir('win32', { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'C:\\Users\\u')).toBe(
      'C:\\Users\\u\\AppData\\Local',
    );
    expect(defaultBenchOptions.cacheDir).toBe(join(osCacheDir(), 'tao-solver', 'bench'));
  });

  for (const flag of ['--paired', '--pin-paired']) {
    it(`${flag} without --corpus-dir is refused: the pinned corpora are not in the package`, () => {
      const r = spawnSync(process.execPath, [CLI, 'bench', flag, 'build.json.gz'], { encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^tao bench: ${flag} needs --corpus-dir DIR, the pinned family corpora \\(bench/corpus/families in the source repository; the npm package does not ship them\\)\\n$`,
        ),
      );
    });
  }
});
