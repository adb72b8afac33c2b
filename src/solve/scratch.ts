/**
 * The reusable working arrays of one solver, in one object the solver instance owns and the solve's
 * context carries (src/solve/pipeline/context.ts): nothing in src/solve keeps buffers at module level, so
 * two solvers on one thread never share one, and a solver runs one solve at a time.
 */
import { AssignmentScratch } from './assignment/assignment.js';
import { LevelScratch } from './credit-level.js';
import { BestNodesScratch } from './incumbent.js';
import type { MkpScratch, MkpScratchStore } from './mkp/search.js';
import { NestedScratch } from './nested-bound.js';
import { PackScratch } from './pack.js';
import { PlanScratch } from './plan.js';
import { validateScratch, type ValidateScratch } from './validate.js';

export class SolveScratch implements MkpScratchStore {
  /** Validation's id tables. */
  readonly validate: ValidateScratch = validateScratch();
  /** Packing's per-node and per-session arrays. */
  readonly pack = new PackScratch();
  /** The best-nodes stage's arrays. */
  readonly bestNodes = new BestNodesScratch();
  /** The credit level's per-session arrays. */
  readonly level = new LevelScratch();
  /** The multiple-knapsack search's buffers, kept between solves while they are small. */
  mkp: MkpScratch | null = null;
  /** The assignment stage's matching and its columns. */
  readonly assignment = new AssignmentScratch();
  /** The nested-rooms bound of a credit-split fallback. */
  readonly nested = new NestedScratch();
  /** Building the Plan. */
  readonly plan = new PlanScratch();
}
