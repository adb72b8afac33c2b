/**
 * The credit level on its own (Ross and Soland's relaxation of generalized assignment, 1975), over a
 * packed problem at its quantum.
 *
 * Relaxing "each session on at most one node" leaves one independent 0-1 knapsack per node b: items are
 * the sessions with positive credit on b (candidates there), weights their quantized weights, profits
 * their credit on b, capacity the node's quantized capacity. Let K_b be its optimum and S_b an optimal
 * set. Every plan's sessions with positive credit on b, all on node b, form a feasible set of that
 * knapsack, so the plan's credit on b is at most K_b and its total credit at most U = K_1 + ... + K_m: a
 * valid upper bound on the credit level, much tighter than the total-capacity LP when a session's credit
 * exists on one node only.
 *
 * - `creditLevel` computes every K_b with an exact sparse DP (non-dominated (weight, credit) pairs in
 *   density order, pruned by the per-node LP bound against a greedy lower bound; see `nodeKnapsack`), an
 *   optimal set S_b, and whether S_b is the unique optimal set: S_b is unique iff removing any one of its
 *   sessions lowers the optimum (another optimal set T would miss some session i of S_b, since T cannot
 *   strictly contain S_b with positive profits and the same value, and T would then be optimal without i).
 * - The decomposition incumbent (`decompositionPlan`): the sets S_b made disjoint (a session in several
 *   sets stays on the node of its highest credit, ties: lower slot), then every unplaced session by
 *   credit density to the candidate node of highest credit with room. A feasible plan; when the sets are
 *   already disjoint its credit is U, the optimum.
 * - The root reduction (`creditReduction`): when every S_b is unique and the sets are pairwise disjoint,
 *   the optimal credit is U and every optimal plan places exactly S_b, among the sessions credited on b,
 *   on node b. Proof: {S_b on b} is feasible (disjoint, each within its node), so the optimum credit is U.
 *   In a plan of credit U, each node's credit is at most K_b and they sum to U, so each equals K_b: the
 *   sessions with positive credit on b placed on b form an optimal set of b's knapsack, hence S_b. So
 *   the optimal plans are exactly S_b on each b plus an assignment of the other sessions to nodes where
 *   their credit is 0 within the residual capacities, and since the fixed part has the same value in all
 *   of them, the lexicographic optimum is S_b plus the lexicographic optimum (ready, then tokens) of that
 *   credit-free remainder, which the solver's usual paths decide.
 */
import { bestHeuristic, lexBetter, planTriple, type HeuristicResult } from './incumbent.js';
import { bestCredits, nodesKept, packProblem, sessionsKept, type PackScratch, type PackedProblem } from './pack.js';
import type { ResolvedSolveOptions } from './options.js';
import { EVERY_NODE, LISTED_NODES, UNLISTED_NODES, type IndexedArrays } from './validate.js';
import type { SolveBudget } from './pipeline/budget.js';
import { sortIndices } from './sort-indices.js';
import {
  anotherSetReaches,
  denser,
  densityOrder,
  greedyValue,
  CreditKnapsackScratch,
  nodeKnapsack,
} from './credit-knapsack.js';

/**
 * Knapsack states the credit level's share buys at the default state budget, over all nodes and checks
 * (each costs about CREDIT_STATE_WORK units of work): past them the level is not computed (the solve goes
 * on without it). Ticks with room for a few sessions per node keep tens to hundreds; nodes with room for
 * 15+ sessions of 40+ credited ones reach thousands per node.
 */
export const CREDIT_LEVEL_MAX_STATES = 1 << 12;

/**
 * The credit level's share of a problem in knapsack states at the default state budget (less below it,
 * never below CREDIT_LEVEL_MAX_STATES: `SolveBudget.preparation`): CREDIT_LEVEL_MAX_STATES, and 1024 per
 * kept node from 5 nodes on. The decomposition plans' sequential knapsacks get a share of the same size.
 */
export function creditLevelStates(packed: PackedProblem): number {
  return Math.max(CREDIT_LEVEL_MAX_STATES, 1024 * nodesKept(packed));
}

/**
 * The share of `budget` that the credit level, and separately the decomposition plans, may spend:
 * `creditLevelStates` states at the default state budget, in proportion below it, never under
 * CREDIT_LEVEL_LEAST_WORK units (`SolveBudget.preparation`).
 */
