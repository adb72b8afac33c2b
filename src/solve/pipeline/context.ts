/**
 * One solve's context: what every stage of the pipeline reads (the packed problem, the resolved options,
 * the budget, the solver's scratch, the WebAssembly kernels) and what a stage leaves for the later ones (the heuristic plan, the credit
 * level, an abandoned run's counters), with the two ways a stage ends a solve: `solved` and `fallbackOf`.
 */
import type { FrontierStats, MultipleKnapsackStats, PlanValue, SolvePath } from '../../types.js';
import { bfdPacked } from '../bfd.js';
import type { CreditDecision } from '../credit-branch.js';
import {
  CREDIT_LEVEL_ENTRY_WORK,
  CREDIT_STATE_WORK,
  creditLevel,
  creditLevelShare,
  solverIncumbent,
  type CreditLevel,
  type LevelScratch,
} from '../credit-level.js';
import { fallbackPath, heuristicWork, planTriple, type HeuristicResult } from '../incumbent.js';
import type { ResolvedSolveOptions } from '../options.js';
import { bestCredits, sessionsKept, tokenRadix, unpackNodes, type PackedProblem } from '../pack.js';
import { nestedBound } from '../nested-bound.js';
import { leastBound, pathStats } from '../plan.js';
import type { RawSolution } from '../prepared.js';
import { spreadTies } from '../ties.js';
import type { WasmKernels } from '../dp/kernels.js';
import type { SolveScratch } from '../scratch.js';
import { boundWork, NESTED_READ_WORK, type SolveBudget } from './budget.js';

export interface SolveContext {
  readonly kernels: WasmKernels;
  readonly packed: PackedProblem;
  readonly options: ResolvedSolveOptions;
  readonly budget: SolveBudget;
  /** The solver's working arrays. */
  readonly scratch: SolveScratch;
  /** Each kept session's best credit over its nodes, once computed (see `bestOf`). */
  best?: Float64Array;
  /** The credit level, once computed (null: there is none; see `levelOf`). */
  level?: CreditLevel | null;
  /** The heuristic plan, once computed: the fallback, and the frontier's incumbent. */
  incumbent?: HeuristicResult;
  /** The counters of a frontier abandoned for the dense DP. */
  frontier?: FrontierStats;
  /** The counters of an abandoned multiple-knapsack search. */
  multipleKnapsack?: MultipleKnapsackStats;
  /**
   * A multiple-knapsack search spent its share and gave way to the frontier, which may spend what the
   * ceiling leaves (`budget.room`) rather than what the searches' limit leaves.
   */
  frontierToRoom?: true;
  /** A bound a multiple-knapsack search proved on the packed key sums of every plan (see keyBound). */
  provenKey?: number;
}

/** Kept sessions of the context's problem. */
export function sessionsOf(ctx: SolveContext): number {
  return sessionsKept(ctx.packed);
}

/** Why the solve must stop now, after `done` sessions of a DP; else undefined. */
export function haltedAt(ctx: SolveContext, done = 0): string | undefined {
  return ctx.budget.halted(done, sessionsKept(ctx.packed));
}

export function bestOf(ctx: SolveContext): Float64Array {
  return (ctx.best ??= bestCredits(ctx.packed));
}

/**
 * The credit level, computed once per context on a preparation share of `creditLevelStates` knapsack
 * states (CREDIT_STATE_WORK units each, within the room the ceiling leaves) and charged what it spent:
 * its states, or the whole share when it passed it or the solve was halted (null).
 */
export function levelOf(ctx: SolveContext): CreditLevel | null {
  if (ctx.level === undefined) ctx.level = levelWithin(ctx.packed, ctx.budget, ctx.scratch.level);
  return ctx.level;
}

