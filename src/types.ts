/**
 * The solver's contract: the Problem it reads and the Plan it returns. These shapes are also the CLI's JSON.
 */

/** A GPU node (or a group of cache-equivalent nodes the caller merged) with its residual capacity. */
export interface ProblemNode {
  /** Unique id, referenced by sessions' `credit` and `eligible`. */
  id: string;
  /** Residual admission capacity in tokens; a non-negative safe integer. */
  capacity: number;
}

/** A waiting session with its value components already evaluated. */
export interface ProblemSession {
  /** Unique id. */
  id: string;
  /** Admission cost in tokens, the caller's reserve included; a positive integer <= 2^32-1. */
  weight: number;
  /** t: accumulated context tokens; an integer in [0, 2^32-1]. */
  tokens: number;
  /** r: the session's tool returns within the readiness horizon. */
  ready: boolean;
  /** k per node id, already decayed and rounded; integers in [0, 2^32-1]. Absent node = 0. */
  credit?: Readonly<Record<string, number>>;
  /** Node ids the session may go to. Absent = every node. */
  eligible?: readonly string[];
  /** Opaque to the solver; the async planner compares it between snapshot and live state. */
  signature?: string | number;
}

/** One scheduling decision to take: which waiting sessions to admit, on which node. */
export interface Problem {
  nodes: readonly ProblemNode[];
  sessions: readonly ProblemSession[];
}

/** The component-wise sum of assigned triples (credit, ready, tokens). Compared lexicographically. */
export interface PlanValue {
  credit: number;
  ready: number;
  tokens: number;
}

/** One admission: session `session` starts on node `node`. */
export interface Assignment {
  session: string;
  node: string;
}

/** Which algorithm produced a plan. */
export type SolvePath =
  /** Nothing to decide: no session or no usable capacity. */
  | 'trivial'
  /** Dense DP in WASM with one packed i64 key per state. */
  | 'dense'
  /** Dense DP on three exact planes (TypeScript), for problems whose sums do not fit one packed key. */
  | 'dense-wide'
  /** The pure TypeScript reference DP. */
  | 'reference'
  /** Best-fit decreasing (`PlanStats.heuristic` says in which order). */
  | 'bfd'
  /** A heuristic other than BFD produced the plan (a fallback); `PlanStats.heuristic` names it. */
  | 'heuristic'
  /**
   * Every session on one of its most valuable nodes fits: that plan attains the sum of per-session
   * maxima, an upper bound on every plan, so it is optimal without a DP.
   */
  | 'best-nodes'
  /**
   * A heuristic plan (BFD, or the credit greedy) meets the LP upper bound of the whole problem, checked
   * when the frontier starts: it is optimal and no session is folded.
   */
  | 'bound'
  /**
   * The credit level was decided, at the root (every node's credit-optimal set is unique and no session
   * is in two of them) or by branching on the sessions that break that (see `PlanStats.creditLevel`):
   * the credit-optimal sets are fixed and the credit-free remainder was solved by the path in
   * `creditLevel.remainderPath` (per leaf of optimal credit, the best kept).
   */
  | 'credit-split'
  /**
   * Every kept session is worth the same on each of its candidate nodes, so the problem is a multiple
   * knapsack: a bound-and-bound search (surrogate relaxation bound, its solution split over the nodes by
   * subset sums, capacity tightening) proved the plan optimal; see `PlanStats.multipleKnapsack`.
   */
  | 'multiple-knapsack'
  /**
   * All nodes but a few hold at most one session: the plan is a maximum-value matching of sessions to
   * nodes (the few by enumeration of the sets that fit on them), optimal without a DP.
   */
  | 'assignment'
  /**
   * Frontier DP in WASM: only reachable, non-dominated (usage, value) states, pruned by an upper bound
   * against an incumbent, interchangeable nodes merged.
   */
  | 'frontier'
  /**
   * The same frontier DP in TypeScript with exact BigInt keys: the reference of the WASM frontier, and
   * the frontier path when the packed key cannot hold the sums.
   */
  | 'frontier-wide';

/** Counters of a frontier DP run (also reported when a frontier attempt was abandoned for another path). */
export interface FrontierStats {
  /** `solved`: the frontier produced the plan; `abandoned`: it passed its work cap and another path ran. */
  outcome: 'solved' | 'abandoned';
  /** Sessions (layers) folded in. */
  layers: number;
  /** Child states generated within capacity (before the bound and dominance filters). */
  generated: number;
  /** States kept over all layers (non-dominated and within the bound). */
  kept: number;
  /** Most states kept in one layer. */
  maxLayer: number;
  /** Children dropped because their upper bound was below the incumbent. */
  prunedBound: number;
  /** Children dropped because a kept state of the same layer uses no more of any node and is worth at least as much. */
  prunedDominance: number;
  /** Pairwise dominance tests. */
  comparisons: number;
  /**
   * Of prunedBound, the children only the per-node credit bound dropped (the sum over nodes of an LP over
   * the sessions credited there, within each node's residual), not the LP over the total residual.
   */
  prunedCredit: number;
  /** Classes of interchangeable nodes (equal capacity, equal key and eligibility for every session). */
  nodeClasses: number;
}

/**
 * The heuristic plans a fallback can come from: best-fit decreasing by value (`bfd`) or by tokens
 * (`bfd-tokens`), and the credit greedy (each session to its highest-credit node with room) over sessions
 * by value density (`credit-greedy-density`) or by value (`credit-greedy-value`), and the per-node credit
 * knapsack sets made disjoint (`credit-decomposition`, see the credit level), and the best plan the
 * multiple-knapsack search found before it stopped (`surrogate-split`, see MultipleKnapsackStats).
 */
