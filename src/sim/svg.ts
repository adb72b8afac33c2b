/**
 * Hand-written SVG plots (no dependencies): running requests over time per policy (the shape of the
 * paper's figure 4), and a metric with 95% intervals across sweep points.
 */
import { escapeXml } from '../xml.js';

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

function fmt(x: number): string {
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1000) return x.toFixed(0);
  if (a >= 10) return x.toFixed(1).replace(/\.0$/, '');
  if (a >= 1) return x.toFixed(2).replace(/\.?0+$/, '');
  return x.toPrecision(2);
}

/** About `count` round tick values covering [lo, hi]. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

interface Frame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

function sx(f: Frame, x: number): number {
  return f.left + ((x - f.x0) / (f.x1 - f.x0 || 1)) * (f.width - f.left - f.right);
}

function sy(f: Frame, y: number): number {
  return f.height - f.bottom - ((y - f.y0) / (f.y1 - f.y0 || 1)) * (f.height - f.top - f.bottom);
}

function axes(f: Frame, title: string, xLabel: string, yLabel: string, xTicks: number[] | null, yTicks: number[]): string[] {
  const parts: string[] = [];
  const plotBottom = f.height - f.bottom;
  parts.push(`<rect x="0" y="0" width="${f.width}" height="${f.height}" fill="#ffffff"/>`);
  parts.push(`<text x="${f.width / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(title)}</text>`);
  for (const t of yTicks) {
    const y = sy(f, t).toFixed(1);
    parts.push(`<line x1="${f.left}" y1="${y}" x2="${f.width - f.right}" y2="${y}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${f.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle" font-size="11">${fmt(t)}</text>`);
  }
  if (xTicks !== null) {
    for (const t of xTicks) {
      const x = sx(f, t).toFixed(1);
      parts.push(`<line x1="${x}" y1="${plotBottom}" x2="${x}" y2="${plotBottom + 4}" stroke="#333"/>`);
      parts.push(`<text x="${x}" y="${plotBottom + 16}" text-anchor="middle" font-size="11">${fmt(t)}</text>`);
    }
  }
  parts.push(`<line x1="${f.left}" y1="${plotBottom}" x2="${f.width - f.right}" y2="${plotBottom}" stroke="#333"/>`);
  parts.push(`<line x1="${f.left}" y1="${f.top}" x2="${f.left}" y2="${plotBottom}" stroke="#333"/>`);
  parts.push(`<text x="${(f.left + f.width - f.right) / 2}" y="${f.height - 8}" text-anchor="middle" font-size="12">${escapeXml(xLabel)}</text>`);
  parts.push(
    `<text x="16" y="${(f.top + plotBottom) / 2}" text-anchor="middle" font-size="12" transform="rotate(-90 16 ${(f.top + plotBottom) / 2})">${escapeXml(yLabel)}</text>`,
  );
  return parts;
}

/** One line of the running-requests plot. */
export interface RunningSeries {
  readonly label: string;
  /** Seconds between samples; sample k is at k * interval. */
  readonly interval: number;
  readonly running: readonly number[];
  /** Shown in the legend (e.g. the makespan), if given. */
  readonly note?: string;
}

/**
 * Running requests over time, one line per series, x in minutes. Long series are averaged into at most
 * `maxPoints` buckets per line so the file stays small.
 */
