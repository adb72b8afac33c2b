/**
 * The one seam between the tests and the source tree: everything the tests use below the package entry
 * points (`src/index.ts`, `src/internals.ts`, `src/sim/index.ts`), re-exported from where it lives. A
 * module that moves changes its line here, not the tests. Test-only: nothing in src/ imports it.
 */
export {
  type GateSolver,
  loadBaselineSolver,
  readBaselineBuild,
  writeBaselineBuild,
} from '../../src/bench/baseline-build.js';
export { bruteForceValue } from '../../src/bench/brute-force.js';
export {
  type CorpusDigest,
  corpusDigests,
  PINNED_CORPUS_DIRS,
  PINNED_DIGESTS_FILE,
} from '../../src/bench/plan-digest.js';
export { compareReports } from '../../src/bench/check.js';
export { type CorpusSource, loadCorpus, pinnedFileName, savePinned } from '../../src/bench/corpus.js';
export { BIG_STEADY, bigSteadyProblem } from '../../src/bench/families/big-steady.js';
export { BURST, burstProblem } from '../../src/bench/families/burst.js';
export { CLUSTER } from '../../src/bench/families/cluster.js';
export { RESERVE } from '../../src/bench/families/draw.js';
export { FAMILY_NAMES, familyGroups, groupKey } from '../../src/bench/families/index.js';
export { LARGE } from '../../src/bench/families/large.js';
export { MKP, mkpProblem } from '../../src/bench/families/mkp.js';
export { NEAR_FITTING, nearFittingProblem } from '../../src/bench/families/near-fitting.js';
export { SINGLE_CREDIT } from '../../src/bench/families/single-credit.js';
export { SPREAD_CREDIT } from '../../src/bench/families/spread-credit.js';
export { type FamilyCorpus, readFamilyCorpora } from '../../src/bench/family-corpus.js';
export {
  describeProblems,
  FAMILY_REPORT_SCHEMA_VERSION,
  type FamilyRunOptions,
  type GroupReport,
  runFamilies,
} from '../../src/bench/family-run.js';
export { formatFamilyMarkdown, goalMisses } from '../../src/bench/family-table.js';
export {
  type BenchOptions,
  defaultBenchOptions,
  defaultGateThresholds,
  FAMILY_GOALS,
  PAIRED_GATE,
} from '../../src/bench/options.js';
export {
  geometricInterval,
  judgePaired,
  measurePaired,
  type PairedGroupResult,
  type SolveFn,
} from '../../src/bench/paired.js';
export {
  type BenchReport,
  REPORT_SCHEMA_VERSION,
  reportToJson,
  type RunnerReport,
  type SettingReport,
  withoutSamples,
} from '../../src/bench/report.js';
export { HEAVY_CELLS, pairedRatio, runBench, type Solved } from '../../src/bench/run.js';
export type { Runner } from '../../src/bench/runners.js';
export {
  PAPER_TABLE9,
  parseSettings,
  SETTING_NAMES as BENCH_SETTING_NAMES,
  settingInfo,
  type SettingName,
} from '../../src/bench/settings.js';
export { summarize } from '../../src/bench/stats.js';
export { renderSvg } from '../../src/bench/svg.js';
export { formatMarkdown, formatTable } from '../../src/bench/table.js';
export { openThreadClock, threadCpuMs } from '../../src/bench/thread-clock.js';
export { timeSolves } from '../../src/bench/timing.js';
export { checkPlan, emptyCounts, judge } from '../../src/bench/validation.js';
export { run as runBenchCommand } from '../../src/commands/bench.js';
export { BRIEF_FAMILIES, formatHardestFamilies } from '../../src/commands/bench-hardest.js';
export type { FamilyReport } from '../../src/bench/family-run.js';
export { DEFAULT_REPEAT, run as runDemoCommand } from '../../src/commands/demo.js';
export { appendixHCache, randomTickProblem, seededRandom } from '../../src/commands/examples.js';
export { run as runPredictReportCommand } from '../../src/commands/predict-report.js';
export { DEFAULT_POLICY, DEFAULT_SETTING, run as runSimulateCommand } from '../../src/commands/simulate.js';
export { run as runSolveCommand } from '../../src/commands/solve.js';
export { run as runSweepCommand } from '../../src/commands/sweep.js';
export { AbortedError, ClosedError, InvalidTypeError, InvalidValueError, SolverTrapError } from '../../src/errors.js';
export { boundedEvaluateOptions, defaultBoundedOptions } from '../../src/evaluate/bounded-options.js';
export { decayCredit, evaluate } from '../../src/evaluate/evaluate.js';
export { defaultEvaluateOptions, type EvaluateOptions, resolveEvaluateOptions } from '../../src/evaluate/options.js';
export { bernsteinBound, durationStats } from '../../src/evaluate/readiness/bernstein.js';
export { defaultPredictorOptions, resolvePredictorOptions } from '../../src/evaluate/readiness/options.js';
export {
  type CompletedCall,
  type CompletedToolCall,
  ReadinessPredictor,
  type ReadinessSource,
} from '../../src/evaluate/readiness/predictor.js';
export { predictReport } from '../../src/evaluate/readiness/report.js';
export { parseSleep } from '../../src/evaluate/readiness/sleep.js';
export { sessionSignature } from '../../src/evaluate/signature.js';
export type {
  CacheObservation,
  Snapshot,
  SnapshotSession,
  ToolCall,
} from '../../src/evaluate/snapshot.js';
export { validateSnapshot } from '../../src/evaluate/validate-snapshot.js';
export {
  MAX_COMMAND_LENGTH,
  MAX_CORPUS_BYTES,
  MAX_INPUT_BYTES,
  MAX_NODES,
  MAX_PREDICTOR_HISTORY_SLOTS,
  MAX_SESSIONS,
  MAX_STATE_BUDGET,
  MAX_U32,
  MEMORY_CAP_BYTES,
} from '../../src/limits.js';
export { createPlanner, estimateCells, estimateWork, solverBackend } from '../../src/planner/backend.js';
export { LatencyHistogram } from '../../src/planner/histogram.js';
export {
  IN_THREAD_MAX_CELLS,
  IN_THREAD_MAX_WORK,
  Planner,
  type PlannerBackend,
  resolvePlannerOptions,
  type SubmitResult,
} from '../../src/planner/planner.js';
export { revalidate, signaturesOf } from '../../src/planner/revalidate.js';
export { AdaptiveRoute, ROUTE } from '../../src/planner/route.js';
export { defaultPoolOptions, resolvePoolOptions } from '../../src/pool/options.js';
export { createSolverPool, type SolverPool } from '../../src/pool/pool.js';
export { ProgressBar } from '../../src/progress.js';
export { Dispatcher } from '../../src/serve/dispatcher.js';
export { type Line, LineSplitter } from '../../src/serve/lines.js';
export {
  MAX_REQUEST_DEPTH,
  type Nesting,
  nestingError,
  nestingOfBytes,
  nestingOfText,
} from '../../src/serve/nesting.js';
export {
  SIDECAR_OPS,
  SIDECAR_PROTOCOL_VERSION,
  SIDECAR_PROTOCOL_VERSIONS,
  type SidecarResponse,
} from '../../src/serve/protocol.js';
export { applyDelta, ConnectionState } from '../../src/serve/delta.js';
export { BlockPool, CacheEntry } from '../../src/sim/cache.js';
export { loadTaoDeps, type TaoDeps } from '../../src/sim/deps.js';
export { MinHeap } from '../../src/sim/heap.js';
export type { RunMetrics } from '../../src/sim/metrics.js';
export { EngineNode } from '../../src/sim/node.js';
export { createCacheAware, defaultCacheAwareParams } from '../../src/sim/policies/cache-aware.js';
export { continuumTtl, createContinuum, defaultContinuumParams } from '../../src/sim/policies/continuum.js';
export { createDynamo } from '../../src/sim/policies/dynamo.js';
export { greedyByTriple } from '../../src/sim/policies/greedy-triple.js';
export { createPolicy } from '../../src/sim/policies/index.js';
export { createRoundRobin } from '../../src/sim/policies/round-robin.js';
export { pauseUntilSafe } from '../../src/sim/policies/sticky.js';
export {
  ablate,
  boundedSnapshot,
  defaultTaoBoundedParams,
  resolveTaoBoundedParams,
  TAO_BOUNDED_VARIANTS,
} from '../../src/sim/policies/tao-bounded.js';
export { adaptiveParams, DEFAULT_WAIT_HORIZONS, derivedHoldHorizon } from '../../src/sim/policies/tao-adaptive.js';
export { createTaoPolicy, defaultTaoParams, type TaoVariant } from '../../src/sim/policies/tao.js';
export { createThunderAgent, defaultThunderAgentParams } from '../../src/sim/policies/thunderagent.js';
export {
  type Admission,
  type AdmittedSession,
  type NodeView,
  type Policy,
  POLICY_NAMES,
  type PolicyName,
  type PooledSession,
  type ProblemTick,
  type SchedulerView,
} from '../../src/sim/policy.js';
export {
  compareBenchmark,
  comparePaper,
  kendallTau,
  PAPER_RUN_POLICIES,
  PAPER_SETTINGS,
  paperRuns,
  runPaperRuns,
  TERMINAL_BENCH_PROFILE,
} from '../../src/sim/paper.js';
export { PAPER_TABLE4, paperCell } from '../../src/sim/paper-tables.js';
export {
  compareTable4,
  TABLE4_CONFIGS,
  TABLE4_POLICIES,
  TABLE4_SETTING,
} from '../../src/sim/paper-table4.js';
export { isNonTrivial, type RecordedProblem, recordLine, recordProblems } from '../../src/sim/record.js';
export { Rng } from '../../src/sim/rng.js';
export { defaultSimulateOptions, runOnce, simulate } from '../../src/sim/run.js';
export { Session } from '../../src/sim/session.js';
export { loadSettingFile, namedSetting, parseSetting, validateSetting } from '../../src/sim/setting-file.js';
export {
  DEEPSEEK_ENGINE,
  reportedCapacityOf,
  SETTING_NAMES,
  SETTINGS,
  type SimSetting,
} from '../../src/sim/settings.js';
export { type RunResult, Simulation } from '../../src/sim/simulation.js';
export { buildSnapshot } from '../../src/sim/snapshot-builder.js';
export { estimate, sampleSd, tCritical95 } from '../../src/sim/stats.js';
export { compareToBaseline, pairedDifference } from '../../src/sim/summary.js';
export { niceTicks, runningRequestsSvg, type SweepPoint, sweepSvg } from '../../src/sim/svg.js';
export { expandGrid, sweep } from '../../src/sim/sweep.js';
export { formatMarkdownTable, formatSummaryTable } from '../../src/sim/table.js';
export {
  CLAUDE_CODE_PROFILE,
  DECODE_HEAVY_PROFILE,
  generateTask,
  SWE_BENCH_PROFILE,
  type WorkloadProfile,
} from '../../src/sim/workload.js';
export { bfd, bfdPacked } from '../../src/solve/bfd.js';
export { branchAndBound, CREDIT_BRANCH_MAX_LEAVES, CREDIT_BRANCH_MAX_TIED } from '../../src/solve/credit-branch.js';
export {
  CREDIT_STATE_WORK,
  type CreditLevel,
  creditLevel,
  creditLevelStates,
  creditReduction,
  creditedSessions,
  CREDIT_LEVEL_ENTRY_WORK,
  DECOMPOSITION_PAIR_WORK,
  bestDecompositionPlan,
  decompositionPlan,
  SEQUENTIAL_FIRST_NODES,
  solverIncumbent,
} from '../../src/solve/credit-level.js';
export {
  boundWork,
  packWork,
  SEARCH_UNIT_LEAST,
  searchUnitCost,
  searchUnitWeight,
  SolveBudget,
  WORK_CEILING,
} from '../../src/solve/pipeline/budget.js';
export { BOUND_PAIR_WORK } from '../../src/solve/bound.js';
export {
  anotherSetReaches,
  CreditKnapsackScratch,
  densityOrder,
  denser,
  fractionalCeil,
  nodeKnapsack,
} from '../../src/solve/credit-knapsack.js';
export { denseMirror, solveReference } from '../../src/solve/dp/dense/mirror.js';
export {
  bigKeys,
  fractionalUpper,
  FrontierBound,
  FrontierMirror,
  solveFrontierReference,
} from '../../src/solve/dp/frontier/mirror.js';
export { frontierSetup } from '../../src/solve/dp/frontier/setup.js';
export { DenseWasm, denseWasm } from '../../src/solve/dp/dense/wasm.js';
export { frontierInput, FrontierWasm, frontierWasm } from '../../src/solve/dp/frontier/wasm.js';
export { SurrogateCoreWasm } from '../../src/solve/dp/surrogate-core/wasm.js';
export { SubsetSumWasm } from '../../src/solve/dp/subset-sum/wasm.js';
export { TaoInstance } from '../../src/solve/wasm/instance.js';
export { WasmKernels } from '../../src/solve/dp/kernels.js';
export { SolveScratch } from '../../src/solve/scratch.js';
export { type DpCounters, type DpEngine, DpStatus } from '../../src/solve/dp/protocol.js';
export {
  maxSubsetSum,
  SUBSET_SUM_KEEP_CAPACITY,
  SUBSET_SUM_KEEP_ENTRIES,
  SUBSET_SUM_KERNEL_MAX_BYTES,
  SUBSET_SUM_MAX_CAPACITY,
  SUBSET_SUM_WINDOW,
  SubsetSumScratch,
  WINDOW_GROWTH,
} from '../../src/solve/dp/subset-sum/setup.js';
export { type SubsetSum, type SubsetSumKernel, SubsetSumStatus } from '../../src/solve/dp/subset-sum/engine.js';
export { foldMirror } from '../../src/solve/dp/subset-sum/mirror.js';
export { cardinalityCeiling } from '../../src/solve/dp/surrogate-core/cardinality.js';
export {
  capHalt,
  type CoreDpKernel,
  CoreStatus,
  KNAPSACK_MAX_HISTORY,
  KNAPSACK_MAX_STATES,
} from '../../src/solve/dp/surrogate-core/engine.js';
export { ceilRatio, floorRatio, movesBeyondReach } from '../../src/solve/dp/surrogate-core/mirror.js';
export {
  knapsack,
  type KnapsackAnswer,
  KnapsackScratch,
  REFILL_WINDOW,
} from '../../src/solve/dp/surrogate-core/setup.js';
export {
  BEST_NODES_PAIR_WORK,
  BestNodesScratch,
  bestHeuristic,
  bestNodesPlan,
  creditGreedy,
  fallbackPath,
  greedyOrders,
  HALT_CHECK_SESSIONS,
  HEURISTIC_PAIR_WORK,
  HEURISTICS,
  heuristicPlan,
  heuristicWork,
  lexBetter,
  planTriple,
} from '../../src/solve/incumbent.js';
export { METER_CHECK_WORK, MkpHalt, WorkMeter } from '../../src/solve/mkp/meter.js';
export { type MkpInstance, regroup, REGROUP_SIZES, type Reoptimise } from '../../src/solve/mkp/regroup.js';
export {
  type MkpKernels,
  type MkpOutcome,
  MkpScratch,
  type MkpScratchStore,
  noCounters,
  regroupPlan,
  SEARCH_KEEP_ENTRIES,
  searchMultipleKnapsack,
  SPLIT_BITSET_ROOM,
  sortTiers,
  TIGHTEN_MAX_CAPACITY,
  tiersOf,
} from '../../src/solve/mkp/search.js';
export { nodeIndependentValues } from '../../src/solve/mkp/values.js';
export {
  defaultSolveOptions,
  type ResolvedSolveOptions,
  resolveSolveOptions,
  type SolveOptions,
} from '../../src/solve/options.js';
export { weightOrder } from '../../src/solve/orders.js';
export {
  bestCredits,
  keyScales,
  nodesKept,
  type PackedProblem,
  packedTransferList,
  packProblem,
  PackScratch,
  sessionsKept,
  tokenRadix,
  unpackNodes,
} from '../../src/solve/pack.js';
export {
  CHUNK_CELLS,
  CHUNK_WORK,
  CHUNK_WORK_MIN,
  type Drive,
  drive,
  runDense,
  runFrontier,
  FRONTIER_CHILD_WORK,
  FRONTIER_LAYER_WORK,
  FRONTIER_MIRROR_FACTOR,
  FRONTIER_WEIGHT_NODES,
  frontierSetupWork,
  frontierUnitWeight,
} from '../../src/solve/pipeline/run-dp.js';
export {
  decide,
  DENSE_FIRST_CELLS,
  FRONTIER_AFTER_SEARCH_NODES,
  FRONTIER_CELL_RATIO,
  FRONTIER_MIN_WORK,
  STAGES,
} from '../../src/solve/pipeline/stages.js';
export { keyBound, type SolveContext } from '../../src/solve/pipeline/context.js';
export { buildPlan, pathStats } from '../../src/solve/plan.js';
export {
  AssignmentScratch,
  assignmentPlan,
  COMBO_LIMIT,
  PATTERN_LIMIT,
} from '../../src/solve/assignment/assignment.js';
export { MatchingScratch, maxAssignment } from '../../src/solve/assignment/matching.js';
export { checkPrepared, solvePrepared } from '../../src/solve/prepared.js';
export { Slab, SlabArena } from '../../src/solve/slab.js';
export { fallbackPlan, loadSolver, prepare, type Prepared, type Solver } from '../../src/solve/solver.js';
export { RADIX_MIN_LENGTH, radixSortIndices, sortIndices } from '../../src/solve/sort-indices.js';
export { MAX_SPREAD_PASSES, spreadTies } from '../../src/solve/ties.js';
export {
  creditOn,
  EVERY_NODE,
  eligibleMarked,
  isEligible,
  LISTED_NODES,
  markEligible,
  UNLISTED_NODES,
  validateProblem,
  validateScratch,
  type IndexedArrays,
} from '../../src/solve/validate.js';
export { ABI_FUNCTIONS, ABI_VERSION } from '../../src/solve/wasm/abi.js';
export { compileTaoModule, moduleExportNames, moduleLimits } from '../../src/solve/wasm/loader.js';
export { quantile, quantileSorted } from '../../src/stats.js';
export type {
  Assignment,
  Plan,
  PlanValue,
  Problem,
  ProblemSession,
  SolvePath,
} from '../../src/types.js';
export { WARM_UP_ROUNDS, warmUpProblems } from '../../src/solve/warm-up.js';
export { osCacheDir } from '../../src/bench/cache-dir.js';
export { formatLegend } from '../../src/bench/table.js';
export { formatOracles } from '../../src/bench/table.js';
export { formatVerdict } from '../../src/bench/table.js';
export { bfdValueOrder, frontierOrder } from '../../src/solve/orders.js';
export { tokensOrder } from '../../src/solve/orders.js';
export { didYouMean } from '../../src/commands/cli-args.js';
export { intFlag } from '../../src/commands/cli-args.js';
export { parseFlags } from '../../src/commands/cli-args.js';
export { TABLE_COLUMNS } from '../../src/sim/table.js';
export { dantzig } from '../../src/solve/bound.js';
export { packedBound, relaxationBound } from '../../src/solve/bound.js';
export { nestedBound, NestedScratch } from '../../src/solve/nested-bound.js';
export { MAX_GLOBAL_WINDOW } from '../../src/evaluate/readiness/options.js';
export { MAX_WINDOW } from '../../src/evaluate/readiness/options.js';
export { generatedTraceLines } from '../../src/sim/trace.js';
export { parseTrace } from '../../src/sim/trace.js';
export { WORKLOAD_PROFILES } from '../../src/sim/workload.js';
export { MAX_PROBED_CALLS } from '../../src/evaluate/readiness/options.js';
export { DEEPSEEK_CALIBRATION } from '../../src/sim/calibration.js';
export { FAMILY_CALIBRATIONS } from '../../src/sim/calibration.js';
export { GLM_CALIBRATION } from '../../src/sim/calibration.js';
export { QWEN_CALIBRATION } from '../../src/sim/calibration.js';
export { sweLiteProfileName } from '../../src/sim/calibration.js';
export { run as simulateCmd } from '../../src/commands/simulate.js';
export { run as sweepCmd } from '../../src/commands/sweep.js';
export { PARALLEL_WORKER_FILE } from '../../src/sim/parallel.js';
export { runAll } from '../../src/sim/parallel.js';
export { assembleReport } from '../../src/sim/run.js';
export { planSimulation } from '../../src/sim/run.js';
export type { SimulateOptions } from '../../src/sim/run.js';
export type { SimulationHeader } from '../../src/sim/run.js';
export { mergeShards } from '../../src/sim/shard.js';
export { parseShardSpec } from '../../src/sim/shard.js';
export { runShard } from '../../src/sim/shard.js';
export { shardIndices } from '../../src/sim/shard.js';
export { isPolicyName } from '../../src/sim/policies/index.js';
export { needsDeps } from '../../src/sim/policies/index.js';
export { POLICY_REGISTRY } from '../../src/sim/policies/index.js';
export { PROBLEM_POLICIES } from '../../src/sim/policies/index.js';
export * as policyModule from '../../src/sim/policy.js';
export type { SimulationReport } from '../../src/sim/run.js';
export { MAX_TRACE_SECONDS } from '../../src/sim/trace.js';
export { MAX_TRACE_TOKENS } from '../../src/sim/trace.js';
export type { RawSolution } from '../../src/solve/prepared.js';
