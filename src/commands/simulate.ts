/**
 * `tao simulate`: runs the simulator on a setting for one policy (or all) over several seeds and prints
 * the setting, the workload profile and a table of metrics with 95% intervals; optionally writes the full
 * report as JSON, an SVG of running requests over time, and the solver Problems of every tick as JSONL.
 * Exit codes: 0 done, 2 invalid flags or setting (one line on stderr naming the flag or field).
 */
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { ownValue } from '../checks.js';
import { InvalidValueError } from '../errors.js';
import { intFlag, numFlag, parseFlags } from './cli-args.js';
import { jobsFlag, modeFromFlags, sampleFlag, shardFlag, simSeedsFlag } from './sim-flags.js';
import { checkWritable } from './outputs.js';
import { runShardCommand } from './shard-run.js';
import { PROBLEM_POLICIES } from '../sim/policies/index.js';
import { defaultTaoParams, type NumericTaoParam, type TaoParams } from '../sim/policies/tao.js';
import { defaultTaoBoundedParams, type TaoBoundedParams } from '../sim/policies/tao-bounded.js';
import { PACKAGE_VERSION } from '../version.js';
import { formatComparisonTable } from '../sim/comparison-table.js';
import { isPolicyName, POLICY_NAMES, type PolicyName } from '../sim/policy.js';
import { ProgressBar } from '../progress.js';
import { recordLine } from '../sim/record.js';
import {
  defaultSimulateOptions,
  planSimulation,
  type SimulateOptions,
  type SimulationReport,
  simulate,
} from '../sim/run.js';
import { generatedTraceLines, loadTraceFile, type Trace } from '../sim/trace.js';
import { MAX_JOBS, MAX_SEEDS, MAX_SIM_DURATION, MAX_SIM_TASKS, MIN_SAMPLE_EVERY } from '../sim/run-limits.js';
import { loadSettingFile, namedSetting, validateSetting } from '../sim/setting-file.js';
import { SETTING_NAMES, type SimSetting } from '../sim/settings.js';
import { runningRequestsSvg } from '../sim/svg.js';
import { formatSetting, formatSummaryTable } from '../sim/table.js';
import { WORKLOAD_PROFILES } from '../sim/workload.js';
import { checkSweepValue } from '../sim/sweep.js';
import { summaryCsv } from './output-csv.js';

/** The setting simulated when no --setting or --setting-file is given. */
export const DEFAULT_SETTING = 'ds-64';
/** The policy simulated when no --policy is given. */
export const DEFAULT_POLICY: PolicyName = 'tao';

