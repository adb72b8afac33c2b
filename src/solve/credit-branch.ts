/**
 * The credit level decided by branching: Ross and Soland's branch and bound for generalized assignment
 * (1975) over the per-node credit knapsacks of src/solve/credit-level.ts, for the ticks the root
 * reduction cannot decide (a session in the optimal sets of several nodes, or a node with several
 * optimal sets).
 *
 * A branch-and-bound node is a set of decisions, each on one pair (session j, node b): `j on b` (forced)
 * or `j not on b` (forbidden). Its plans are the plans that satisfy them. Its relaxation is the root's
 * with the decisions applied: node b's knapsack holds the sessions forced on b (always in; their credit
 * and weight taken first) and, as free items, the sessions with positive credit on b that are neither
 * forbidden on b nor forced elsewhere. With K_b its optimum and S_b an optimal set (forced sessions
 * included), U = sum of K_b bounds the credit of every plan of the node, by the root's argument: the
 * sessions a plan of the node places on b with positive credit there satisfy b's decisions (forced
 * sessions are on b, forbidden and elsewhere-forced ones are not), so they form a feasible set of b's
 * knapsack.
 *
 * Branching (each a partition of the node's plans, so the leaves of the tree partition all plans):
 * - a session j in the sets of several nodes b_1..b_k (the first such j by kept index): one child per
 *   owner, `j on b_i` (j leaves the other nodes' knapsacks), and one child `j not on b_1..b_k`. A plan
 *   puts j on one of the owners or on none of them.
 * - else (the sets disjoint) a node b whose optimal set is not unique: a free session i of S_b (the
 *   first by kept index): `i on b` and `i not on b`.
 * - else (disjoint and every set unique) the node is a leaf: within it the decided credit level of the
 *   root applies unchanged (module comment of src/solve/credit-level.ts, with the knapsacks restricted
 *   by the decisions): its plans of credit U are exactly S_b on each b plus the other sessions on
 *   nodes where their credit is 0, within the residual capacities.
 *
 * Search: best bound first (ties: the node created last). A node whose sets are disjoint holds a plan
 * of credit U (the sets on their nodes), so a credit `best` some plan reaches is known throughout (first
 * the decomposition plan's) and every node with U < best is dropped (it holds no plan of credit U* >=
 * best). Until the first node with disjoint sets is found, the search dives (the best child of the node
 * just branched) for a large `best` early; after it, the first such node taken has nothing open above
 * it, so its U is U*. Every node with U = U* is branched until it is a leaf. The leaves of credit U*
 * then hold every plan of credit U*, and a plan is lexicographically optimal iff its credit is U* and it
 * is the best of its leaf: S_b fixed plus the lexicographic optimum (ready, then tokens) of that leaf's
 * credit-free remainder. So the solver solves each leaf's remainder and keeps the best of them.
 *
 * A child re-solves only the knapsacks whose set lost a session: a session leaving a knapsack where it is
 * not in the optimal set, or a session forced into a set that holds it, leaves that optimum and set
 * valid (and a unique set unique, as the feasible sets only shrink). A re-solve starts from the larger
 * of a greedy value and the parent's set without the lost session (both feasible, hence below the
 * optimum), and asks for the value the child needs to reach `best`: a knapsack that cannot reach it
 * drops the child without being solved to the end.
 *
 * Bounded: at most CREDIT_BRANCH_MAX_NODES nodes, CREDIT_BRANCH_MAX_LEAVES leaves of credit U*, and
 * the knapsack states over all re-solves and uniqueness checks the solve's budget buys (CREDIT_STATE_WORK
 * units each, charged to it by the credit-split stage); past any of them, or once the solve is halted (deadline, stop flag; asked before each node),
 * the credit level is left undecided (the solve goes on as without it, or ends with its fallback).
 */
import { creditedSessions, decompositionPlan, type CreditLevel } from './credit-level.js';
import { planTriple } from './incumbent.js';
import {
  anotherSetReaches,
  densityOrder,
  greedyValue,
  CreditKnapsackScratch,
  nodeKnapsack,
} from './credit-knapsack.js';
import { nodesKept, sessionsKept, type PackedProblem } from './pack.js';
import { ascending, sortIndices } from './sort-indices.js';

