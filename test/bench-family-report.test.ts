/** The family report says which schema and which package produced it, and with which parameters. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAMILY_REPORT_SCHEMA_VERSION, runFamilies, type FamilyRunOptions } from '../src/bench/family-run.js';

describe('family report', () => {
  it('carries schemaVersion, the package from package.json and the options it ran with', async () => {
    const options: FamilyRunOptions = {
      families: ['mkp'],
      seed: 3,
      count: 1,
      mkpCount: 1,
      highsSample: 0,
      highsTimeLimitSec: 1,
      cycles: 1,
      warmupIterations: 0,
      pool: false,
      stateBudget: 1_000_000,
    };
    const report = await runFamilies(options, 'tao bench --families mkp', { log: () => {} });
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
    expect(report.schemaVersion).toBe(FAMILY_REPORT_SCHEMA_VERSION);
    expect(report.package).toEqual({ name: pkg.name, version: pkg.version });
    expect(report.options).toEqual(options);
    expect(report.command).toBe('tao bench --families mkp');
    expect(report.groups.length).toBeGreaterThan(0);
  });
});
