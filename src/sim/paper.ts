/**
 * The simulator held against the paper's Tables 1-2 (SWE-Lite columns): the list of runs, running them,
 * and the comparison per cell (setting) and metric: simulated value, paper value, ratio, Kendall tau of
 * the five policies' order, the best policy of each side, and the goal of the calibration.
 *
 * The four baselines' columns are what calibration.ts was fitted on; TAO's are out of sample. TAO is
 * reported under both readings of its lifecycle (`tao`: sessions admissible once their tool returned or is
 * predicted to return within H; `tao-hold`: every pooled session admissible); the order statistics use `tao`.
 */
import { InvalidValueError } from '../errors.js';
import { mean } from '../stats.js';
import { FAMILY_CALIBRATIONS } from './calibration.js';
import type { TaoDeps } from './deps.js';
import { createPolicy, needsDeps, type PolicyName } from './policies/index.js';
import { paperCell, type PaperRow } from './paper-tables.js';
import { runOnce } from './run.js';
import { SETTINGS } from './settings.js';
import type { RunResult } from './simulation.js';

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

/** The ablation reading of TAO's lifecycle, reported beside `tao` against the same paper column. */
export const TAO_ABLATION: PolicyName = 'tao-hold';

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

/** One run to make. */
export interface PaperRunSpec {
  readonly setting: string;
  readonly policy: PolicyName;
  readonly seed: number;
}

export const PAPER_SETTINGS: readonly string[] = Object.freeze(
  FAMILY_CALIBRATIONS.flatMap((f) => f.workerCounts.map((w) => `${f.prefix}-${w}`)),
);

/** Every (setting, policy, seed) run of a paper comparison, in a fixed order. */
export function paperRuns(seeds: readonly number[], settings: readonly string[] = PAPER_SETTINGS): PaperRunSpec[] {
  const policies = [...PAPER_POLICIES.map((p) => p.policy), TAO_ABLATION];
  return settings.flatMap((setting) => policies.flatMap((policy) => seeds.map((seed) => ({ setting, policy, seed }))));
}

/**
 * Runs `specs` one after the other (each run is independent of the others, so the list can be split over
 * workers); `tasks` overrides the settings' task count.
 */
export function runPaperRuns(
  specs: readonly PaperRunSpec[],
  options: {
    readonly deps?: TaoDeps;
    readonly tasks?: number;
    readonly onRun?: (r: RunResult, done: number, total: number) => void;
  },
): RunResult[] {
  const out: RunResult[] = [];
  for (const spec of specs) {
    const setting = SETTINGS[spec.setting];
    if (setting === undefined) throw new InvalidValueError(`setting must be a paper setting (got "${spec.setting}")`);
    if (needsDeps(spec.policy) && options.deps === undefined)
      throw new Error(`policy ${spec.policy} needs the solver: load it with loadTaoDeps()`);
    const policy = createPolicy(spec.policy, {
      setting,
      ...(options.deps === undefined ? {} : { deps: options.deps }),
    });
    const result = runOnce(setting, policy, spec.seed, { tasks: options.tasks ?? setting.tasks }, { sampleEvery: 0 });
    out.push(result);
    options.onRun?.(result, out.length, specs.length);
  }
  return out;
}

/** Kendall's tau-a of two equally long value lists (ties count as neither concordant nor discordant). */
export function kendallTau(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length < 2)
    throw new InvalidValueError('kendallTau needs two lists of the same length >= 2');
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) s += Math.sign(a[i]! - a[j]!) * Math.sign(b[i]! - b[j]!);
  }
  return s / ((a.length * (a.length - 1)) / 2);
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
  /** The five policies (TAO as `tao`), then `tao-hold`. */
  readonly values: readonly PaperValue[];
  /** Kendall tau of the five policies' simulated against the paper's values. */
  readonly tau: number;
  readonly bestSim: PolicyName;
  readonly bestPaper: PolicyName;
}

export interface PaperGoalCheck {
  readonly label: string;
  readonly value: number;
  readonly of: number;
  readonly target: number;
  readonly met: boolean;
}

export interface PaperReport {
  readonly seeds: readonly number[];
  readonly tasks: number | null;
  readonly cells: readonly PaperCellMetric[];
  readonly goal: readonly PaperGoalCheck[];
  /** TAO's latency out of sample under the ablation reading too. */
  readonly taoHoldLatencyCells: number;
  readonly verdict: string;
}

function inBand(x: number, band: readonly [number, number]): boolean {
  return x >= band[0] && x <= band[1];
}

/** The comparison of `runs` (every `paperRuns` spec of `settings`) with the paper. */
export function comparePaper(runs: readonly RunResult[], seeds: readonly number[], tasks: number | null): PaperReport {
  const settings = [...new Set(runs.map((r) => r.setting))];
  const cells: PaperCellMetric[] = [];
  for (const setting of settings) {
    const s = SETTINGS[setting]!;
    const family = setting.slice(0, setting.lastIndexOf('-'));
    for (const m of PAPER_METRICS) {
      const value = (policy: PolicyName, row: PaperRow): PaperValue => {
        const xs = runs.filter((r) => r.setting === setting && r.policy === policy).map(m.read);
        if (xs.length === 0) throw new InvalidValueError(`no runs of ${policy} on ${setting}`);
        const sim = mean(xs);
        const paper = paperCell(family, 'SWE-Lite', row, s.workers)[m.index];
        return { policy, row, sim, paper, ratio: sim / paper };
      };
      const five = PAPER_POLICIES.map((p) => value(p.policy, p.row));
      const best = (key: 'sim' | 'paper'): PolicyName => {
        let b = five[0]!;
        for (const v of five) if (m.lowerIsBetter ? v[key] < b[key] : v[key] > b[key]) b = v;
        return b.policy;
      };
      cells.push({
        setting,
        metric: m.key,
        values: [...five, value(TAO_ABLATION, 'tao')],
        tau: kendallTau(
          five.map((v) => v.sim),
          five.map((v) => v.paper),
        ),
        bestSim: best('sim'),
        bestPaper: best('paper'),
      });
    }
  }
  const baselines = new Set(PAPER_POLICIES.filter((p) => p.baseline).map((p) => p.policy));
  const base = (metric: PaperMetric): PaperValue[] =>
    cells.filter((c) => c.metric === metric).flatMap((c) => c.values.filter((v) => baselines.has(v.policy)));
  const latDec = [...base('latency'), ...base('decode')];
  const ttft = base('ttft');
  const lat = cells.filter((c) => c.metric === 'latency');
  const taoCells = (policy: PolicyName): number =>
    lat.filter((c) => inBand(c.values.find((v) => v.policy === policy)!.ratio, PAPER_GOAL.baselineBand)).length;
  const meanTau = mean(cells.map((c) => c.tau));
  const g = PAPER_GOAL;
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
  const failed = goal.filter((x) => !x.met);
  const show = (x: PaperGoalCheck): string =>
    Number.isInteger(x.value) ? `${x.value}/${x.of} (need ${x.target})` : `${x.value.toFixed(2)} (need ${x.target})`;
  const verdict =
    failed.length === 0
      ? `goal met: ${goal.map(show).join('; ')}`
      : `goal not met (${goal.length - failed.length} of ${goal.length} parts met): ${goal.map((x) => `${x.met ? 'ok' : 'MISS'} ${show(x)}`).join('; ')}`;
  return { seeds, tasks, cells, goal, taoHoldLatencyCells: taoCells(TAO_ABLATION), verdict };
}
