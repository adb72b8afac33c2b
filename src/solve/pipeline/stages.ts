/**
 * The solve as a pipeline: one ordered list of stages per value of the option `path`, each with the paths
 * it reports when it decides, a test of whether it applies, and a run that returns a plan, `pass` (it
 * decided nothing and spent nothing that counts) or `abandoned` (it passed its share of the budget, charged
 * what it spent, and left its counters on the context). `decide` runs the list in order, checking the
 * deadline and the stop flag before each stage; the first plan ends the solve. The order of the stages is
 * written here only: docs/solver.md and the tests read it from `STAGES`.
 *
 * Every plan then goes through `spreadTies` (src/solve/ties.ts), which moves sessions between nodes they
 * value alike toward the emptier one without changing the value; past the state budget, the memory cap or
 * the deadline the plan is the labelled heuristic fallback (never worse than BFD).
 */
import { SolverTrapError } from '../../errors.js';
import type { FrontierStats, PlanValue, SolvePath } from '../../types.js';
import { creditDecision, type CreditDecision } from '../credit-branch.js';
import { CREDIT_STATE_WORK, creditReduction, type CreditLevel, type CreditReduction } from '../credit-level.js';
import { packedBound } from '../bound.js';
import { frontierApplies, frontierSetup } from '../dp/frontier/setup.js';
import {
  BEST_NODES_PAIR_WORK,
  bestNodesPlan,
  heuristicWork,
  fallbackPath,
  lexBetter,
  planTriple,
  type HeuristicResult,
} from '../incumbent.js';
import { WorkMeter } from '../mkp/meter.js';
import { searchMultipleKnapsack } from '../mkp/search.js';
import { nodeIndependentValues } from '../mkp/values.js';
import type { SolvePathOption } from '../options.js';
import { nodesKept, sessionsKept, tokenRadix, unpackNodes } from '../pack.js';
import { assignmentPlan } from '../assignment/assignment.js';
import { pathStats } from '../plan.js';
import { trivialSolution, type RawSolution } from '../prepared.js';
import { spreadTies } from '../ties.js';
import {
  bestOf,
  fallbackOf,
  formatCount,
  haltedAt,
  haltedBeforeDp,
  haltedMark,
  incumbentOf,
  levelOf,
  levelStats,
  nestedBoundOf,
  solved,
  type SolveContext,
} from './context.js';
import { boundWork, packWork, searchUnitCost, searchUnitWeight } from './budget.js';
import { denseFits, frontierSetupWork, runDense, runFrontier, type Abandoned } from './run-dp.js';

/** What a stage's run ends in: a plan, nothing decided, or its share of the budget passed. */
export type StageOutcome = RawSolution | 'pass' | 'abandoned';

export interface Stage {
  /** The stage's name, as docs/solver.md lists it. */
  readonly name: string;
  /** The paths a plan it decides may report (empty: it only prepares what later stages use). */
  readonly paths: readonly SolvePath[];
  /** The stage decides in closed form and runs even once the deadline has passed. */
  readonly beforeDeadline?: true;
  applies(ctx: SolveContext): boolean;
  run(ctx: SolveContext): StageOutcome;
}

/**
 * `auto` runs the dense DP directly on grids up to this many cells (kept sessions x states): below it the
 * dense DP's per-cell cost beats the frontier's fixed set-up (docs/history.md, "Solver").
 */
export const DENSE_FIRST_CELLS = 1 << 15;

/**
 * When the dense DP is within the state budget, the frontier (and the multiple-knapsack search) may spend
 * at most this fraction of its cell count in work units before it is abandoned for the dense DP (a work
 * unit and a dense cell cost about the same), and at least FRONTIER_MIN_WORK.
 */
export const FRONTIER_CELL_RATIO = 0.5;
export const FRONTIER_MIN_WORK = 1 << 15;

/**
 * The work share of a run that, past it, gives way to the dense DP (when that is within the budget): never
 * more than leaves the dense DP's cells in the room.
 */
function denseShare(ctx: SolveContext): number {
  const { budget, packed } = ctx;
  return Math.max(0, Math.min(budget.left, budget.room - packed.cells - FRONTIER_MIN_WORK, denseCost(ctx)));
}

/** The most a run abandoned for the dense DP may cost: FRONTIER_CELL_RATIO of its cells, at least FRONTIER_MIN_WORK. */
function denseCost(ctx: SolveContext): number {
  return Math.max(FRONTIER_MIN_WORK, ctx.packed.cells * FRONTIER_CELL_RATIO);
}