export function creditLevelShare(packed: PackedProblem, budget: SolveBudget): SolveBudget {
  return budget.preparation(creditLevelStates(packed) * CREDIT_STATE_WORK, CREDIT_LEVEL_LEAST_WORK);
}

/** Sequential decompositions tried: one per node of largest knapsack optimum, at most this many. */
export const SEQUENTIAL_FIRST_NODES = 4;

/** Units of work (see `SolveOptions.stateBudget`) one knapsack state costs: what the budget is charged per state (docs/history.md). */
export const CREDIT_STATE_WORK = 200;

/**
 * Units of work the credit level's pass over the credit entries costs per entry (its per-node lists and
 * their density orders, besides its knapsacks' states; docs/history.md, "One budget").
 */
export const CREDIT_LEVEL_ENTRY_WORK = 40;

/** The least share of the credit level and of the decomposition plans, in units: CREDIT_LEVEL_MAX_STATES states. */
export const CREDIT_LEVEL_LEAST_WORK = CREDIT_LEVEL_MAX_STATES * CREDIT_STATE_WORK;

/**
 * Units of work a decomposition plan's own pass costs per kept (session, node) pair, besides its
 * sequential knapsacks' states (docs/history.md).
 */
export const DECOMPOSITION_PAIR_WORK = 40;

/** The credit level of a packed problem: per kept node, its knapsack optimum, set and uniqueness. */
export interface CreditLevel {
  /** K_b per kept node. */
  readonly nodeBound: Float64Array;
  /** U = sum of K_b: an upper bound on every plan's credit. */
  readonly bound: number;
  /** S_b per kept node (kept session indices). */
  readonly sets: number[][];
  /** Every S_b is the unique optimal set of its node and no session is in two of them. */
  readonly decided: boolean;
  /** Knapsack DP states over all nodes and uniqueness checks. */
  readonly states: number;
}

/**
 * Solves every node's credit knapsack (and, when the sets are disjoint, checks their uniqueness), or null
 * when that passes `maxStates` knapsack states (by default the share at the default state budget,
 * `creditLevelStates`) or once `halted` answers true (asked before each node's knapsack and check). The
 * solve computes it once per problem, within its budget (src/solve/pipeline/context.ts `levelOf`).
 */
export function creditLevel(
  packed: PackedProblem,
  maxStates: number = creditLevelStates(packed),
  scratch: LevelScratch = new LevelScratch(),
  halted?: () => boolean,
): CreditLevel | null {
  return computeCreditLevel(packed, maxStates, scratch, halted);
}

/** The kept sessions with positive credit on kept node b where they are candidates, ascending (an array of exactly their number). */
export function creditedSessions(packed: PackedProblem, b: number): number[] {
  const n = sessionsKept(packed);
  const { creditStart, creditNode } = packed;
  let count = 0;
  for (let e = 0; e < creditStart[n]!; e++) if (creditNode[e] === b) count++;
  const out = new Array<number>(count);
  for (let j = 0, t = 0; j < n; j++)
    for (let e = creditStart[j]!; e < creditStart[j + 1]!; e++) if (creditNode[e] === b) out[t++] = j;
  return out;
}

/** The credit level's per-session working arrays (profit on the node at hand, owning node), grown on demand, and its knapsacks' buffers; the caller keeps them between calls. */
export class LevelScratch {
  profit = new Float64Array(256);
  owner = new Int32Array(256);
  readonly knapsack = new CreditKnapsackScratch();
}

