/**
 * The simulator held against the paper's Tables 1-2 (SWE-Lite columns): the list of runs, running them,
 * and the comparison per cell (setting) and metric: simulated value, paper value, ratio, Kendall tau of
 * the five policies' order, the best policy of each side, and the goal of the calibration.
 *
 * The four baselines' columns are what calibration.ts was fitted on; TAO's are out of sample. TAO is
 * reported under the paper's reading (`tao`: every session of the waiting pool admissible, the DP ranking
 * them, admitted between ticks too) and three others (`tao-ready`: only sessions whose tool returned or is
 * predicted to return within H admissible; `tao-tick`: admitted at the 1 s ticks only; `tao-sticky`:
 * ThunderAgent's lifecycle, whose pause and resume TAO keeps, with the DP resuming); the order statistics
 * use `tao`, and each reading's
 * are reported with it in TAO's place. The paper's
 * SWE-verified (Qwen, GLM: the same runs) and Terminal-Bench columns (DeepSeek, the `claude-code` profile)
 * are compared too, as checks nothing was fitted on.
 */
import { InvalidValueError } from '../errors.js';
import { mean } from '../stats.js';
import { FAMILY_CALIBRATIONS } from './calibration.js';
import type { TaoDeps } from './deps.js';
import { runAll, type RunDescription } from './parallel.js';
import type { PolicyName } from './policies/index.js';
import { defaultTaoBoundedParams } from './policies/tao-bounded.js';
import { paperCell, type PaperRow } from './paper-tables.js';
import { SETTINGS } from './settings.js';
import type { RunResult } from './simulation.js';
import { type Estimate, estimate, kendallTau, sampleSd } from './stats.js';
import { compareTable4, TABLE4_POLICIES, TABLE4_SETTING, type Table4Report } from './paper-table4.js';

export { kendallTau };
import { WORKLOAD_PROFILES } from './workload.js';

/** The paper's rows and the policies that stand for them. */
export const PAPER_POLICIES: readonly {
  readonly row: PaperRow;
  readonly policy: PolicyName;
  readonly label: string;
  readonly baseline: boolean;
}[] = Object.freeze([
  { row: 'dynamo', policy: 'dynamo', label: 'Dynamo', baseline: true },
  { row: 'vllm_rr', policy: 'round-robin', label: 'vLLM RR', baseline: true },
  { row: 'vllm_ca', policy: 'cache-aware', label: 'vLLM CA', baseline: true },
  { row: 'thunderagent', policy: 'thunderagent', label: 'ThunderAgent', baseline: true },
  { row: 'tao', policy: 'tao', label: 'TAO', baseline: false },
]);

/** The other readings of TAO, reported beside `tao` against the same paper column. */
export const TAO_READINGS: readonly { readonly policy: PolicyName; readonly label: string }[] = Object.freeze([
  { policy: 'tao-ready', label: 'TAO (ready-gated reading)' },
  { policy: 'tao-tick', label: 'TAO (ticks only)' },
  { policy: 'tao-sticky', label: "TAO (ThunderAgent's lifecycle)" },
]);

/** The paper's benchmarks compared: SWE-Lite is the calibration target, the others are not fitted. */
export type PaperBenchmark = 'SWE-Lite' | 'SWE-verified' | 'Terminal-Bench';

/** The workload profile standing for the Terminal-Bench columns (a Claude-Code agent), not fitted. */
export const TERMINAL_BENCH_PROFILE = 'claude-code';
/** Tasks of a Terminal-Bench run (its tasks are many times longer than SWE-Lite's). */
export const TERMINAL_BENCH_TASKS = 100;
/** Families whose settings each benchmark is compared on (SWE-verified reuses the SWE-Lite runs). */
export const BENCHMARK_FAMILIES: Readonly<Record<PaperBenchmark, readonly string[]>> = Object.freeze({
  'SWE-Lite': ['ds', 'qwen', 'glm'],
  'SWE-verified': ['qwen', 'glm'],
  'Terminal-Bench': ['ds'],
});