const trivial: Stage = {
  name: 'trivial',
  paths: ['trivial'],
  beforeDeadline: true,
  applies: (ctx) => sessionsKept(ctx.packed) === 0,
  run: (ctx) => trivialSolution(ctx.packed),
};

/** Every session on one of its best-credit nodes fits: optimal by the sum-of-maxima bound (src/solve/incumbent.ts). */
const bestNodes: Stage = {
  name: 'best-nodes',
  paths: ['best-nodes'],
  applies: () => true,
  run(ctx) {
    const cost = BEST_NODES_PAIR_WORK * sessionsKept(ctx.packed) * nodesKept(ctx.packed);
    if (!ctx.budget.afford(cost)) return 'pass';
    const fits = bestNodesPlan(ctx.packed, bestOf(ctx), ctx.scratch.bestNodes);
    ctx.budget.charge(cost);
    return fits === null ? 'pass' : solved(ctx, fits, 'best-nodes', 0);
  },
};

/** Small grids: the dense DP costs less than the frontier's set-up. */
const denseFirst: Stage = {
  name: 'dense-first',
  paths: ['dense', 'dense-wide'],
  applies: (ctx) => ctx.packed.cells <= DENSE_FIRST_CELLS && denseFits(ctx),
  run: runDense,
};

/**
 * The credit level decided (at the root: src/solve/credit-level.ts; by branching:
 * src/solve/credit-branch.ts): per leaf of optimal credit, its fixed sets plus its credit-free
 * remainder's decision (the same stages, the budget the earlier leaves left, the deadline and the stop
 * flag), and the lexicographically best of them (ties: the earlier leaf).
 */
const creditSplit: Stage = {
  name: 'credit-split',
  paths: ['credit-split'],
  applies: () => true,
  run(ctx) {
    const level = levelOf(ctx);
    if (level === null || level.bound <= 0) return 'pass';
    // The branching's share: the knapsack states what the searches may spend buys (charged as preparation).
    const share = ctx.budget.share(ctx.budget.left);
    const maxStates = share.stepsOf(CREDIT_STATE_WORK);
    const used = { states: 0 };
    const decision = creditDecision(
      ctx.packed,
      level,
      maxStates,
      () => haltedAt(ctx) !== undefined,
      ctx.scratch.level.knapsack,
      used,
    );
    share.charge(Math.min(maxStates, decision === null ? used.states : decision.states) * CREDIT_STATE_WORK);
    return decision === null ? 'pass' : solveReduced(ctx, level, decision);
  },
};

/**
 * The leaves of a credit decision, each remainder decided by the `auto` stages. A remainder that falls
 * back ends the search with a fallback: the better of the best leaf plan so far (fixed sets plus the
 * remainder's plan, a credit decomposition) and the whole problem's heuristic plan.
 */
function solveReduced(ctx: SolveContext, level: CreditLevel, decision: CreditDecision): RawSolution {
  const { packed, options, budget } = ctx;
  let best:
    | { node: Int32Array; value: [number, number, number]; fixed: number; path: SolvePath; frontier?: FrontierStats }
    | undefined;
  let reason: string | undefined;
  let single: { reduction: CreditReduction; sub?: RawSolution } | undefined;
  for (const leaf of decision.leaves) {
    const why = haltedAt(ctx);
    if (why !== undefined) {
      reason = why;
      break;
    }
    if (budget.left <= 0) {
      reason = `state budget exceeded: the remainders of ${decision.leaves.length} credit-optimal leaves passed stateBudget ${budget.limit} units of work`;
      break;
    }
    const r = creditReduction(packed, leaf, options, ctx.scratch.pack);
    if (decision.leaves.length === 1) single = { reduction: r };
    // The remainder's whole decision runs on a share of what is left, charged here as it goes.
    const sub = decide({
      kernels: ctx.kernels,
      packed: r.remainder,
      options,
      budget: budget.share(budget.left),
      scratch: ctx.scratch,
    });
    if (single !== undefined) single.sub = sub;
    const node = Int32Array.from(r.fixed);
    for (let j = 0; j < node.length; j++) if (sub.node[j]! >= 0) node[j] = sub.node[j]!;
    const value = planTriple(packed, node);
    if (best === undefined || lexBetter(value, best.value)) {
      best = {
        node,
        value,
        fixed: r.fixedCount,
        path: sub.stats.path,
        ...(sub.stats.frontier !== undefined ? { frontier: sub.stats.frontier } : {}),
      };
    }
    if (sub.status !== 'optimal') {
      reason = sub.reason;
      break;
    }
  }
  // A fallback names what produced it: the fixed credit sets plus a remainder's plan (a credit
  // decomposition), or the whole problem's incumbent when that is better.
  let fallback: HeuristicResult | undefined;
  let node = best?.node;
  if (reason !== undefined) {
    const h = incumbentOf(ctx);
    fallback =
      best !== undefined && lexBetter(best.value, planTriple(packed, h.node))
        ? { node: best.node, heuristic: 'credit-decomposition' }
        : h;
    node = fallback.node;
  }
  const bound =
    reason !== undefined && single !== undefined
      ? leafBound(ctx, decision.credit, single.reduction, single.sub)
      : undefined;
  // A fallback's Plan carries the relaxation bound too, computed when the Plan is built.
  if (reason !== undefined) budget.chargeUnavoidable(boundWork(packed));
  const stats = pathStats(
    packed,
    fallback === undefined ? 'credit-split' : fallbackPath(fallback.heuristic),
    budget.spent,
  );
  if (fallback !== undefined) stats.heuristic = fallback.heuristic;
  if (best?.frontier !== undefined) stats.frontier = best.frontier;
  stats.creditLevel = levelStats(level, best?.fixed ?? 0, decision, best?.path);
  return {
    status: reason === undefined ? 'optimal' : 'fallback',
    ...(reason !== undefined ? { reason } : {}),
    node: unpackNodes(packed, spreadTies(packed, node!)),
    stats,
    ...(bound !== undefined ? { bound } : {}),
    ...(reason !== undefined ? haltedMark(budget) : {}),
  };
}