function levelWithin(packed: PackedProblem, budget: SolveBudget, scratch?: LevelScratch): CreditLevel | null {
  // Its pass over the credit entries (the per-node lists, their density orders), then its states.
  const pass = CREDIT_LEVEL_ENTRY_WORK * packed.creditStart[sessionsKept(packed)]!;
  if (!budget.afford(pass)) return null;
  budget.charge(pass);
  const share = creditLevelShare(packed, budget);
  const maxStates = share.stepsOf(CREDIT_STATE_WORK);
  if (maxStates === 0) return null;
  const level = creditLevel(packed, maxStates, scratch, () => budget.expired());
  share.charge((level === null ? maxStates : level.states) * CREDIT_STATE_WORK);
  return level;
}

/**
 * The solver's heuristic plan (src/solve/credit-level.ts `solverIncumbent`), computed once per context and
 * charged to its budget; `halted` (by default: the deadline has passed or the stop flag is set) stops it
 * between heuristics, after BFD in value order.
 */
export function incumbentOf(ctx: SolveContext, halted?: () => boolean): HeuristicResult {
  ctx.incumbent ??= solverIncumbent(
    ctx.packed,
    bestOf(ctx),
    levelOf(ctx),
    halted ?? (() => ctx.budget.expired()),
    ctx.scratch.level.knapsack,
    ctx.budget,
  );
  return ctx.incumbent;
}

/** A count for a message: exact when finite, else past the double range. */
export function formatCount(x: number): string {
  return Number.isFinite(x) ? String(x) : 'more than 1.8e308';
}

/**
 * A labelled heuristic plan: the given incumbent, else the solver's heuristic plan computed within
 * `budget` as a solve would (so a solve's fallback and this one agree); its work is what `budget` spent,
 * its bound's (`boundWork`, computed when the Plan is built) included.
 */
export function fallbackSolution(
  packed: PackedProblem,
  reason: string,
  budget: SolveBudget,
  incumbent?: HeuristicResult,
  frontier?: FrontierStats,
): RawSolution {
  const { node, heuristic } =
    incumbent ??
    solverIncumbent(packed, bestCredits(packed), levelWithin(packed, budget), undefined, undefined, budget);
  // The Plan's bound, computed when the Plan is built: a remainder's plan (a share's) never becomes one.
  if (budget.root) budget.chargeUnavoidable(boundWork(packed));
  const stats = pathStats(packed, fallbackPath(heuristic), budget.spent);
  stats.heuristic = heuristic;
  if (frontier !== undefined) stats.frontier = frontier;
  const spread = spreadTies(packed, node);
  return { status: 'fallback', reason, node: unpackNodes(packed, spread), stats, ...haltedMark(budget) };
}

/** A fallback made past the deadline or once stopped is marked so its Plan's bound is the lean one (RawSolution.halted). */
export function haltedMark(budget: SolveBudget): Pick<RawSolution, 'halted'> {
  return budget.stepped && budget.expired() ? { halted: true } : {};
}

export function levelStats(
  level: CreditLevel,
  fixed: number,
  decision?: CreditDecision,
  remainderPath?: SolvePath,
): NonNullable<RawSolution['stats']['creditLevel']> {
  return {
    bound: level.bound,
    decided: level.decided,
    fixed,
    states: level.states + (decision?.states ?? 0),
    ...(decision !== undefined ? { branchNodes: decision.branchNodes, leaves: decision.leaves.length } : {}),
    ...(remainderPath !== undefined ? { remainderPath } : {}),
  };
}

function withLevel(ctx: SolveContext, r: RawSolution): RawSolution {
  if (ctx.level != null) r.stats.creditLevel = levelStats(ctx.level, 0);
  if (ctx.multipleKnapsack !== undefined) r.stats.multipleKnapsack = ctx.multipleKnapsack;
  return r;
}

/**
 * The labelled fallback plan of a solve that stopped after its search spent `work` more units (charged
 * here, with the heuristic plan if it is not computed yet).
 */
