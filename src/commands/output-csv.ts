/**
 * `--csv FILE` beside `--json FILE`: the summary table a command prints, as CSV (RFC 4180), one row per
 * policy or grid point and, per metric of the table, its mean over the seeds and the half-width of its
 * 95% Student-t interval (`metric_mean`, `metric_ci95`), with the number of seeds run.
 */
import type { SummaryMetric } from '../sim/summary.js';
import { TABLE_COLUMNS } from '../sim/table.js';

interface Row {
  readonly label: string;
  readonly seeds: number;
  readonly metrics: Readonly<
    Record<SummaryMetric, { readonly mean: number; readonly ci95: number; readonly n: number }>
  >;
}

/** A CSV field: quoted when it holds a comma, a quote or a line break; a non-finite number is empty. */
function field(x: string | number): string {
  if (typeof x === 'number') return Number.isFinite(x) ? String(x) : '';
  return /[",\r\n]/.test(x) ? `"${x.replace(/"/g, '""')}"` : x;
}

/** The rows under a header naming `labelTitle` and each metric of the printed table. */
export function summaryCsv(
  rows: readonly Row[],
  labelTitle: string,
  metrics: readonly SummaryMetric[] = TABLE_COLUMNS.map((c) => c.metric),
): string {
  const header = [labelTitle, 'seeds', ...metrics.flatMap((m) => [`${m}_mean`, `${m}_ci95`])];
  const lines = [header.map(field).join(',')];
  for (const r of rows) {
    lines.push(
      [
        field(r.label),
        field(r.seeds),
        ...metrics.flatMap((m) => [field(r.metrics[m].mean), field(r.metrics[m].ci95)]),
      ].join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