/**
 * The bound of a credit-split fallback with one credit-optimal leaf (docs/solver.md, "The bound of a
 * credit-split fallback"): every optimal plan is the leaf's fixed sets plus a plan of its remainder, so
 * its credit is `credit` (U*) and its ready and tokens are the fixed sets' plus at most the remainder's
 * bounds: `packedBound` (a sort of each node's candidates, charged as one heuristic, `heuristicWork`, as a
 * fallback's bound: work no solve skips), the bound the remainder's own fallback proved, and on a
 * credit-free remainder the nested-rooms bound (`nestedBoundOf`).
 */
function leafBound(ctx: SolveContext, credit: number, r: CreditReduction, sub?: RawSolution): PlanValue {
  const { packed } = ctx;
  let ready = 0;
  let tokens = 0;
  for (let j = 0; j < r.fixed.length; j++) {
    if (r.fixed[j]! < 0) continue;
    ready += packed.ready[j]!;
    tokens += packed.tokens[j]!;
  }
  const rest = sessionsKept(r.remainder) === 0 ? { ready: 0, tokens: 0 } : packedBound(r.remainder);
  if (sub?.bound !== undefined) {
    rest.ready = Math.min(rest.ready, sub.bound.ready);
    rest.tokens = Math.min(rest.tokens, sub.bound.tokens);
  }
  ctx.budget.chargeUnavoidable(heuristicWork(r.remainder));
  // The ready sessions of the remainder's plan (its sessions are the whole problem's kept ones).
  const remainder = r.remainder;
  let planned = 0;
  if (sub !== undefined)
    for (let k = 0; k < sessionsKept(remainder); k++)
      if (sub.node[remainder.sessionIndex[k]!]! >= 0) planned += remainder.ready[k]!;
  const nested = nestedBoundOf(ctx, remainder, planned);
  if (nested !== undefined) {
    rest.ready = Math.min(rest.ready, nested.ready);
    rest.tokens = Math.min(rest.tokens, nested.tokens);
  }
  return { credit, ready: ready + rest.ready, tokens: tokens + rest.tokens };
}

/** The share of the budget left that the assignment path may spend before it gives way to the later stages. */
export const ASSIGNMENT_SHARE = 1 / 8;

/**
 * Nodes that hold at most one session each, but for a few (src/solve/assignment/assignment.ts): the
 * optimum as a maximum-value matching, within ASSIGNMENT_SHARE of the budget left (else abandoned for the
 * later stages, which keep the rest).
 */
const assignment: Stage = {
  name: 'assignment',
  paths: ['assignment'],
  applies: () => true,
  run(ctx) {
    const out = assignmentPlan(ctx.packed, ctx.budget.left * ASSIGNMENT_SHARE, ctx.scratch.assignment);
    if (out === 'not-applicable') return 'pass';
    if ('abandoned' in out) {
      ctx.budget.chargeSearch(out.work);
      return 'abandoned';
    }
    return solved(ctx, out.node, 'assignment', out.work);
  },
};

