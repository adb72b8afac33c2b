/**
 * Running the simulator: one run, or every (policy, seed) pair of a setting, with the summary over seeds.
 */
import { checkOptionsObject, integerIn, nonNegativeInteger, recordAt, rejectUnknownKeys } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import type { TaoDeps } from './deps.js';
import type { EngineModel } from './engine.js';
import { runAll } from './parallel.js';
import type { RunDescription } from './parallel-run.js';
import { defaultTaoParams, type TaoParams } from './policies/tao.js';
import { resolveTaoBoundedParams, type TaoBoundedParams } from './policies/tao-bounded.js';
import { POLICY_NAMES, type Policy, type PolicyName, type ProblemTick } from './policy.js';
import {
  MAX_RUNS,
  MAX_SEEDS,
  MAX_SERIES_SAMPLES,
  MAX_SIM_DURATION,
  MAX_SIM_TASKS,
  MIN_SAMPLE_EVERY,
} from './run-limits.js';
import { namedSetting, parseSetting } from './setting-file.js';
import type { NodeSpec, SimSetting } from './settings.js';
import { Simulation, type RunResult } from './simulation.js';
import { compareToBaseline, type PairedComparison, type PolicySummary, summarize } from './summary.js';
import { checkTraceFits, type Trace } from './trace.js';
import type { WorkloadProfile } from './workload.js';

export type RunMode = { readonly tasks: number } | { readonly duration: number };

/** The defaults of `simulate` (and `runOnce`'s extras), frozen. */
export const defaultSimulateOptions = Object.freeze({
  seeds: Object.freeze([1, 2, 3, 4, 5]) as readonly number[],
  sampleEvery: 1,
  checkInvariants: false,
});

export interface SimulateOptions {
  /** A built-in setting name or a setting object (see setting-file.ts). */
  readonly setting: string | SimSetting;
  /** Policies to run, each on every seed. @default every policy */
  readonly policies?: readonly PolicyName[];
  /** Seeds. @default defaultSimulateOptions.seeds (1 to 5) */
  readonly seeds?: readonly number[];
  /** @default { tasks: setting.tasks } */
  readonly mode?: RunMode;
  /** TAO pipeline parameters (h, H, delta, quantum, state budget, reserve, ...). */
  readonly tao?: Partial<TaoParams>;
  /** The `tao-bounded` knobs (wait threshold, hold horizon, ...); its ablations switch one part off on top. */
  readonly taoBounded?: Partial<TaoBoundedParams>;
  /** Reference policy for paired comparisons (must be one of `policies`). */
  readonly baseline?: PolicyName;
  /** Seconds between samples of running requests. @default defaultSimulateOptions.sampleEvery (1) */
  readonly sampleEvery?: number;
  /** Check invariants after every event (slow). @default false */
  readonly checkInvariants?: boolean;
  /**
   * Replay these recorded tasks instead of drawing them from the setting's profile (see trace.ts). A trace
   * is the same on every seed: one seed only (default [1]); mode `tasks` only (default: all of them).
   */
  readonly trace?: Trace;
  /** Worker threads for the runs (results identical to 1). @default 1, in this thread */
  readonly jobs?: number;
  /** Called with every Problem a Problem-building policy decides (for `--record`; needs `jobs` 1). */
  readonly onProblem?: (policy: PolicyName, seed: number, tick: ProblemTick) => void;
  /** Called after each run (progress). */
  readonly onRun?: (result: RunResult, done: number, total: number) => void;
  /** Already loaded solver and evaluation; loaded on demand otherwise. */
  readonly deps?: TaoDeps;
}

/** Version of the report's JSON shape; bumped when a field changes meaning or goes away. */
export const SIM_REPORT_SCHEMA_VERSION = 2;

/** Everything a simulate call produced. */
export interface SimulationReport {
  readonly schemaVersion: typeof SIM_REPORT_SCHEMA_VERSION;
  readonly setting: string;
  readonly description: string;
  readonly workers: number;
  readonly nodes: readonly NodeSpec[];
  readonly engine: EngineModel;
  /** The workload profile the runs used, in full (not used by a trace's runs). */
  readonly profile: WorkloadProfile;
  /** The trace replayed instead of the profile, or null. */
  readonly trace: { readonly name: string; readonly tasks: number; readonly toolNames: readonly string[] } | null;
  readonly mode: RunMode;
  readonly seeds: readonly number[];
  readonly policies: readonly PolicyName[];
  /** Every TAO parameter the TAO-family policies ran with (defaults filled in). */
  readonly tao: TaoParams;
  /** Every `tao-bounded` knob the bounded policies ran with (defaults filled in). */
  readonly taoBounded: TaoBoundedParams;
  readonly runs: readonly RunResult[];
  /** Per policy over seeds, unpaired 95% intervals. */
  readonly summary: readonly PolicySummary[];
  /** The reference policy, if one was given. */
  readonly baseline: PolicyName | null;
  /** Every other policy against the baseline, paired by seed (empty without a baseline). */
  readonly comparisons: readonly PairedComparison[];
}

