export * from './errors.js';
export * from './types.js';
export * from './limits.js';
export * from './options.js';
export type * from './snapshot.js';
export { validateProblem, type IndexedProblem } from './validate.js';
export { validateSnapshot } from './snapshot-validate.js';
export { evaluate, decayCredit } from './evaluate.js';
export {
  defaultEvaluateOptions,
  resolveEvaluateOptions,
  type EvaluateOptions,
  type ResolvedEvaluateOptions,
} from './evaluate-options.js';
export { sessionSignature } from './signature.js';
export {
  ReadinessPredictor,
  EVIDENCE_SOURCES,
  type EvidenceSource,
  type CompletedCall,
  type ReadinessSource,
  type Prediction,
} from './predictor.js';
export {
  defaultPredictorOptions,
  resolvePredictorOptions,
  type PredictorOptions,
  type ResolvedPredictorOptions,
} from './predictor-options.js';
export type { PredictorJSON, HistoryJSON, ToolHistoryJSON, ProbeJSON } from './predictor-json.js';
export { bernsteinBound, durationStats, type DurationStats } from './bernstein.js';
export { parseSleep } from './sleep.js';
export {
  predictReport,
  type PredictReport,
  type PredictReportOptions,
  type CompletedToolCall,
  type ReadyConfusion,
  type ErrorSummary,
  type StartSource,
} from './predict-report.js';
export {
  loadSolver,
  prepare,
  finishPlan,
  fallbackPlan,
  type Solver,
  type LoadSolverOptions,
  type Prepared,
  type RawSolution,
} from './solver.js';
export { solveReference } from './reference.js';
export { solveFrontierReference } from './frontier-reference.js';
export { bfd, type BfdOrder, type BfdOptions } from './bfd.js';
export { packProblem, packedTransferList, type PackedProblem } from './pack.js';
export type { WasmBuild } from './wasm.js';
export {
  createSolverPool,
  type SolverPool,
  type PoolSolveOptions,
  type PoolStats,
} from './pool.js';
export {
  defaultPoolOptions,
  resolvePoolOptions,
  DEFAULT_WORKER_FILE,
  type PoolOptions,
  type ResolvedPoolOptions,
} from './pool-options.js';
export {
  Planner,
  defaultPlannerOptions,
  resolvePlannerOptions,
  IN_THREAD_MAX_CELLS,
  type PlannerBackend,
  type PlannerOptions,
  type ResolvedPlannerOptions,
  type SubmitOptions,
  type SubmitResult,
  type Planned,
} from './planner.js';
export { createPlanner, estimateCells, type CreatePlannerOptions } from './planner-backend.js';
export type { PlannerStats } from './planner-stats.js';
export {
  revalidate,
  signaturesOf,
  type Revalidation,
  type CutReason,
  type CutPoint,
  type SignatureIndex,
} from './revalidate.js';
export { LatencyHistogram, type HistogramSummary } from './histogram.js';