/**
 * The multiple-knapsack search (src/solve/mkp/search.ts) when every kept session's value is the same on
 * all its candidate nodes. It runs after the credit level: a tick the level decides costs no search. When
 * the dense DP is within the budget the search gets the frontier's share of its cost and, past it, is
 * abandoned for the later stages. Otherwise, on at most FRONTIER_AFTER_SEARCH_NODES kept nodes, a search
 * past its share is abandoned for the frontier, which starts from the better of its best plan and the
 * heuristic plan and may spend what the ceiling leaves; else past the budget or the deadline the plan is
 * the labelled fallback, that same better plan.
 */
const multipleKnapsack: Stage = {
  name: 'multiple-knapsack',
  paths: ['multiple-knapsack'],
  applies: () => true,
  run(ctx) {
    const values = nodeIndependentValues(ctx.packed);
    if (values === null) return 'pass';
    const { budget, packed } = ctx;
    const denseAfter = denseFits(ctx);
    const frontierAfter = !denseAfter && frontierAfterSearch(ctx);
    // What an abandoned assignment path charged is not the search's to spend. The search sizes its phases
    // on the share the limit gives it (`planned`), and halts where its charges pass what the room gives.
    const cap = denseAfter ? denseShare(ctx) : budget.left;
    const planned = denseAfter ? Math.min(budget.planned, denseCost(ctx)) : budget.planned;
    // The search counts in its own units: its shares count `weight` budget units each, its charges
    // `cost` (src/solve/pipeline/budget.ts).
    const weight = searchUnitWeight(nodesKept(packed));
    const cost = searchUnitCost(nodesKept(packed));
    const meter = new WorkMeter(
      Math.floor(planned / weight),
      () => haltedAt(ctx),
      () => `state budget exceeded: the multiple-knapsack search passed stateBudget ${budget.limit} units of work`,
      Math.min(Math.floor(planned / weight), Math.floor(cap / cost)),
    );
    const out = searchMultipleKnapsack(packed, values, meter, ctx.kernels, ctx.scratch, tokenRadix(packed));
    if (out.bound !== undefined) ctx.provenKey = out.bound;
    const spent = meter.work * cost;
    if (!out.optimal && out.atBudget === true && denseAfter) {
      budget.chargeSearch(spent);
      ctx.multipleKnapsack = { outcome: 'abandoned', ...out.counters };
      return 'abandoned';
    }
    if (!out.optimal && out.atBudget === true && frontierAfter && frontierSetupWork(packed) <= budget.room - spent) {
      // The frontier starts from the better of the search's best plan and the heuristic plan, and may
      // spend what the ceiling leaves.
      budget.chargeSearch(spent);
      ctx.multipleKnapsack = { outcome: 'abandoned', ...out.counters };
      ctx.frontierToRoom = true;
      const h = incumbentOf(ctx);
      ctx.incumbent = lexBetter(planTriple(packed, out.node), planTriple(packed, h.node))
        ? { node: out.node, heuristic: 'surrogate-split' }
        : h;
      return 'abandoned';
    }
    let r: RawSolution;
    if (out.optimal) r = solved(ctx, out.node, 'multiple-knapsack', spent);
    else {
      const h = incumbentOf(ctx);
      ctx.incumbent = lexBetter(planTriple(packed, out.node), planTriple(packed, h.node))
        ? { node: out.node, heuristic: 'surrogate-split' }
        : h;
      r = fallbackOf(ctx, out.reason!, spent);
    }
    r.stats.multipleKnapsack = { outcome: out.optimal ? 'solved' : 'stopped', ...out.counters };
    return r;
  },
};

/**
 * On at most this many kept nodes, a multiple-knapsack search that passes its share gives way to the
 * frontier DP (when the dense DP is past the budget and the frontier can represent the capacities): the
 * search's bound sums the nodes' rooms, and the frontier, which keeps every node's usage, closes what it
 * cannot (docs/history.md, "The frontier after the search").
 */
export const FRONTIER_AFTER_SEARCH_NODES = 8;

function frontierAfterSearch(ctx: SolveContext): boolean {
  return nodesKept(ctx.packed) <= FRONTIER_AFTER_SEARCH_NODES && frontierApplies(ctx.packed);
}

/** The heuristic plan (BFD, the credit greedy, the credit decomposition): the fallback and the frontier's incumbent. */
const incumbent: Stage = {
  name: 'incumbent',
  paths: [],
  applies: () => true,
  run(ctx) {
    incumbentOf(ctx);
    return 'pass';
  },
};

