/**
 * Parameter sweeps: the TAO pipeline's knobs (h, H, delta, quantum, state budget, credit rounding unit) over a Cartesian grid,
 * each grid point run on the same seeds and summarized with 95% intervals.
 */
import { integerIn, positiveInteger } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { MAX_STATE_BUDGET } from '../limits.js';
import type { TaoDeps } from './deps.js';
import { runAll, type RunDescription } from './parallel.js';
import type { NumericTaoParam, TaoParams } from './policies/tao.js';
import { type PolicyName } from './policy.js';
import {
  assembleReport,
  planSimulation,
  resolveSetting,
  type RunMode,
  SIM_REPORT_SCHEMA_VERSION,
  type SimulationHeader,
} from './run.js';
import { MAX_RUNS, MIN_HORIZON } from './run-limits.js';
import type { SimSetting } from './settings.js';
import type { RunResult } from './simulation.js';
import type { PolicySummary } from './summary.js';

/** Sweepable parameters, by their paper names. */
export const SWEEP_PARAMS = ['h', 'H', 'delta', 'quantum', 'stateBudget', 'creditUnit'] as const;
export type SweepParam = (typeof SWEEP_PARAMS)[number];

const TO_TAO: Readonly<Record<SweepParam, NumericTaoParam>> = {
  h: 'halfLife',
  H: 'horizon',
  delta: 'delta',
  quantum: 'quantum',
  stateBudget: 'stateBudget',
  creditUnit: 'creditUnit',
};

/** Checks one value of a sweep parameter; `path` names it in the error. */
export function checkSweepValue(param: SweepParam, v: unknown, path: string): number {
  if (typeof v !== 'number') throw new InvalidTypeError(`${path} must be a number`);
  switch (param) {
    case 'h':
      if (!(v > 0) || !Number.isFinite(v)) throw new InvalidValueError(`${path} must be a positive number of seconds`);
      return v;
    case 'H':
      if (!(v >= MIN_HORIZON) || !Number.isFinite(v))
        throw new InvalidValueError(`${path} must be a number of seconds of at least ${MIN_HORIZON}`);
      return v;
    case 'delta':
      if (!(v > 0 && v < 1)) throw new InvalidValueError(`${path} must be in (0, 1)`);
      return v;
    case 'quantum':
    case 'creditUnit':
      return positiveInteger(v, path);
    case 'stateBudget':
      return integerIn(v, path, 1, MAX_STATE_BUDGET);
  }
}

export type SweepGrid = Partial<Record<SweepParam, readonly number[]>>;
export type GridPoint = Partial<Record<SweepParam, number>>;

/** The Cartesian product of the grid, first parameter varying slowest. */
export function expandGrid(grid: SweepGrid): GridPoint[] {
  let points: GridPoint[] = [{}];
  for (const param of SWEEP_PARAMS) {
    const values = grid[param];
    if (values === undefined) continue;
    if (!Array.isArray(values) || values.length === 0)
      throw new InvalidValueError(`grid.${param} must be a non-empty array`);
    values.forEach((v, i) => checkSweepValue(param, v, `grid.${param}[${i}]`));
    points = points.flatMap((p) => values.map((v) => ({ ...p, [param]: v })));
  }
  return points;
}

export function pointLabel(p: GridPoint): string {
  const parts = SWEEP_PARAMS.filter((k) => p[k] !== undefined).map((k) => `${k}=${p[k]}`);
  return parts.length === 0 ? 'defaults' : parts.join(' ');
}

export interface SweepOptions {
  readonly setting: string | SimSetting;
  readonly grid: SweepGrid;
  /** @default 'tao' */
  readonly policy?: PolicyName;
  readonly seeds?: readonly number[];
  readonly mode?: RunMode;
  /** Worker threads for the runs (results identical to 1). @default 1, in this thread */
  readonly jobs?: number;
  readonly onRun?: (result: RunResult, done: number, total: number) => void;
  readonly deps?: TaoDeps;
}

export interface SweepPointResult {
  readonly params: GridPoint;
  /** Every TAO parameter the point ran with (the grid point over the defaults). */
  readonly tao: TaoParams;
  readonly label: string;
  readonly summary: PolicySummary;
  readonly runs: readonly RunResult[];
}

export interface SweepReport {
  readonly schemaVersion: typeof SIM_REPORT_SCHEMA_VERSION;
  readonly setting: string;
  readonly policy: PolicyName;
  readonly seeds: readonly number[];
  readonly mode: RunMode;
  readonly points: readonly SweepPointResult[];
}

/** A sweep report without its runs: the points' parameters and the plan of each point. */
export interface SweepHeader extends Omit<SweepReport, 'points'> {
  readonly points: readonly {
    readonly params: GridPoint;
    readonly label: string;
    readonly header: SimulationHeader;
    readonly runs: number;
  }[];
}

/** Checks the options and lists every run of the sweep (point by point, seed by seed) without running them. */
export function planSweep(options: SweepOptions): {
  readonly header: SweepHeader;
  readonly runs: readonly RunDescription[];
} {
  const setting = resolveSetting(options.setting);
  const points = expandGrid(options.grid);
  const policy = options.policy ?? 'tao';
  const seeds = options.seeds ?? [1, 2, 3, 4, 5];
  const mode = options.mode ?? { tasks: setting.tasks };
  if (points.length * seeds.length > MAX_RUNS) {
    throw new InvalidValueError(
      `grid points x seeds must be at most ${MAX_RUNS} runs (got ${points.length} x ${seeds.length})`,
    );
  }
  const runs: RunDescription[] = [];
  const headers = points.map((point) => {
    const tao: Partial<Record<NumericTaoParam, number>> = {};
    for (const k of SWEEP_PARAMS) {
      const v = point[k];
      if (v !== undefined) tao[TO_TAO[k]] = v;
    }
    const plan = planSimulation({ setting, policies: [policy], seeds, mode, tao, sampleEvery: 0 });
    runs.push(...plan.runs);
    return { params: point, label: pointLabel(point), header: plan.header, runs: plan.runs.length };
  });
  return {
    header: { schemaVersion: SIM_REPORT_SCHEMA_VERSION, setting: setting.name, policy, seeds, mode, points: headers },
    runs,
  };
}

/** The sweep report from its runs' results (in the plan's order). */
export function assembleSweep(header: SweepHeader, results: readonly RunResult[]): SweepReport {
  let at = 0;
  const points = header.points.map((p): SweepPointResult => {
    const report = assembleReport(p.header, results.slice(at, at + p.runs));
    at += p.runs;
    return { params: p.params, tao: report.tao, label: p.label, summary: report.summary[0]!, runs: report.runs };
  });
  return {
    schemaVersion: header.schemaVersion,
    setting: header.setting,
    policy: header.policy,
    seeds: header.seeds,
    mode: header.mode,
    points,
  };
}

export async function sweep(options: SweepOptions): Promise<SweepReport> {
  const plan = planSweep(options);
  const runs = await runAll(plan.runs, {
    ...(options.jobs === undefined ? {} : { jobs: options.jobs }),
    ...(options.deps === undefined ? {} : { deps: options.deps }),
    ...(options.onRun === undefined ? {} : { onRun: options.onRun }),
  });
  return assembleSweep(plan.header, runs);
}
