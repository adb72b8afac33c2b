/**
 * `tao sweep`: runs a policy (TAO by default) over a grid of its parameters (h, H, delta, quantum, state
 * budget, credit rounding unit), each grid point on the same seeds, and prints one row per point with 95% intervals; optionally
 * writes the report as JSON and one SVG per headline metric.
 * Exit codes: 0 done, 2 invalid flags (one line on stderr naming the flag).
 */
import { writeFileSync } from 'node:fs';
import { PACKAGE_VERSION } from '../version.js';
import { InvalidValueError } from '../errors.js';
import { numFlag, parseFlags } from './cli-args.js';
import { jobsFlag, modeFromFlags, shardFlag, simSeedsFlag } from './sim-flags.js';
import { checkWritable } from './outputs.js';
import { isPolicyName, POLICY_NAMES } from '../sim/policy.js';
import { ProgressBar } from '../progress.js';
import {
  checkSweepValue,
  planSweep,
  SWEEP_PARAMS,
  sweep,
  type SweepGrid,
  type SweepParam,
  type SweepReport,
} from '../sim/sweep.js';
import { runShardCommand } from './shard-run.js';
import { MAX_JOBS, MAX_SEEDS } from '../sim/run-limits.js';
import { SETTING_NAMES } from '../sim/settings.js';
import { sweepSvg } from '../sim/svg.js';
import { formatSummaryTable, TABLE_COLUMNS } from '../sim/table.js';
import type { SummaryMetric } from '../sim/summary.js';
import { DEFAULT_POLICY, DEFAULT_SETTING, settingFromFlags } from './simulate.js';
import { defaultSimulateOptions } from '../sim/run.js';
import { summaryCsv } from './output-csv.js';

const HELP = `usage: tao sweep --param NAME=V1,V2,... [--param ...] [options]

Runs a policy over the Cartesian grid of the given parameter values (same seeds at every point) and
prints the metrics of each grid point (mean ± 95% Student-t interval).

parameters: h (credit half-life, s), H (readiness horizon = period, s), delta, quantum (tokens),
            stateBudget (work units), creditUnit (credit rounding unit, tokens)

options:
  --param NAME=LIST     a parameter and its values, e.g. --param h=5,10,20 (repeatable)
  --setting NAME        ${SETTING_NAMES.join(', ')} (default ${DEFAULT_SETTING})
  --setting-file FILE   a custom setting (JSON, docs/simulator-runs.md)
  --workload NAME       replace the setting's workload profile
  --policy NAME         policy to sweep (default ${DEFAULT_POLICY}; ${POLICY_NAMES.join(', ')})
  --seeds N|a,b,...     seeds 1..N, or a list, at most ${MAX_SEEDS} (default ${defaultSimulateOptions.seeds.length})
  --tasks N | --duration SECONDS   run mode (default: the setting's task count; ranges as in tao simulate)
  --jobs N              worker threads for the runs, 1 to ${MAX_JOBS} (default: one per core); results do not depend on it
  --shard I/N           run only every N-th run, starting with run I, into the shard file --json; tao merge joins them
  --json FILE           write the report as JSON
  --csv FILE            write the table as CSV (per metric: mean and 95% interval half-width)
  --svg PREFIX          write PREFIX.latency.svg, PREFIX.ttft.svg, PREFIX.decode.svg
  --progress            show a progress bar on stderr even when it is not a terminal
  -h, --help            this help`;