/** Most branch-and-bound nodes explored (the root included). */
export const CREDIT_BRANCH_MAX_NODES = 256;
/** Most leaves of optimal credit (each has a remainder to solve). */
export const CREDIT_BRANCH_MAX_LEAVES = 8;
/**
 * Most sessions in the root's sets of several nodes with the same credit on two of them before the
 * branching is not tried. Such a session's branches differ only in where it goes, which the bound
 * cannot tell apart, so the tree grows with their number: on the multiple-knapsack classes (credit equal
 * on every node) every such search passed its limits after milliseconds; on the tick families the
 * sessions in several sets had different credits on them.
 */
export const CREDIT_BRANCH_MAX_TIED = 2;

/** The credit level decided, at the root or by branching. */
export interface CreditDecision {
  /** U*: the optimal credit. */
  readonly credit: number;
  /**
   * The leaves of optimal credit, in the order found: per leaf, per kept node b, the sessions (kept
   * indices) every optimal plan within the leaf places on b among those credited there.
   */
  readonly leaves: readonly (readonly (readonly number[])[])[];
  /** Branch-and-bound nodes explored beyond the root (0: decided at the root). */
  readonly branchNodes: number;
  /** Knapsack states of the re-solves and uniqueness checks (beyond the root level's). */
  readonly states: number;
}

/** One decision on a pair, chained to the decisions above it. */
interface Decision {
  readonly session: number;
  readonly node: number;
  /** True: the session is on the node; false: it is not. */
  readonly force: boolean;
  readonly up: Decision | null;
}

interface TreeNode {
  readonly decisions: Decision | null;
  /** K_b per kept node. */
  readonly value: Float64Array;
  /** S_b per kept node (forced sessions included), kept indices ascending. */
  readonly sets: (readonly number[])[];
  /** Per kept node: 1 the set is the unique optimal one, 0 it is not, -1 not known yet. */
  readonly unique: Int8Array;
  readonly bound: number;
  readonly seq: number;
}

/** Node b's knapsack under a node's decisions: forced sessions, free items (those within the capacity left), the capacity left to them. */
interface Restricted {
  readonly forced: readonly number[];
  readonly forcedValue: number;
  readonly free: number[];
  readonly cap: number;
}

/** The knapsacks of one search: each node's credited sessions in density order, their restrictions under a node's decisions, solves, uniqueness tests and the states spent. */
class Search {
  readonly #packed: PackedProblem;
  readonly #m: number;
  readonly #itemsOf: readonly (readonly number[])[];
  readonly #profit: Float64Array;
  /** 1 for the sessions a restriction leaves out of a knapsack (or a set's forced sessions), cleared after each use. */
  readonly #marked: Uint8Array;
  /** overlap's owner by session. */
  readonly owner: Int32Array;
  readonly #maxStates: number;
  readonly #knapsack: CreditKnapsackScratch;

