/** Aggregation of runs over seeds: per policy, each metric's mean with its Student-t 95% interval. */
import type { RunMetrics } from './metrics.js';
import type { PolicyName } from './policy.js';
import type { RunResult } from './simulation.js';
import { type Estimate, estimate } from './stats.js';

/** The metrics summarized over seeds, in report order. */
export const SUMMARY_METRICS = [
  'latencyMean',
  'latencyP50',
  'latencyP95',
  'ttftMean',
  'decodeThroughput',
  'cacheHitRate',
  'makespan',
  'pauseWaitMean',
  'engineWaitMean',
  'utilization',
  'tasksCompleted',
  'solverCalls',
  'solverFallbacks',
] as const satisfies readonly (keyof RunMetrics)[];

export type SummaryMetric = (typeof SUMMARY_METRICS)[number];

export interface PolicySummary {
  readonly policy: PolicyName;
  readonly seeds: number[];
  readonly metrics: Record<SummaryMetric, Estimate>;
}

/** One summary per policy, in the order policies first appear in `runs`. */
export function summarize(runs: readonly RunResult[]): PolicySummary[] {
  const byPolicy = new Map<PolicyName, RunResult[]>();
  for (const r of runs) {
    const list = byPolicy.get(r.policy) ?? [];
    list.push(r);
    byPolicy.set(r.policy, list);
  }
  return [...byPolicy.entries()].map(([policy, list]) => {
    const metrics = {} as Record<SummaryMetric, Estimate>;
    for (const key of SUMMARY_METRICS) {
      metrics[key] = estimate(list.map((r) => r.metrics[key] ?? Number.NaN));
    }
    return { policy, seeds: list.map((r) => r.seed), metrics };
  });
}