export const PAPER_METRICS = Object.freeze([
  { key: 'latency', label: 'latency s', read: (r: RunResult) => r.metrics.latencyMean, lowerIsBetter: true, index: 0 },
  { key: 'ttft', label: 'TTFT s', read: (r: RunResult) => r.metrics.ttftMean, lowerIsBetter: true, index: 1 },
  {
    key: 'decode',
    label: 'decode tok/s',
    read: (r: RunResult) => r.metrics.decodeThroughput,
    lowerIsBetter: false,
    index: 2,
  },
] as const);

export type PaperMetric = (typeof PAPER_METRICS)[number]['key'];

/** The goal of the calibration (issue "The goal"). */
export const PAPER_GOAL = Object.freeze({
  /** Baselines' latency and decode within this ratio band, in at least `share` of their values. */
  baselineBand: [0.75, 1.33] as const,
  baselineShare: 0.8,
  /** Baselines' mean TTFT within this band in at least `share` of their values. */
  ttftBand: [0.5, 2] as const,
  ttftShare: 0.7,
  /** Mean Kendall tau over the (cell, metric) pairs. */
  meanTau: 0.5,
  /** Share of the (cell, metric) pairs whose best policy matches (18 of 27). */
  bestShare: 18 / 27,
  /** Share of the cells where TAO's latency is within `baselineBand` (7 of 9). */
  taoLatencyShare: 7 / 9,
});

/** One run to make: a paper setting, a policy, a seed, and the profile replacing the setting's (if any). */
export interface PaperRunSpec {
  readonly setting: string;
  readonly policy: PolicyName;
  readonly seed: number;
  readonly workload?: string;
}

export const PAPER_SETTINGS: readonly string[] = Object.freeze(
  FAMILY_CALIBRATIONS.flatMap((f) => f.workerCounts.map((w) => `${f.prefix}-${w}`)),
);

function familyOf(setting: string): string {
  return setting.slice(0, setting.lastIndexOf('-'));
}

/** The policies of every paper run: the five, then TAO's other readings. */
export const PAPER_RUN_POLICIES: readonly PolicyName[] = Object.freeze([
  ...PAPER_POLICIES.map((p) => p.policy),
  ...TAO_READINGS.map((p) => p.policy),
]);

/**
 * Every (setting, policy, seed) run of a paper comparison, in a fixed order: the SWE-Lite runs, Table 4's
 * further configurations when `settings` has ds-32, then (with `terminalBench`) the Terminal-Bench runs of
 * the DeepSeek settings among `settings`.
 */
export function paperRuns(
  seeds: readonly number[],
  settings: readonly string[] = PAPER_SETTINGS,
  terminalBench = true,
): PaperRunSpec[] {
  const each = (setting: string, workload?: string): PaperRunSpec[] =>
    PAPER_RUN_POLICIES.flatMap((policy) =>
      seeds.map((seed) => (workload === undefined ? { setting, policy, seed } : { setting, policy, seed, workload })),
    );
  const specs = settings.flatMap((s) => each(s));
  // Table 4's configurations at ds-32, beyond the runs above (its full TAO is their `tao`).
  if (settings.includes(TABLE4_SETTING))
    for (const policy of TABLE4_POLICIES)
      if (!PAPER_RUN_POLICIES.includes(policy))
        for (const seed of seeds) specs.push({ setting: TABLE4_SETTING, policy, seed });
  if (!terminalBench) return specs;
  const tb = settings.filter((s) => BENCHMARK_FAMILIES['Terminal-Bench'].includes(familyOf(s)));
  return [...specs, ...tb.flatMap((s) => each(s, TERMINAL_BENCH_PROFILE))];
}

/** The run descriptions of `specs` (what runAll executes); `tasks` overrides every run's task count. */
export function paperRunDescriptions(specs: readonly PaperRunSpec[], tasks?: number): RunDescription[] {
  return specs.map((spec) => {
    const base = SETTINGS[spec.setting];
    if (base === undefined) throw new InvalidValueError(`setting must be a paper setting (got "${spec.setting}")`);
    const workload = spec.workload === undefined ? undefined : WORKLOAD_PROFILES[spec.workload];
    if (spec.workload !== undefined && workload === undefined)
      throw new InvalidValueError(`workload must be a profile name (got "${spec.workload}")`);
    const setting = workload === undefined ? base : { ...base, workload };
    return {
      setting,
      policy: spec.policy,
      seed: spec.seed,
      mode: { tasks: tasks ?? (workload === undefined ? base.tasks : TERMINAL_BENCH_TASKS) },
      taoBounded: defaultTaoBoundedParams,
      sampleEvery: 0,
      checkInvariants: false,
    };
  });
}

