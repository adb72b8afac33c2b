/**
 * What `tao bench` (and so `npm start`) tells a newcomer: a legend naming every runner of the report and
 * every column of the table; the hardest families, each by its hardest group; one last verdict line, PASS only when
 * the goal is met and every plan exact, FAIL otherwise; the oracles said before the run (HiGHS missing is
 * said, with why); the corpus cache in the OS cache directory; no default to corpora the package lacks.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BRIEF_FAMILIES, type FamilyReport, formatHardestFamilies, type GroupReport } from './helpers/internals.js';
import { report } from './helpers/bench-report.js';
import {
  osCacheDir,
  defaultBenchOptions,
  formatLegend,
  formatOracles,
  formatTable,
  formatVerdict,
} from './helpers/internals.js';

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

  it('lists the hardest families, each by its hardest group: most fallbacks first, then CPU P95', () => {
    const group = (family: string, name: string, cpuP95: number, fallbackPct = 0): GroupReport =>
      ({
        key: `${family}/${name}`,
        family,
        group: name,
        problems: 10,
        inThread: { p95: 2 * cpuP95 },
        inThreadCpu: { p95: cpuP95 },
        fallbackPct,
        exactness: { checked: 10, equal: 10, wrong: [] },
      }) as unknown as GroupReport;
    const report = {
      elapsedSec: 4.2,
      groups: [
        group('large', '8n', 1.5),
        group('large', '16n', 3.25),
        group('mkp', 'strong-50x5', 2),
        group('mkp', 'weak-25x2', 0.5, 10),
        group('single-credit', '4n', 0.75),
        group('near-fitting', '2n', 0.25),
      ],
    } as unknown as FamilyReport;
    const lines = formatHardestFamilies(report, 3).split('\n');
    expect(lines[0]).toMatch(/^hardest families \(a brief in-thread pass: 6 groups of /);
    for (const f of BRIEF_FAMILIES) expect(lines[0]).toContain(f);
    expect(lines.slice(1)).toEqual([
      '  mkp: hardest group mkp/weak-25x2, 10 problems, CPU P95 0.50 ms (wall P95 1.00 ms), fallback 10.0%, 10/10 exact by brute force',
      '  large: hardest group large/16n, 10 problems, CPU P95 3.25 ms (wall P95 6.50 ms), fallback 0.0%, 10/10 exact by brute force',
      '  single-credit: hardest group single-credit/4n, 10 problems, CPU P95 0.75 ms (wall P95 1.50 ms), fallback 0.0%, 10/10 exact by brute force',
    ]);
    expect(formatHardestFamilies({ ...report, groups: [] })).toBe('');
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