/** Resolves a setting argument; checks a setting object. */
export function resolveSetting(setting: string | SimSetting): SimSetting {
  if (typeof setting === 'string') return namedSetting(setting);
  // Field by field, as a setting file is: a malformed object gets an error naming the field.
  return parseSetting(setting);
}

function checkMode(mode: RunMode): void {
  recordAt(mode, 'mode');
  if ('tasks' in mode) {
    integerIn(mode.tasks, 'mode.tasks', 1, MAX_SIM_TASKS);
  } else {
    if (typeof mode.duration !== 'number') throw new InvalidTypeError('mode.duration must be a number');
    if (!(mode.duration > 0 && mode.duration <= MAX_SIM_DURATION)) {
      throw new InvalidValueError(`mode.duration must be a positive number of seconds of at most ${MAX_SIM_DURATION}`);
    }
  }
}

/** 0 (no series) or at least MIN_SAMPLE_EVERY; a duration run must fit MAX_SERIES_SAMPLES (a task run is checked as it runs). */
function checkSampling(sampleEvery: number, mode: RunMode): void {
  if (typeof sampleEvery !== 'number') throw new InvalidTypeError('sampleEvery must be a number');
  if (sampleEvery === 0) return;
  if (!(sampleEvery >= MIN_SAMPLE_EVERY && Number.isFinite(sampleEvery))) {
    throw new InvalidValueError(
      `sampleEvery must be 0 (no series) or a finite number of seconds of at least ${MIN_SAMPLE_EVERY} (got ${sampleEvery})`,
    );
  }
  if ('duration' in mode && mode.duration / sampleEvery > MAX_SERIES_SAMPLES) {
    throw new InvalidValueError(
      `sampleEvery ${sampleEvery} s over mode.duration ${mode.duration} s would record more than ${MAX_SERIES_SAMPLES} samples per run`,
    );
  }
}

/** A trace's runs: one seed (its tasks are the same on all), a task count within it, a capacity that fits it. */
function checkTrace(trace: Trace, setting: SimSetting, seeds: readonly number[], mode: RunMode): void {
  if (seeds.length !== 1)
    throw new InvalidValueError(
      `seeds must be a single seed with a trace: its tasks are the same on every seed (got ${seeds.length} seeds)`,
    );
  if (!('tasks' in mode))
    throw new InvalidValueError('mode must be { tasks } with a trace: a trace has a fixed number of tasks');
  if (mode.tasks > trace.tasks.length)
    throw new InvalidValueError(
      `mode.tasks (${mode.tasks}) is more than the ${trace.tasks.length} tasks of ${trace.name}`,
    );
  checkTraceFits(trace, setting);
}

function checkSeeds(seeds: readonly number[]): void {
  if (seeds.length === 0) throw new InvalidValueError('seeds must not be empty');
  if (seeds.length > MAX_SEEDS)
    throw new InvalidValueError(`seeds must have at most ${MAX_SEEDS} seeds (got ${seeds.length})`);
  seeds.forEach((s, i) => nonNegativeInteger(s, () => `seeds[${i}]`));
}

/** One run of `policy` (a fresh instance: policies keep state) on `setting` with `seed`. */
export function runOnce(
  setting: SimSetting,
  policy: Policy,
  seed: number,
  mode: RunMode,
  extra: { sampleEvery?: number; checkInvariants?: boolean } = {},
): RunResult {
  const sim = new Simulation(
    {
      setting,
      seed,
      mode,
      sampleEvery: extra.sampleEvery ?? defaultSimulateOptions.sampleEvery,
      checkInvariants: extra.checkInvariants ?? defaultSimulateOptions.checkInvariants,
    },
    policy,
  );
  return sim.run();
}

/** Runs every policy on every seed (same seeds, hence the same tasks, for every policy). */
// Typed as a record over the interface's keys, so an option added to SimulateOptions must be added here.
const SIMULATE_OPTION_KEYS: ReadonlySet<string> = new Set(
  Object.keys({
    setting: true,
    policies: true,
    seeds: true,
    mode: true,
    tao: true,
    taoBounded: true,
    baseline: true,
    sampleEvery: true,
    checkInvariants: true,
    trace: true,
    jobs: true,
    onProblem: true,
    onRun: true,
    deps: true,
  } satisfies Record<keyof SimulateOptions, true>),
);