/**
 * Runs `specs` on `jobs` worker threads (1, the default: in this thread) and returns the results in the
 * order of the specs; each run depends on its spec only, so the results do not depend on `jobs`.
 */
export async function runPaperRuns(
  specs: readonly PaperRunSpec[],
  options: {
    readonly deps?: TaoDeps;
    readonly tasks?: number;
    readonly jobs?: number;
    readonly onRun?: (r: RunResult, done: number, total: number) => void;
  },
): Promise<RunResult[]> {
  const runs = paperRunDescriptions(specs, options.tasks);
  return runAll(runs, {
    ...(options.jobs === undefined ? {} : { jobs: options.jobs }),
    ...(options.deps === undefined ? {} : { deps: options.deps }),
    ...(options.onRun === undefined ? {} : { onRun: options.onRun }),
  });
}

export interface PaperValue {
  readonly policy: PolicyName;
  readonly row: PaperRow;
  readonly sim: number;
  readonly paper: number;
  readonly ratio: number;
}

export interface PaperCellMetric {
  readonly setting: string;
  readonly metric: PaperMetric;
  /** The five policies (TAO as `tao`), then TAO's other readings (TAO_READINGS). */
  readonly values: readonly PaperValue[];
  /** Kendall tau of the five policies' simulated against the paper's values. */
  readonly tau: number;
  readonly bestSim: PolicyName;
  readonly bestPaper: PolicyName;
  /** TAO against the best simulated baseline, paired by seed (every policy runs the same tasks on a seed). */
  readonly paired: PaperPaired;
}

/**
 * TAO (`tao`) against the baseline with the best simulated mean of a cell and metric, paired by seed, and
 * whether the simulator can tell apart what the paper reports at this seed count. Gains are signed so that
 * positive means TAO better (lower latency or TTFT, higher decode), as the paper's "vs best baseline" row.
 */
export interface PaperPaired {
  readonly baseline: PolicyName;
  /** TAO's gain over `baseline`: mean of the per-seed relative gains and its Student-t 95% half-width
   * (NaN under 2 seeds). */
  readonly gain: Estimate;
  /** The paper's gain of TAO over its best baseline in this cell and metric. */
  readonly paperGain: number;
  /** |paperGain| is larger than the simulator's paired half-width: a lead of the paper's size is resolved. */
  readonly paperMarginResolved: boolean;
  /**
   * The spread of one unpaired run-to-run difference, relative to the baseline's mean: sqrt(var TAO + var
   * baseline) over the seeds, / the baseline's mean. The paper compares one natural run per policy, each
   * with its own trajectory (its appendix D), so its margin carries this noise, not the paired one.
   */
  readonly oneRunSd: number;
  /** |paperGain| > 1.96 x oneRunSd: the paper's one-run margin is outside what run-to-run noise gives. */
  readonly paperMarginAboveRunNoise: boolean;
  /** The simulated best of the five is ahead of the runner-up by more than their paired half-width. */
  readonly bestDecided: boolean;
}

export interface PaperGoalCheck {
  readonly label: string;
  readonly value: number;
  readonly of: number;
  readonly target: number;
  readonly met: boolean;
}

/** TAO's latency within the band under one of its other readings. */
export interface PaperReadingCheck {
  readonly policy: PolicyName;
  readonly latencyCells: number;
  readonly of: number;
  /** The mean Kendall tau and the best-policy matches with this reading standing for TAO among the five. */
  readonly meanTau: number;
  readonly bestMatches: number;
  readonly cells: number;
}

/**
 * The TTFT under the engine-side reading (a request's admission to its first token: engine queue plus
 * prefill, the scheduler's wait left out), against the same paper column.
 */