function frontierBudgetReason(ctx: SolveContext, r: Abandoned, withDense: boolean): string {
  const n = sessionsKept(ctx.packed);
  const dense = withDense
    ? `; the dense DP would need ${formatCount(ctx.packed.cells)} cells (${n} sessions x ${formatCount(ctx.packed.states)} states)`
    : '';
  return `state budget exceeded: the frontier DP passed stateBudget ${ctx.budget.limit} units of work after ${r.layers} of ${n} sessions${dense}`;
}

/**
 * The frontier DP from the incumbent (`bound` when the incumbent meets the LP bound as it starts). With
 * `denseAfter`, while the dense DP is within the budget the frontier gets a share of the dense cost
 * (FRONTIER_CELL_RATIO) and past it is abandoned for the dense DP, so a bad frontier case costs at most
 * about 1.5 times the dense one; otherwise it runs to the budget.
 */
function frontier(denseAfter: boolean): Stage {
  return {
    name: 'frontier',
    paths: ['bound', 'frontier', 'frontier-wide'],
    applies: (ctx) => frontierApplies(ctx.packed),
    run(ctx) {
      const toDense = denseAfter && denseFits(ctx);
      const cost = frontierSetupWork(ctx.packed);
      if (!ctx.budget.afford(cost)) {
        const reason = `state budget exceeded: the frontier DP's set-up needs ${cost} units, more than the ${ctx.budget.room} that stateBudget ${ctx.budget.limit} leaves`;
        return toDense ? 'abandoned' : fallbackOf(ctx, reason, 0);
      }
      ctx.budget.charge(cost);
      const cap = toDense ? denseShare(ctx) : ctx.frontierToRoom === true ? ctx.budget.room : ctx.budget.left;
      const setup = frontierSetup(ctx.packed, ctx.incumbent!.node);
      const why = haltedAt(ctx);
      if (why !== undefined) return haltedBeforeDp(ctx, why);
      const r = runFrontier(ctx, setup, cap);
      if (!('abandoned' in r)) return r;
      if (toDense) {
        ctx.budget.chargeSearch(r.work);
        ctx.frontier = r.frontier;
        return 'abandoned';
      }
      return fallbackOf(ctx, frontierBudgetReason(ctx, r, denseAfter), r.work, r.frontier);
    },
  };
}

/** The dense DP within the budget, else the labelled fallback. */
const dense: Stage = {
  name: 'dense',
  paths: ['dense', 'dense-wide'],
  applies: () => true,
  run: runDense,
};

/** `path: 'frontier'` on a node capacity the frontier cannot represent. */
const frontierUnrepresentable: Stage = {
  name: 'frontier-unrepresentable',
  paths: [],
  applies: () => true,
  run: (ctx) => fallbackOf(ctx, `the frontier DP cannot represent a node capacity above 2^31 - 1 quanta`, 0),
};

/** The stages each value of the option `path` runs, in order. */
export const STAGES: Readonly<Record<SolvePathOption, readonly Stage[]>> = {
  auto: [trivial, bestNodes, denseFirst, creditSplit, assignment, multipleKnapsack, incumbent, frontier(true), dense],
  dense: [trivial, dense],
  frontier: [trivial, creditLevelOnly(), incumbent, frontier(false), frontierUnrepresentable],
};

/** The credit level computed for the plan's stats and the heuristic plan, deciding nothing. */
function creditLevelOnly(): Stage {
  return {
    name: 'credit-level',
    paths: [],
    applies: () => true,
    run(ctx) {
      levelOf(ctx);
      return 'pass';
    },
  };
}

/**
 * The decision on a packed problem: the stages of its `path` option in order, each bounded by the budget,
 * the memory cap and the deadline (checked before each stage too: the phases before a DP cost milliseconds
 * at 64 nodes x 4096 sessions).
 */
export function decide(ctx: SolveContext): RawSolution {
  ctx.budget.chargeUnavoidable(packWork(ctx.packed));
  for (const stage of STAGES[ctx.options.path]) {
    if (!stage.applies(ctx)) continue;
    if (stage.beforeDeadline !== true) {
      const why = haltedAt(ctx);
      if (why !== undefined) return haltedBeforeDp(ctx, why);
    }
    const out = stage.run(ctx);
    if (out !== 'pass' && out !== 'abandoned') return out;
  }
  throw new SolverTrapError(`the ${ctx.options.path} stages ended without a plan`);
}
