/**
 * `tao-solver/simulate`: the discrete-event simulator of agent sessions on GPU nodes, for running and
 * tuning scheduling policies. Runs (`simulate`, `sweep`; on worker threads with `runAll`, in shards with
 * `runShard` and `mergeShards`), recorded workloads (`parseTrace`), the recorded solver Problems (`recordProblems`),
 * the settings and workload profiles to run them on, the policies' parameters with their defaults, the
 * reports' types and their table and SVG renderings. The simulator's machinery (event heap, random
 * streams, block pools, nodes, sessions) is not exported.
 */
export {
  simulate,
  planSimulation,
  assembleReport,
  resolveSetting,
  defaultSimulateOptions,
  SIM_REPORT_SCHEMA_VERSION,
  type SimulateOptions,
  type SimulationReport,
  type SimulationHeader,
  type SimulationPlan,
  type RunMode,
} from './run.js';
export { runAll, type RunAllOptions, type RunDescription } from './parallel.js';
export { runShard, mergeShards, parseShardSpec, type ShardSpec } from './shard.js';
export {
  parseTrace,
  loadTraceFile,
  generatedTraceLines,
  type Trace,
  type TraceTaskJson,
  type TraceTurnJson,
} from './trace.js';
export {
  sweep,
  planSweep,
  assembleSweep,
  SWEEP_PARAMS,
  type SweepParam,
  type SweepGrid,
  type GridPoint,
  type SweepOptions,
  type SweepReport,
  type SweepPointResult,
  type SweepHeader,
} from './sweep.js';
export { recordProblems, recordLine, type RecordedProblem, type RecordOptions } from './record.js';
export {
  type SimSetting,
  type NodeSpec,
  SETTINGS,
  SETTING_NAMES,
  DEEPSEEK_ENGINE,
  QWEN_ENGINE,
  GLM_ENGINE,
  DEEPSEEK_NODE_CAPACITY,
  QWEN_NODE_CAPACITY,
  GLM_NODE_CAPACITY,
} from './settings.js';
export { parseSetting, loadSettingFile, validateSetting, namedSetting } from './setting-file.js';
export type { EngineModel } from './engine.js';
export {
  type WorkloadProfile,
  type ToolKind,
  type TaskSpec,
  type DeadlineExposure,
  type ContextLimitAction,
  SWE_BENCH_PROFILE,
  CLAUDE_CODE_PROFILE,
  DECODE_HEAVY_PROFILE,
  WORKLOAD_PROFILES,
} from './workload.js';
export type { Dist } from './dist.js';
export { POLICY_NAMES, isPolicyName, type PolicyName, type ProblemTick } from './policy.js';
export { defaultTaoParams, type TaoParams, type TaoVariant, type CreditSource } from './policies/tao.js';
export type { TaoBoundedParams, TaoBoundedVariant } from './policies/tao-bounded.js';
export { loadTaoDeps, type TaoDeps, type SimPredictor } from './deps.js';
export type { RunResult } from './simulation.js';
export { type RunMetrics, type RunDiagnostics, type RetentionBin, RETENTION_BINS, STEADY_SKIP } from './metrics.js';
export type { Estimate } from './stats.js';
export {
  summarize,
  compareToBaseline,
  SUMMARY_METRICS,
  type SummaryMetric,
  type PolicySummary,
  type PairedComparison,
  type PairedEstimate,
} from './summary.js';
export { formatComparisonTable, formatComparisonMarkdown, COMPARISON_COLUMNS } from './comparison-table.js';
export { runningRequestsSvg, sweepSvg, type RunningSeries, type SweepPoint } from './svg.js';
export { formatSummaryTable, formatMarkdownTable, formatSetting, TABLE_COLUMNS, type SummaryRow } from './table.js';
