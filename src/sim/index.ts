/** `tao-solver/simulate`: the discrete-event simulator of agent sessions on GPU nodes. */
export { Rng, STREAM_TASK } from './rng.js';
export { MinHeap } from './heap.js';
export { type Dist, sample, sampleInt, nominalMean, upperBound, validateDist } from './dist.js';
export {
  type WorkloadProfile,
  type ToolKind,
  type TaskSpec,
  type DeadlineExposure,
  type ContextLimitAction,
  SWE_BENCH_PROFILE,
  CLAUDE_CODE_PROFILE,
  DECODE_HEAVY_PROFILE,
  SWE_CONTEXT_LIMIT,
  WORKLOAD_PROFILES,
  generateTask,
  resultMedian,
} from './workload.js';
export { type EngineModel, stepTime, prefillRate, decodeRate } from './engine.js';
export { BlockPool, CacheEntry } from './cache.js';
export { EngineNode } from './node.js';
export { Session, type SessionState } from './session.js';
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
export { parseSetting, loadSettingFile, validateSetting, namedSetting, MAX_BUILTIN_RESERVE } from './setting-file.js';
export {
  POLICY_NAMES,
  isPolicyName,
  type PolicyName,
  type Policy,
  type PolicyStats,
  type SchedulerView,
  type NodeView,
  type PooledSession,
  type Admission,
  type Lifecycle,
  type AdmittedSession,
  type Rebalance,
  type CompletedToolCall,
  type ProblemTick,
} from './policy.js';
export { createPolicy, needsDeps, PROBLEM_POLICIES, type PolicyContext } from './policies/index.js';
export { createTaoPolicy, defaultTaoParams, placementProblem, type TaoParams, type TaoVariant, type CreditSource, type NumericTaoParam } from './policies/tao.js';
export { createThunderAgent, defaultThunderAgentParams, type ThunderAgentParams } from './policies/thunderagent.js';
export { createRoundRobin } from './policies/round-robin.js';
export { createCacheAware, defaultCacheAwareParams, type CacheAwareParams } from './policies/cache-aware.js';
export { createDynamo, type DynamoParams } from './policies/dynamo.js';
export { greedyByTriple } from './policies/greedy-triple.js';
export { buildSnapshot } from './snapshot-builder.js';
export { loadTaoDeps, type TaoDeps, type SimPredictor } from './deps.js';
export { Simulation, type SimulationOptions, type RunResult } from './simulation.js';
export { type RunMetrics, type RunDiagnostics, type RetentionBin, RETENTION_BINS, STEADY_SKIP } from './metrics.js';
export { mean, sampleSd, quantile, quantileSorted, tCritical95, estimate, type Estimate } from './stats.js';
export {
  summarize,
  compareToBaseline,
  pairedDifference,
  metricValue,
  SUMMARY_METRICS,
  type SummaryMetric,
  type PolicySummary,
  type PairedComparison,
  type PairedEstimate,
} from './summary.js';
export { simulate, runOnce, resolveSetting, SIM_REPORT_SCHEMA_VERSION, type SimulateOptions, type SimulationReport, type RunMode } from './run.js';
export { formatComparisonTable, formatComparisonMarkdown, formatRelative, COMPARISON_COLUMNS } from './comparison-table.js';
export { pauseUntilSafe } from './policies/sticky.js';
export { recordProblems, recordLine, isNonTrivial, type RecordedProblem, type RecordOptions } from './record.js';
export {
  sweep,
  expandGrid,
  pointLabel,
  checkSweepValue,
  SWEEP_PARAMS,
  type SweepParam,
  type SweepGrid,
  type GridPoint,
  type SweepOptions,
  type SweepReport,
  type SweepPointResult,
} from './sweep.js';
export { runningRequestsSvg, sweepSvg, niceTicks, type RunningSeries, type SweepPoint } from './svg.js';
export { formatSummaryTable, formatMarkdownTable, formatSetting, formatEstimate, TABLE_COLUMNS } from './table.js';
export { ProgressBar, type ProgressSink } from './progress.js';
