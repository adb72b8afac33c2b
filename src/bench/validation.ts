/**
 * Judging one runner's Plan against the oracles before any timing. A plan is `exact` when it is optimal,
 * feasible and its value equals every available oracle value; `fallback` when the runner said so (still
 * checked for feasibility); `unverified` when it claims optimality but no oracle answered that problem;
 * otherwise `mismatch`, with the reason.
 */
import type { Plan, PlanValue, Problem } from '../types.js';

/** An oracle's optimal value for one problem. */
export interface OracleValue {
  source: string;
  value: PlanValue;
}

export type Verdict = 'exact' | 'mismatch' | 'fallback' | 'unverified';

export interface Judgement {
  verdict: Verdict;
  /** Why, for a mismatch. */
  reason?: string;
  /** For a fallback: its value equals every oracle value available (and there is one). */
  atOptimum?: boolean;
}

/** Per-runner tallies over a corpus. */
export interface ValidationCounts {
  /** Problems the runner solved in the validation pass. */
  solved: number;
  exact: number;
  mismatch: number;
  fallback: number;
  /** Of `fallback`, plans whose value still equals the oracle's (BFD happened to be optimal). */
  fallbackAtOptimum: number;
  unverified: number;
  /** Optimal answers checked against HiGHS (a subset of `exact` + `mismatch`). */
  checkedByHighs: number;
  /** The first mismatches, for the report (index into the corpus). */
  mismatches: { index: number; reason: string }[];
}

/** How many mismatch records a report keeps per runner and setting. */
export const MAX_MISMATCH_RECORDS = 10;

export function emptyCounts(): ValidationCounts {
  return {
    solved: 0,
    exact: 0,
    mismatch: 0,
    fallback: 0,
    fallbackAtOptimum: 0,
    unverified: 0,
    checkedByHighs: 0,
    mismatches: [],
  };
}

export function sameValue(a: PlanValue, b: PlanValue): boolean {
  return a.credit === b.credit && a.ready === b.ready && a.tokens === b.tokens;
}

export function formatValue(v: PlanValue): string {
  return `(credit ${v.credit}, ready ${v.ready}, tokens ${v.tokens})`;
}

/**
 * Checks that a plan is an admissible answer to `problem`, independently of any solver: known and
 * distinct sessions, known and eligible nodes, raw capacities respected, and a reported value equal to the
 * sum of the assigned triples. An `optimal` plan must also fit at its quantum (weights rounded up,
 * capacities down): its value is only comparable with the oracle's under the same quantization. A fallback
 * may pack in raw tokens. Returns the first violation, or null.
 */
export function checkPlan(problem: Problem, plan: Plan): string | null {
  const nodes = new Map(problem.nodes.map((n) => [n.id, n]));
  const sessions = new Map(problem.sessions.map((s) => [s.id, s]));
  const q = plan.quantum;
  if (!Number.isSafeInteger(q) || q < 1) return `plan.quantum ${q} is not a positive integer`;
  const used = new Map<string, number>();
  const usedRaw = new Map<string, number>();
  const seen = new Set<string>();
  const sum: PlanValue = { credit: 0, ready: 0, tokens: 0 };
  for (const [k, a] of plan.assignments.entries()) {
    const s = sessions.get(a.session);
    if (s === undefined) return `assignments[${k}]: unknown session "${a.session}"`;
    if (seen.has(a.session)) return `assignments[${k}]: session "${a.session}" assigned twice`;
    seen.add(a.session);
    if (!nodes.has(a.node)) return `assignments[${k}]: unknown node "${a.node}"`;
    if (s.eligible !== undefined && !s.eligible.includes(a.node)) {
      return `assignments[${k}]: session "${a.session}" is not eligible on node "${a.node}"`;
    }
    used.set(a.node, (used.get(a.node) ?? 0) + Math.ceil(s.weight / q));
    usedRaw.set(a.node, (usedRaw.get(a.node) ?? 0) + s.weight);
    sum.credit += s.credit?.[a.node] ?? 0;
    sum.ready += s.ready ? 1 : 0;
    sum.tokens += s.tokens;
  }
  for (const [id, u] of usedRaw) {
    const cap = nodes.get(id)?.capacity ?? 0;
    if (u > cap) return `node "${id}" over capacity: ${u} tokens used of ${cap}`;
  }
  for (const [id, u] of plan.status === 'optimal' ? used : []) {
    const cap = Math.floor((nodes.get(id)?.capacity ?? 0) / q);
    if (u > cap) return `node "${id}" over capacity: ${u} quanta used of ${cap} (quantum ${q})`;
  }
  if (!sameValue(sum, plan.value)) {
    return `reported value ${formatValue(plan.value)} differs from the assignments' sum ${formatValue(sum)}`;
  }
  return null;
}

/** The verdict on one plan; see the module comment. */
export function judge(problem: Problem, plan: Plan, oracles: readonly OracleValue[]): Judgement {
  const infeasible = checkPlan(problem, plan);
  if (infeasible !== null) return { verdict: 'mismatch', reason: `infeasible plan: ${infeasible}` };
  if (plan.status === 'fallback') {
    return {
      verdict: 'fallback',
      atOptimum: oracles.length > 0 && oracles.every((o) => sameValue(plan.value, o.value)),
    };
  }
  if (plan.status !== 'optimal') return { verdict: 'mismatch', reason: `unknown status "${String(plan.status)}"` };
  if (oracles.length === 0) return { verdict: 'unverified' };
  for (const o of oracles) {
    if (!sameValue(plan.value, o.value)) {
      return {
        verdict: 'mismatch',
        reason: `value ${formatValue(plan.value)} but ${o.source} has ${formatValue(o.value)}`,
      };
    }
  }
  return { verdict: 'exact' };
}

/** Adds one judgement on corpus problem `index` to the tallies. */
export function tally(counts: ValidationCounts, index: number, j: Judgement, byHighs: boolean): void {
  counts.solved++;
  counts[j.verdict]++;
  if (j.atOptimum === true) counts.fallbackAtOptimum++;
  if (byHighs && (j.verdict === 'exact' || j.verdict === 'mismatch')) counts.checkedByHighs++;
  if (j.verdict === 'mismatch' && counts.mismatches.length < MAX_MISMATCH_RECORDS) {
    counts.mismatches.push({ index, reason: j.reason ?? 'mismatch' });
  }
}
