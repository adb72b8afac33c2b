/** Plain-text reports for the terminal: the summary table and the run's setting and profile. */
import { type Dist } from './dist.js';
import { decodeRate, prefillRate } from './engine.js';
import type { SimulationReport } from './run.js';
import type { Estimate } from './stats.js';
import type { SummaryMetric } from './summary.js';

/** A table row: a label (a policy, a grid point) and its estimates. */
export interface SummaryRow {
  readonly policy: string;
  readonly metrics: Readonly<Record<SummaryMetric, Estimate>>;
}

interface Column {
  readonly title: string;
  readonly metric: SummaryMetric;
  readonly digits: number;
  readonly scale?: number;
}

/** Columns of the summary table. */
export const TABLE_COLUMNS: readonly Column[] = [
  { title: 'latency s', metric: 'latencyMean', digits: 1 },
  { title: 'P95 s', metric: 'latencyP95', digits: 1 },
  { title: 'TTFT s', metric: 'ttftMean', digits: 3 },
  { title: 'TTFT P99 s', metric: 'ttftP99', digits: 2 },
  { title: 'sched wait s', metric: 'schedulerWaitMean', digits: 3 },
  { title: 'steady tok/s', metric: 'decodeThroughputSteady', digits: 1 },
  { title: 'cache hit %', metric: 'cacheHitRate', digits: 1, scale: 100 },
  { title: 'makespan s', metric: 'makespan', digits: 0 },
  { title: 'preempt', metric: 'preemptions', digits: 0 },
  { title: 'tool %', metric: 'toolShare', digits: 1, scale: 100 },
  { title: 'fallbacks', metric: 'solverFallbacks', digits: 0 },
];

/** "mean ± ci" (or just the mean with one seed, "-" for no value). */
export function formatEstimate(e: Estimate, digits: number, scale = 1): string {
  if (Number.isNaN(e.mean)) return '-';
  const m = (e.mean * scale).toFixed(digits);
  return Number.isNaN(e.ci95) ? m : `${m} ± ${(e.ci95 * scale).toFixed(digits)}`;
}

function pad(cells: string[][]): string {
  const widths = cells[0]!.map((_, c) => Math.max(...cells.map((row) => row[c]!.length)));
  return cells
    .map((row) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '))
    .join('\n');
}

/** The summary as an aligned text table, one row per policy. */
export function formatSummaryTable(
  summary: readonly SummaryRow[],
  columns: readonly Column[] = TABLE_COLUMNS,
  first = 'policy',
): string {
  const rows = [[first, ...columns.map((c) => c.title)]];
  for (const s of summary) {
    rows.push([s.policy, ...columns.map((c) => formatEstimate(s.metrics[c.metric], c.digits, c.scale))]);
  }
  return pad(rows);
}

/** The summary as a Markdown table (for the README). */
export function formatMarkdownTable(
  summary: readonly SummaryRow[],
  columns: readonly Column[] = TABLE_COLUMNS,
  first = 'policy',
): string {
  const head = `| ${first} | ${columns.map((c) => c.title).join(' | ')} |`;
  const rule = `|---|${columns.map(() => '---:').join('|')}|`;
  const body = summary.map(
    (s) =>
      `| ${s.policy} | ${columns.map((c) => formatEstimate(s.metrics[c.metric], c.digits, c.scale)).join(' | ')} |`,
  );
  return [head, rule, ...body].join('\n');
}

function dist(d: Dist): string {
  switch (d.kind) {
    case 'constant':
      return `${d.value}`;
    case 'uniform':
      return `uniform ${d.min}..${d.max}`;
    case 'lognormal':
      return `lognormal(median ${d.median}, sigma ${d.sigma}${d.min === undefined ? '' : `, min ${d.min}`}${d.max === undefined ? '' : `, max ${d.max}`})`;
  }
}

/** The setting, engine constants and workload profile a report used. */
export function formatSetting(
  r: Pick<SimulationReport, 'setting' | 'description' | 'workers' | 'nodes' | 'engine' | 'profile' | 'mode' | 'seeds'>,
): string {
  const e = r.engine;
  const p = r.profile;
  const lines = [
    `setting ${r.setting}: ${r.description}`,
    `  workers ${r.workers}; run ${'tasks' in r.mode ? `${r.mode.tasks} tasks` : `${r.mode.duration} s`}; seeds ${r.seeds.join(',')}`,
    `  nodes ${r.nodes.map((n) => `${n.id}=${n.capacity}${n.reportedCapacity === undefined ? '' : ` (reports ${n.reportedCapacity})`}`).join(' ')} (KV tokens; a scheduler counts against the reported)`,
    `  engine ${e.name}: step = ${e.stepBase} s + ${e.stepPerSeq} s/seq + ${e.stepPerKToken} s per 1k KV tokens` +
      ` (+ ${e.prefillPerKToken} s per 1k prefill tokens, chunk ${e.prefillChunk}; ${e.requestOverhead} s a request); block ${e.blockSize} tokens;` +
      ` prefill ${prefillRate(e).toFixed(0)} tok/s, decode ${decodeRate(e, 16, 10_000).toFixed(0)} tok/s at batch 16 x 10k`,
    `profile ${p.name}: ${p.description}`,
    `  initial tokens ${dist(p.initialTokens)}; turns ${dist(p.turns)}; output ${dist(p.output)}`,
    `  tool result tokens lognormal(median ${p.resultMedianFirst} -> ${p.resultMedianLate} over ${p.resultDecayTurns} turns, sigma ${p.resultSigma}, max ${p.resultMax})`,
    `  context limit ${p.contextLimit} (${p.onContextLimit === 'end' ? 'task ends' : `compact to ${dist(p.compactTo)}`})`,
    '  tools:',
    ...p.tools.map(
      (t) =>
        `    ${t.label.padEnd(12)} ${t.name.padEnd(20)} weight ${String(t.weight).padEnd(5)} ${dist(t.duration)}` +
        `${t.sleep === null ? '' : ` + sleep ${dist(t.sleep)}`}${t.timeout === null ? '' : `, timeout ${t.timeout} s`}` +
        `${t.deadline === 'none' ? '' : `, exposes ${t.deadline}${t.deadline === 'eta' ? ` +-${t.etaJitter} s` : ''}`}`,
    ),
  ];
  return lines.join('\n');
}