export interface EngineSideTtft {
  /** Baselines' values within the TTFT band. */
  readonly baselinesInBand: number;
  readonly baselines: number;
  /** TAO's (`tao`) values within the TTFT band. */
  readonly taoInBand: number;
  readonly tao: number;
}

/** One benchmark's comparison. */
export interface BenchmarkReport {
  readonly benchmark: PaperBenchmark;
  /** SWE-Lite is what the constants were fitted on; the other benchmarks are checks nothing was fitted on. */
  readonly fitted: boolean;
  /** The workload profile of the runs: the settings' own (SWE-Lite) or the one standing for the benchmark. */
  readonly profile: string;
  readonly cells: readonly PaperCellMetric[];
  readonly goal: readonly PaperGoalCheck[];
  readonly readings: readonly PaperReadingCheck[];
  readonly engineSideTtft: EngineSideTtft;
  readonly verdict: string;
}

/** The SWE-Lite comparison (the calibration's goal), with the other benchmarks beside it. */
export interface PaperReport extends BenchmarkReport {
  readonly seeds: readonly number[];
  readonly tasks: number | null;
  readonly outOfSample: readonly BenchmarkReport[];
  /** The paper's Table 4 (ablations at ds-32), when the runs have ds-32: another check nothing was fitted on. */
  readonly table4?: Table4Report;
}

function inBand(x: number, band: readonly [number, number]): boolean {
  return x >= band[0] && x <= band[1];
}

/**
 * Kendall tau of the five policies' simulated against their paper order, and the best policy of each
 * (TAO's row may hold another reading's value; the best is named by the row's policy).
 */
function orderOf(
  five: readonly PaperValue[],
  lowerIsBetter: boolean,
): { tau: number; bestSim: PolicyName; bestPaper: PolicyName } {
  const best = (key: 'sim' | 'paper'): PolicyName => {
    let b = five[0]!;
    for (const v of five) if (lowerIsBetter ? v[key] < b[key] : v[key] > b[key]) b = v;
    return b.row === 'tao' ? 'tao' : b.policy;
  };
  return {
    tau: kendallTau(
      five.map((v) => v.sim),
      five.map((v) => v.paper),
    ),
    bestSim: best('sim'),
    bestPaper: best('paper'),
  };
}

/** Per-seed relative gains of `x` over `y` (positive: x better), over the seeds both ran. */
function seedGains(x: readonly RunResult[], y: readonly RunResult[], m: (typeof PAPER_METRICS)[number]): number[] {
  const ys = new Map(y.map((r) => [r.seed, m.read(r)] as const));
  const out: number[] = [];
  for (const r of [...x].sort((a, b) => a.seed - b.seed)) {
    const b = ys.get(r.seed);
    if (b === undefined) continue;
    const d = (m.read(r) - b) / b;
    out.push(m.lowerIsBetter ? -d : d);
  }
  return out;
}

/** TAO against the best simulated baseline, and whether the simulated best is decided (see PaperPaired). */
function pairedToBest(
  five: readonly PaperValue[],
  of: (policy: PolicyName) => readonly RunResult[],
  m: (typeof PAPER_METRICS)[number],
): PaperPaired {
  const better = (a: number, b: number): boolean => (m.lowerIsBetter ? a < b : a > b);
  const bestOf = (vs: readonly PaperValue[], key: 'sim' | 'paper'): PaperValue =>
    vs.reduce((b, v) => (better(v[key], b[key]) ? v : b));
  const tao = five.find((v) => v.row === 'tao')!;
  const baselines = five.filter((v) => v.row !== 'tao');
  const simBase = bestOf(baselines, 'sim');
  const paperBase = bestOf(baselines, 'paper');
  const gain = estimate(seedGains(of(tao.policy), of(simBase.policy), m));
  const paperGain = m.lowerIsBetter ? (paperBase.paper - tao.paper) / paperBase.paper : tao.paper / paperBase.paper - 1;
  const relVar = (p: PolicyName): number => {
    const xs = of(p).map(m.read);
    return sampleSd(xs) ** 2;
  };
  const oneRunSd = Math.sqrt(relVar(tao.policy) + relVar(simBase.policy)) / simBase.sim;
  const ranked = [...five].sort((a, b) => (better(a.sim, b.sim) ? -1 : better(b.sim, a.sim) ? 1 : 0));
  const lead = estimate(seedGains(of(ranked[0]!.policy), of(ranked[1]!.policy), m));
  return {
    baseline: simBase.policy,
    gain,
    paperGain,
    paperMarginResolved: Math.abs(paperGain) > gain.ci95,
    oneRunSd,
    paperMarginAboveRunNoise: Math.abs(paperGain) > 1.96 * oneRunSd,
    bestDecided: lead.mean - lead.ci95 > 0,
  };
}