export type HeuristicName =
  | 'bfd'
  | 'bfd-tokens'
  | 'credit-greedy-density'
  | 'credit-greedy-value'
  | 'credit-decomposition'
  | 'surrogate-split';

/**
 * The credit level on its own: one exact 0-1 knapsack per node over the sessions credited there (weight,
 * credit on that node). Their sum bounds every plan's credit; present when the solver computed it.
 */
export interface CreditLevelStats {
  /** Sum over nodes of the node's knapsack optimum: an upper bound on the plan's credit. */
  bound: number;
  /** Every node's optimal set is unique and the sets are disjoint: the credit level was decided at the root. */
  decided: boolean;
  /** Sessions fixed by the credit-optimal sets (0 unless the credit level was decided). */
  fixed: number;
  /** Non-dominated knapsack states kept over all nodes (and the uniqueness checks, and the branching's re-solves). */
  states: number;
  /**
   * Nodes of the branch and bound on the credit level explored beyond the root (0 when decided at the
   * root); present when the credit level was decided.
   */
  branchNodes?: number;
  /** Leaves of optimal credit whose remainders were solved (1 when decided at the root); present when the credit level was decided. */
  leaves?: number;
  /** The path that solved the credit-free remainder of the best leaf (only when the credit level was decided). */
  remainderPath?: SolvePath;
}

/**
 * The multiple-knapsack path's search (problems whose values do not depend on the node): present when it
 * ran, solved or stopped at the state budget or the deadline.
 */
export interface MultipleKnapsackStats {
  /**
   * `solved`: the search proved its plan optimal; `stopped`: it passed the state budget or the deadline
   * (the plan is the fallback); `abandoned`: it passed its share of the dense DP's cost, and the other
   * paths decided (`path` says which).
   */
  outcome: 'solved' | 'stopped' | 'abandoned';
  /** Search nodes (partial assignments) visited. */
  nodes: number;
  /** Surrogate knapsacks solved (one per node, over the summed residual capacities). */
  knapsacks: number;
  /** States the surrogate knapsack DP generated over all nodes. */
  states: number;
  /**
   * Knapsack DPs that ended when their best set reached a proven ceiling on their optimum (Dantzig's bound
   * or the cardinality ceiling), with states still open.
   */
  ceilingStops: number;
  /** Attempts to split a surrogate solution over the nodes. */
  splits: number;
  /** Splits that placed the whole surrogate solution (the node reached its bound). */
  splitHits: number;
  /** Node capacities lowered to the largest subset sum of the sessions that could still go there. */
  tightened: number;
  /** Aimed searches started (each looks only for a plan worth a proven bound on the optimum). */
  aims: number;
  /**
   * Groups of two or three nodes whose sessions, with the sessions the incumbent leaves out, were
   * re-solved as a smaller multiple knapsack to improve the incumbent (regrouping).
   */
  regroups: number;
  /** Regroupings that improved the incumbent. */
  regroupGains: number;
}

/** Counters describing how a plan was obtained. */
export interface PlanStats {
  /** The algorithm that produced `assignments`. */
  path: SolvePath;
  /** With path `bfd` or `heuristic` only: the heuristic that produced `assignments`. */
  heuristic?: HeuristicName;
  /**
   * Units of work the solve spent, in the unit the state budget counts (see `SolveOptions.stateBudget`):
   * the DPs and searches, and the preparation charged beside them (the best-nodes check, the credit level,
   * the heuristic plan, the decomposition plans); 0 for `bfd()` and the trivial path.
   */
  work: number;
  /** @deprecated The old name of `work` (it counts frontier work too, not only dense cells); the same number. */
  cells: number;
  /** Dense states per layer (product of quantized capacities + 1), or what it would have been. */
  states: number;
  /** Wall time of the solve in microseconds, validation and packing included. */
  micros: number;
  /** The packed i64 key could hold the value sums (else the DP ran on three exact planes: 'dense-wide'). */
  keyFits?: boolean;
  /** Nodes left after dropping those no session fits on (the DP's capacity dimensions). */
  nodesKept?: number;
  /** Sessions left after dropping those that fit on no eligible node. */
  sessionsKept?: number;
  /** Present when a frontier DP ran (solved, or abandoned for the dense DP or a fallback). */
  frontier?: FrontierStats;
  /** Present when the per-node credit knapsacks ran (see CreditLevelStats). */
  creditLevel?: CreditLevelStats;
  /** Present when the multiple-knapsack search ran (see MultipleKnapsackStats). */
  multipleKnapsack?: MultipleKnapsackStats;
}

/** The answer to a Problem. */
export interface Plan {
  /** `optimal`: lexicographic maximum at `quantum`. `fallback`: BFD (or better), see `reason`. */
  status: 'optimal' | 'fallback';
  /** Why the plan is a fallback (state budget exceeded, deadline, worker failure...). */
  reason?: string;
  /** Most valuable first: any prefix is a sensible partial plan. */
  assignments: Assignment[];
  /** Sum of the assigned triples. */
  value: PlanValue;
  /**
   * Per value level, an upper bound the solver proved on the optimum (the lexicographic maximum at
   * `quantum`): its credit is at most `bound.credit`, its ready count at most `bound.ready`, its tokens at
   * most `bound.tokens`. Equal to `value` when `status` is `optimal`; for a fallback, `bound - value` is
   * how far the plan can be from the optimum, level by level (docs/solver.md, "The bound on every plan").
   */
  bound: PlanValue;
  /** The capacity quantum (Delta, tokens) the plan was solved at. */
  quantum: number;
  stats: PlanStats;
}
