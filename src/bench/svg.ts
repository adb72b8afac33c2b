/**
 * A hand-written SVG plot of P95 solve time against workers: one colour per runner, one marker and line per
 * model family (a line joins one family's three worker counts), the paper's Table 9 points in black, hollow.
 * Log-scale y: the runners span four orders of magnitude. Dashed horizontal lines mark the goal's P95
 * targets (in-thread in the WASM runner's colour, pool in the pool's), and a note under the plot says what
 * machine measured it.
 */
import type { BenchReport } from './report.js';
import { escapeXml } from '../xml.js';
import { settingInfo, type SettingInfo } from './settings.js';

const W = 760;
const H = 476;
const M = { left: 64, right: 190, top: 36, bottom: 70 };
const COLORS: Record<string, string> = {
  wasm: '#1f77b4',
  pool: '#ff7f0e',
  reference: '#2ca02c',
  bfd: '#9467bd',
  highs: '#8c564b',
};
const EXTRA = ['#e377c2', '#17becf', '#bcbd22', '#7f7f7f'];
const FAMILIES: SettingInfo['family'][] = ['ds', 'qwen', 'glm'];
const DASH: Record<SettingInfo['family'], string> = { ds: '', qwen: '6 3', glm: '2 3' };

function marker(family: SettingInfo['family'], x: number, y: number, fill: string, stroke: string): string {
  const r = 4.5;
  if (family === 'ds')
    return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r}" fill="${fill}" stroke="${stroke}" stroke-width="1.5"/>`;
  if (family === 'qwen')
    return `<rect x="${(x - r).toFixed(1)}" y="${(y - r).toFixed(1)}" width="${2 * r}" height="${2 * r}" fill="${fill}" stroke="${stroke}" stroke-width="1.5"/>`;
  const p = [
    [x, y - r - 1],
    [x + r + 1, y],
    [x, y + r + 1],
    [x - r - 1, y],
  ];
  return `<polygon points="${p.map(([a, b]) => `${(a as number).toFixed(1)},${(b as number).toFixed(1)}`).join(' ')}" fill="${fill}" stroke="${stroke}" stroke-width="1.5"/>`;
}

/** CPU, cores, load when the run started, Node, date: what a reader needs to judge the numbers. */
export function machineNote(report: BenchReport): string {
  const m = report.machine;
  return (
    `${m.cpus.model}, ${m.cpus.count} cores (${m.parallelism} usable), load ${m.loadAverage1m.toFixed(2)} at start, ` +
    `Node ${m.node}, ${report.createdAt.slice(0, 10)}`
  );
}

interface Point {
  family: SettingInfo['family'];
  workers: number;
  p95: number;
}

