/** Renderings of a paper comparison (paper.ts): a plain-text table for the terminal, and Markdown. */
import { FAMILY_CALIBRATIONS } from './calibration.js';
import { prefillRate } from './engine.js';
import {
  type BenchmarkReport,
  PAPER_METRICS,
  PAPER_POLICIES,
  type PaperCellMetric,
  type PaperGoalCheck,
  type PaperReport,
  TAO_READINGS,
} from './paper.js';
import type { PolicyName } from './policies/index.js';
import { TABLE4_METRICS, type Table4Report } from './paper-table4.js';

const LABELS: ReadonlyMap<PolicyName, string> = new Map([
  ...PAPER_POLICIES.map((p) => [p.policy, p.label] as const),
  ...TAO_READINGS.map((p) => [p.policy, p.label] as const),
]);

function num(x: number): string {
  if (!Number.isFinite(x)) return 'n/a';
  if (Math.abs(x) >= 100) return x.toFixed(0);
  if (Math.abs(x) >= 10) return x.toFixed(1);
  if (Math.abs(x) >= 1) return x.toFixed(2);
  return x.toFixed(3);
}

/** Rows of one setting: per policy, sim / paper / ratio for each metric. */
function settingRows(cells: readonly PaperCellMetric[]): string[][] {
  const policies = cells[0]!.values.map((v) => v.policy);
  return policies.map((p) => [
    LABELS.get(p) ?? p,
    ...cells.flatMap((c) => {
      const v = c.values.find((x) => x.policy === p)!;
      return [num(v.sim), num(v.paper), `x${v.ratio.toFixed(2)}`];
    }),
  ]);
}

function orderLine(c: PaperCellMetric): string {
  return `${c.metric}: tau ${signed(c.tau)}, best ${LABELS.get(c.bestSim)} (paper ${LABELS.get(c.bestPaper)})${c.bestSim === c.bestPaper ? '' : ' MISMATCH'}`;
}

function byCell(r: BenchmarkReport): Map<string, PaperCellMetric[]> {
  const m = new Map<string, PaperCellMetric[]>();
  for (const c of r.cells) m.set(c.setting, [...(m.get(c.setting) ?? []), c]);
  return m;
}

const HEAD = ['policy', ...PAPER_METRICS.flatMap((m) => [`${m.label} sim`, 'paper', 'ratio'])];

function runSize(r: PaperReport): string {
  return `seeds ${r.seeds.join(',')}; ${r.tasks === null ? "the settings' 300 tasks (Terminal-Bench: 100)" : `${r.tasks} tasks`} per run`;
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
}

function goalValue(g: PaperGoalCheck): string {
  return Number.isInteger(g.value) ? `${g.value}/${g.of}` : g.value.toFixed(2);
}

/** The lines under the goal: TAO's other readings and the engine-side TTFT. */
function readingLines(r: BenchmarkReport): string[] {
  const e = r.engineSideTtft;
  return [
    ...r.readings.map(
      (x) =>
        `${x.policy} ${LABELS.get(x.policy)?.replace(/^TAO /, '') ?? ''}: TAO's latency within x0.75-x1.33 in ${x.latencyCells}/${x.of} cells; in TAO's place, mean tau ${signed(x.meanTau)}, best policy matching in ${x.bestMatches}/${x.cells}`,
    ),
    `TTFT under the engine-side reading (admission to first token): baselines within x0.5-x2 in ${e.baselinesInBand}/${e.baselines}, TAO in ${e.taoInBand}/${e.tao}`,
  ];
}

