/**
 * Aggregation of runs over seeds: per policy, each metric's mean with its Student-t 95% interval, and,
 * against a reference policy, the paired interval of the difference (every policy runs the same tasks
 * on a seed, so seed-to-seed variation cancels in the difference).
 */
import type { RunMetrics } from './metrics.js';
import type { PolicyName } from './policy.js';
import type { RunResult } from './simulation.js';
import { type Estimate, estimate } from './stats.js';

/** How each summarized metric is read from a run. */
const METRIC_READERS = {
  latencyMean: (m: RunMetrics) => m.latencyMean,
  latencyP50: (m: RunMetrics) => m.latencyP50,
  latencyP95: (m: RunMetrics) => m.latencyP95,
  ttftMean: (m: RunMetrics) => m.ttftMean,
  ttftP50: (m: RunMetrics) => m.ttftP50,
  ttftP99: (m: RunMetrics) => m.ttftP99,
  ttftMax: (m: RunMetrics) => m.ttftMax,
  schedulerWaitMean: (m: RunMetrics) => m.schedulerWaitMean,
  engineQueueMean: (m: RunMetrics) => m.engineQueueMean,
  prefillMean: (m: RunMetrics) => m.prefillMean,
  toolReturnToFirstTokenMean: (m: RunMetrics) => m.toolReturnToFirstTokenMean,
  decodeThroughput: (m: RunMetrics) => m.decodeThroughput,
  decodeThroughputSteady: (m: RunMetrics) => m.decodeThroughputSteady,
  cacheHitRate: (m: RunMetrics) => m.cacheHitRate,
  makespan: (m: RunMetrics) => m.makespan ?? Number.NaN,
  preemptions: (m: RunMetrics) => m.preemptions,
  utilization: (m: RunMetrics) => m.utilization,
  tasksCompleted: (m: RunMetrics) => m.tasksCompleted,
  solverCalls: (m: RunMetrics) => m.solverCalls,
  solverFallbacks: (m: RunMetrics) => m.solverFallbacks,
  toolShare: (m: RunMetrics) => m.diagnostics.toolShare,
  completionsPerSecond: (m: RunMetrics) => m.diagnostics.completionsPerSecond,
  freedPerTickTokens: (m: RunMetrics) => m.diagnostics.freedPerTickTokens,
  allFitTickShare: (m: RunMetrics) => m.diagnostics.allFitTickShare,
  heldByToolCapacityShare: (m: RunMetrics) => m.diagnostics.heldByToolCapacityShare,
} as const satisfies Record<string, (m: RunMetrics) => number>;

export type SummaryMetric = keyof typeof METRIC_READERS;

/** The metrics summarized over seeds, in report order (the last five are the run's diagnostics). */
export const SUMMARY_METRICS = Object.freeze(Object.keys(METRIC_READERS)) as readonly SummaryMetric[];

/** A metric's value in one run (NaN where it has none). */
export function metricValue(m: RunMetrics, metric: SummaryMetric): number {
  return METRIC_READERS[metric](m);
}

export interface PolicySummary {
  readonly policy: PolicyName;
  readonly seeds: number[];
  readonly metrics: Record<SummaryMetric, Estimate>;
}

/** A policy against the reference on the seeds both ran: the paired difference policy - reference. */
export interface PairedComparison {
  readonly policy: PolicyName;
  readonly baseline: PolicyName;
  /** Seeds run by both. */
  readonly seeds: number[];
  /** Per metric: mean difference with its paired 95% interval, and the same relative to the baseline's mean. */
  readonly metrics: Record<SummaryMetric, PairedEstimate>;
}

export interface PairedEstimate {
  /** Mean of (policy - baseline) over seeds, with its Student-t 95% half-width over the n differences. */
  readonly diff: Estimate;
  /** diff.mean / baseline mean (e.g. -0.05 = 5% lower than the baseline). */
  readonly relative: number;
  /** diff.ci95 / |baseline mean|. */
  readonly relativeCi95: number;
}

function byPolicy(runs: readonly RunResult[]): Map<PolicyName, RunResult[]> {
  const out = new Map<PolicyName, RunResult[]>();
  for (const r of runs) {
    const list = out.get(r.policy) ?? [];
    list.push(r);
    out.set(r.policy, list);
  }
  return out;
}

/** One summary per policy, in the order policies first appear in `runs` (unpaired intervals). */
export function summarize(runs: readonly RunResult[]): PolicySummary[] {
  return [...byPolicy(runs).entries()].map(([policy, list]) => {
    const metrics = {} as Record<SummaryMetric, Estimate>;
    for (const key of SUMMARY_METRICS) metrics[key] = estimate(list.map((r) => metricValue(r.metrics, key)));
    return { policy, seeds: list.map((r) => r.seed), metrics };
  });
}

/**
 * Paired 95% interval of the mean difference of two samples matched by index: the Student-t interval
 * of the differences d_i = x_i - y_i. Pairs with a NaN on either side are left out.
 */
export function pairedDifference(x: readonly number[], y: readonly number[]): Estimate {
  const d: number[] = [];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (!Number.isNaN(x[i]!) && !Number.isNaN(y[i]!)) d.push(x[i]! - y[i]!);
  }
  return estimate(d);
}

/** Every other policy against `baseline`, paired by seed. Empty if the baseline did not run. */
export function compareToBaseline(runs: readonly RunResult[], baseline: PolicyName): PairedComparison[] {
  const groups = byPolicy(runs);
  const ref = groups.get(baseline);
  if (ref === undefined) return [];
  const refBySeed = new Map(ref.map((r) => [r.seed, r] as const));
  const out: PairedComparison[] = [];
  for (const [policy, list] of groups) {
    if (policy === baseline) continue;
    const pairs = list.filter((r) => refBySeed.has(r.seed));
    const metrics = {} as Record<SummaryMetric, PairedEstimate>;
    for (const key of SUMMARY_METRICS) {
      const x = pairs.map((r) => metricValue(r.metrics, key));
      const y = pairs.map((r) => metricValue(refBySeed.get(r.seed)!.metrics, key));
      const diff = pairedDifference(x, y);
      const base = estimate(y).mean;
      metrics[key] = { diff, relative: diff.mean / base, relativeCi95: diff.ci95 / Math.abs(base) };
    }
    out.push({ policy, baseline, seeds: pairs.map((r) => r.seed), metrics });
  }
  return out;
}