const FLAGS = {
  param: { type: 'string', multiple: true },
  setting: { type: 'string' },
  'setting-file': { type: 'string' },
  workload: { type: 'string' },
  policy: { type: 'string' },
  seeds: { type: 'string' },
  tasks: { type: 'string' },
  duration: { type: 'string' },
  jobs: { type: 'string' },
  shard: { type: 'string' },
  json: { type: 'string' },
  csv: { type: 'string' },
  svg: { type: 'string' },
  progress: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `--param name=v1,v2` into the grid. */
export function parseParams(texts: readonly string[]): SweepGrid {
  const grid: { [K in SweepParam]?: number[] } = {};
  for (const text of texts) {
    const eq = text.indexOf('=');
    const name = eq < 0 ? text : text.slice(0, eq);
    if (!(SWEEP_PARAMS as readonly string[]).includes(name)) {
      throw new InvalidValueError(`--param name must be one of ${SWEEP_PARAMS.join(', ')} (got "${name}")`);
    }
    const param = name as SweepParam;
    if (grid[param] !== undefined) throw new InvalidValueError(`--param ${param} is given twice`);
    if (eq < 0 || eq === text.length - 1)
      throw new InvalidValueError(`--param ${param} needs values: ${param}=v1,v2,...`);
    const values = text
      .slice(eq + 1)
      .split(',')
      .map((v) => checkSweepValue(param, numFlag(`--param ${param}`, v.trim()), `--param ${param}`));
    // A repeated value would run the same grid point twice and report it as two.
    const repeated = values.find((v, i) => values.indexOf(v) !== i);
    if (repeated !== undefined) throw new InvalidValueError(`--param ${param} repeats the value ${repeated}`);
    grid[param] = values;
  }
  return grid;
}

const PLOTS: readonly { file: string; metric: SummaryMetric; label: string }[] = [
  { file: 'latency', metric: 'latencyMean', label: 'task latency (s)' },
  { file: 'ttft', metric: 'ttftMean', label: 'mean TTFT (s)' },
  // The table's decode column: steady-state throughput, not the whole run's.
  { file: 'decode', metric: 'decodeThroughputSteady', label: 'steady decode throughput (tok/s)' },
];

/** Prints a sweep report's table and writes its --json and --svg files (also used by tao merge). */
export function outputSweep(
  report: SweepReport,
  description: string,
  out: { json?: string | undefined; csv?: string | undefined; svg?: string | undefined },
): void {
  const rows = report.points.map((p) => ({ policy: p.label, metrics: p.summary.metrics }));
  const seeds = report.seeds.length;
  process.stdout.write(
    `sweep of ${report.policy} on ${report.setting} (${description}), seeds ${report.seeds.join(',')}\n\n`,
  );
  process.stdout.write(formatSummaryTable(rows, TABLE_COLUMNS, 'grid point') + '\n');
  if (out.json !== undefined) {
    const { schemaVersion, ...rest } = report;
    writeFileSync(
      out.json,
      JSON.stringify({ schemaVersion, packageVersion: PACKAGE_VERSION, ...rest }, null, 1) + '\n',
    );
  }
  if (out.csv !== undefined)
    writeFileSync(
      out.csv,
      summaryCsv(
        rows.map((r) => ({ label: r.policy, seeds, metrics: r.metrics })),
        'grid point',
      ),
    );
  if (out.svg !== undefined) {
    const caption = `mean, bars: 95% t-interval over ${seeds} seed${seeds === 1 ? '' : 's'}`;
    for (const plot of PLOTS) {
      const pts = report.points.map((p) => ({
        params: { ...p.params },
        label: p.label,
        mean: p.summary.metrics[plot.metric].mean,
        ci95: p.summary.metrics[plot.metric].ci95,
      }));
      writeFileSync(
        `${out.svg}.${plot.file}.svg`,
        sweepSvg(pts, `${report.policy} on ${report.setting}: ${plot.label} (${caption})`, plot.label),
      );
    }
  }
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseFlags(args, FLAGS);
  if (values.help === true) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  const params = values.param ?? [];
  if (params.length === 0) throw new InvalidValueError('--param is required (e.g. --param h=5,10,20)');
  const grid = parseParams(params);
  const setting = await settingFromFlags(values);
  const policy = values.policy ?? DEFAULT_POLICY;
  if (!isPolicyName(policy))
    throw new InvalidValueError(`--policy must be one of ${POLICY_NAMES.join(', ')} (got "${policy}")`);
  const seeds = values.seeds === undefined ? [...defaultSimulateOptions.seeds] : simSeedsFlag(values.seeds);
  const mode = modeFromFlags(values, setting);
  const jobs = jobsFlag(values.jobs);
  const shard = shardFlag(values.shard, values.json, [['--svg', values.svg]]);
  if (values.json !== undefined) checkWritable('--json', values.json);
  if (values.csv !== undefined) checkWritable('--csv', values.csv);
  if (values.svg !== undefined) for (const plot of PLOTS) checkWritable('--svg', `${values.svg}.${plot.file}.svg`);
  const options = { setting, grid, policy, seeds, mode, jobs };
  const progress = process.stderr.isTTY === true || values.progress === true;
  if (shard !== undefined) {
    const plan = planSweep(options);
    return runShardCommand({
      command: 'sweep',
      plan: { header: { ...plan.header, description: setting.description }, runs: plan.runs },
      shard,
      file: values.json!,
      jobs,
      progress,
      label: (r) => `seed ${r.seed}`,
    });
  }
  const points = Object.values(grid).reduce((a, v) => a * v.length, 1);
  const bar = new ProgressBar(points * seeds.length, 'sweep', process.stderr, progress);
  let report: SweepReport;
  try {
    report = await sweep({ ...options, onRun: (r) => bar.tick(1, `seed ${r.seed}`) });
  } finally {
    bar.finish();
  }
  outputSweep(report, setting.description, { json: values.json, csv: values.csv, svg: values.svg });
  return 0;
}