/** A report without its runs and what is computed from them: what rebuilds the report from the runs. */
export type SimulationHeader = Omit<SimulationReport, 'runs' | 'summary' | 'comparisons'>;

/** The runs a simulate call makes, in report order, and the report's header. */
export interface SimulationPlan {
  readonly header: SimulationHeader;
  readonly runs: readonly RunDescription[];
}

/** Checks the options and lists the runs of `simulate(options)` without running them. */
export function planSimulation(options: SimulateOptions): SimulationPlan {
  rejectUnknownKeys(recordAt(options, 'options'), SIMULATE_OPTION_KEYS, 'options', 'option');
  if (options.tao !== undefined) checkOptionsObject(options.tao, defaultTaoParams, 'options.tao');
  const taoBounded = resolveTaoBoundedParams(options.taoBounded);
  const setting = resolveSetting(options.setting);
  const policies = options.policies ?? POLICY_NAMES;
  policies.forEach((p, i) => {
    if (!(POLICY_NAMES as readonly string[]).includes(p)) {
      throw new InvalidValueError(`policies[${i}] must be one of ${POLICY_NAMES.join(', ')} (got "${p}")`);
    }
  });
  const trace = options.trace;
  const seeds = options.seeds ?? (trace === undefined ? defaultSimulateOptions.seeds : [1]);
  checkSeeds(seeds);
  if (options.tao?.eventAdmission !== undefined && typeof options.tao.eventAdmission !== 'boolean') {
    throw new InvalidTypeError('tao.eventAdmission must be a boolean');
  }
  if (
    options.tao?.creditSource !== undefined &&
    options.tao.creditSource !== 'observed' &&
    options.tao.creditSource !== 'live'
  ) {
    throw new InvalidValueError(
      `tao.creditSource must be "observed" or "live" (got ${JSON.stringify(options.tao.creditSource)})`,
    );
  }
  const baseline = options.baseline ?? null;
  if (baseline !== null && !policies.includes(baseline)) {
    throw new InvalidValueError(`baseline must be one of the policies run (${policies.join(', ')}); got "${baseline}"`);
  }
  const mode = options.mode ?? { tasks: trace === undefined ? setting.tasks : trace.tasks.length };
  checkMode(mode);
  const sampleEvery = options.sampleEvery ?? defaultSimulateOptions.sampleEvery;
  checkSampling(sampleEvery, mode);
  if (trace !== undefined) checkTrace(trace, setting, seeds, mode);
  if (policies.length * seeds.length > MAX_RUNS) {
    throw new InvalidValueError(
      `policies x seeds must be at most ${MAX_RUNS} runs (got ${policies.length} x ${seeds.length})`,
    );
  }
  const checkInvariants = options.checkInvariants ?? defaultSimulateOptions.checkInvariants;
  const runs: RunDescription[] = [];
  for (const policy of policies) {
    for (const seed of seeds) {
      runs.push({
        setting,
        policy,
        seed,
        mode,
        ...(options.tao === undefined ? {} : { tao: options.tao }),
        taoBounded,
        sampleEvery,
        checkInvariants,
        ...(trace === undefined ? {} : { trace }),
      });
    }
  }
  const header: SimulationHeader = {
    schemaVersion: SIM_REPORT_SCHEMA_VERSION,
    setting: setting.name,
    description: setting.description,
    workers: setting.workers,
    nodes: setting.nodes,
    engine: setting.engine,
    profile: setting.workload,
    trace: trace === undefined ? null : { name: trace.name, tasks: trace.tasks.length, toolNames: trace.toolNames },
    mode,
    seeds,
    policies,
    tao: { ...defaultTaoParams, ...options.tao },
    taoBounded,
    baseline,
  };
  return { header, runs };
}

/** The report of a plan from its runs' results (in the plan's order). */
export function assembleReport(header: SimulationHeader, runs: readonly RunResult[]): SimulationReport {
  const { baseline } = header;
  return {
    ...header,
    runs,
    summary: summarize(runs),
    comparisons: baseline === null ? [] : compareToBaseline(runs, baseline),
  };
}

export async function simulate(options: SimulateOptions): Promise<SimulationReport> {
  const plan = planSimulation(options);
  const onProblem = options.onProblem;
  const runs = await runAll(plan.runs, {
    ...(options.jobs === undefined ? {} : { jobs: options.jobs }),
    ...(options.deps === undefined ? {} : { deps: options.deps }),
    ...(onProblem === undefined
      ? {}
      : { onProblem: (run: RunDescription, tick: ProblemTick) => onProblem(run.policy, run.seed, tick) }),
    ...(options.onRun === undefined ? {} : { onRun: options.onRun }),
  });
  return assembleReport(plan.header, runs);
}
