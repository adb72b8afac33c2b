/**
 * Running the simulator: one run, or every (policy, seed) pair of a setting, with the summary over seeds.
 */
import { checkOptionsObject, nonNegativeInteger, positiveInteger, recordAt, rejectUnknownKeys } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { loadTaoDeps, type TaoDeps } from './deps.js';
import type { EngineModel } from './engine.js';
import { createPolicy, needsDeps } from './policies/index.js';
import { defaultTaoParams, type TaoParams } from './policies/tao.js';
import { resolveTaoBoundedParams, type TaoBoundedParams } from './policies/tao-bounded.js';
import { POLICY_NAMES, type Policy, type PolicyName, type ProblemTick } from './policy.js';
import { namedSetting, parseSetting } from './setting-file.js';
import type { NodeSpec, SimSetting } from './settings.js';
import { Simulation, type RunResult } from './simulation.js';
import { compareToBaseline, type PairedComparison, type PolicySummary, summarize } from './summary.js';
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
  /** Called with every Problem a Problem-building policy decides (for `--record`). */
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
  /** The workload profile the runs used, in full. */
  readonly profile: WorkloadProfile;
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
    positiveInteger(mode.tasks, 'mode.tasks');
  } else {
    if (typeof mode.duration !== 'number') throw new InvalidTypeError('mode.duration must be a number');
    if (!Number.isFinite(mode.duration) || mode.duration <= 0) throw new InvalidValueError('mode.duration must be a positive number of seconds');
  }
}

function checkSeeds(seeds: readonly number[]): void {
  if (seeds.length === 0) throw new InvalidValueError('seeds must not be empty');
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
    { setting, seed, mode, sampleEvery: extra.sampleEvery ?? defaultSimulateOptions.sampleEvery, checkInvariants: extra.checkInvariants ?? defaultSimulateOptions.checkInvariants },
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
    onProblem: true,
    onRun: true,
    deps: true,
  } satisfies Record<keyof SimulateOptions, true>),
);

export async function simulate(options: SimulateOptions): Promise<SimulationReport> {
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
  const seeds = options.seeds ?? defaultSimulateOptions.seeds;
  checkSeeds(seeds);
  if (options.tao?.eventAdmission !== undefined && typeof options.tao.eventAdmission !== 'boolean') {
    throw new InvalidTypeError('tao.eventAdmission must be a boolean');
  }
  if (options.tao?.creditSource !== undefined && options.tao.creditSource !== 'observed' && options.tao.creditSource !== 'live') {
    throw new InvalidValueError(`tao.creditSource must be "observed" or "live" (got ${JSON.stringify(options.tao.creditSource)})`);
  }
  const baseline = options.baseline ?? null;
  if (baseline !== null && !policies.includes(baseline)) {
    throw new InvalidValueError(`baseline must be one of the policies run (${policies.join(', ')}); got "${baseline}"`);
  }
  const mode = options.mode ?? { tasks: setting.tasks };
  checkMode(mode);
  const deps = policies.some(needsDeps) ? (options.deps ?? (await loadTaoDeps())) : options.deps;
  const runs: RunResult[] = [];
  const total = policies.length * seeds.length;
  for (const name of policies) {
    for (const seed of seeds) {
      const onProblem = options.onProblem;
      const policy = createPolicy(name, {
        setting,
        ...(deps === undefined ? {} : { deps }),
        ...(options.tao === undefined ? {} : { tao: options.tao }),
        taoBounded,
        ...(onProblem === undefined ? {} : { onProblem: (tick: ProblemTick) => onProblem(name, seed, tick) }),
      });
      const result = runOnce(setting, policy, seed, mode, {
        sampleEvery: options.sampleEvery ?? defaultSimulateOptions.sampleEvery,
        checkInvariants: options.checkInvariants ?? defaultSimulateOptions.checkInvariants,
      });
      runs.push(result);
      options.onRun?.(result, runs.length, total);
    }
  }
  return {
    schemaVersion: SIM_REPORT_SCHEMA_VERSION,
    setting: setting.name,
    description: setting.description,
    workers: setting.workers,
    nodes: setting.nodes,
    engine: setting.engine,
    profile: setting.workload,
    mode,
    seeds,
    policies,
    tao: { ...defaultTaoParams, ...options.tao },
    taoBounded,
    runs,
    summary: summarize(runs),
    baseline,
    comparisons: baseline === null ? [] : compareToBaseline(runs, baseline),
  };
}
