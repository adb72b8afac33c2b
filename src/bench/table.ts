/**
 * The terminal rendering of a report: one row per setting and runner, the paper's Table 9 row beside the
 * in-thread DP (the quantity the paper reports), then the goal's verdict. Also the Markdown form the
 * README's measured table is pasted from.
 */
import { fmtCount } from './goal.js';
import type { BenchReport, RunnerReport, SettingReport } from './report.js';

const COLUMNS = [
  'setting',
  'runner',
  'n',
  'mean',
  'P50',
  'P95',
  'P99',
  'max',
  'fallback',
  'exact',
  'mismatch',
  'work P50',
  'work P95',
  'x ref',
  'paper mean',
  'paper P95',
  'paper fb',
] as const;

function ms(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '-';
  if (x >= 100) return x.toFixed(0);
  if (x >= 10) return x.toFixed(1);
  if (x >= 1) return x.toFixed(2);
  return x.toFixed(3);
}

function pct(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '-' : `${x.toFixed(x >= 10 ? 1 : 2)}%`;
}

/** The cells of one row, in COLUMNS order. */
export function rowCells(s: SettingReport, r: RunnerReport): string[] {
  const paper = r.runner === 'wasm' ? s.paper : null;
  const v = r.validation;
  return [
    s.setting,
    r.runner,
    String(r.time.n),
    ms(r.time.mean),
    ms(r.time.p50),
    ms(r.time.p95),
    ms(r.time.p99),
    ms(r.time.max),
    pct(r.fallbackPct),
    v.unverified > 0 ? `${v.exact} (+${v.unverified} unverified)` : String(v.exact),
    String(v.mismatch),
    fmtCount(r.cells.median),
    fmtCount(r.cells.p95),
    r.ratioToReference === null
      ? '-'
      : `${r.ratioToReference.median.toFixed(3)}${r.ratioToReference.over === 'dp-heavy' ? '*' : ''}`,
    paper ? ms(paper.solveMeanMs) : '',
    paper ? ms(paper.solveP95Ms) : '',
    paper ? pct(paper.fallbackPct) : '',
  ];
}

function rows(report: BenchReport): string[][] {
  const out: string[][] = [];
  for (const s of report.settings)
    for (const r of Object.values(s.runners)) if (r !== undefined) out.push(rowCells(s, r));
  return out;
}

