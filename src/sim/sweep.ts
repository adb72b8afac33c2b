/**
 * Parameter sweeps: the TAO pipeline's knobs (h, H, delta, quantum, state budget, credit rounding unit) over a Cartesian grid,
 * each grid point run on the same seeds and summarized with 95% intervals.
 */
import { integerIn, positiveInteger } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { MAX_STATE_BUDGET } from '../limits.js';
import { loadTaoDeps, type TaoDeps } from './deps.js';
import type { NumericTaoParam, TaoParams } from './policies/tao.js';
import { type PolicyName } from './policy.js';
import { resolveSetting, type RunMode, SIM_REPORT_SCHEMA_VERSION, simulate } from './run.js';
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
    case 'H':
      if (!(v > 0) || !Number.isFinite(v)) throw new InvalidValueError(`${path} must be a positive number of seconds`);
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
    if (!Array.isArray(values) || values.length === 0) throw new InvalidValueError(`grid.${param} must be a non-empty array`);
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

export async function sweep(options: SweepOptions): Promise<SweepReport> {
  const setting = resolveSetting(options.setting);
  const points = expandGrid(options.grid);
  const policy = options.policy ?? 'tao';
  const seeds = options.seeds ?? [1, 2, 3, 4, 5];
  const mode = options.mode ?? { tasks: setting.tasks };
  const deps = options.deps ?? (await loadTaoDeps());
  const total = points.length * seeds.length;
  let done = 0;
  const out: SweepPointResult[] = [];
  for (const point of points) {
    const tao: Partial<Record<NumericTaoParam, number>> = {};
    for (const k of SWEEP_PARAMS) {
      const v = point[k];
      if (v !== undefined) tao[TO_TAO[k]] = v;
    }
    const report = await simulate({
      setting,
      policies: [policy],
      seeds,
      mode,
      tao,
      deps,
      sampleEvery: 0,
      onRun: (r) => {
        done++;
        options.onRun?.(r, done, total);
      },
    });
    out.push({ params: point, tao: report.tao, label: pointLabel(point), summary: report.summary[0]!, runs: report.runs });
  }
  return { schemaVersion: SIM_REPORT_SCHEMA_VERSION, setting: setting.name, policy, seeds, mode, points: out };
}
