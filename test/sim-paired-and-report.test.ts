import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSimulateCommand as simulateCmd } from './helpers/internals.js';
import { buildSnapshot } from './helpers/internals.js';
import { loadTaoDeps, type TaoDeps } from './helpers/internals.js';
import { createPolicy } from './helpers/internals.js';
import type { Policy, SchedulerView } from './helpers/internals.js';
import { simulate } from './helpers/internals.js';
import { sweep } from './helpers/internals.js';
import { defaultTaoParams } from './helpers/internals.js';
import { parseSetting } from './helpers/internals.js';
import { Simulation } from './helpers/internals.js';
import { compareToBaseline, pairedDifference } from './helpers/internals.js';
import type { RunResult } from './helpers/internals.js';
import type { RunMetrics } from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

describe('paired intervals over seeds', () => {
  it('match a hand-computed case', () => {
    // Differences 1, 0, 2: mean 1, sample sd 1, t(0.975, 2) = 4.303, half-width 4.303 / sqrt(3) = 2.48434.
    const e = pairedDifference([11, 12, 16], [10, 12, 14]);
    expect(e.n).toBe(3);
    expect(e.mean).toBe(1);
    expect(e.ci95).toBeCloseTo(2.48434, 5);
  });

  it('pair runs by seed and are narrower than unpaired intervals when seeds move both policies together', () => {
    const run = (policy: 'tao' | 'cache-aware', seed: number, latencyMean: number): RunResult =>
      ({ policy, seed, metrics: { latencyMean, diagnostics: {} } as unknown as RunMetrics }) as unknown as RunResult;
    // Seed effects of +-100 s, a constant 10 s gap: the paired difference is exactly 10 with no spread.
    const runs = [
      run('tao', 1, 900),
      run('tao', 2, 1100),
      run('tao', 3, 1000),
      run('cache-aware', 3, 990),
      run('cache-aware', 1, 890),
      run('cache-aware', 2, 1090),
    ];
    const [c] = compareToBaseline(runs, 'cache-aware');
    expect(c!.policy).toBe('tao');
    expect(c!.seeds).toEqual([1, 2, 3]);
    expect(c!.metrics.latencyMean.diff.mean).toBeCloseTo(10, 10);
    expect(c!.metrics.latencyMean.diff.ci95).toBeCloseTo(0, 10);
    expect(c!.metrics.latencyMean.relative).toBeCloseTo(10 / 990, 10);
  });
});

