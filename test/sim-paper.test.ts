import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  comparePaper,
  InvalidValueError,
  kendallTau,
  loadTaoDeps,
  PAPER_RUN_POLICIES,
  PAPER_SETTINGS,
  paperCell,
  paperRuns,
  runPaperRuns,
  TERMINAL_BENCH_PROFILE,
} from './helpers/internals.js';

/** Brute force over all pairs, written independently: concordant minus discordant over n(n-1)/2. */
function tauOracle(a: number[], b: number[]): number {
  let c = 0;
  let d = 0;
  for (let i = 0; i < a.length; i++)
    for (let j = 0; j < a.length; j++) {
      if (i >= j) continue;
      const x = (a[i]! - a[j]!) * (b[i]! - b[j]!);
      if (x > 0) c++;
      else if (x < 0) d++;
    }
  return (c - d) / ((a.length * (a.length - 1)) / 2);
}

describe('paper comparison', () => {
  it('Kendall tau: +1 for the same order, -1 reversed, and the pair count otherwise', () => {
    expect(kendallTau([1, 2, 3, 4, 5], [10, 20, 30, 40, 50])).toBe(1);
    expect(kendallTau([1, 2, 3, 4, 5], [5, 4, 3, 2, 1])).toBe(-1);
    // One swapped adjacent pair of five: 9 concordant, 1 discordant.
    expect(kendallTau([1, 2, 3, 4, 5], [1, 2, 4, 3, 5])).toBeCloseTo(0.8, 12);
    const a = [3, 1, 4, 1.5, 9];
    const b = [2, 7, 1, 8, 2.8];
    expect(kendallTau(a, b)).toBeCloseTo(tauOracle(a, b), 12);
  });

  it('bad input gets a typed error', async () => {
    expect(() => kendallTau([1, 2], [1, 2, 3])).toThrow(InvalidValueError);
    await expect(runPaperRuns([{ setting: 'ds-17', policy: 'dynamo', seed: 1 }], {})).rejects.toThrow(
      'setting must be a paper setting (got "ds-17")',
    );
    await expect(
      runPaperRuns([{ setting: 'ds-16', policy: 'dynamo', seed: 1, workload: 'no-such' }], {}),
    ).rejects.toThrow('workload must be a profile name (got "no-such")');
    expect(() => paperCell('ds', 'SWE-Lite', 'tao', 17)).toThrow(InvalidValueError);
  });

  it("the run list covers nine settings x eight policies x the seeds, Table 4's seven further policies at ds-32, and the three DeepSeek settings on Terminal-Bench, each once", () => {
    const specs = paperRuns([1, 2]);
    expect(PAPER_SETTINGS).toHaveLength(9);
    expect(PAPER_RUN_POLICIES).toEqual([
      'dynamo',
      'round-robin',
      'cache-aware',
      'thunderagent',
      'tao',
      'tao-ready',
      'tao-tick',
      'tao-sticky',
    ]);
    expect(specs).toHaveLength((9 + 3) * 8 * 2 + 7 * 2);
    const table4 = specs.filter((s) => !PAPER_RUN_POLICIES.includes(s.policy));
    expect(new Set(table4.map((s) => `${s.setting}/${s.workload}`))).toEqual(new Set(['ds-32/undefined']));
    expect(new Set(specs.map((s) => `${s.setting}/${s.policy}/${s.seed}/${s.workload}`)).size).toBe(specs.length);
    const tb = specs.filter((s) => s.workload === TERMINAL_BENCH_PROFILE);
    expect(new Set(tb.map((s) => s.setting))).toEqual(new Set(['ds-16', 'ds-32', 'ds-64']));
    expect(paperRuns([1], PAPER_SETTINGS, false)).toHaveLength(9 * 8 + 7);
    expect(paperRuns([1], ['ds-16'], false)).toHaveLength(8);
  });

  it('runs on worker threads give the serial results bit for bit, and the same comparison', async () => {
    const specs = paperRuns([1], ['ds-16', 'glm-96']);
    const deps = await loadTaoDeps();
    const serial = await runPaperRuns(specs, { deps, tasks: 10, jobs: 1 });
    const parallel = await runPaperRuns(specs, { deps, tasks: 10, jobs: 3 });
    expect(parallel).toEqual(serial);
    expect(serial.map((r) => `${r.setting}/${r.policy}/${r.profile}`)).toEqual(
      specs.map(
        (s) =>
          `${s.setting}/${s.policy}/${s.workload ?? (s.setting.startsWith('ds') ? 'swe-lite-ds' : 'swe-lite-glm')}`,
      ),
    );
    expect(comparePaper(parallel, [1], 10)).toEqual(comparePaper(serial, [1], 10));
  });

  it('tao paper on a tiny run: per cell and metric the simulated value, the paper value and their ratio, tau, best policies, a verdict', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tao-paper-'));
    const json = join(dir, 'r.json');
    const md = join(dir, 'r.md');
    const svg = join(dir, 'r.svg');
    const text = execFileSync(
      process.execPath,
      [
        'dist/cli.js',
        'paper',
        '--settings',
        'ds-16,glm-96',
        '--seeds',
        '1',
        '--tasks',
        '12',
        '--json',
        json,
        '--markdown',
        md,
        '--svg',
        svg,
      ],
      { encoding: 'utf8' },
    );
    expect(text).toMatch(/^ds-16:/m);
    expect(text).toMatch(/^glm-96:/m);
    expect(text).toMatch(/goal (not )?met/);
    const r = JSON.parse(readFileSync(json, 'utf8'));
    expect(r.cells).toHaveLength(2 * 3);
    for (const c of r.cells) {
      expect(['latency', 'ttft', 'decode']).toContain(c.metric);
      expect(c.values.map((v: { policy: string }) => v.policy)).toEqual([
        'dynamo',
        'round-robin',
        'cache-aware',
        'thunderagent',
        'tao',
        'tao-ready',
        'tao-tick',
        'tao-sticky',
      ]);
      const workers = Number(c.setting.split('-')[1]);
      const family = c.setting.split('-')[0];
      const index = ['latency', 'ttft', 'decode'].indexOf(c.metric);
      for (const v of c.values) {
        expect(v.paper).toBe(paperCell(family, 'SWE-Lite', v.row, workers)[index]);
        expect(v.ratio).toBeCloseTo(v.sim / v.paper, 12);
        expect(v.sim).toBeGreaterThan(0);
      }
      expect(c.tau).toBeGreaterThanOrEqual(-1);
      expect(c.tau).toBeLessThanOrEqual(1);
    }
    // Each other reading in TAO's place: tau by counting pairs, the best by scanning, from the cells' values.
    const lower = { latency: true, ttft: true, decode: false } as Record<string, boolean>;
    type V = { policy: string; sim: number; paper: number };
    expect(r.readings.map((x: { policy: string }) => x.policy)).toEqual(['tao-ready', 'tao-tick', 'tao-sticky']);
    for (const reading of r.readings) {
      let tauSum = 0;
      let matches = 0;
      for (const c of r.cells) {
        const five: V[] = c.values
          .slice(0, 5)
          .map((v: V) =>
            v.policy === 'tao' ? { ...c.values.find((x: V) => x.policy === reading.policy), policy: 'tao' } : v,
          );
        let pairs = 0;
        for (let i = 0; i < 5; i++)
          for (let j = i + 1; j < 5; j++) {
            const a = five[i]!;
            const b = five[j]!;
            // A tie on either side (one node: the three routers run alike) is neither concordant nor not.
            const d = (a.sim - b.sim) * (a.paper - b.paper);
            pairs += d > 0 ? 1 : d < 0 ? -1 : 0;
          }
        tauSum += pairs / 10;
        const pick = (k: 'sim' | 'paper'): string =>
          [...five].sort((a, b) => (lower[c.metric] ? a[k] - b[k] : b[k] - a[k]))[0]!.policy;
        if (pick('sim') === pick('paper')) matches++;
      }
      expect(reading.meanTau).toBeCloseTo(tauSum / r.cells.length, 12);
      expect(reading.bestMatches).toBe(matches);
      expect(reading.cells).toBe(r.cells.length);
    }
    expect(r.goal).toHaveLength(5);
    expect(r.goal[0].of).toBe(2 * 4 * 2);
    expect(r.goal[1].of).toBe(2 * 4);
    // Not fitted: glm-96 against SWE-verified (the same runs), ds-16 with the claude-code profile against Terminal-Bench.
    expect(r.outOfSample.map((o: { benchmark: string }) => o.benchmark)).toEqual(['SWE-verified', 'Terminal-Bench']);
    const [verified, tb] = r.outOfSample;
    expect(verified.cells.map((c: { setting: string }) => c.setting)).toEqual(['glm-96', 'glm-96', 'glm-96']);
    expect(verified.cells[0].values[0].paper).toBe(paperCell('glm', 'SWE-verified', 'dynamo', 96)[0]);
    expect(tb.cells[0].setting).toBe('ds-16');
    expect(tb.cells[0].values[0].paper).toBe(paperCell('ds', 'Terminal-Bench', 'dynamo', 16)[0]);
    expect(tb.profile).toBe('claude-code');
    expect(tb.verdict).toMatch(/^not fitted/);
    expect(readFileSync(md, 'utf8')).toMatch(/^## glm-96$/m);
    expect(readFileSync(md, 'utf8')).toContain('Generated by `tao paper --settings ds-16,glm-96');
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg /);
  });

  it('rejects a setting that is not a paper setting, naming the flag', () => {
    let err = '';
    try {
      execFileSync(process.execPath, ['dist/cli.js', 'paper', '--settings', 'ds-17'], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (e) {
      err = String((e as { stderr: string }).stderr);
    }
    expect(err).toMatch(/--settings must be a list of/);
  });
});