export function runningRequestsSvg(series: readonly RunningSeries[], title: string, maxPoints = 1200): string {
  let tMax = 0;
  let yMax = 1;
  for (const s of series) {
    tMax = Math.max(tMax, (s.running.length - 1) * s.interval);
    for (const v of s.running) if (v > yMax) yMax = v;
  }
  const legendHeight = 18 * series.length;
  const f: Frame = {
    width: 900,
    height: 420 + legendHeight,
    left: 60,
    right: 20,
    top: 34,
    bottom: 46 + legendHeight,
    x0: 0,
    x1: Math.max(tMax / 60, 1e-9),
    y0: 0,
    y1: yMax * 1.05,
  };
  const parts = axes(f, title, 'time (min)', 'running requests', niceTicks(0, f.x1, 8), niceTicks(0, f.y1, 6));
  series.forEach((s, i) => {
    const n = s.running.length;
    const bucket = Math.max(1, Math.ceil(n / maxPoints));
    const pts: string[] = [];
    for (let k = 0; k < n; k += bucket) {
      let sum = 0;
      const end = Math.min(n, k + bucket);
      for (let j = k; j < end; j++) sum += s.running[j]!;
      const t = ((k + end - 1) / 2) * s.interval;
      pts.push(`${sx(f, t / 60).toFixed(1)},${sy(f, sum / (end - k)).toFixed(1)}`);
    }
    const color = COLORS[i % COLORS.length]!;
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="1.4" points="${pts.join(' ')}"/>`);
    const ly = f.height - legendHeight - 4 + i * 18;
    parts.push(`<line x1="${f.left}" y1="${ly}" x2="${f.left + 24}" y2="${ly}" stroke="${color}" stroke-width="3"/>`);
    const label = s.note === undefined ? s.label : `${s.label} (${s.note})`;
    parts.push(`<text x="${f.left + 30}" y="${ly}" dominant-baseline="middle" font-size="12">${escapeXml(label)}</text>`);
  });
  return wrap(f, parts);
}

/** One point of a sweep plot: a grid point's label and the metric's mean and 95% half-width. */
export interface SweepPoint {
  readonly label: string;
  readonly mean: number;
  readonly ci95: number;
}

/** A metric across sweep grid points (categorical x), with 95% confidence bars. */
export function sweepSvg(points: readonly SweepPoint[], title: string, yLabel: string): string {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    const c = Number.isNaN(p.ci95) ? 0 : p.ci95;
    if (Number.isNaN(p.mean)) continue;
    lo = Math.min(lo, p.mean - c);
    hi = Math.max(hi, p.mean + c);
  }
  if (!Number.isFinite(lo)) {
    lo = 0;
    hi = 1;
  }
  const pad = (hi - lo) * 0.1 || Math.abs(hi) * 0.1 || 1;
  const f: Frame = {
    width: Math.max(480, 90 * points.length + 120),
    height: 400,
    left: 70,
    right: 20,
    top: 34,
    bottom: 90,
    x0: -0.5,
    x1: points.length - 0.5,
    y0: lo - pad,
    y1: hi + pad,
  };
  const parts = axes(f, title, 'grid point', yLabel, null, niceTicks(f.y0, f.y1, 6));
  const line = points
    .map((p, i) => (Number.isNaN(p.mean) ? null : `${sx(f, i).toFixed(1)},${sy(f, p.mean).toFixed(1)}`))
    .filter((x): x is string => x !== null);
  if (line.length > 1) parts.push(`<polyline fill="none" stroke="#9ecae1" points="${line.join(' ')}"/>`);
  points.forEach((p, i) => {
    const x = sx(f, i);
    parts.push(
      `<text x="${x.toFixed(1)}" y="${f.height - f.bottom + 14}" text-anchor="end" font-size="11" transform="rotate(-35 ${x.toFixed(1)} ${f.height - f.bottom + 14})">${escapeXml(p.label)}</text>`,
    );
    if (Number.isNaN(p.mean)) return;
    const y = sy(f, p.mean);
    if (!Number.isNaN(p.ci95)) {
      const y0 = sy(f, p.mean - p.ci95).toFixed(1);
      const y1 = sy(f, p.mean + p.ci95).toFixed(1);
      parts.push(`<line x1="${x.toFixed(1)}" y1="${y0}" x2="${x.toFixed(1)}" y2="${y1}" stroke="#1f77b4" stroke-width="1.5"/>`);
      parts.push(`<line x1="${(x - 5).toFixed(1)}" y1="${y0}" x2="${(x + 5).toFixed(1)}" y2="${y0}" stroke="#1f77b4"/>`);
      parts.push(`<line x1="${(x - 5).toFixed(1)}" y1="${y1}" x2="${(x + 5).toFixed(1)}" y2="${y1}" stroke="#1f77b4"/>`);
    }
    parts.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="3.5" fill="#1f77b4"/>`);
  });
  return wrap(f, parts);
}

function wrap(f: Frame, parts: string[]): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${f.width}" height="${f.height}" viewBox="0 0 ${f.width} ${f.height}" font-family="sans-serif">\n` +
    parts.join('\n') +
    '\n</svg>\n'
  );
}
