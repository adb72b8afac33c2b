import { beforeAll, describe, expect, it } from 'vitest';
import { loadTaoDeps, type TaoDeps } from './helpers/internals.js';
import { simulate } from './helpers/internals.js';
import { runningRequestsSvg, sweepSvg, niceTicks } from './helpers/internals.js';
import { expandGrid } from './helpers/internals.js';
import { formatMarkdownTable, formatSummaryTable } from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

describe('a short run at 160 workers finishes', () => {
  it('two simulated minutes of qwen-160 under tao and thunderagent, with a running-requests series', async () => {
    const report = await simulate({
      setting: 'qwen-160',
      policies: ['tao', 'thunderagent'],
      seeds: [1],
      mode: { duration: 120 },
      deps,
    });
    expect(report.runs).toHaveLength(2);
    for (const r of report.runs) {
      expect(r.simulatedTime).toBe(120);
      expect(r.metrics.requests).toBeGreaterThan(100);
      // One sample per second from time 0 to 120 inclusive.
      expect(r.series.running).toHaveLength(121);
      expect(Math.max(...r.series.running)).toBeGreaterThan(0);
    }
    expect(report.profile.name).toBe('swe-lite-qwen');
    const table = formatSummaryTable(report.summary);
    expect(table.split('\n')).toHaveLength(3);
    expect(formatMarkdownTable(report.summary).split('\n')[1]).toMatch(/^\|---\|/);
  });
});

describe('plots', () => {
  it('draws one line per policy with its legend, in a well-formed SVG document', () => {
    const svg = runningRequestsSvg(
      [
        { label: 'tao', interval: 1, running: [0, 5, 10, 8], note: 'done at 1.0 min' },
        { label: 'dynamo <&>', interval: 1, running: [0, 3, 12, 2] },
      ],
      'Running requests',
    );
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg).toContain('tao (done at 1.0 min)');
    expect(svg).toContain('dynamo &lt;&amp;&gt;');
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    const opened = svg.match(/<(?!\/)[a-z]+[^>]*[^/]>/g)?.filter((t) => !t.startsWith('<svg')) ?? [];
    const closed = svg.match(/<\/[a-z]+>/g)?.filter((t) => t !== '</svg>') ?? [];
    expect(opened.length).toBe(closed.length);
  });

  it('draws sweep points with their interval bars', () => {
    const svg = sweepSvg(
      [
        { params: { h: 5 }, label: 'h=5', mean: 10, ci95: 1 },
        { params: { h: 10 }, label: 'h=10', mean: 12, ci95: Number.NaN },
      ],
      'sweep',
      'latency',
    );
    expect(svg.match(/<circle/g)).toHaveLength(2);
    expect(svg).toContain('data-label="h=10"');
  });

  it('chooses round tick values', () => {
    expect(niceTicks(0, 100, 5)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(0, 7, 5)).toEqual([0, 2, 4, 6]);
  });
});

describe('sweep grid', () => {
  it('is the Cartesian product in parameter order and validates values by name', () => {
    expect(expandGrid({ quantum: [512, 1024], h: [5, 10] })).toEqual([
      { h: 5, quantum: 512 },
      { h: 5, quantum: 1024 },
      { h: 10, quantum: 512 },
      { h: 10, quantum: 1024 },
    ]);
    expect(() => expandGrid({ delta: [0.2, 1] })).toThrow('grid.delta[1] must be in (0, 1)');
    expect(() => expandGrid({ stateBudget: [0] })).toThrow('grid.stateBudget[0] must be an integer from 1 to');
  });
});
