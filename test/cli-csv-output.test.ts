/**
 * `--csv` beside `--json` on `tao simulate` and `tao sweep`: the printed table's rows as CSV, per metric
 * the mean over the seeds and its 95% interval half-width, equal to the JSON report's summary; sweep plots
 * say what their bars are (95% t-interval over N seeds) and plot the table's steady decode throughput;
 * a paired comparison cell past +-100% reads as a ratio to the baseline.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TABLE_COLUMNS } from './helpers/internals.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tao-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const RUN = ['--setting', 'ds-16', '--duration', '2', '--seeds', '2'];

type Summary = { metrics: Record<string, { mean: number | null; ci95: number | null; n: number }> };

function csvRows(file: string): string[][] {
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\r\n')
    .map((l) => l.split(','));
}

/** The CSV cell of a number as the JSON report has it (non-finite: empty). */
const cell = (x: number | null): string => (x === null || !Number.isFinite(x) ? '' : String(x));

describe('--csv', () => {
  it('tao simulate --csv writes the summary rows, equal to the JSON report', () => {
    const csv = join(dir, 's.csv');
    const json = join(dir, 's.json');
    const r = spawnSync(
      process.execPath,
      [CLI, 'simulate', ...RUN, '--policy', 'tao,greedy', '--csv', csv, '--json', json],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    const [header, ...rows] = csvRows(csv);
    expect(header).toEqual([
      'policy',
      'seeds',
      ...TABLE_COLUMNS.flatMap((c) => [`${c.metric}_mean`, `${c.metric}_ci95`]),
    ]);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { summary: (Summary & { policy: string })[] };
    expect(rows.map((x) => x[0])).toEqual(report.summary.map((s) => s.policy));
    report.summary.forEach((s, k) => {
      expect(rows[k]![1]).toBe('2');
      TABLE_COLUMNS.forEach((c, j) => {
        expect(rows[k]![2 + 2 * j], `${s.policy} ${c.metric}`).toBe(cell(s.metrics[c.metric]!.mean));
        expect(rows[k]![3 + 2 * j]).toBe(cell(s.metrics[c.metric]!.ci95));
      });
    });
  });

  it('tao sweep --csv writes one row per grid point; its plots carry the interval and seed count and plot steady decode', () => {
    const csv = join(dir, 'w.csv');
    const svg = join(dir, 'w');
    const r = spawnSync(process.execPath, [CLI, 'sweep', '--param', 'h=5,20', ...RUN, '--csv', csv, '--svg', svg], {
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const [header, ...rows] = csvRows(csv);
    expect(header![0]).toBe('grid point');
    expect(rows).toHaveLength(2);
    for (const plot of ['latency', 'ttft', 'decode']) {
      expect(readFileSync(`${svg}.${plot}.svg`, 'utf8')).toContain('(mean, bars: 95% t-interval over 2 seeds)');
    }
    expect(readFileSync(`${svg}.decode.svg`, 'utf8')).toContain('steady decode throughput (tok/s)');
  });
});

describe('paired comparison cells', () => {
  it('read as percentages up to +-100% and as ratios to the baseline past it', async () => {
    const { formatRelative } = await import('../src/sim/comparison-table.js');
    expect(formatRelative({ diff: { mean: 1, ci95: 1, n: 5 }, relative: 0.123, relativeCi95: 0.045 })).toBe(
      '+12.3% ± 4.5%',
    );
    expect(formatRelative({ diff: { mean: 1, ci95: 1, n: 5 }, relative: -0.85, relativeCi95: 0.03 })).toBe(
      '-85.0% ± 3.0%',
    );
    expect(formatRelative({ diff: { mean: 1, ci95: 1, n: 5 }, relative: 1, relativeCi95: 0.1 })).toBe(
      '+100.0% ± 10.0%',
    );
    expect(formatRelative({ diff: { mean: 1, ci95: 1, n: 5 }, relative: 476.439, relativeCi95: 72.779 })).toBe(
      'x477.44 ± 72.78',
    );
    expect(formatRelative({ diff: { mean: 1, ci95: Number.NaN, n: 1 }, relative: 1.5, relativeCi95: Number.NaN })).toBe(
      'x2.50',
    );
  });
});
