/** The family report says which schema and which package produced it, and with which parameters. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAMILY_REPORT_SCHEMA_VERSION, runFamilies, type FamilyRunOptions } from './helpers/internals.js';
import { formatFamilyMarkdown } from './helpers/internals.js';
import { summarize } from './helpers/internals.js';
import { runBenchCommand as bench } from './helpers/internals.js';
import { InvalidValueError } from './helpers/internals.js';

/** A small in-thread run without oracles or pool, for checks of the report's shape. */
function quickOptions(o: Pick<FamilyRunOptions, 'families' | 'seed' | 'count' | 'warmupPasses'>): FamilyRunOptions {
  return {
    ...o,
    mkpCount: 1,
    bigCount: 1,
    highsSample: 0,
    highsTimeLimitSec: 1,
    cycles: 1,
    pool: false,
    stateBudget: 1_000_000,
  };
}

describe('family report', () => {
  it('carries schemaVersion, the package from package.json and the options it ran with', async () => {
    const options = quickOptions({ families: ['mkp'], seed: 3, count: 1, warmupPasses: 0 });
    const report = await runFamilies(options, 'tao bench --families mkp', { log: () => {} });
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      name: string;
      version: string;
    };
    expect(report.schemaVersion).toBe(FAMILY_REPORT_SCHEMA_VERSION);
    expect(report.package).toEqual({ name: pkg.name, version: pkg.version });
    expect(report.options).toEqual(options);
    expect(report.command).toBe('tao bench --families mkp');
    expect(report.groups.length).toBeGreaterThan(0);
    for (const g of report.groups) {
      // CPU time and run-queue wait describe the very samples the wall clock does.
      expect(g.inThreadCpu.n).toBe(g.inThread.n);
      if (g.inThreadWait !== null) expect(g.inThreadWait.n).toBe(g.inThread.n);
      expect(g.pool).toBeNull();
      expect(g.poolWorker).toBeNull();
    }
  });
});

describe('family tables', () => {
  it("show each group's run-queue wait beside its CPU time, and the pool worker's own P95 beside the round trip", async () => {
    const options = quickOptions({ families: ['near-fitting'], seed: 1, count: 2, warmupPasses: 1 });
    const report = await runFamilies(options, 'tao bench --families near-fitting', { log: () => {} });
    const g = report.groups[0]!;
    g.inThreadCpu = summarize([0.25]);
    g.inThreadWait = summarize([0.004]);
    g.pool = summarize([0.5]);
    g.poolWorker = summarize([0.2]);
    const md = formatFamilyMarkdown(report, new Map());
    expect(md).toContain('| CPU P50 / P95 ms | run-queue wait P95 ms | pool P50 / P95 (worker P95) ms |');
    expect(md).toContain('| 0.250 / 0.250 | 0.004 | 0.500 / 0.500 (0.200) |');
    expect(md).toContain('after 1 untimed pass per group');
  });
});

describe('tao bench --families flags', () => {
  it('refuses --warmup (solves of the settings benchmark) with --families, naming --warmup-passes', async () => {
    await expect(bench(['--families', 'mkp', '--warmup', '3'])).rejects.toThrow(InvalidValueError);
    await expect(bench(['--families', 'mkp', '--warmup', '3'])).rejects.toThrow(/--warmup-passes/);
  });

  it('refuses --warmup-passes without --families', async () => {
    await expect(bench(['--warmup-passes', '2'])).rejects.toThrow(/--warmup-passes applies to --families/);
  });

  it('refuses to render a saved report of another schema', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tao-family-report-'));
    try {
      const file = join(dir, 'old.json');
      writeFileSync(
        file,
        JSON.stringify({ kind: 'tao-bench-families', schemaVersion: FAMILY_REPORT_SCHEMA_VERSION - 1, groups: [] }),
      );
      await expect(bench(['--families', 'mkp', '--from-report', file])).rejects.toThrow(
        new RegExp(
          `schemaVersion ${FAMILY_REPORT_SCHEMA_VERSION - 1}; this tao reads tao-bench-families ${FAMILY_REPORT_SCHEMA_VERSION}`,
        ),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