function computeCreditLevel(
  packed: PackedProblem,
  maxStates: number,
  scratch: LevelScratch,
  halted?: () => boolean,
): CreditLevel | null {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const w = packed.qweight;
  const nodeBound = new Float64Array(m);
  const sets: number[][] = [];
  if (scratch.profit.length < n) {
    scratch.profit = new Float64Array(2 * n);
    scratch.owner = new Int32Array(2 * n);
  }
  const { profit, owner } = scratch;
  const itemsOf: number[][] = [];
  let states = 0;
  let bound = 0;
  owner.fill(-1, 0, n);
  let disjoint = true;
  // Every node's credited sessions (ascending, as `creditedSessions` lists them) in one row-major pass.
  const creditedOf: number[][] = Array.from({ length: m }, () => []);
  for (let j = 0; j < n; j++)
    for (let e = packed.creditStart[j]!; e < packed.creditStart[j + 1]!; e++)
      creditedOf[packed.creditNode[e]!]!.push(j);
  for (let b = 0; b < m; b++) {
    if (halted?.() === true) return null;
    const credited = creditedOf[b]!;
    for (let t = 0; t < credited.length; t++) profit[credited[t]!] = packed.credit[credited[t]! * m + b]!;
    const items = densityOrder(credited, w, profit);
    itemsOf.push(items);
    const cap = packed.qcapacity[b]!;
    const r = nodeKnapsack(
      items,
      w,
      profit,
      cap,
      greedyValue(items, w, profit, cap),
      maxStates - states,
      true,
      scratch.knapsack,
    );
    states += r.states;
    if (states > maxStates) return null;
    nodeBound[b] = r.value;
    bound += r.value;
    sets.push(r.set);
    for (let t = 0; t < r.set.length; t++) {
      const j = r.set[t]!;
      if (owner[j]! >= 0) disjoint = false;
      owner[j] = b;
    }
  }
  let decided = disjoint;
  for (let b = 0; b < m && decided; b++) {
    if (nodeBound[b] === 0) continue;
    if (halted?.() === true) return null;
    // The test reads the profits of b's items only (its credited sessions).
    const items = itemsOf[b]!;
    for (let t = 0; t < items.length; t++) profit[items[t]!] = packed.credit[items[t]! * m + b]!;
    const r = anotherSetReaches(
      itemsOf[b]!,
      w,
      profit,
      packed.qcapacity[b]!,
      sets[b]!,
      nodeBound[b]!,
      maxStates - states,
      true,
      scratch.knapsack,
    );
    states += r.states;
    if (states > maxStates) return null;
    if (r.reaches) decided = false;
  }
  return { nodeBound, bound, sets, decided, states };
}

/**
 * Sequential decomposition: the nodes in `nodeOrder`, each taking an optimal set of its knapsack over
 * the credited sessions no earlier node took (the first node's set is S_b itself), then the unplaced
 * sessions as in `decompositionPlan`. Null past `maxStates` knapsack states.
 */
function sequentialPlan(
  packed: PackedProblem,
  nodeOrder: readonly number[],
  maxStates: number,
  knapsack: CreditKnapsackScratch,
): { plan: Int32Array; states: number } | null {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const sets: number[][] = Array.from({ length: m }, () => []);
  const taken = new Uint8Array(n);
  const profit = new Float64Array(n);
  let states = 0;
  for (const b of nodeOrder) {
    const credited: number[] = [];
    for (let j = 0; j < n; j++) {
      const e = j * m + b;
      if (taken[j] === 0 && packed.candidate[e] === 1 && packed.credit[e]! > 0) {
        credited.push(j);
        profit[j] = packed.credit[e]!;
      }
    }
    const items = densityOrder(credited, packed.qweight, profit);
    const cap = packed.qcapacity[b]!;
    const r = nodeKnapsack(
      items,
      packed.qweight,
      profit,
      cap,
      greedyValue(items, packed.qweight, profit, cap),
      maxStates - states,
      true,
      knapsack,
    );
    states += r.states;
    if (states > maxStates) return null;
    sets[b] = r.set;
    for (const j of r.set) taken[j] = 1;
  }
  return { plan: decompositionPlan(packed, { sets }), states };
}

/**
 * The best decomposition plan (lexicographic value; ties: the earlier): the per-node sets made disjoint
 * (`decompositionPlan`) and, when they overlap, sequential decompositions with each of the
 * SEQUENTIAL_FIRST_NODES nodes of largest optimum first, the others by knapsack optimum descending (ties:
 * lower kept node). Sequential plans stop being tried past `maxStates` knapsack states over all of them
 * (by default the share at the default state budget, `creditLevelStates`). Charges `budget` what it
 * spends (DECOMPOSITION_PAIR_WORK per pair and plan, CREDIT_STATE_WORK per state), within a share of
 * `creditLevelStates` states; a plan is tried only while the share affords its pass and the solve is not
 * halted, and null when not even the first one is affordable.
 */
