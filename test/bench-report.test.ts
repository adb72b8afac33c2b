import { describe, expect, it } from 'vitest';
import { reportToJson, withoutSamples, type BenchReport, type RunnerReport } from './helpers/internals.js';
import { parseSettings } from './helpers/internals.js';
import { renderSvg } from './helpers/internals.js';
import { formatMarkdown, formatTable } from './helpers/internals.js';
import { report } from './helpers/bench-report.js';

describe('bench report rendering', () => {
  it('puts the paper Table 9 row beside the in-thread DP only', () => {
    const table = formatTable(report());
    const ds64 = table.split('\n').filter((l) => l.startsWith('ds-64'));
    expect(ds64[0]).toMatch(/^ds-64 +wasm .* 12\.5 +88\.8 +5\.24%$/);
    // No paper columns after the ratio column on other runners' rows.
    expect(ds64[1]).toMatch(/^ds-64 +pool .* -$/);
    expect(formatMarkdown(report()).split('\n')).toHaveLength(2 + 18);
  });

  it('plots every runner point and the six paper points (GLM has none)', () => {
    const svg = renderSvg(report());
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    const markers = (fill: string): number =>
      [...svg.matchAll(/<(circle|rect|polygon) [^>]*fill="([^"]+)"[^>]*stroke="([^"]+)"/g)].filter(
        (m) => m[2] === fill && m[3] !== 'none',
      ).length;
    // Paper: hollow (white fill) black markers, 6 points + 1 legend marker.
    expect(markers('white')).toBe(7);
    // wasm: 9 points + the legend has no wasm marker (runners are legend lines).
    expect(markers('#1f77b4')).toBe(9);
  });

  it('draws the goal P95 targets as dashed lines at their height on the log axis', () => {
    const r = report();
    r.goal.targets = { ...r.goal.targets, inThreadP95Ms: 0.3, poolP95Ms: 2 };
    const svg = renderSvg(r);
    // The decade ticks give the axis: y(v) = y(1) - log10(v) * (y(1) - y(10)).
    const tickY = (label: string): number =>
      Number(new RegExp(`<text x="[^"]+" y="([^"]+)" text-anchor="end">${label}</text>`).exec(svg)![1]) - 4;
    const decade = tickY('1') - tickY('10');
    const expected = (ms: number): number => tickY('1') - Math.log10(ms) * decade;
    const goals = [
      ...svg.matchAll(
        /<line class="goal" data-goal="(\w+)" data-ms="([^"]+)" x1="[^"]+" x2="[^"]+" y1="([^"]+)" y2="([^"]+)" stroke="([^"]+)"/g,
      ),
    ];
    expect(goals.map((g) => [g[1], Number(g[2]), g[5]])).toEqual([
      ['inThreadP95Ms', 0.3, '#1f77b4'],
      ['poolP95Ms', 2, '#ff7f0e'],
    ]);
    for (const g of goals) {
      expect(Number(g[3])).toBeCloseTo(expected(Number(g[2])), 0);
      expect(g[4]).toBe(g[3]);
    }
    expect(svg).toContain('in-thread goal 0.3 ms');
    expect(svg).toContain('pool goal 2 ms');
  });

  it('notes the CPU, cores, load, Node version and date under the plot', () => {
    const r = report();
    r.createdAt = '2026-11-30T23:00:00.000Z';
    r.machine = {
      ...r.machine,
      cpus: { model: 'AMD EPYC 7B13', count: 2 },
      parallelism: 2,
      loadAverage1m: 1.7,
      node: 'v20.20.2',
    };
    const note = /<text class="machine"[^>]*>([^<]*)<\/text>/.exec(renderSvg(r))?.[1];
    expect(note).toBe('AMD EPYC 7B13, 2 cores (2 usable), load 1.70 at start, Node v20.20.2, 2026-11-30');
  });

  it('drops raw samples from a baseline and writes non-finite numbers as null', () => {
    const r = report();
    (r.settings[0]!.runners.wasm as RunnerReport).time.p99 = NaN;
    const json = JSON.parse(reportToJson(withoutSamples(r))) as BenchReport;
    expect(json.settings[0]?.runners.wasm?.samplesMs).toBeUndefined();
    expect(json.settings[0]?.runners.wasm?.time.p99).toBeNull();
    expect(r.settings[0]?.runners.wasm?.samplesMs).toEqual([0.2]);
  });

  it('parses setting lists by name and rejects an unknown one naming the flag', () => {
    expect(parseSettings('qwen-96,ds-16', '--settings')).toEqual(['ds-16', 'qwen-96']);
    expect(parseSettings('all', '--settings')).toHaveLength(9);
    expect(() => parseSettings('ds-17', '--settings')).toThrow('--settings: unknown setting "ds-17"');
  });
});