const HELP = `usage: tao simulate [options]

Simulates agent workers on GPU nodes under a scheduling policy and prints metrics over seeds
(mean ± 95% Student-t interval).

options:
  --setting NAME        ${SETTING_NAMES.join(', ')} (default ${DEFAULT_SETTING})
  --setting-file FILE   a custom setting (JSON, docs/simulator-runs.md); replaces --setting
  --policy NAME|a,b,... ${POLICY_NAMES.join(', ')}, a comma-separated list of them, or all (default ${DEFAULT_POLICY})
  --baseline NAME       reference policy (one of those run): adds paired 95% intervals of each other
                        policy's difference to it over the seeds
  --seeds N|a,b,...     seeds 1..N, or a list, at most ${MAX_SEEDS}; one with --trace (default ${defaultSimulateOptions.seeds.length})
  --tasks N             run N tasks in total, at most ${MAX_SIM_TASKS} (default: the setting's task count)
  --duration SECONDS    instead, run workers back to back for this much simulated time (at most ${MAX_SIM_DURATION})
  --workload NAME       replace the setting's workload profile: ${Object.keys(WORKLOAD_PROFILES).join(', ')}
  --trace FILE          replay the recorded tasks of FILE (JSONL, see docs/simulator-runs.md) instead of a profile
  --write-trace FILE    also write the tasks the profile draws for the first seed as a trace (JSONL)
  --jobs N              worker threads for the runs, 1 to ${MAX_JOBS} (default: one per core); results do not depend on it
  --shard I/N           run only every N-th run, starting with run I, into the shard file --json; tao merge joins them
  --half-life S         TAO credit half-life h (default ${defaultTaoParams.halfLife})
  --horizon S           TAO readiness horizon H = scheduling period (default ${defaultTaoParams.horizon})
  --delta X             Bernstein confidence delta (default ${defaultTaoParams.delta})
  --quantum N           DP capacity quantum in tokens (default ${defaultTaoParams.quantum})
  --state-budget N      DP state budget (default ${defaultTaoParams.stateBudget})
  --event-admission     TAO also admits between ticks when the pool changes (default: on; see --tick-admission)
  --credit-source SRC   observed (last-use observation, default) or live (the prefix cached now)
  --wait-threshold S    tao-bounded: seconds of waiting after which a session is starved (default ${defaultTaoBoundedParams.waitThreshold})
  --hold-horizon S      tao-bounded: hold horizon tau in seconds, or Infinity (default ${defaultTaoBoundedParams.holdHorizon})
  --tick-admission      TAO and tao-bounded: admit at ticks only (default: ${defaultTaoBoundedParams.eventAdmission && defaultTaoParams.eventAdmission ? 'also when the pool changes between ticks' : 'at ticks only'})
  --sample S            seconds between samples of running requests, at least ${MIN_SAMPLE_EVERY} (default ${defaultSimulateOptions.sampleEvery})
  --json FILE           write the full report (settings, profile, every run, summary) as JSON
  --csv FILE            write the summary table as CSV (per metric: mean and 95% interval half-width)
  --svg FILE            write running requests over time (first seed, one line per policy) as SVG
  --record FILE         write the solver Problem of every tick with a non-empty pool as JSONL
                        (the recorded policy: the one given, or tao with several)
  --check               check capacity and block invariants after every event (slow)
  --progress            show a progress bar on stderr even when it is not a terminal
  -h, --help            this help`;

