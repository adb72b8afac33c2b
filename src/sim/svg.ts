/**
 * Hand-written SVG plots (no dependencies): running requests over time per policy (the shape of the
 * paper's figure 4), and a metric with 95% intervals across sweep points.
 */
import { escapeXml } from '../xml.js';

const COLORS = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#ff7f0e',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
];

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

/** Under the plot: tick labels at +16, the x-axis label at +34; anything lower starts at +LEGEND_GAP. */
const X_LABEL_OFFSET = 34;
const LEGEND_GAP = 56;

function axes(
  f: Frame,
  title: string,
  xLabel: string,
  yLabel: string,
  xTicks: number[] | null,
  yTicks: number[],
): string[] {
  const parts: string[] = [];
  const plotBottom = f.height - f.bottom;
  parts.push(`<rect x="0" y="0" width="${f.width}" height="${f.height}" fill="#ffffff"/>`);
  parts.push(
    `<text x="${f.width / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
  );
  parts.push(...yAxis(f, yLabel, yTicks));
  if (xTicks !== null) {
    for (const t of xTicks) {
      const x = sx(f, t).toFixed(1);
      parts.push(`<line x1="${x}" y1="${plotBottom}" x2="${x}" y2="${plotBottom + 4}" stroke="#333"/>`);
      parts.push(
        `<text class="x-tick" x="${x}" y="${plotBottom + 16}" text-anchor="middle" font-size="11">${fmt(t)}</text>`,
      );
    }
  }
  parts.push(
    `<text class="x-label" x="${(f.left + f.width - f.right) / 2}" y="${plotBottom + X_LABEL_OFFSET}" text-anchor="middle" font-size="12">${escapeXml(xLabel)}</text>`,
  );
  return parts;
}

/** Grid lines, y tick labels, both axis lines and the rotated y label of one plot area. */
function yAxis(f: Frame, yLabel: string, yTicks: number[]): string[] {
  const parts: string[] = [];
  const plotBottom = f.height - f.bottom;
  for (const t of yTicks) {
    const y = sy(f, t).toFixed(1);
    parts.push(`<line x1="${f.left}" y1="${y}" x2="${f.width - f.right}" y2="${y}" stroke="#e5e5e5"/>`);
    parts.push(
      `<text x="${f.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle" font-size="11">${fmt(t)}</text>`,
    );
  }
  parts.push(`<line x1="${f.left}" y1="${plotBottom}" x2="${f.width - f.right}" y2="${plotBottom}" stroke="#333"/>`);
  parts.push(`<line x1="${f.left}" y1="${f.top}" x2="${f.left}" y2="${plotBottom}" stroke="#333"/>`);
  const mid = (f.top + plotBottom) / 2;
  parts.push(
    `<text x="16" y="${mid}" text-anchor="middle" font-size="12" transform="rotate(-90 16 ${mid})">${escapeXml(yLabel)}</text>`,
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
    bottom: LEGEND_GAP + legendHeight,
    x0: 0,
    x1: Math.max(tMax / 60, 1e-9),
    y0: 0,
    y1: yMax * 1.05,
  };
  const parts = axes(f, title, 'time (min)', 'running requests', niceTicks(0, f.x1, 8), niceTicks(0, f.y1, 6));
  const groups = coincidingGroups(series);
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
    // Identical series share one path: each draws every k-th dash of it, so all their colours show.
    const group = groups[i]!;
    const k = group.length;
    const j = group.indexOf(i);
    const dash =
      k > 1
        ? ` stroke-dasharray="${COINCIDE_DASH} ${COINCIDE_DASH * (k - 1)}" stroke-dashoffset="${-j * COINCIDE_DASH}"`
        : '';
    parts.push(
      `<polyline class="series" data-series="${i}" fill="none" stroke="${color}" stroke-width="${k > 1 ? 2 : 1.4}"${dash} points="${pts.join(' ')}"/>`,
    );
    const ly = f.height - legendHeight + 6 + i * 18;
    parts.push(`<line x1="${f.left}" y1="${ly}" x2="${f.left + 24}" y2="${ly}" stroke="${color}" stroke-width="3"/>`);
    const notes = [s.note, group[0] !== i ? `identical to ${series[group[0]!]!.label}` : undefined].filter(
      (x): x is string => x !== undefined,
    );
    const label = notes.length === 0 ? s.label : `${s.label} (${notes.join('; ')})`;
    parts.push(
      `<text class="legend" x="${f.left + 30}" y="${ly}" dominant-baseline="middle" font-size="12">${escapeXml(label)}</text>`,
    );
  });
  return wrap(f, parts);
}

/** Dash length (px) of coinciding series. */
const COINCIDE_DASH = 6;

/** For each series, the indices of all series with exactly its samples (itself included), in order. */
function coincidingGroups(series: readonly RunningSeries[]): number[][] {
  const same = (a: RunningSeries, b: RunningSeries): boolean =>
    a.interval === b.interval && a.running.length === b.running.length && a.running.every((v, k) => v === b.running[k]);
  return series.map((s) => series.flatMap((o, j) => (same(s, o) ? [j] : [])));
}

/** One point of a sweep plot: a grid point's parameters and label, the metric's mean and 95% half-width. */
export interface SweepPoint {
  /** The swept parameters' values at this grid point (empty: the defaults). */
  readonly params: Readonly<Record<string, number>>;
  readonly label: string;
  readonly mean: number;
  readonly ci95: number;
}

const PANEL_HEIGHT = 250;

/**
 * A metric across sweep grid points with 95% confidence bars: one panel per swept parameter, its values
 * as categories on x (points, never joined: the grid is not a numeric axis). With several parameters,
 * each combination of the others is one series (colour), dodged sideways within a category.
 */
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
  const names = [...new Set(points.flatMap((p) => Object.keys(p.params)))];
  const panels = names.length === 0 ? [null] : names;
  const maxValues = Math.max(1, ...names.map((n) => new Set(points.map((p) => p.params[n])).size));
  const seriesKeys = (name: string | null): string[] => [...new Set(points.map((p) => otherKey(p, name)))];
  const maxSeries = Math.max(1, ...panels.map((n) => seriesKeys(n).length));
  const width = Math.max(520, 70 + 20 + maxValues * Math.max(70, 22 * maxSeries));
  const allKeys = new Set(panels.flatMap((n) => (seriesKeys(n).length > 1 ? seriesKeys(n) : [])));
  const legend = allKeys.size > 0 ? allKeys.size * 18 + 8 : 0;
  const height = 34 + panels.length * (PANEL_HEIGHT + LEGEND_GAP) + legend;
  const parts: string[] = [`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`];
  parts.push(
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
  );
  const colorOf = new Map<string, string>();
  panels.forEach((name, k) => {
    const values =
      name === null ? [Number.NaN] : [...new Set(points.map((p) => p.params[name]!))].sort((a, b) => a - b);
    const keys = seriesKeys(name);
    const top = 34 + k * (PANEL_HEIGHT + LEGEND_GAP);
    const f: Frame = {
      width,
      height: top + PANEL_HEIGHT,
      left: 70,
      right: 20,
      top: top + 10,
      bottom: 0,
      x0: -0.5,
      x1: values.length - 0.5,
      y0: lo - pad,
      y1: hi + pad,
    };
    parts.push(`<g class="panel" data-param="${escapeXml(name ?? '')}">`);
    parts.push(...yAxis(f, yLabel, niceTicks(f.y0, f.y1, 5)));
    const slot = (sx(f, 1) - sx(f, 0)) * 0.3;
    values.forEach((v, i) => {
      const x = sx(f, i).toFixed(1);
      if (i > 0) {
        const xs = sx(f, i - 0.5).toFixed(1);
        parts.push(`<line x1="${xs}" y1="${f.top}" x2="${xs}" y2="${f.height}" stroke="#f0f0f0"/>`);
      }
      parts.push(`<line x1="${x}" y1="${f.height}" x2="${x}" y2="${f.height + 4}" stroke="#333"/>`);
      parts.push(
        `<text class="x-tick" x="${x}" y="${f.height + 16}" text-anchor="middle" font-size="11">${name === null ? 'defaults' : fmt(v)}</text>`,
      );
    });
    parts.push(
      `<text class="x-label" x="${(f.left + width - f.right) / 2}" y="${f.height + X_LABEL_OFFSET}" text-anchor="middle" font-size="12">${escapeXml(name ?? 'grid point')}</text>`,
    );
    for (const p of points) {
      if (Number.isNaN(p.mean)) continue;
      const i = name === null ? 0 : values.indexOf(p.params[name]!);
      const s = keys.indexOf(otherKey(p, name));
      const key = keys[s]!;
      if (keys.length > 1 && !colorOf.has(key)) colorOf.set(key, COLORS[colorOf.size % COLORS.length]!);
      const color = colorOf.get(key) ?? COLORS[0]!;
      const x = sx(f, i) + (keys.length > 1 ? (s / (keys.length - 1) - 0.5) * slot : 0);
      const y = sy(f, p.mean);
      parts.push(`<g class="point" data-label="${escapeXml(p.label)}">`);
      if (!Number.isNaN(p.ci95)) {
        const y0 = sy(f, p.mean - p.ci95).toFixed(1);
        const y1 = sy(f, p.mean + p.ci95).toFixed(1);
        parts.push(
          `<line x1="${x.toFixed(1)}" y1="${y0}" x2="${x.toFixed(1)}" y2="${y1}" stroke="${color}" stroke-width="1.5"/>`,
        );
        parts.push(
          `<line x1="${(x - 5).toFixed(1)}" y1="${y0}" x2="${(x + 5).toFixed(1)}" y2="${y0}" stroke="${color}"/>`,
        );
        parts.push(
          `<line x1="${(x - 5).toFixed(1)}" y1="${y1}" x2="${(x + 5).toFixed(1)}" y2="${y1}" stroke="${color}"/>`,
        );
      }
      parts.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="3.5" fill="${color}"/>`);
      parts.push('</g>');
    }
    parts.push('</g>');
  });
  if (legend > 0) {
    let ly = height - legend + 8;
    for (const [key, color] of colorOf) {
      parts.push(
        `<circle cx="80" cy="${ly}" r="4" fill="${color}"/><text class="legend" x="90" y="${ly}" dominant-baseline="middle" font-size="12">${escapeXml(key)}</text>`,
      );
      ly += 18;
    }
  }
  return wrap({ width, height } as Frame, parts);
}

/** The grid point's other parameters (all but `name`), as the series label of a panel. */
function otherKey(p: SweepPoint, name: string | null): string {
  const rest = Object.entries(p.params).filter(([k]) => k !== name);
  return rest.length === 0 ? 'all' : rest.map(([k, v]) => `${k}=${v}`).join(' ');
}

function wrap(f: Frame, parts: string[]): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${f.width}" height="${f.height}" viewBox="0 0 ${f.width} ${f.height}" font-family="sans-serif">\n` +
    parts.join('\n') +
    '\n</svg>\n'
  );
}