export function fallbackOf(
  ctx: SolveContext,
  reason: string,
  work: number,
  frontier: FrontierStats | undefined = ctx.frontier,
): RawSolution {
  ctx.budget.chargeSearch(work);
  const incumbent = incumbentOf(ctx);
  const r = withLevel(ctx, fallbackSolution(ctx.packed, reason, ctx.budget, incumbent, frontier));
  // The bounds below hold on credit-free problems only: a credited fallback reads nothing more.
  if (ctx.packed.creditStart[sessionsKept(ctx.packed)]! > 0) return r;
  const ready = planTriple(ctx.packed, incumbent.node)[1];
  if (ctx.provenKey !== undefined) {
    const bound = keyBound(ctx.packed, ctx.provenKey, ready);
    if (bound !== undefined) r.bound = bound;
  }
  // A credit-free problem's own fallback (a remainder's is bounded by its leaf: leafBound in stages.ts).
  const nested = ctx.budget.root ? nestedBoundOf(ctx, ctx.packed, ready) : undefined;
  if (nested !== undefined) r.bound = leastBound(nested, r.bound);
  return r;
}

/**
 * The nested-rooms bound (src/solve/nested-bound.ts) of a credit-free `packed` whose plan at hand admits
 * `ready` ready sessions (the optimum admits no fewer), charged to `ctx` as work no solve skips;
 * undefined when some kept session has credit, or when the deadline has passed or the stop flag is set.
 */
export function nestedBoundOf(ctx: SolveContext, packed: PackedProblem, ready: number): PlanValue | undefined {
  const kept = sessionsKept(packed);
  if (kept === 0 || packed.creditStart[kept]! > 0) return undefined;
  // Past the deadline (or once stopped) the fallback keeps only the bounds every Plan carries.
  if (ctx.budget.stepped && ctx.budget.expired()) return undefined;
  const nested = nestedBound(packed, ready, ctx.scratch.nested);
  ctx.budget.chargeUnavoidable(NESTED_READ_WORK * nested.reads);
  return { credit: 0, ready: nested.ready, tokens: nested.tokens };
}

/**
 * Per level, the bound on the optimum that a bound `key` on the packed key sum of every plan of a
 * credit-free problem gives (undefined when some kept session has credit), for a fallback whose plan
 * admits `ready` ready sessions. A plan worth at most key = ready' x (T + 1) + tokens' admits at most
 * ready' ready sessions (its tokens are below T + 1); when the plan at hand admits ready' of them, so does
 * the optimum (it admits no fewer), whose tokens are then at most tokens'; otherwise the tokens bound is
 * T, all of them.
 */
export function keyBound(packed: PackedProblem, key: number, ready: number): PlanValue | undefined {
  if (packed.creditStart[sessionsKept(packed)]! > 0) return undefined;
  const base = tokenRadix(packed);
  const readyBound = Math.floor(key / base);
  return { credit: 0, ready: readyBound, tokens: ready === readyBound ? key - readyBound * base : base - 1 };
}

/**
 * The fallback of a solve halted before its DP started: the heuristic plan if it is computed, else
 * BFD alone (the cheapest plan the fallback promises, as time is already up).
 */
export function haltedBeforeDp(ctx: SolveContext, reason: string): RawSolution {
  if (ctx.incumbent === undefined) {
    ctx.incumbent = { node: bfdPacked(ctx.packed), heuristic: 'bfd' };
    ctx.budget.chargeUnavoidable(heuristicWork(ctx.packed));
  }
  return fallbackOf(ctx, reason, 0);
}

/** The optimal plan `node` found by `path` after its search spent `work` more units (charged here). */
export function solved(
  ctx: SolveContext,
  node: Int32Array,
  path: SolvePath,
  work: number,
  frontier: FrontierStats | undefined = ctx.frontier,
): RawSolution {
  ctx.budget.chargeSearch(work);
  const stats = pathStats(ctx.packed, path, ctx.budget.spent);
  if (frontier !== undefined) stats.frontier = frontier;
  return withLevel(ctx, { status: 'optimal', node: unpackNodes(ctx.packed, spreadTies(ctx.packed, node)), stats });
}
