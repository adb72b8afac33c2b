/** Plain-text and Markdown tables of paired comparisons against a reference policy. */
import type { PairedComparison, PairedEstimate, SummaryMetric } from './summary.js';

interface ComparisonColumn {
  readonly title: string;
  readonly metric: SummaryMetric;
}

/** Columns of the comparison table: relative differences to the baseline, paired over seeds. */
export const COMPARISON_COLUMNS: readonly ComparisonColumn[] = [
  { title: 'latency', metric: 'latencyMean' },
  { title: 'P95 latency', metric: 'latencyP95' },
  { title: 'TTFT', metric: 'ttftMean' },
  { title: 'TTFT P99', metric: 'ttftP99' },
  { title: 'steady decode', metric: 'decodeThroughputSteady' },
  { title: 'makespan', metric: 'makespan' },
];

/**
 * "+12.3% ± 4.5%" (relative difference with its paired 95% half-width), "-" without a value. Past +-100%
 * a percentage stops reading well (+47643.9%): the ratio to the baseline is shown instead, "x477.44 ± 72.78".
 */
export function formatRelative(e: PairedEstimate): string {
  if (Number.isNaN(e.relative)) return '-';
  if (Math.abs(e.relative) > 1) {
    const ratio = `x${(1 + e.relative).toFixed(2)}`;
    return Number.isNaN(e.relativeCi95) ? ratio : `${ratio} ± ${e.relativeCi95.toFixed(2)}`;
  }
  const sign = e.relative >= 0 ? '+' : '';
  const mean = `${sign}${(e.relative * 100).toFixed(1)}%`;
  return Number.isNaN(e.relativeCi95) ? mean : `${mean} ± ${(e.relativeCi95 * 100).toFixed(1)}%`;
}

function cells(comparisons: readonly PairedComparison[], columns: readonly ComparisonColumn[]): string[][] {
  const baseline = comparisons[0]?.baseline ?? '';
  const rows = [[`vs ${baseline}`, ...columns.map((c) => c.title)]];
  for (const c of comparisons) rows.push([c.policy, ...columns.map((col) => formatRelative(c.metrics[col.metric]))]);
  return rows;
}

/** Aligned text table: one row per policy, each cell (policy - baseline) / baseline, paired 95% interval. */
export function formatComparisonTable(
  comparisons: readonly PairedComparison[],
  columns: readonly ComparisonColumn[] = COMPARISON_COLUMNS,
): string {
  if (comparisons.length === 0) return '';
  const rows = cells(comparisons, columns);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '))
    .join('\n');
}

/** The same as a Markdown table. */
export function formatComparisonMarkdown(
  comparisons: readonly PairedComparison[],
  columns: readonly ComparisonColumn[] = COMPARISON_COLUMNS,
): string {
  if (comparisons.length === 0) return '';
  const rows = cells(comparisons, columns);
  const head = `| ${rows[0]!.join(' | ')} |`;
  const rule = `|---|${columns.map(() => '---:').join('|')}|`;
  return [head, rule, ...rows.slice(1).map((r) => `| ${r.join(' | ')} |`)].join('\n');
}