export function bestDecompositionPlan(
  packed: PackedProblem,
  level: CreditLevel,
  knapsack: CreditKnapsackScratch = new CreditKnapsackScratch(),
  budget?: SolveBudget,
): Int32Array | null {
  const pass = DECOMPOSITION_PAIR_WORK * sessionsKept(packed) * nodesKept(packed);
  const share = budget === undefined ? undefined : creditLevelShare(packed, budget);
  if (share?.afford(pass) === false) return null;
  let best = decompositionPlan(packed, level);
  share?.charge(pass);
  if (level.decided) return best;
  let value = planTriple(packed, best);
  const m = nodesKept(packed);
  const byBound = Array.from({ length: m }, (_, b) => b).sort(
    (a, b) => level.nodeBound[b]! - level.nodeBound[a]! || a - b,
  );
  let states = share === undefined ? creditLevelStates(packed) : Math.floor(share.limit / CREDIT_STATE_WORK);
  for (const first of byBound.slice(0, SEQUENTIAL_FIRST_NODES)) {
    if (share !== undefined && (share.expired() || !share.afford(pass))) break;
    const order = [first, ...byBound.filter((b) => b !== first)];
    const run = sequentialPlan(packed, order, states, knapsack);
    if (run === null) {
      // The states it spent passed what was left: the share is spent.
      share?.charge(states * CREDIT_STATE_WORK);
      break;
    }
    states -= run.states;
    share?.charge(run.states * CREDIT_STATE_WORK + pass);
    const plan = run.plan;
    const v = planTriple(packed, plan);
    if (lexBetter(v, value)) {
      best = plan;
      value = v;
    }
  }
  return best;
}

/**
 * The solver's incumbent and fallback plan, with the name of what produced it: the better of the heuristic
 * plan (src/solve/incumbent.ts) and, when the credit level is within its budget, the best decomposition
 * plan (`credit-decomposition`; ties: the heuristic). Once `halted` answers true, the best plan so far.
 * Charges `budget`, when given, what each heuristic and decomposition plan costs.
 */
export function solverIncumbent(
  packed: PackedProblem,
  best: Float64Array = bestCredits(packed),
  level: CreditLevel | null = creditLevel(packed),
  halted?: () => boolean,
  knapsack?: CreditKnapsackScratch,
  budget?: SolveBudget,
): HeuristicResult {
  const h = bestHeuristic(packed, best, halted, budget);
  if (level === null || halted?.() === true) return h;
  const d = bestDecompositionPlan(packed, level, knapsack, budget);
  return d !== null && lexBetter(planTriple(packed, d), planTriple(packed, h.node))
    ? { node: d, heuristic: 'credit-decomposition' }
    : h;
}

/**
 * The decomposition incumbent: the per-node sets made disjoint (a session in several stays where its
 * credit is highest, ties: lower kept node), then each unplaced session, by credit density descending
 * (ties: kept index), to its candidate node of highest credit with room (ties: most room, lower kept
 * node). Kept node per kept session, -1 = not admitted.
 */
export function decompositionPlan(packed: PackedProblem, level: Pick<CreditLevel, 'sets'>): Int32Array {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const out = new Int32Array(n).fill(-1);
  const left = Float64Array.from(packed.qcapacity);
  for (let b = 0; b < m; b++) {
    for (const j of level.sets[b]!) {
      const a = out[j]!;
      if (a < 0 || packed.credit[j * m + b]! > packed.credit[j * m + a]!) out[j] = b;
    }
  }
  for (let j = 0; j < n; j++) if (out[j]! >= 0) left[out[j]!] = left[out[j]!]! - packed.qweight[j]!;
  const rest: number[] = [];
  const best = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    if (out[j]! >= 0) continue;
    rest.push(j);
    for (let b = 0; b < m; b++)
      if (packed.candidate[j * m + b] === 1 && packed.credit[j * m + b]! > best[j]!)
        best[j] = packed.credit[j * m + b]!;
  }
  sortIndices(
    rest,
    rest.length,
    (a, b) =>
      denser(best[b]!, packed.qweight[b]!, best[a]!, packed.qweight[a]!) ||
      packed.ready[b]! - packed.ready[a]! ||
      a - b,
  );
  for (const j of rest) {
    let pick = -1;
    for (let b = 0; b < m; b++) {
      const e = j * m + b;
      if (packed.candidate[e] !== 1 || packed.qweight[j]! > left[b]!) continue;
      if (
        pick < 0 ||
        packed.credit[e]! > packed.credit[j * m + pick]! ||
        (packed.credit[e] === packed.credit[j * m + pick] && left[b]! > left[pick]!)
      )
        pick = b;
    }
    if (pick >= 0) {
      out[j] = pick;
      left[pick] = left[pick]! - packed.qweight[j]!;
    }
  }
  return out;
}