const engineSide = (r: RunResult): number => r.metrics.engineQueueMean + r.metrics.prefillMean;

/** The comparison of `runs` (the runs of `benchmark`'s settings) with the paper's `benchmark` columns. */
export function compareBenchmark(runs: readonly RunResult[], benchmark: PaperBenchmark): BenchmarkReport {
  const families = BENCHMARK_FAMILIES[benchmark];
  const settings = [...new Set(runs.map((r) => r.setting))].filter((s) => families.includes(familyOf(s)));
  const cells: PaperCellMetric[] = [];
  const g = PAPER_GOAL;
  const baselines = new Set(PAPER_POLICIES.filter((p) => p.baseline).map((p) => p.policy));
  const engine = { baselinesInBand: 0, baselines: 0, taoInBand: 0, tao: 0 };
  for (const setting of settings) {
    const s = SETTINGS[setting]!;
    const family = familyOf(setting);
    const of = (policy: PolicyName): RunResult[] => {
      const xs = runs.filter((r) => r.setting === setting && r.policy === policy);
      if (xs.length === 0) throw new InvalidValueError(`no runs of ${policy} on ${setting}`);
      return xs;
    };
    for (const p of PAPER_POLICIES) {
      const ratio = mean(of(p.policy).map(engineSide)) / paperCell(family, benchmark, p.row, s.workers)[1];
      if (p.baseline) {
        engine.baselines++;
        if (inBand(ratio, g.ttftBand)) engine.baselinesInBand++;
      } else {
        engine.tao++;
        if (inBand(ratio, g.ttftBand)) engine.taoInBand++;
      }
    }
    for (const m of PAPER_METRICS) {
      const value = (policy: PolicyName, row: PaperRow): PaperValue => {
        const sim = mean(of(policy).map(m.read));
        const paper = paperCell(family, benchmark, row, s.workers)[m.index];
        return { policy, row, sim, paper, ratio: sim / paper };
      };
      const five = PAPER_POLICIES.map((p) => value(p.policy, p.row));
      cells.push({
        setting,
        metric: m.key,
        values: [...five, ...TAO_READINGS.map((t) => value(t.policy, 'tao'))],
        ...orderOf(five, m.lowerIsBetter),
        paired: pairedToBest(five, (p) => of(p), m),
      });
    }
  }
  const base = (metric: PaperMetric): PaperValue[] =>
    cells.filter((c) => c.metric === metric).flatMap((c) => c.values.filter((v) => baselines.has(v.policy)));
  const latDec = [...base('latency'), ...base('decode')];
  const ttft = base('ttft');
  const lat = cells.filter((c) => c.metric === 'latency');
  const taoCells = (policy: PolicyName): number =>
    lat.filter((c) => inBand(c.values.find((v) => v.policy === policy)!.ratio, g.baselineBand)).length;
  /** The order statistics with `policy` standing for TAO (its value in TAO's place among the five). */
  const reading = (policy: PolicyName): PaperReadingCheck => {
    const orders = cells.map((c) => {
      const lowerIsBetter = PAPER_METRICS.find((m) => m.key === c.metric)!.lowerIsBetter;
      const stand = c.values.find((v) => v.policy === policy)!;
      const five = c.values.slice(0, PAPER_POLICIES.length).map((v) => (v.policy === 'tao' ? stand : v));
      return orderOf(five, lowerIsBetter);
    });
    return {
      policy,
      latencyCells: taoCells(policy),
      of: lat.length,
      meanTau: orders.length === 0 ? Number.NaN : mean(orders.map((o) => o.tau)),
      bestMatches: orders.filter((o) => o.bestSim === o.bestPaper).length,
      cells: orders.length,
    };
  };
  const meanTau = cells.length === 0 ? Number.NaN : mean(cells.map((c) => c.tau));
  const check = (label: string, value: number, of: number, target: number): PaperGoalCheck => ({
    label,
    value,
    of,
    target,
    met: value >= target,
  });
  const goal = [
    check(
      `baselines' latency and decode within x${g.baselineBand[0]}-x${g.baselineBand[1]}`,
      latDec.filter((v) => inBand(v.ratio, g.baselineBand)).length,
      latDec.length,
      Math.ceil(g.baselineShare * latDec.length - 1e-9),
    ),
    check(
      `baselines' mean TTFT within x${g.ttftBand[0]}-x${g.ttftBand[1]}`,
      ttft.filter((v) => inBand(v.ratio, g.ttftBand)).length,
      ttft.length,
      Math.ceil(g.ttftShare * ttft.length - 1e-9),
    ),
    {
      label: 'mean Kendall tau over (cell, metric) pairs',
      value: meanTau,
      of: cells.length,
      target: g.meanTau,
      met: meanTau >= g.meanTau,
    },
    check(
      'best policy matching',
      cells.filter((c) => c.bestSim === c.bestPaper).length,
      cells.length,
      Math.ceil(g.bestShare * cells.length - 1e-9),
    ),
    check(
      `TAO's latency (out of sample) within x${g.baselineBand[0]}-x${g.baselineBand[1]}`,
      taoCells('tao'),
      lat.length,
      Math.ceil(g.taoLatencyShare * lat.length - 1e-9),
    ),
  ];
  const fitted = benchmark === 'SWE-Lite';
  const failed = goal.filter((x) => !x.met);
  const show = (x: PaperGoalCheck): string =>
    Number.isInteger(x.value) ? `${x.value}/${x.of} (need ${x.target})` : `${x.value.toFixed(2)} (need ${x.target})`;
  const verdict = !fitted
    ? `not fitted, reported: ${goal.map((x) => `${x.met ? 'ok' : 'MISS'} ${show(x)}`).join('; ')}`
    : failed.length === 0
      ? `goal met: ${goal.map(show).join('; ')}`
      : `goal not met (${goal.length - failed.length} of ${goal.length} parts met): ${goal.map((x) => `${x.met ? 'ok' : 'MISS'} ${show(x)}`).join('; ')}`;
  const profiles = [...new Set(runs.filter((r) => settings.includes(r.setting)).map((r) => r.profile))];
  return {
    benchmark,
    fitted,
    profile: fitted || benchmark === 'SWE-verified' ? profiles.join(', ') : TERMINAL_BENCH_PROFILE,
    cells,
    goal,
    readings: TAO_READINGS.map((t) => reading(t.policy)),
    engineSideTtft: engine,
    verdict,
  };
}

/**
 * The comparison of `runs` (every `paperRuns` spec of some settings) with the paper: SWE-Lite, the goal,
 * and beside it SWE-verified (the same runs) and Terminal-Bench (the `claude-code` runs), where present.
 */
export function comparePaper(runs: readonly RunResult[], seeds: readonly number[], tasks: number | null): PaperReport {
  const swe = runs.filter((r) => r.profile !== TERMINAL_BENCH_PROFILE);
  const tb = runs.filter((r) => r.profile === TERMINAL_BENCH_PROFILE);
  const outOfSample: BenchmarkReport[] = [];
  for (const [benchmark, rs] of [
    ['SWE-verified', swe],
    ['Terminal-Bench', tb],
  ] as const) {
    if (rs.some((r) => BENCHMARK_FAMILIES[benchmark].includes(familyOf(r.setting))))
      outOfSample.push(compareBenchmark(rs, benchmark));
  }
  const table4 = swe.some((r) => r.setting === TABLE4_SETTING) ? { table4: compareTable4(swe) } : {};
  return { ...compareBenchmark(swe, 'SWE-Lite'), seeds, tasks, outOfSample, ...table4 };
}
