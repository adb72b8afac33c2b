export * from './errors.js';
export * from './types.js';
export * from './limits.js';
export * from './solve/options.js';
export type * from './evaluate/snapshot.js';
export { validateProblem, type IndexedProblem } from './solve/validate.js';
export { validateSnapshot } from './evaluate/validate-snapshot.js';
export { evaluate, decayCredit } from './evaluate/evaluate.js';
export {
  defaultEvaluateOptions,
  resolveEvaluateOptions,
  type EvaluateOptions,
  type ResolvedEvaluateOptions,
} from './evaluate/options.js';
export { sessionSignature } from './evaluate/signature.js';
export {
  ReadinessPredictor,
  EVIDENCE_SOURCES,
  type EvidenceSource,
  type CompletedCall,
  type ReadinessSource,
  type Prediction,
} from './evaluate/readiness/predictor.js';
export {
  defaultPredictorOptions,
  resolvePredictorOptions,
  type PredictorOptions,
  type ResolvedPredictorOptions,
} from './evaluate/readiness/options.js';
export type { PredictorJSON, HistoryJSON, ToolHistoryJSON, ProbeJSON } from './evaluate/readiness/json.js';
export { bernsteinBound, durationStats, type DurationStats } from './evaluate/readiness/bernstein.js';
export { parseSleep } from './evaluate/readiness/sleep.js';
export {
  predictReport,
  type PredictReport,
  type PredictReportOptions,
  type CompletedToolCall,
  type ReadyConfusion,
  type ErrorSummary,
  type StartSource,
} from './evaluate/readiness/report.js';
export {
  loadSolver,
  prepare,
  finishPlan,
  fallbackPlan,
  type Solver,
  type LoadSolverOptions,
  type Prepared,
  type RawSolution,
} from './solve/solver.js';
export { solveReference } from './solve/ts/dense.js';
export { solveFrontierReference } from './solve/ts/frontier.js';
export { bfd, type BfdOrder, type BfdOptions } from './solve/bfd.js';
export { packProblem, packedTransferList, type PackedProblem } from './solve/pack.js';
export type { WasmBuild } from './solve/wasm.js';
export {
  createSolverPool,
  type SolverPool,
  type PoolSolveOptions,
  type PoolStats,
} from './pool/pool.js';
export {
  defaultPoolOptions,
  resolvePoolOptions,
  DEFAULT_WORKER_FILE,
  type PoolOptions,
  type ResolvedPoolOptions,
} from './pool/options.js';
export {
  Planner,
  defaultPlannerOptions,
  resolvePlannerOptions,
  IN_THREAD_MAX_WORK,
  IN_THREAD_MAX_CELLS,
  type PlannerBackend,
  type PlannerOptions,
  type ResolvedPlannerOptions,
  type SubmitOptions,
  type SubmitResult,
  type Planned,
} from './planner/planner.js';
export { createPlanner, estimateWork, estimateCells, type CreatePlannerOptions } from './planner/backend.js';
export type { PlannerStats } from './planner/stats.js';
export {
  revalidate,
  signaturesOf,
  type Revalidation,
  type CutReason,
  type CutPoint,
  type SignatureIndex,
} from './planner/revalidate.js';
export { LatencyHistogram, type HistogramSummary } from './planner/histogram.js';