describe('reports', () => {
  it('simulate JSON carries the schema version, the package version, every TAO parameter and paired comparisons', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tao-sim-'));
    const file = join(dir, 'r.json');
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => (out.push(s), true)) as typeof process.stdout.write;
    try {
      expect(
        await simulateCmd([
          '--setting',
          'ds-16',
          '--policy',
          'all',
          '--seeds',
          '2',
          '--tasks',
          '8',
          '--baseline',
          'tao',
          '--json',
          file,
        ]),
      ).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const r = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(Object.keys(r).slice(0, 2)).toEqual(['schemaVersion', 'packageVersion']);
    expect(r.schemaVersion).toBe(2);
    expect(r.packageVersion).toBe(pkg.version);
    expect(Object.keys(r.tao as object).sort()).toEqual(
      [
        'creditSource',
        'creditUnit',
        'delta',
        'eventAdmission',
        'halfLife',
        'horizon',
        'quantum',
        'reserve',
        'stateBudget',
      ].sort(),
    );
    expect(r.baseline).toBe('tao');
    const comparisons = r.comparisons as { policy: string; metrics: Record<string, { diff: { n: number } }> }[];
    expect(comparisons.map((c) => c.policy)).not.toContain('tao');
    expect(comparisons[0]!.metrics.latencyMean!.diff.n).toBe(2);
    const run0 = (r.runs as { metrics: Record<string, unknown> }[])[0]!.metrics;
    for (const k of [
      'ttftP50',
      'ttftP99',
      'ttftMax',
      'schedulerWaitMean',
      'engineQueueMean',
      'prefillMean',
      'toolReturnToFirstTokenMean',
      'decodeThroughputSteady',
      'preemptions',
    ]) {
      expect(run0, k).toHaveProperty(k);
    }
    expect(Object.keys(run0.diagnostics as object).sort()).toEqual(
      ['allFitTickShare', 'completionsPerSecond', 'freedPerTickTokens', 'heldByToolCapacityShare', 'toolShare'].sort(),
    );
    expect(out.join('')).toContain('paired over seeds');
  });

  it('sweep reports carry the schema version and every TAO parameter of each point', async () => {
    const report = await sweep({ setting: 'ds-16', grid: { h: [5, 20] }, seeds: [1], mode: { tasks: 4 }, deps });
    expect(report.schemaVersion).toBe(2);
    expect(report.points.map((p) => p.tao.halfLife)).toEqual([5, 20]);
    expect(report.points[0]!.tao).toEqual({ ...defaultTaoParams, halfLife: 5 });
  });

  it('the TTFT parts add up to the TTFT', async () => {
    const report = await simulate({
      setting: 'ds-32',
      policies: ['tao', 'cache-aware', 'thunderagent'],
      seeds: [1],
      mode: { tasks: 40 },
      deps,
    });
    for (const r of report.runs) {
      const m = r.metrics;
      expect(m.schedulerWaitMean + m.engineQueueMean + m.prefillMean, r.policy).toBeCloseTo(m.ttftMean, 9);
      expect(m.ttftMax).toBeGreaterThanOrEqual(m.ttftP99);
      expect(m.ttftP99).toBeGreaterThanOrEqual(m.ttftP50);
    }
  });
});

describe('no snapshot a policy sees holds future information', () => {
  it.each(['tao', 'tao-sticky', 'thunderagent', 'cache-aware'] as const)(
    '%s: running tools show no return time, and nothing equals one',
    (name) => {
      // Long tools on small nodes, so that sticky policies pause sessions during their tools too.
      const setting = parseSetting({
        name: 'ds-16-long',
        extends: 'ds-16',
        workload: 'swe-bench',
        nodes: [
          { id: 'n0', capacity: 48_000 },
          { id: 'n1', capacity: 48_000 },
        ],
      });
      const inner = createPolicy(name, { setting, deps, tao: { creditSource: 'live' } });
      let checked = 0;
      let sim: Simulation | undefined;
      const spy: Policy = {
        ...inner,
        schedule(view: SchedulerView, cause) {
          for (const s of view.pool) {
            const live = sim!.sessions[s.index]!;
            if (!s.pending && s.tool !== undefined) {
              // Its tool is still running: the future return time is nowhere in what the policy sees.
              expect(live.toolReturnsAt).toBeGreaterThan(view.time);
              expect(s.tool.returnedAt).toBeUndefined();
              const seen = buildSnapshot(view, 'live').sessions.find((x) => x.id === s.id)!;
              const { deadline, ...rest } = seen.tool!;
              expect(JSON.stringify({ ...seen, tool: rest })).not.toContain(String(live.toolReturnsAt));
              if (deadline !== undefined && deadline === live.toolReturnsAt) {
                // Only when the call ran into the timeout its interface exposes (an upper bound, known upfront).
                const kind = setting.workload.tools[live.task.toolKind[live.turn - 1]!]!;
                expect(kind.deadline).toBe('timeout');
                expect(live.toolReturnsAt - s.tool.startedAt).toBeCloseTo(kind.timeout!, 9);
              }
              checked++;
            }
            for (const o of s.observations) expect(o.observedAt).toBeLessThanOrEqual(view.time);
          }
          return inner.schedule(view, cause);
        },
        toolReturned: (c) => inner.toolReturned(c),
      };
      sim = new Simulation({ setting, seed: 3, mode: { tasks: 30 }, sampleEvery: 0 }, spy);
      sim.run();
      expect(checked).toBeGreaterThan(50);
    },
  );
});