  constructor(
    packed: PackedProblem,
    maxStates: number,
    knapsack: CreditKnapsackScratch,
    /** Knapsack states spent so far. */
    readonly used: { states: number } = { states: 0 },
  ) {
    this.#packed = packed;
    this.#knapsack = knapsack;
    const n = sessionsKept(packed);
    const m = nodesKept(packed);
    this.#m = m;
    this.#profit = new Float64Array(n);
    this.#marked = new Uint8Array(n);
    this.owner = new Int32Array(n);
    // Each node's items in density order once: a restriction filters them and keeps the order.
    const itemsOf: number[][] = [];
    for (let b = 0; b < m; b++) {
      const items = creditedSessions(packed, b);
      itemsOf.push(densityOrder(items, packed.qweight, this.#profits(b, items)));
    }
    this.#itemsOf = itemsOf;
    this.#maxStates = maxStates;
  }

  get exhausted(): boolean {
    return this.used.states > this.#maxStates;
  }

  /** Node b's knapsack under `decisions` (see the module comment). */
  restricted(decisions: Decision | null, b: number): Restricted {
    const packed = this.#packed;
    const m = this.#m;
    const out = this.#marked;
    // Allocated at the first forced session (most knapsacks have none).
    let forced: number[] | null = null;
    let forcedValue = 0;
    let cap = packed.qcapacity[b]!;
    let left = 0;
    for (let d = decisions; d !== null; d = d.up) {
      if (d.force && d.node === b) {
        (forced ??= []).push(d.session);
        forcedValue += packed.credit[d.session * m + b]!;
        cap -= packed.qweight[d.session]!;
      }
      if (d.force || d.node === b) {
        out[d.session] = 1;
        left++;
      }
    }
    // Without decisions on b every credited candidate fits b; with them, the free items are also cut to the
    // capacity left (as the knapsacks would cut them), so that they are filtered once.
    const free =
      left === 0 ? (this.#itemsOf[b] as number[]) : unmarkedWithin(this.#itemsOf[b]!, out, packed.qweight, cap);
    for (let d = decisions; d !== null; d = d.up) out[d.session] = 0;
    return { forced: forced ?? NONE, forcedValue, free, cap };
  }

  #profits(b: number, items: readonly number[]): Float64Array {
    const m = this.#m;
    for (let t = 0; t < items.length; t++) this.#profit[items[t]!] = this.#packed.credit[items[t]! * m + b]!;
    return this.#profit;
  }

  /**
   * Node b's optimum and an optimal set under `decisions`, given a value `known` some feasible set
   * reaches; null when the optimum is below `needed` (or the state budget ran out: see `exhausted`).
   */
  solve(decisions: Decision | null, b: number, known: number, needed: number): { value: number; set: number[] } | null {
    const r = this.restricted(decisions, b);
    if (r.cap < 0) return null;
    const p = this.#profits(b, r.free);
    const w = this.#packed.qweight;
    const floor = Math.max(known, r.forcedValue + greedyValue(r.free, w, p, r.cap));
    const target = Math.max(floor, needed) - r.forcedValue;
    const k = nodeKnapsack(r.free, w, p, r.cap, target, this.#maxStates - this.used.states, true, this.#knapsack);
    this.used.states += k.states;
    if (k.value < 0) return null;
    // The knapsack's own set is fresh and ascending: it is the answer when nothing is forced.
    if (r.forced.length === 0) return { value: k.value, set: k.set };
    const set = r.forced.concat(k.set);
    sortIndices(set, set.length, ascending);
    return { value: r.forcedValue + k.value, set };
  }

  /** Whether node b's set is its unique optimal set under `decisions`. */
  unique(decisions: Decision | null, b: number, set: readonly number[], value: number): boolean {
    const r = this.restricted(decisions, b);
    const freeValue = value - r.forcedValue;
    // An empty free part of value 0 is the only set of value 0 (every other set has positive credit).
    if (freeValue === 0) return true;
    const forced = this.#marked;
    for (let t = 0; t < r.forced.length; t++) forced[r.forced[t]!] = 1;
    const freeSet = set.filter((j) => forced[j] === 0);
    for (let t = 0; t < r.forced.length; t++) forced[r.forced[t]!] = 0;
    const c = anotherSetReaches(
      r.free,
      this.#packed.qweight,
      this.#profits(b, r.free),
      r.cap,
      freeSet,
      freeValue,
      this.#maxStates - this.used.states,
      true,
      this.#knapsack,
    );
    this.used.states += c.states;
    return !c.reaches;
  }
}

/**
 * The credit level of `packed` decided (see the module comment): at the root when `level.decided`, else
 * by branch and bound within `maxStates` knapsack states; null past the branching's limits, or once
 * `halted` (asked before each search node) answers true. `used`, when given, holds the states the
 * branching spent however it ended.
 */
export function creditDecision(
  packed: PackedProblem,
  level: CreditLevel,
  maxStates: number,
  halted?: () => boolean,
  knapsack: CreditKnapsackScratch = new CreditKnapsackScratch(),
  used?: { states: number },
): CreditDecision | null {
  if (level.decided) return { credit: level.bound, leaves: [level.sets], branchNodes: 0, states: 0 };
  return branchAndBound(packed, level, maxStates, halted, knapsack, used);
}

/** No sessions: the forced sessions of a knapsack without any. */
const NONE: readonly number[] = [];

/** The items not marked in `marked` whose weight is within `cap`, in their order. */
function unmarkedWithin(items: readonly number[], marked: Uint8Array, w: ArrayLike<number>, cap: number): number[] {
  return items.filter((j) => marked[j] === 0 && w[j]! <= cap);
}

/**
 * The first session (kept index) in the sets of several nodes, with those nodes; null when the sets are
 * disjoint. `owner` (at least n entries) is working space.
 */
function overlap(
  sets: readonly (readonly number[])[],
  n: number,
  owner: Int32Array,
): { session: number; owners: number[] } | null {
  owner.fill(-1, 0, n);
  let best = -1;
  for (let b = 0; b < sets.length; b++) {
    const set = sets[b]!;
    for (let t = 0; t < set.length; t++) {
      const j = set[t]!;
      if (owner[j]! >= 0 && (best < 0 || j < best)) best = j;
      owner[j] = b;
    }
  }
  if (best < 0) return null;
  const owners: number[] = [];
  for (let b = 0; b < sets.length; b++) if (sets[b]!.includes(best)) owners.push(b);
  return { session: best, owners };
}

/** Sessions in the sets of several nodes with the same credit on two of those nodes. */
function tiedAcrossNodes(packed: PackedProblem, sets: readonly (readonly number[])[]): number {
  const m = nodesKept(packed);
  const tied = new Set<number>();
  for (let b = 0; b < m; b++) {
    for (const j of sets[b]!) {
      for (let a = 0; a < b && !tied.has(j); a++)
        if (sets[a]!.includes(j) && packed.credit[j * m + a] === packed.credit[j * m + b]) tied.add(j);
    }
  }
  return tied.size;
}

/** The branching's limits on its tree (the solver's are the defaults; tests set smaller ones). */
export interface BranchLimits {
  /** Most branch-and-bound nodes explored, the root included. */
  readonly nodes: number;
  /** Most leaves of optimal credit. */
  readonly leaves: number;
}

export function branchAndBound(
  packed: PackedProblem,
  level: CreditLevel,
  maxStates: number,
  halted?: () => boolean,
  knapsack: CreditKnapsackScratch = new CreditKnapsackScratch(),
  used: { states: number } = { states: 0 },
  limits: BranchLimits = { nodes: CREDIT_BRANCH_MAX_NODES, leaves: CREDIT_BRANCH_MAX_LEAVES },
): CreditDecision | null {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  if (tiedAcrossNodes(packed, level.sets) > CREDIT_BRANCH_MAX_TIED) return null;
  const search = new Search(packed, maxStates, knapsack, used);
  let seq = 0;
  const root: TreeNode = {
    decisions: null,
    value: Float64Array.from(level.nodeBound),
    sets: level.sets.map((s) => s.slice()),
    unique: new Int8Array(m).fill(-1),
    bound: level.bound,
    seq: seq++,
  };
  const open: TreeNode[] = [root];
  const leaves: { bound: number; sets: (readonly number[])[] }[] = [];
  // The largest credit a plan is known to reach (first the decomposition plan's, then the bounds of the
  // nodes with disjoint sets): no node below it holds a plan of credit U*.
  let best = planTriple(packed, decompositionPlan(packed, level))[0];
  let explored = 0;
  // Until a node with disjoint sets is found, the search dives: it takes the best child of the node it
  // just branched, for a large `best` early (children then stop their re-solves sooner).
  let diving = true;
  let batch = 0;

  /**
   * A child of `node` with `decision` added, whose knapsacks `resolve` lose `lost` from their sets (each
   * re-solved), and whose other knapsacks keep their answers; node `stale`'s uniqueness (if >= 0: the tie's
   * node, whose answer is 0) is checked again.
   * Null when its bound is below U* (or the budget ran out).
   */
  const child = (
    node: TreeNode,
    decision: Decision,
    resolve: readonly number[],
    lost: number,
    stale: number,
  ): TreeNode | null => {
    const value = Float64Array.from(node.value);
    const sets = node.sets.slice();
    const unique = Int8Array.from(node.unique);
    if (stale >= 0) unique[stale] = -1;
    let bound = node.bound;
    for (let t = 0; t < resolve.length; t++) {
      const b = resolve[t]!;
      const others = bound - value[b]!;
      const known = value[b]! - packed.credit[lost * m + b]!;
      const r = search.solve(decision, b, known, best - others);
      if (r === null) return null;
      bound = others + r.value;
      value[b] = r.value;
      sets[b] = r.set;
      unique[b] = -1;
    }
    return { decisions: decision, value, sets, unique, bound, seq: seq++ };
  };

  while (open.length > 0) {
    // The open node of largest bound (ties: created last), among the last node's children when diving.
    let pick = -1;
    for (let pass = diving ? 0 : 1; pass < 2 && pick < 0; pass++) {
      for (let i = 0; i < open.length; i++) {
        const a = open[i]!;
        if (pass === 0 && a.seq < batch) continue;
        const c = pick < 0 ? undefined : open[pick]!;
        if (c === undefined || a.bound > c.bound || (a.bound === c.bound && a.seq > c.seq)) pick = i;
      }
    }
    const node = open[pick]!;
    open[pick] = open[open.length - 1]!;
    open.pop();
    // While diving, `best` is the decomposition plan's credit and every child is made only with a bound
    // at or above it; after the dive the node picked has the largest bound open, so none left can reach it.
    if (node.bound < best) break;
    if (++explored > limits.nodes || halted?.() === true) return null;
    batch = seq;

    const shared = overlap(node.sets, n, search.owner);
    if (shared !== null) {
      const j = shared.session;
      for (let t = 0; t < shared.owners.length; t++) {
        const b = shared.owners[t]!;
        const d: Decision = { session: j, node: b, force: true, up: node.decisions };
        // No uniqueness answer of this node is 0 (see the tie below): nothing is stale.
        const c = child(
          node,
          d,
          shared.owners.filter((o) => o !== b),
          j,
          -1,
        );
        if (search.exhausted) return null;
        if (c !== null) open.push(c);
      }
      let d: Decision | null = node.decisions;
      for (let t = 0; t < shared.owners.length; t++) d = { session: j, node: shared.owners[t]!, force: false, up: d };
      const c = child(node, d!, shared.owners, j, -1);
      if (search.exhausted) return null;
      if (c !== null) open.push(c);
      continue;
    }

    // Disjoint sets: a plan of credit `bound` exists (U* once the dive is over: nothing open is larger).
    best = node.bound;
    diving = false;
    let tie = -1;
    for (let b = 0; b < m && tie < 0; b++) {
      if (node.unique[b] === -1)
        node.unique[b] = search.unique(node.decisions, b, node.sets[b]!, node.value[b]!) ? 1 : 0;
      if (search.exhausted) return null;
      if (node.unique[b] === 0) tie = b;
    }
    if (tie < 0) {
      leaves.push({ bound: node.bound, sets: node.sets });
      let atBest = 0;
      for (let t = 0; t < leaves.length; t++) if (leaves[t]!.bound === best) atBest++;
      if (atBest > limits.leaves) return null;
      continue;
    }
    const b = tie;
    const forced = new Set(search.restricted(node.decisions, b).forced);
    const i = node.sets[b]!.find((j) => !forced.has(j))!;
    // Only b's answer is 0 here (the check stops at the first tie; the nodes before it answered 1, which
    // more decisions keep, and those after it are unchecked): in the child that forces i onto b, b alone is
    // stale; in the other, b is re-solved. So no node holds a 0 from an earlier check.
    const on = child(node, { session: i, node: b, force: true, up: node.decisions }, [], i, b);
    if (on !== null) open.push(on);
    const off = child(node, { session: i, node: b, force: false, up: node.decisions }, [b], i, -1);
    if (search.exhausted) return null;
    if (off !== null) open.push(off);
  }
  const optimal = leaves.filter((l) => l.bound === best).map((l) => l.sets);
  if (optimal.length === 0) return null;
  return { credit: best, leaves: optimal, branchNodes: explored - 1, states: search.used.states };
}