/** Renders the plot of `report` as a standalone SVG document. */
export function renderSvg(report: BenchReport): string {
  const series = new Map<string, Point[]>();
  const paper: Point[] = [];
  for (const s of report.settings) {
    const info = settingInfo(s.setting);
    for (const r of Object.values(s.runners)) {
      if (r === undefined || !(r.time.p95 > 0)) continue;
      const list = series.get(r.runner) ?? [];
      list.push({ family: info.family, workers: info.workers, p95: r.time.p95 });
      series.set(r.runner, list);
    }
    if (s.paper !== null) paper.push({ family: info.family, workers: info.workers, p95: s.paper.solveP95Ms });
  }
  const targets = report.goal.targets;
  const goals = [
    { key: 'inThreadP95Ms', label: 'in-thread goal', ms: targets.inThreadP95Ms, color: COLORS.wasm as string },
    { key: 'poolP95Ms', label: 'pool goal', ms: targets.poolP95Ms, color: COLORS.pool as string },
  ];
  const all = [...[...series.values()].flat(), ...paper].map((p) => p.p95).concat(goals.map((g) => g.ms));
  const lo = Math.pow(10, Math.floor(Math.log10(Math.min(...all, 0.1))));
  const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(...all, 1))));
  const xMax = 170;
  const px = (w: number): number => M.left + (w / xMax) * (W - M.left - M.right);
  const py = (v: number): number =>
    M.top + ((Math.log10(hi) - Math.log10(v)) / (Math.log10(hi) - Math.log10(lo))) * (H - M.top - M.bottom);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
  );
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  out.push(
    `<text x="${M.left}" y="20" font-size="14" font-weight="bold">P95 solve time vs workers (tao-solver ${escapeXml(report.package.version)}, ${report.workload.count} problems per setting)</text>`,
  );
  // Grid and y ticks at each decade, with 2x and 5x minor lines.
  for (let d = Math.log10(lo); d <= Math.log10(hi) + 1e-9; d++) {
    const v = Math.pow(10, d);
    const y = py(v);
    out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" stroke="#ccc"/>`);
    out.push(
      `<text x="${M.left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end">${v >= 1 ? v.toFixed(0) : v.toPrecision(1)}</text>`,
    );
    for (const k of [2, 5]) {
      const vm = v * k;
      if (vm < hi)
        out.push(
          `<line x1="${M.left}" x2="${W - M.right}" y1="${py(vm).toFixed(1)}" y2="${py(vm).toFixed(1)}" stroke="#eee"/>`,
        );
    }
  }
  for (const w of [0, 16, 32, 64, 96, 128, 160]) {
    const x = px(w);
    out.push(`<line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${M.top}" y2="${H - M.bottom}" stroke="#eee"/>`);
    out.push(`<text x="${x.toFixed(1)}" y="${H - M.bottom + 16}" text-anchor="middle">${w}</text>`);
  }
  out.push(
    `<rect x="${M.left}" y="${M.top}" width="${W - M.left - M.right}" height="${H - M.top - M.bottom}" fill="none" stroke="#333"/>`,
  );
  out.push(`<text x="${(M.left + W - M.right) / 2}" y="${H - M.bottom + 34}" text-anchor="middle">workers</text>`);
  for (const g of goals) {
    const y = py(g.ms).toFixed(1);
    out.push(
      `<line class="goal" data-goal="${g.key}" data-ms="${g.ms}" x1="${M.left}" x2="${W - M.right}" y1="${y}" y2="${y}" stroke="${g.color}" stroke-width="1.2" stroke-dasharray="8 4" opacity="0.8"/>`,
    );
  }
  out.push(
    `<text class="machine" x="${M.left}" y="${H - 12}" font-size="11" fill="#444">${escapeXml(machineNote(report))}</text>`,
  );
  out.push(
    `<text transform="translate(16 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle">P95 solve time (ms, log scale)</text>`,
  );
  let extra = 0;
  const colorOf = new Map<string, string>();
  for (const name of series.keys()) colorOf.set(name, COLORS[name] ?? EXTRA[extra++ % EXTRA.length] ?? '#000');
  const draw = (points: Point[], color: string, fill: string): void => {
    for (const f of FAMILIES) {
      const pts = points.filter((p) => p.family === f).sort((a, b) => a.workers - b.workers);
      if (pts.length > 1) {
        const d = pts
          .map((p, i) => `${i === 0 ? 'M' : 'L'}${px(p.workers).toFixed(1)},${py(p.p95).toFixed(1)}`)
          .join(' ');
        out.push(
          `<path d="${d}" fill="none" stroke="${color}" stroke-width="1.5"${DASH[f] ? ` stroke-dasharray="${DASH[f]}"` : ''}/>`,
        );
      }
      for (const p of pts) out.push(marker(f, px(p.workers), py(p.p95), fill, color));
    }
  };
  for (const [name, pts] of series) {
    const c = colorOf.get(name) as string;
    draw(pts, c, c);
  }
  draw(paper, '#000', 'white');
  // Legend: runners by colour, families by marker, the paper.
  let ly = M.top + 8;
  const lx = W - M.right + 16;
  for (const [name] of series) {
    const c = colorOf.get(name) as string;
    out.push(
      `<line x1="${lx}" x2="${lx + 22}" y1="${ly}" y2="${ly}" stroke="${c}" stroke-width="2"/><text x="${lx + 28}" y="${ly + 4}">${escapeXml(name)}</text>`,
    );
    ly += 18;
  }
  out.push(
    `<line x1="${lx}" x2="${lx + 22}" y1="${ly}" y2="${ly}" stroke="#000" stroke-width="1.5"/>${marker('ds', lx + 11, ly, 'white', '#000')}<text x="${lx + 28}" y="${ly + 4}">paper Table 9</text>`,
  );
  ly += 26;
  for (const g of goals) {
    out.push(
      `<line x1="${lx}" x2="${lx + 22}" y1="${ly}" y2="${ly}" stroke="${g.color}" stroke-width="1.2" stroke-dasharray="8 4"/><text x="${lx + 28}" y="${ly + 4}">${g.label} ${g.ms} ms</text>`,
    );
    ly += 18;
  }
  ly += 8;
  const names: Record<SettingInfo['family'], string> = {
    ds: 'DeepSeek (2 nodes)',
    qwen: 'Qwen (4 nodes)',
    glm: 'GLM (1 node)',
  };
  for (const f of FAMILIES) {
    out.push(
      `<line x1="${lx}" x2="${lx + 22}" y1="${ly}" y2="${ly}" stroke="#555"${DASH[f] ? ` stroke-dasharray="${DASH[f]}"` : ''}/>${marker(f, lx + 11, ly, '#555', '#555')}<text x="${lx + 28}" y="${ly + 4}">${names[f]}</text>`,
    );
    ly += 18;
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}