/** A fixed-width text table with right-aligned numbers. */
export function formatTable(report: BenchReport): string {
  const body = rows(report);
  const head = [...COLUMNS];
  const width = head.map((h, c) => Math.max(h.length, ...body.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((x, c) => (c < 2 ? x.padEnd(width[c] as number) : x.padStart(width[c] as number)))
      .join('  ')
      .trimEnd();
  const lines = [line(head), width.map((w) => '-'.repeat(w)).join('  ')];
  let last = '';
  for (const r of body) {
    if (last !== '' && r[0] !== last) lines.push('');
    last = r[0] as string;
    lines.push(line(r));
  }
  return lines.join('\n');
}

/** The same rows as a Markdown table. */
export function formatMarkdown(report: BenchReport): string {
  const head = [...COLUMNS];
  const md = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [md(head), md(head.map((_, c) => (c < 2 ? '---' : '---:'))), ...rows(report).map(md)].join('\n');
}

/**
 * One row per setting, ours beside the paper's Table 9: the README's measured table. `exact` counts
 * optimal WASM plans equal to the oracle, over all optimal WASM plans.
 */
export function formatComparisonMarkdown(report: BenchReport): string {
  const head = [
    'setting',
    'sessions P50 / max',
    'wasm mean',
    'wasm P95',
    'pool P95',
    'DP fallback',
    'exact',
    'work P95',
    'wasm / ref',
    'paper mean',
    'paper P95',
    'paper fallback',
  ];
  const md = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const lines = [md(head), md(head.map((_, c) => (c === 0 ? '---' : '---:')))];
  for (const s of report.settings) {
    const w = s.runners.wasm;
    const p = s.runners.pool;
    const v = w?.validation;
    lines.push(
      md([
        s.setting,
        `${fmtCount(s.shape.sessions.p50)} / ${fmtCount(s.shape.sessions.max)}`,
        ms(w?.time.mean),
        ms(w?.time.p95),
        ms(p?.time.p95),
        pct(w?.fallbackPct),
        v === undefined ? '-' : `${v.exact} / ${v.exact + v.mismatch + v.unverified}`,
        fmtCount(w?.cells.p95 ?? NaN),
        w?.ratioToReference ? w.ratioToReference.median.toFixed(3) : '-',
        s.paper ? ms(s.paper.solveMeanMs) : 'n/a',
        s.paper ? ms(s.paper.solveP95Ms) : 'n/a',
        s.paper ? pct(s.paper.fallbackPct) : 'n/a',
      ]),
    );
  }
  return lines.join('\n');
}

/** Header lines: machine, build, workload. */
export function formatPreamble(report: BenchReport): string {
  const m = report.machine;
  const w = report.workload;
  return [
    `tao-solver ${report.package.version}, wasm ${report.wasm.sha256?.slice(0, 12) ?? 'not built'}; ${m.cpus.count} x ${m.cpus.model}, node ${m.node}, ${m.os.platform} ${m.os.arch}, load ${m.loadAverage1m}`,
    `workload: ${w.settings.length} settings x ${w.count} ${w.window} problems (seed ${w.seed}), quantum ${w.solveOptions.quantum}, state budget ${w.solveOptions.stateBudget}, HiGHS sample ${report.skipped.some((x) => x.name === 'highs') ? `${w.highsSample} (not run: HiGHS is not installed)` : w.highsSample}; times in ms${report.timing.gcBetweenRuns ? '' : ' (no --expose-gc: garbage may be collected inside timed runs)'}`,
  ].join('\n');
}

/** Which oracles check the plans of this run, said before it starts. */
export function formatOracles(
  runners: readonly string[],
  skipped: readonly { name: string; reason: string }[],
  highsSample: number,
): string {
  const parts: string[] = [];
  if (runners.includes('reference')) parts.push('the TypeScript reference (exact, every tick)');
  if (runners.includes('highs'))
    parts.push(
      highsSample > 0 ? `HiGHS (MILP, ${highsSample} ticks per setting)` : 'HiGHS (--highs-sample 0: no tick)',
    );
  const missing = skipped.filter((x) => x.name === 'highs').map((x) => `HiGHS is not available: ${x.reason}`);
  const head = parts.length > 0 ? `oracles: ${parts.join('; ')}` : 'oracles: none (no plan is checked for exactness)';
  return [head, ...missing.map((m) => `  ${m}`)].join('\n');
}

/** What the table's words mean: each setting of the report, each runner, each column. */
export function formatLegend(report: BenchReport): string {
  const settings = report.settings.map((s) => `${s.setting}`).join(', ');
  const runners = new Map<string, string>();
  for (const s of report.settings)
    for (const r of Object.values(s.runners)) if (r !== undefined) runners.set(r.runner, r.description);
  const w = report.workload;
  return [
    'legend:',
    `  setting   one of the paper's model x cluster setups, ${w.count} ${w.window} scheduling ticks each recorded from the`,
    '            simulator: ds = DeepSeek-like, 2 nodes; glm = GLM-like, 1 node; qwen = Qwen-like, 4 nodes; the number is',
    `            the agent workers (${settings})`,
    '  runner    ' + [...runners].map(([name, d]) => `${name}: ${d}`).join('\n            '),
    '  columns   n: ticks solved; mean, P50, P95, P99, max: solve time in ms; fallback: % of plans that fell back (budget',
    '            or deadline); exact: plans equal to the oracle, (+N unverified: no oracle value); mismatch: plans that',
    '            differ from the oracle (always 0 if correct); work P50/P95: units of DP work per solve; x ref: median',
    '            per-tick time over the reference runner (* over the DP-heavy ticks only); paper mean/P95/fb: the',
    "            paper's Table 9 for the in-thread DP",
  ].join('\n');
}

/** The last line: PASS or FAIL against the goal, and why. */
export function formatVerdict(report: BenchReport, wrong: readonly string[]): string {
  const g = report.goal;
  const t = g.targets;
  const goal = `in-thread P95 <= ${t.inThreadP95Ms} ms, pool P95 <= ${t.poolP95Ms} ms, fallback <= ${t.fallbackPct}%, every plan exact`;
  if (g.met && wrong.length === 0) return `PASS: every setting meets the goal (${goal})`;
  const n = g.misses.length + (g.met ? wrong.length : 0);
  return `FAIL: ${n} miss${n === 1 ? '' : 'es'} against the goal (${goal}); listed above`;
}

/** The goal's verdict, one line per miss. */
export function formatGoal(report: BenchReport): string {
  const g = report.goal;
  const head = `goal (in-thread P95 <= ${g.targets.inThreadP95Ms} ms, pool P95 <= ${g.targets.poolP95Ms} ms, fallback <= ${g.targets.fallbackPct}%, exact): ${g.met ? 'met' : `${g.misses.length} misses`}`;
  return [head, ...g.misses.map((m) => `  ${m.setting} ${m.metric}: ${m.detail}`)].join('\n');
}

/** Oracle agreement and skipped runners, when there is something to say. */
export function formatNotes(report: BenchReport): string {
  const lines: string[] = [];
  for (const s of report.skipped) lines.push(`note: runner ${s.name} skipped: ${s.reason}`);
  for (const s of report.settings) {
    const o = s.oracle;
    if (o.highsSolved + o.highsFailed.length > 0) {
      lines.push(
        `${s.setting}: HiGHS proved ${o.highsSolved} of ${o.highsSolved + o.highsFailed.length} subsample problems; reference/HiGHS disagreements: ${o.disagreements.length}`,
      );
    }
    if (o.referenceFallback > 0)
      lines.push(
        `${s.setting}: the reference fell back on ${o.referenceFallback} problems (no reference oracle there)`,
      );
    for (const d of o.disagreements) lines.push(`  ${s.setting} #${d.index}: ${d.reason}`);
  }
  return lines.join('\n');
}
