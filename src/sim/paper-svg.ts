/**
 * A paper comparison as SVG: one panel per metric, the nine cells on x, the ratio simulated / paper on a
 * log scale on y (clipped to x1/8-x8), one colour per policy, the goal band shaded.
 */
import { escapeXml } from '../xml.js';
import { PAPER_GOAL, PAPER_METRICS, type PaperReport, TAO_READINGS } from './paper.js';

const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#d62728', '#e377c2', '#8c564b'];
const PANEL = 170;
const LEFT = 60;
const LIMIT = 3;

export function paperRatioSvg(r: PaperReport, title: string): string {
  const settings = [...new Set(r.cells.map((c) => c.setting))];
  const policies = r.cells[0]?.values.map((v) => v.policy) ?? [];
  const width = LEFT + 20 + settings.length * 70;
  const height = 40 + PAPER_METRICS.length * (PANEL + 30) + 24;
  const parts: string[] = [`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`];
  parts.push(
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
  );
  const x = (i: number): number => LEFT + 35 + i * 70;
  PAPER_METRICS.forEach((m, k) => {
    const top = 40 + k * (PANEL + 30);
    const y = (ratio: number): number =>
      top + PANEL / 2 - (Math.max(-LIMIT, Math.min(LIMIT, Math.log2(ratio))) / LIMIT) * (PANEL / 2);
    const band = m.key === 'ttft' ? PAPER_GOAL.ttftBand : PAPER_GOAL.baselineBand;
    parts.push(`<g class="panel" data-metric="${m.key}">`);
    parts.push(
      `<rect x="${LEFT}" y="${y(band[1]).toFixed(1)}" width="${width - LEFT - 20}" height="${(y(band[0]) - y(band[1])).toFixed(1)}" fill="#e8f4e8"/>`,
    );
    for (const t of [0.125, 0.25, 0.5, 1, 2, 4, 8]) {
      parts.push(
        `<line x1="${LEFT}" y1="${y(t).toFixed(1)}" x2="${width - 20}" y2="${y(t).toFixed(1)}" stroke="${t === 1 ? '#888' : '#eee'}"/>`,
      );
      parts.push(
        `<text x="${LEFT - 6}" y="${y(t).toFixed(1)}" text-anchor="end" dominant-baseline="middle" font-size="10">x${t}</text>`,
      );
    }
    parts.push(
      `<text x="14" y="${top + PANEL / 2}" transform="rotate(-90 14 ${top + PANEL / 2})" text-anchor="middle" font-size="12">${escapeXml(m.label)}</text>`,
    );
    settings.forEach((s, i) => {
      parts.push(
        `<text x="${x(i)}" y="${top + PANEL + 14}" text-anchor="middle" font-size="11">${escapeXml(s)}</text>`,
      );
      const cell = r.cells.find((c) => c.setting === s && c.metric === m.key)!;
      cell.values.forEach((v, j) => {
        const cx = x(i) + (j - (policies.length - 1) / 2) * 7;
        const hollow = TAO_READINGS.some((t) => t.policy === v.policy);
        parts.push(
          `<circle class="point" data-policy="${v.policy}" cx="${cx.toFixed(1)}" cy="${y(v.ratio).toFixed(1)}" r="3.5" ` +
            `${hollow ? `fill="none" stroke="${COLORS[j % COLORS.length]}"` : `fill="${COLORS[j % COLORS.length]}"`}/>`,
        );
      });
    });
    parts.push('</g>');
  });
  let lx = LEFT;
  policies.forEach((p, j) => {
    parts.push(
      `<circle cx="${lx}" cy="${height - 12}" r="4" fill="${COLORS[j % COLORS.length]}"/><text x="${lx + 8}" y="${height - 12}" dominant-baseline="middle" font-size="11">${escapeXml(p)}</text>`,
    );
    lx += 16 + p.length * 7;
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">\n` +
    parts.join('\n') +
    '\n</svg>\n'
  );
}