function textBenchmark(r: BenchmarkReport, out: string[]): void {
  for (const [setting, cells] of byCell(r)) {
    const rows = [HEAD, ...settingRows(cells)];
    const widths = HEAD.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
    out.push(`${setting}:`);
    for (const row of rows)
      out.push('  ' + row.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  '));
    for (const c of cells) out.push(`  ${orderLine(c)}`);
    out.push('');
  }
  for (const g of r.goal) out.push(`${g.met ? 'ok  ' : 'MISS'} ${g.label}: ${goalValue(g)} (need ${g.target})`);
  for (const line of readingLines(r)) out.push(`     ${line}`);
  const n = pairedCounts(r);
  out.push(
    `     paired by seed: the paper's TAO lead resolved in ${n.resolved}/${n.of} (cell, metric) pairs, above one-run noise in ${n.aboveNoise}/${n.of}; the simulated best decided in ${n.decided}/${n.of}`,
  );
}

function relPct(e: { mean: number; ci95: number }): string {
  const ci = Number.isFinite(e.ci95) ? ` ± ${(100 * e.ci95).toFixed(1)}` : '';
  return `${pct(e.mean)}${ci}`;
}

/** Table 4's rows: per configuration and metric, simulated / paper / ratio. */
function table4Rows(t: Table4Report): string[][] {
  return t.rows.map((r) => [
    r.reading ? `${r.config} (reading: \`${r.policy}\`)` : r.config,
    `\`${r.policy}\``,
    ...r.values.flatMap((v) => [num(v.sim), num(v.paper), `x${v.ratio.toFixed(2)}`]),
  ]);
}

/** Table 4's paired rows: per configuration and metric, the simulated and the paper's difference to full TAO. */
function table4PairedRows(t: Table4Report): string[][] {
  return t.rows
    .slice(1)
    .map((r) => [
      r.reading ? `${r.config} (\`${r.policy}\`)` : r.config,
      ...r.values.flatMap((v) => [relPct(v.vsFull), pct(v.paperVsFull)]),
    ]);
}

function table4OrderLines(t: Table4Report): string[] {
  return [
    ...t.orders.map((o) => {
      const same = o.sim.join() === o.paper.join();
      return `${TABLE4_METRICS.find((m) => m.key === o.metric)!.label}: tau ${signed(o.tau)}; simulated ${o.sim.join(' > ')}${same ? " (the paper's order)" : `; paper ${o.paper.join(' > ')}`}`;
    }),
    `mean tau over the five metrics ${signed(t.meanTau)}`,
  ];
}

function textTable4(t: Table4Report, out: string[]): void {
  const head = ['config', 'policy', ...TABLE4_METRICS.flatMap((m) => [`${m.label} sim`, 'paper', 'ratio'])];
  const rows = [head, ...table4Rows(t)].map((row) => row.map((x) => x.replace(/`/g, '')));
  const widths = head.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  out.push(`Table 4, ${t.setting}: the ablations (not fitted; seeds ${t.seeds.join(',')})`, '');
  for (const row of rows)
    out.push('  ' + row.map((x, i) => (i < 2 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  '));
  out.push('', '  against full TAO, paired by seed (simulated ± 95%; paper):');
  for (const row of table4PairedRows(t)) {
    const cells = TABLE4_METRICS.map((m, k) => `${m.key} ${row[1 + 2 * k]} (${row[2 + 2 * k]})`);
    out.push(`  ${row[0]!.replace(/`/g, '')}: ${cells.join('; ')}`);
  }
  for (const line of table4OrderLines(t)) out.push(`  ${line}`);
}

function mdTable4(t: Table4Report): string[] {
  const head = ['config', 'policy', ...TABLE4_METRICS.flatMap((m) => [`${m.label} sim`, 'paper', 'ratio'])];
  const pairedHead = ['config', ...TABLE4_METRICS.flatMap((m) => [`${m.label} sim`, 'paper'])];
  return [
    `## Table 4, ${t.setting}: the ablations`,
    '',
    "The paper's Table 4 (DeepSeek-V4 Flash, SWE-Lite, 32 workers): six TAO configurations, each a policy",
    "defined by the paper's name for it and not tuned, run on the calibrated ds-32 setting with the seeds above",
    '(full TAO is the `tao` runs of the ds-32 cell). Nothing was fitted on these numbers. Pause wait: from the',
    "interrupt at a tool boundary to the resume (the later of the tool's return and the admission), the tool",
    "included; tool return to first token: the TTFT of requests a tool's return issued.",
    '',
    mdRow(head),
    mdRow(head.map((_, i) => (i < 2 ? '---' : '---:'))),
    ...table4Rows(t).map(mdRow),
    '',
    'Against full TAO, paired by seed: the mean of the per-seed relative differences (configuration - full',
    "TAO) / full TAO with its Student-t 95% half-width, beside the paper's difference.",
    '',
    mdRow(pairedHead),
    mdRow(pairedHead.map((_, i) => (i === 0 ? '---' : '---:'))),
    ...table4PairedRows(t).map(mdRow),
    '',
    'Order of the six configurations, best first (the reading beside a row is not in it):',
    '',
    ...table4OrderLines(t).map((l) => `- ${l}`),
    '',
    'What each policy changes against `tao`:',
    '',
    ...t.rows.map((r) => `- ${r.config}${r.reading ? ' (reading)' : ''}, \`${r.policy}\`: ${r.definition}`),
    '',
  ];
}

/** The comparison as aligned text. */
export function formatPaperText(r: PaperReport): string {
  const out: string[] = [`simulator vs the paper's Tables 1-2 (SWE-Lite); ${runSize(r)}`, ''];
  textBenchmark(r, out);
  out.push('', r.verdict);
  for (const o of r.outOfSample) {
    out.push('', `${o.benchmark} (not fitted; profile ${o.profile}):`, '');
    textBenchmark(o, out);
    out.push('', `${o.benchmark}: ${o.verdict}`);
  }
  if (r.table4 !== undefined) {
    out.push('');
    textTable4(r.table4, out);
  }
  return out.join('\n');
}

function mdRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function mdGoal(r: BenchmarkReport): string[] {
  return [
    '| goal | value | need | |',
    '|---|---|---|---|',
    ...r.goal.map((g) =>
      mdRow([g.label, goalValue(g), String(g.target), g.met ? 'met' : r.fitted ? '**missed**' : 'missed']),
    ),
    '',
    ...readingLines(r).map((l) => `- ${l}`),
    '',
  ];
}

function pct(x: number): string {
  return Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%` : 'n/a';
}

/** How many cells and metrics the paired comparison resolves. */
function pairedCounts(r: BenchmarkReport): { resolved: number; aboveNoise: number; decided: number; of: number } {
  return {
    resolved: r.cells.filter((c) => c.paired.paperMarginResolved).length,
    aboveNoise: r.cells.filter((c) => c.paired.paperMarginAboveRunNoise).length,
    decided: r.cells.filter((c) => c.paired.bestDecided).length,
    of: r.cells.length,
  };
}

/** TAO against the best simulated baseline per cell and metric, paired by seed, beside the paper's lead. */
function mdPaired(r: BenchmarkReport, level: string, seeds: number): string[] {
  const n = pairedCounts(r);
  return [
    `${level} TAO against the best baseline, paired by seed`,
    '',
    `Every policy runs the same tasks on a seed, so TAO (\`tao\`) is compared with the cell's best simulated`,
    `baseline seed by seed: the mean of the per-seed relative gains (positive: TAO better) and its Student-t 95%`,
    `half-width over ${seeds} seeds. The paper's gain is TAO's over its own best baseline (its "vs best baseline"`,
    'row). "resolved": the paper\'s lead is larger than the paired half-width, so a difference of its size would',
    "show at this seed count; where it is not, the paper's best policy is not decidable by the simulator.",
    '"decided": the simulated best of the five leads the runner-up by more than their paired half-width.',
    'The paper ran one natural run per policy, each with its own trajectory, so its margin carries the unpaired',
    'run-to-run noise: "1-run sd" is the simulator\'s spread of one such difference (sqrt(var TAO + var baseline)',
    'over the seeds, relative), and "above 1-run noise" says the paper\'s margin exceeds 1.96 of it.',
    '',
    `The paper's lead is resolved (paired) in ${n.resolved} of ${n.of} (cell, metric) pairs and above one-run noise in ${n.aboveNoise} of ${n.of}; the simulated best is decided in ${n.decided} of ${n.of}.`,
    '',
    mdRow([
      'cell',
      'metric',
      'best baseline (sim)',
      'TAO gain (sim)',
      'paper gain',
      'resolved',
      '1-run sd',
      'above 1-run noise',
      'sim best',
      'decided',
    ]),
    mdRow(['---', '---', '---', '---:', '---:', '---', '---:', '---', '---', '---']),
    ...r.cells.map((c) =>
      mdRow([
        c.setting,
        c.metric,
        LABELS.get(c.paired.baseline) ?? c.paired.baseline,
        `${pct(c.paired.gain.mean)} ± ${Number.isFinite(c.paired.gain.ci95) ? (100 * c.paired.gain.ci95).toFixed(1) : 'n/a'}`,
        pct(c.paired.paperGain),
        c.paired.paperMarginResolved ? 'yes' : '**no**',
        `${(100 * c.paired.oneRunSd).toFixed(1)}%`,
        c.paired.paperMarginAboveRunNoise ? 'yes' : '**no**',
        LABELS.get(c.bestSim) ?? c.bestSim,
        c.paired.bestDecided ? 'yes' : 'no',
      ]),
    ),
    '',
  ];
}

function mdCells(r: BenchmarkReport, level: string): string[] {
  const out: string[] = [];
  for (const [setting, cells] of byCell(r)) {
    out.push(
      `${level} ${setting}`,
      '',
      mdRow(HEAD),
      mdRow(HEAD.map((_, i) => (i === 0 ? '---' : '---:'))),
      ...settingRows(cells).map(mdRow),
      '',
    );
    for (const c of cells) out.push(`- ${orderLine(c)}`);
    out.push('');
  }
  return out;
}

/** The comparison as a Markdown page (docs/results/paper.md), with the calibrated constants it ran on. */
export function formatPaperMarkdown(r: PaperReport, command: string): string {
  const out: string[] = [
    '# The simulator against the paper',
    '',
    `Generated by \`${command}\`; do not edit by hand. ${runSize(r)}.`,
    "Every value is a mean over the seeds; the paper's values are its Tables 1-2, SWE-Lite columns.",
    "The four baselines' columns are what the constants below were fitted on (`scripts/calibrate-sim.mjs`);",
    "TAO's are out of sample, under the paper's reading (`tao`: every session of the waiting pool admissible, the",
    'DP ranking them, so one seated during its tool holds its weight through it) and three others: `tao-ready`',
    '(only sessions whose tool returned or is predicted back within H admissible), `tao-tick` (admissions at the',
    "1 s ticks only) and `tao-sticky` (ThunderAgent's lifecycle: a session keeps its admission across its tools",
    'until a pause step releases it, the DP choosing whom to resume and where). Kendall tau and the best policy',
    "compare the five policies (TAO as `tao`; under the goal, each other reading in TAO's place). The SWE-verified",
    "and Terminal-Bench columns, at the end, and the paper's Table 4 (TAO's ablations at ds-32) are checks nothing",
    'was fitted on.',
    '',
    `**Verdict:** ${r.verdict}`,
    '',
    ...mdGoal(r),
    ...mdPaired(r, '##', r.seeds.length),
    ...mdCells(r, '##'),
  ];
  for (const o of r.outOfSample) {
    out.push(
      `## Not fitted: ${o.benchmark}`,
      '',
      o.benchmark === 'SWE-verified'
        ? "The SWE-Lite runs above against the paper's SWE-verified columns (the simulator has one SWE profile per model)."
        : `The DeepSeek settings' nodes and engine with the \`${o.profile}\` profile (a Claude-Code agent with long tools) against the paper's Terminal-Bench columns.`,
      '',
      `**${o.benchmark}:** ${o.verdict}`,
      '',
      ...mdGoal(o),
      ...mdCells(o, '###'),
    );
  }
  if (r.table4 !== undefined) out.push(...mdTable4(r.table4));
  out.push('## Constants the runs used (src/sim/calibration.ts)', '');
  out.push(
    mdRow([
      'family',
      'capacity / node',
      'reported / node',
      'derivation',
      'step base s',
      's / seq',
      's / 1k KV',
      'prefill tok/s',
      'request s',
      'output median',
    ]),
  );
  out.push(mdRow(['---', '---:', '---:', '---', '---:', '---:', '---:', '---:', '---:', '---:']));
  for (const f of FAMILY_CALIBRATIONS) {
    const c = f.capacity;
    const derivation =
      c.kvBytesPerToken === null
        ? `${c.model} on ${c.hardware}: ${c.note}`
        : `${c.model} on ${c.hardware}: (${(c.engineMemory / 1e9).toFixed(0)} GB - ${(c.weights / 1e9).toFixed(1)} GB weights - ${(c.reserved / 1e9).toFixed(0)} GB reserved) / ${c.kvBytesPerToken} B per token = ${c.derived} tokens; ${c.note}`;
    const e = f.engine;
    out.push(
      mdRow([
        f.label,
        String(c.capacity),
        String(c.reported),
        derivation,
        String(e.stepBase),
        String(e.stepPerSeq),
        String(e.stepPerKToken),
        prefillRate(e).toFixed(0),
        String(e.requestOverhead),
        String(f.outputMedian),
      ]),
    );
  }
  out.push('');
  return out.join('\n');
}
