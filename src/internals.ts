/**
 * `tao-solver/internals`: the plumbing the pool, the planner, the benchmark and the tests are built from
 * (the solve split into prepare / run / finish, packing, the TypeScript mirrors of the WASM kernels, the
 * planner's routing estimate, the predictor's statistics). Not covered by semver: any release may change
 * or remove these names. Use `tao-solver` for the stable API.
 */
export { prepare, finishPlan, fallbackPlan, type Prepared, type RawSolution } from './solve/solver.js';
export { packProblem, packedTransferList, type PackedProblem } from './solve/pack.js';
export { validateProblem, type IndexedProblem } from './solve/validate.js';
export { solveReference } from './solve/dp/dense/mirror.js';
export { solveFrontierReference } from './solve/dp/frontier/mirror.js';
export { estimateWork, estimateCells } from './planner/backend.js';
export type { PlannerBackend } from './planner/planner.js';
export { LatencyHistogram } from './planner/histogram.js';
export { bernsteinBound, durationStats, type DurationStats } from './evaluate/readiness/bernstein.js';
export { parseSleep } from './evaluate/readiness/sleep.js';
