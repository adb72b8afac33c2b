/**
 * The paired regression gate: the baseline build and the current solver solve the same problems
 * alternately in one process (which goes first alternates with the problem and the round), each problem
 * several rounds after an untimed one. A solve is timed by the solving thread's own CPU time (the thread
 * clock of src/bench/thread-clock.ts; the process's CPU time where there is none), not the wall clock: on a
 * shared machine a multi-millisecond solve is preempted on most runs, and the time it spends waiting for a
 * core is not the solver's; nor is the work of the engine's background compiler threads, which the
 * process's CPU time would count (nor garbage collection on helper threads). Per problem the ratio of the
 * two least times is taken; per group the geometric mean of those ratios with a 95% confidence interval
 * over the problems (normal approximation on the log ratios). Machine speed and load hit both builds
 * alike, so a clean run reads about 1.00 whatever the machine is doing.
 *
 * A group regresses when the interval's lower bound exceeds `maxSlowdown` (the slowdown is certain to be
 * at least that large), when the current solver falls back on more problems than the baseline by more than
 * `maxFallbackIncreasePct` points, or when both return an optimal plan of different values.
 */
import type { SolveOptions } from '../solve/options.js';
import type { Plan, Problem } from '../types.js';
import { threadCpuMs } from './thread-clock.js';
import { formatValue, sameValue } from './validation.js';

/**
 * One build's solve. Options are passed as the caller would write them (`{ quantum }`), not resolved: each
 * build fills in its own defaults, so an option the baseline does not know never reaches it.
 */
export type SolveFn = (problem: Problem, options: SolveOptions) => Plan;

export interface PairedGroup {
  /** `family/group`. */
  name: string;
  problems: readonly Problem[];
  options: SolveOptions;
}

export interface PairedThresholds {
  /** A group's ratio may not be certainly (lower 95% bound) above this. */
  maxSlowdown: number;
  /** Fallback share may exceed the baseline's by at most this many percentage points. */
  maxFallbackIncreasePct: number;
}

export interface PairedGroupResult {
  name: string;
  problems: number;
  /** Geometric mean of the per-problem ratios current / baseline, and its 95% interval. */
  ratio: number;
  lower: number;
  upper: number;
  /** Sum of the current's fastest times over the baseline's (dominated by the slowest problems). */
  totalRatio: number;
  baseMs: number;
  currentMs: number;
  fallbacks: { baseline: number; current: number };
  disagreements: string[];
}

/** Normal 97.5% quantile: the two-sided 95% interval. */
const Z95 = 1.959964;

/** The geometric mean of `ratios` and its 95% interval (normal approximation on the logs). */
export function geometricInterval(ratios: readonly number[]): { ratio: number; lower: number; upper: number } {
  const n = ratios.length;
  if (n === 0) return { ratio: NaN, lower: NaN, upper: NaN };
  const logs = ratios.map((r) => Math.log(r));
  const mean = logs.reduce((a, x) => a + x, 0) / n;
  const sd = n > 1 ? Math.sqrt(logs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)) : Infinity;
  const half = (Z95 * sd) / Math.sqrt(n);
  return { ratio: Math.exp(mean), lower: Math.exp(mean - half), upper: Math.exp(mean + half) };
}

/** How a solve is timed: the thread's CPU time (the gate's) or wall time (hrtime), in ms. */
export type PairedClock = 'cpu' | 'wall';

function wallMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Measures one group: `rounds` timed rounds after an untimed one, the two solvers alternating. */
export function measurePaired(
  group: PairedGroup,
  baseline: SolveFn,
  current: SolveFn,
  rounds: number,
  clock: PairedClock = 'cpu',
): PairedGroupResult {
  const now = clock === 'cpu' ? threadCpuMs : wallMs;
  const n = group.problems.length;
  const minBase = new Float64Array(n).fill(Infinity);
  const minCur = new Float64Array(n).fill(Infinity);
  const basePlans: Plan[] = [];
  const curPlans: Plan[] = [];
  const time = (f: SolveFn, p: Problem): [number, Plan] => {
    const t0 = now();
    const plan = f(p, group.options);
    return [now() - t0, plan];
  };
  for (let r = 0; r <= rounds; r++) {
    for (let i = 0; i < n; i++) {
      const p = group.problems[i] as Problem;
      const baseFirst = (i + r) % 2 === 0;
      const [a, pa] = time(baseFirst ? baseline : current, p);
      const [b, pb] = time(baseFirst ? current : baseline, p);
      const [tb, tc, planB, planC] = baseFirst ? [a, b, pa, pb] : [b, a, pb, pa];
      if (r === 0) {
        basePlans.push(planB);
        curPlans.push(planC);
        continue;
      }
      if (tb < (minBase[i] as number)) minBase[i] = tb;
      if (tc < (minCur[i] as number)) minCur[i] = tc;
    }
  }
  const ratios: number[] = [];
  let sumB = 0;
  let sumC = 0;
  for (let i = 0; i < n; i++) {
    // A zero reading (a solve under the timer's resolution) has no ratio.
    const b = minBase[i] as number;
    const c = minCur[i] as number;
    sumB += b;
    sumC += c;
    if (b > 0 && c > 0 && Number.isFinite(b) && Number.isFinite(c)) ratios.push(c / b);
  }
  const disagreements: string[] = [];
  for (let i = 0; i < n; i++) {
    const b = basePlans[i] as Plan;
    const c = curPlans[i] as Plan;
    if (b.status === 'optimal' && c.status === 'optimal' && !sameValue(b.value, c.value)) {
      disagreements.push(`#${i}: baseline ${formatValue(b.value)}, current ${formatValue(c.value)}`);
    }
  }
  return {
    name: group.name,
    problems: n,
    ...geometricInterval(ratios),
    totalRatio: sumB > 0 ? sumC / sumB : NaN,
    baseMs: sumB / Math.max(1, n),
    currentMs: sumC / Math.max(1, n),
    fallbacks: {
      baseline: basePlans.filter((p) => p.status === 'fallback').length,
      current: curPlans.filter((p) => p.status === 'fallback').length,
    },
    disagreements,
  };
}

/** The findings on measured groups: regressions (exit 1) first, then one informational line per group. */
export function judgePaired(
  results: readonly PairedGroupResult[],
  t: PairedThresholds,
): { code: 0 | 1; lines: string[] } {
  const bad: string[] = [];
  const info: string[] = [];
  for (const r of results) {
    const line = `${r.name}: current/baseline time ${r.ratio.toFixed(3)} (95% ${r.lower.toFixed(3)}-${r.upper.toFixed(3)}, total ${r.totalRatio.toFixed(3)}; mean ${r.currentMs.toFixed(3)} vs ${r.baseMs.toFixed(3)} ms over ${r.problems} problems)`;
    if (r.lower > t.maxSlowdown) bad.push(`${line}: slower than the baseline beyond ${t.maxSlowdown}x`);
    else info.push(line);
    const inc = (100 * (r.fallbacks.current - r.fallbacks.baseline)) / Math.max(1, r.problems);
    const fb = `${r.name}: fallbacks ${r.fallbacks.current} vs baseline ${r.fallbacks.baseline} of ${r.problems}`;
    if (inc > t.maxFallbackIncreasePct)
      bad.push(`${fb} (+${inc.toFixed(1)} points, limit +${t.maxFallbackIncreasePct})`);
    for (const d of r.disagreements) bad.push(`${r.name}: both optimal, different values: ${d}`);
  }
  if (bad.length > 0)
    return {
      code: 1,
      lines: [
        `paired check: ${bad.length} regression${bad.length === 1 ? '' : 's'}:`,
        ...bad.map((l) => `  ${l}`),
        ...info.map((l) => `  (ok) ${l}`),
      ],
    };
  return { code: 0, lines: ['paired check: no regression', ...info.map((l) => `  ${l}`)] };
}