const FLAGS = {
  setting: { type: 'string' },
  'setting-file': { type: 'string' },
  policy: { type: 'string' },
  baseline: { type: 'string' },
  'event-admission': { type: 'boolean' },
  'credit-source': { type: 'string' },
  'wait-threshold': { type: 'string' },
  'hold-horizon': { type: 'string' },
  'tick-admission': { type: 'boolean' },
  seeds: { type: 'string' },
  tasks: { type: 'string' },
  duration: { type: 'string' },
  workload: { type: 'string' },
  trace: { type: 'string' },
  'write-trace': { type: 'string' },
  jobs: { type: 'string' },
  shard: { type: 'string' },
  'half-life': { type: 'string' },
  horizon: { type: 'string' },
  delta: { type: 'string' },
  quantum: { type: 'string' },
  'state-budget': { type: 'string' },
  sample: { type: 'string' },
  json: { type: 'string' },
  csv: { type: 'string' },
  svg: { type: 'string' },
  record: { type: 'string' },
  check: { type: 'boolean' },
  progress: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Setting from --setting / --setting-file / --workload. */
export async function settingFromFlags(values: {
  setting?: string | undefined;
  'setting-file'?: string | undefined;
  workload?: string | undefined;
}): Promise<SimSetting> {
  let setting =
    values['setting-file'] !== undefined
      ? await loadSettingFile(values['setting-file'])
      : namedSetting(values.setting ?? DEFAULT_SETTING, '--setting');
  if (values.workload !== undefined) {
    const profile = ownValue(WORKLOAD_PROFILES, values.workload);
    if (profile === undefined) {
      throw new InvalidValueError(
        `--workload must be one of ${Object.keys(WORKLOAD_PROFILES).join(', ')} (got "${values.workload}")`,
      );
    }
    setting = { ...setting, workload: profile };
    validateSetting(setting, `${setting.name} with --workload ${values.workload}`);
  }
  return setting;
}

/** TAO parameters from their flags. */
export function taoFromFlags(values: {
  'half-life'?: string | undefined;
  horizon?: string | undefined;
  delta?: string | undefined;
  quantum?: string | undefined;
  'state-budget'?: string | undefined;
  'event-admission'?: boolean | undefined;
  'tick-admission'?: boolean | undefined;
  'credit-source'?: string | undefined;
}): Partial<TaoParams> {
  const tao: { -readonly [K in NumericTaoParam]?: number } & {
    eventAdmission?: boolean;
    creditSource?: TaoParams['creditSource'];
  } = {};
  if (values['event-admission'] === true && values['tick-admission'] === true)
    throw new InvalidValueError('--event-admission and --tick-admission exclude each other');
  if (values['event-admission'] === true) tao.eventAdmission = true;
  if (values['tick-admission'] === true) tao.eventAdmission = false;
  if (values['credit-source'] !== undefined) {
    const src = values['credit-source'];
    if (src !== 'observed' && src !== 'live')
      throw new InvalidValueError(`--credit-source must be observed or live (got "${src}")`);
    tao.creditSource = src;
  }
  if (values['half-life'] !== undefined)
    tao.halfLife = checkSweepValue('h', numFlag('--half-life', values['half-life']), '--half-life');
  if (values.horizon !== undefined)
    tao.horizon = checkSweepValue('H', numFlag('--horizon', values.horizon), '--horizon');
  if (values.delta !== undefined) tao.delta = checkSweepValue('delta', numFlag('--delta', values.delta), '--delta');
  if (values.quantum !== undefined)
    tao.quantum = checkSweepValue('quantum', intFlag('--quantum', values.quantum), '--quantum');
  if (values['state-budget'] !== undefined) {
    tao.stateBudget = checkSweepValue(
      'stateBudget',
      intFlag('--state-budget', values['state-budget']),
      '--state-budget',
    );
  }
  return tao;
}

/** `tao-bounded` knobs from their flags (each a non-negative number of seconds, or Infinity). */
export function taoBoundedFromFlags(values: {
  'wait-threshold'?: string | undefined;
  'hold-horizon'?: string | undefined;
  'tick-admission'?: boolean | undefined;
}): Partial<TaoBoundedParams> {
  const out: { waitThreshold?: number; holdHorizon?: number; eventAdmission?: boolean } = {};
  if (values['tick-admission'] === true) out.eventAdmission = false;
  for (const [flag, key] of [
    ['wait-threshold', 'waitThreshold'],
    ['hold-horizon', 'holdHorizon'],
  ] as const) {
    const text = values[flag];
    if (text === undefined) continue;
    const v = text === 'Infinity' ? Number.POSITIVE_INFINITY : numFlag(`--${flag}`, text);
    if (!(v >= 0))
      throw new InvalidValueError(`--${flag} must be a non-negative number of seconds or Infinity (got "${text}")`);
    out[key] = v;
  }
  return out;
}

/** `--policy NAME`, `--policy a,b,...` (those, in that order) or `--policy all`. */
function policiesFlag(text: string): PolicyName[] {
  if (text === 'all') return [...POLICY_NAMES];
  const names = text.split(',').map((t) => t.trim());
  for (const name of names) {
    if (!isPolicyName(name))
      throw new InvalidValueError(
        `--policy must be one of ${POLICY_NAMES.join(', ')}, all, or a comma-separated list of them (got "${text}")`,
      );
  }
  if (new Set(names).size !== names.length)
    throw new InvalidValueError(`--policy must not repeat a policy (got "${text}")`);
  return names as PolicyName[];
}

/** The setting's lines of `formatSetting`, with the trace in place of the profile when one is replayed. */
function settingText(report: SimulationReport): string {
  const text = formatSetting(report);
  if (report.trace === null) return text;
  const lines = text.split('\n');
  const cut = lines.findIndex((l) => l.startsWith('profile '));
  const t = report.trace;
  return [...lines.slice(0, cut), `trace ${t.name}: ${t.tasks} tasks; tools ${t.toolNames.join(', ')}`].join('\n');
}

/** Prints a simulate report's tables and writes its --json and --svg files (also used by tao merge). */
export function outputSimulate(
  report: SimulationReport,
  out: { json?: string | undefined; csv?: string | undefined; svg?: string | undefined },
): void {
  process.stdout.write(settingText(report) + '\n\n' + formatSummaryTable(report.summary) + '\n');
  if (report.comparisons.length > 0) {
    process.stdout.write(
      `\npaired over seeds: (policy - ${report.baseline}) / ${report.baseline}, mean ± 95% interval\n` +
        formatComparisonTable(report.comparisons) +
        '\n',
    );
  }
  if (out.json !== undefined) {
    const { schemaVersion, ...rest } = report;
    // JSON has no Infinity: a knob switched off is written as the string "Infinity", as its flag takes it.
    const taoBounded = Object.fromEntries(
      Object.entries(rest.taoBounded).map(([k, v]) => [k, v === Number.POSITIVE_INFINITY ? 'Infinity' : v]),
    );
    writeFileSync(
      out.json,
      JSON.stringify({ schemaVersion, packageVersion: PACKAGE_VERSION, ...rest, taoBounded }, null, 1) + '\n',
    );
  }
  if (out.csv !== undefined)
    writeFileSync(
      out.csv,
      summaryCsv(
        report.summary.map((r) => ({ label: r.policy, seeds: r.seeds.length, metrics: r.metrics })),
        'policy',
      ),
    );
  if (out.svg !== undefined) {
    const first = report.seeds[0]!;
    const series = report.runs
      .filter((r) => r.seed === first)
      .map((r) => ({
        label: r.policy,
        interval: r.series.interval,
        running: r.series.running,
        note:
          r.metrics.makespan === null
            ? `${r.metrics.tasksCompleted} tasks`
            : `done at ${(r.metrics.makespan / 60).toFixed(1)} min`,
      }));
    writeFileSync(out.svg, runningRequestsSvg(series, `Running requests, ${report.setting}, seed ${first}`));
  }
}

/** `--trace FILE`, with the flags it cannot be combined with refused by name. */
async function traceFromFlags(values: {
  trace?: string | undefined;
  workload?: string | undefined;
  duration?: string | undefined;
  'write-trace'?: string | undefined;
}): Promise<Trace | undefined> {
  if (values.trace === undefined) return undefined;
  if (values.workload !== undefined)
    throw new InvalidValueError('--trace replaces the workload profile: drop --workload');
  if (values.duration !== undefined)
    throw new InvalidValueError(
      '--duration cannot be used with --trace: a trace has a fixed number of tasks (use --tasks)',
    );
  if (values['write-trace'] !== undefined)
    throw new InvalidValueError('--write-trace writes the tasks a profile draws: it cannot be combined with --trace');
  return loadTraceFile(values.trace);
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseFlags(args, FLAGS);
  if (values.help === true) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  const trace = await traceFromFlags(values);
  const setting = await settingFromFlags(values);
  const policies = policiesFlag(values.policy ?? DEFAULT_POLICY);
  const seeds =
    values.seeds === undefined
      ? trace === undefined
        ? [...defaultSimulateOptions.seeds]
        : [1]
      : simSeedsFlag(values.seeds);
  let baseline: PolicyName | undefined;
  if (values.baseline !== undefined) {
    if (!isPolicyName(values.baseline) || !policies.includes(values.baseline)) {
      throw new InvalidValueError(
        `--baseline must be one of the policies run (${policies.join(', ')}); got "${values.baseline}"`,
      );
    }
    baseline = values.baseline;
  }
  const mode =
    trace !== undefined && values.tasks === undefined ? { tasks: trace.tasks.length } : modeFromFlags(values, setting);
  if (trace !== undefined) {
    if (seeds.length !== 1)
      throw new InvalidValueError(
        `--seeds must be a single seed with --trace: a trace's tasks are the same on every seed (got ${seeds.length} seeds)`,
      );
    if ('tasks' in mode && mode.tasks > trace.tasks.length) {
      throw new InvalidValueError(
        `--tasks ${mode.tasks} is more than the ${trace.tasks.length} tasks of ${trace.name}`,
      );
    }
  }
  if (values['write-trace'] !== undefined && !('tasks' in mode)) {
    throw new InvalidValueError('--write-trace needs a task count: it cannot be combined with --duration');
  }
  const tao = taoFromFlags(values);
  const taoBounded = taoBoundedFromFlags(values);
  const sampleEvery =
    values.sample === undefined ? defaultSimulateOptions.sampleEvery : sampleFlag(values.sample, mode);
  const shard = shardFlag(values.shard, values.json, [
    ['--svg', values.svg],
    ['--record', values.record],
    ['--write-trace', values['write-trace']],
  ]);

  let recorded: PolicyName | undefined;
  if (values.record !== undefined) {
    recorded = policies.length === 1 ? policies[0]! : 'tao';
    if (!policies.includes(recorded))
      throw new InvalidValueError('--record with several policies needs tao among them (it records tao)');
    if (!PROBLEM_POLICIES.includes(recorded)) {
      throw new InvalidValueError(
        `--record needs a policy that builds solver Problems (${PROBLEM_POLICIES.join(', ')}); got ${recorded}`,
      );
    }
    if (values.jobs !== undefined && values.jobs !== '1')
      throw new InvalidValueError('--record runs in one thread: drop --jobs (or give --jobs 1)');
  }
  const jobs = values.record !== undefined ? 1 : jobsFlag(values.jobs);
  if (values.json !== undefined) checkWritable('--json', values.json);
  if (values.csv !== undefined) checkWritable('--csv', values.csv);
  if (values.svg !== undefined) checkWritable('--svg', values.svg);
  if (values.record !== undefined) checkWritable('--record', values.record);
  if (values['write-trace'] !== undefined) checkWritable('--write-trace', values['write-trace']);
  const options: SimulateOptions = {
    setting,
    policies,
    seeds,
    mode,
    tao,
    taoBounded,
    ...(baseline === undefined ? {} : { baseline }),
    ...(trace === undefined ? {} : { trace }),
    sampleEvery,
    checkInvariants: values.check === true,
    jobs,
  };
  const progress = process.stderr.isTTY === true || values.progress === true;
  if (shard !== undefined) {
    return runShardCommand({
      command: 'simulate',
      plan: planSimulation(options),
      shard,
      file: values.json!,
      jobs,
      progress,
      label: (r) => `${r.policy} seed ${r.seed}`,
    });
  }
  if (values['write-trace'] !== undefined && 'tasks' in mode) {
    const fd = openSync(values['write-trace'], 'w');
    try {
      for (const line of generatedTraceLines(setting.workload, seeds[0]!, mode.tasks)) writeSync(fd, line);
    } finally {
      closeSync(fd);
    }
  }
  const recordFd = values.record === undefined ? undefined : openSync(values.record, 'w');
  const bar = new ProgressBar(policies.length * seeds.length, 'simulate', process.stderr, progress);
  let report: SimulationReport;
  try {
    report = await simulate({
      ...options,
      ...(recordFd === undefined
        ? {}
        : {
            onProblem: (policy, seed, tick) => {
              if (policy !== recorded) return;
              writeSync(
                recordFd,
                recordLine({ setting: setting.name, seed, tick: tick.tick, time: tick.time, problem: tick.problem }) +
                  '\n',
              );
            },
          }),
      onRun: (r) => bar.tick(1, `${r.policy} seed ${r.seed}`),
    });
  } finally {
    bar.finish();
    if (recordFd !== undefined) closeSync(recordFd);
  }
  outputSimulate(report, { json: values.json, csv: values.csv, svg: values.svg });
  return 0;
}
