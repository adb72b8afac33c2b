/**
 * `tao-solver`: what a scheduler needs. The solver (`loadSolver`, `bfd`), evaluation of a cluster snapshot
 * into a Problem (`evaluate`, the readiness predictor), the off-thread pool and the planner with
 * revalidation, their options with frozen defaults, the types and the typed errors. The plumbing these
 * are built from is `tao-solver/internals`, which is not covered by semver.
 */
export * from './errors.js';
export * from './types.js';
export * from './limits.js';
export * from './solve/options.js';
export type * from './evaluate/snapshot.js';
export { validateSnapshot } from './evaluate/validate-snapshot.js';
export { evaluate, decayCredit } from './evaluate/evaluate.js';
export {
  defaultEvaluateOptions,
  resolveEvaluateOptions,
  type EvaluateOptions,
  type ResolvedEvaluateOptions,
} from './evaluate/options.js';
export {
  boundedEvaluateOptions,
  type BoundedOptions,
  type ResolvedBoundedOptions,
  type CreditSource,
} from './evaluate/bounded-options.js';
export { sessionSignature } from './evaluate/signature.js';
export {
  ReadinessPredictor,
  EVIDENCE_SOURCES,
  type EvidenceSource,
  type CompletedToolCall,
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
export {
  predictReport,
  type PredictReport,
  type PredictReportOptions,
  type ReadyConfusion,
  type ErrorSummary,
  type StartSource,
} from './evaluate/readiness/report.js';
export { loadSolver, type Solver, type LoadSolverOptions } from './solve/solver.js';
export { bfd, type BfdOrder, type BfdOptions } from './solve/bfd.js';
export type { WasmBuild, WasmSource } from './solve/wasm/abi.js';
export {
  createSolverPool,
  type SolverPool,
  type PoolSolveOptions,
  type PoolCloseOptions,
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
  type PlannerOptions,
  type ResolvedPlannerOptions,
  type SubmitOptions,
  type SubmitResult,
  type Planned,
} from './planner/planner.js';
export { createPlanner, type CreatePlannerOptions } from './planner/backend.js';
export type { PlannerStats } from './planner/stats.js';
export {
  revalidate,
  signaturesOf,
  type Revalidation,
  type CutReason,
  type CutPoint,
  type SignatureIndex,
} from './planner/revalidate.js';
export type { HistogramSummary } from './planner/histogram.js';
export type {
  SidecarOp,
  RequestId,
  SidecarRequest,
  SidecarResponse,
  SidecarErrorCode,
  ErrorResponse,
  HelloRequest,
  HelloResponse,
  SolveRequest,
  SolveResponse,
  EvaluateRequest,
  EvaluateResponse,
  ObserveRequest,
  ObserveResponse,
  PredictorSaveRequest,
  PredictorSaveResponse,
  PredictorLoadRequest,
  PredictorLoadResponse,
  StatsRequest,
  StatsResponse,
  ShutdownRequest,
  ShutdownResponse,
} from './serve/protocol.js';