/** A reduction's outcome: the fixed sessions and the credit-free remainder to solve. */
export interface CreditReduction {
  /** Per kept session: its fixed kept node, or -1 (free: part of the remainder, or not admitted). */
  readonly fixed: Int32Array;
  /** Sessions fixed. */
  readonly fixedCount: number;
  /**
   * The remainder as a packed problem over the same kept sessions and nodes (its sessionCount and
   * nodeCount are this problem's kept counts, its indices kept indices of this problem): the free
   * sessions on the nodes where they are candidates with credit 0, within the residual capacities.
   */
  readonly remainder: PackedProblem;
}

/**
 * The reduction of a decided credit level (see the module comment; a leaf of src/solve/credit-branch.ts
 * is one too): `sets[b]` fixed on each kept node b, and the credit-free remainder.
 */
export function creditReduction(
  packed: PackedProblem,
  sets: readonly (readonly number[])[],
  options: ResolvedSolveOptions,
  scratch?: PackScratch,
): CreditReduction {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const q = packed.quantum;
  const fixed = new Int32Array(n).fill(-1);
  const residual = Float64Array.from(packed.qcapacity);
  let fixedCount = 0;
  for (let b = 0; b < m; b++) {
    for (const j of sets[b]!) {
      fixed[j] = b;
      residual[b] = residual[b]! - packed.qweight[j]!;
      fixedCount++;
    }
  }
  // A free session may go where it is a candidate with credit 0: every node but its credited ones when
  // it could go anywhere (packing drops the nodes it does not fit on), else its candidates without
  // credit, listed; a fixed session lists none.
  const limited = new Uint8Array(n);
  const eligibleStart = new Int32Array(n + 1);
  let listed = 0;
  for (let j = 0; j < n; j++) {
    if (fixed[j]! >= 0) limited[j] = LISTED_NODES;
    else if (packed.limited[j] !== EVERY_NODE) {
      limited[j] = LISTED_NODES;
      for (let b = 0; b < m; b++) if (packed.candidate[j * m + b] === 1 && packed.credit[j * m + b] === 0) listed++;
    } else {
      limited[j] = packed.creditStart[j + 1] === packed.creditStart[j] ? EVERY_NODE : UNLISTED_NODES;
      listed += packed.creditStart[j + 1]! - packed.creditStart[j]!;
    }
  }
  const eligibleNode = new Int32Array(listed);
  for (let j = 0, t = 0; j < n; j++) {
    eligibleStart[j] = t;
    if (fixed[j]! >= 0) continue;
    if (limited[j] === LISTED_NODES) {
      for (let b = 0; b < m; b++) {
        const e = j * m + b;
        if (packed.candidate[e] === 1 && packed.credit[e] === 0) eligibleNode[t++] = b;
      }
    } else {
      for (let e = packed.creditStart[j]!; e < packed.creditStart[j + 1]!; e++)
        eligibleNode[t++] = packed.creditNode[e]!;
    }
  }
  eligibleStart[n] = listed;
  // Residual capacities in tokens at the same quantum: floor(residual * q / q) = residual.
  for (let b = 0; b < m; b++) residual[b] = residual[b]! * q;
  const sub: IndexedArrays = {
    capacity: residual,
    weight: packed.weight,
    tokens: packed.tokens,
    ready: packed.ready,
    creditStart: new Int32Array(n + 1),
    creditNode: new Int32Array(0),
    creditValue: new Float64Array(0),
    limited,
    eligibleStart,
    eligibleNode,
  };
  return { fixed, fixedCount, remainder: packProblem(sub, options, scratch) };
}
