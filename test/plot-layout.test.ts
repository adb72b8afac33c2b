/**
 * The simulator's plots, read back as geometry: the x-axis label clears the tick labels and the legend,
 * identical series stay visible and are named as identical, sweep points sit in per-parameter panels as
 * categories and are never joined by a line.
 */
import { describe, expect, it } from 'vitest';
import { runningRequestsSvg, sweepSvg, type SweepPoint } from './helpers/internals.js';

interface Box {
  cls: string;
  text: string;
  top: number;
  bottom: number;
}

/** Vertical extent of every text element, from its y and baseline (12 px type: 11 px above, 3 below). */
function textBoxes(svg: string): Box[] {
  return [...svg.matchAll(/<text( class="([^"]+)")? x="[^"]+" y="([^"]+)"([^>]*)>([^<]*)<\/text>/g)].map((m) => {
    const y = Number(m[3]);
    const middle = (m[4] ?? '').includes('dominant-baseline="middle"');
    return { cls: m[2] ?? '', text: m[5] ?? '', top: middle ? y - 7 : y - 11, bottom: middle ? y + 7 : y + 3 };
  });
}

const overlaps = (a: Box, b: Box): boolean => a.top < b.bottom && b.top < a.bottom;

describe('running-requests plot', () => {
  const same = [0, 4, 9, 7, 3, 0];
  const svg = runningRequestsSvg(
    [
      { label: 'tao', interval: 30, running: same, note: 'makespan 2.5 min' },
      { label: 'thunderagent', interval: 30, running: [...same] },
      { label: 'fifo', interval: 30, running: [0, 2, 3, 5, 1, 0] },
      { label: 'dynamo', interval: 30, running: [...same] },
    ],
    'Running requests',
  );

  it('puts the x-axis label between the tick labels and the legend, overlapping neither', () => {
    const boxes = textBoxes(svg);
    const label = boxes.find((b) => b.cls === 'x-label')!;
    const ticks = boxes.filter((b) => b.cls === 'x-tick');
    const legend = boxes.filter((b) => b.cls === 'legend');
    expect(ticks.length).toBeGreaterThan(2);
    expect(legend).toHaveLength(4);
    for (const b of [...ticks, ...legend]) expect(overlaps(label, b), `${label.text} vs ${b.text}`).toBe(false);
    for (const t of ticks) expect(label.top).toBeGreaterThanOrEqual(t.bottom);
    for (const l of legend) expect(l.top).toBeGreaterThanOrEqual(label.bottom);
    for (let i = 1; i < legend.length; i++) expect(overlaps(legend[i - 1]!, legend[i]!)).toBe(false);
  });

  it('draws identical series as interleaved dashes of one path and says which they duplicate', () => {
    const lines = [
      ...svg.matchAll(
        /<polyline class="series" data-series="(\d)"[^>]*?(?: stroke-dasharray="([^"]+)" stroke-dashoffset="([^"]+)")? points="([^"]+)"/g,
      ),
    ];
    expect(lines).toHaveLength(4);
    const [tao, thunder, fifo, dynamo] = lines;
    // The three identical series trace the same points, each with its own phase of a shared dash pattern.
    expect(thunder![4]).toBe(tao![4]);
    expect(dynamo![4]).toBe(tao![4]);
    expect(tao![2]).toBe('6 12');
    expect(new Set([tao![3], thunder![3], dynamo![3]]).size).toBe(3);
    // A series of its own is solid.
    expect(fifo![2]).toBeUndefined();
    const legend = textBoxes(svg)
      .filter((b) => b.cls === 'legend')
      .map((b) => b.text);
    expect(legend).toEqual([
      'tao (makespan 2.5 min)',
      'thunderagent (identical to tao)',
      'fifo',
      'dynamo (identical to tao)',
    ]);
  });
});

describe('sweep plot', () => {
  const points: SweepPoint[] = [];
  for (const h of [5, 10, 20])
    for (const quantum of [512, 2048])
      points.push({ params: { h, quantum }, label: `h=${h} quantum=${quantum}`, mean: h + quantum / 100, ci95: 1 });
  const svg = sweepSvg(points, 'sweep', 'latency (s)');
  const panels = [
    ...svg.matchAll(/<g class="panel" data-param="([^"]*)">([\s\S]*?)\n<\/g>\n(?=<g class="panel"|<circle|<\/svg>|$)/g),
  ];

  it('has one panel per parameter with its values as categories, and never joins points by a line', () => {
    expect(panels.map((p) => p[1])).toEqual(['h', 'quantum']);
    expect(svg).not.toMatch(/<polyline|<path/);
    const ticks = (body: string): string[] => [...body.matchAll(/class="x-tick"[^>]*>([^<]*)</g)].map((m) => m[1]!);
    expect(ticks(panels[0]![2]!)).toEqual(['5', '10', '20']);
    expect(ticks(panels[1]![2]!)).toEqual(['512', '2048']);
  });

  it('places every grid point in its own category, the other parameters side by side within it', () => {
    const body = panels[0]![2]!;
    const tickX = [...body.matchAll(/<text class="x-tick" x="([^"]+)"/g)].map((m) => Number(m[1]));
    const half = (tickX[1]! - tickX[0]!) / 2;
    const cx = (label: string): number =>
      Number(new RegExp(`data-label="${label}">[\\s\\S]*?<circle cx="([^"]+)"`).exec(body)![1]);
    points.forEach((p, k) => {
      const i = [5, 10, 20].indexOf(p.params.h!);
      expect(Math.abs(cx(p.label) - tickX[i]!), p.label).toBeLessThan(half);
      for (const q of points.slice(k + 1)) if (q.params.h === p.params.h) expect(cx(q.label)).not.toBe(cx(p.label));
    });
  });

  it('keeps each x-axis label below its tick labels', () => {
    const boxes = textBoxes(svg);
    const labels = boxes.filter((b) => b.cls === 'x-label');
    const ticks = boxes.filter((b) => b.cls === 'x-tick');
    expect(labels).toHaveLength(2);
    for (const l of labels) for (const t of ticks) expect(overlaps(l, t), `${l.text} vs ${t.text}`).toBe(false);
  });
});
