/**
 * An independent oracle for small problems: every assignment of sessions to nodes (or to none) is
 * enumerated, capacities quantized as the DP quantizes them (weights rounded up, capacities down), and the
 * lexicographic maximum of (credit, ready, tokens) kept. It shares no code with the solver.
 */
import type { PlanValue, Problem } from '../types.js';

/** Problems with at most this many candidate assignments ((eligible nodes + 1) per session, multiplied) are enumerated. */
export const BRUTE_FORCE_MAX_ASSIGNMENTS = 200_000;

/** The number of assignments brute force would enumerate (saturating above the limit). */
export function assignmentCount(problem: Problem): number {
  let total = 1;
  for (const s of problem.sessions) {
    total *= (s.eligible?.length ?? problem.nodes.length) + 1;
    if (total > BRUTE_FORCE_MAX_ASSIGNMENTS) return Infinity;
  }
  return total;
}

function better(a: PlanValue, b: PlanValue): boolean {
  if (a.credit !== b.credit) return a.credit > b.credit;
  if (a.ready !== b.ready) return a.ready > b.ready;
  return a.tokens > b.tokens;
}

/** The optimal value at `quantum`, or null when the problem is too large to enumerate. */
export function bruteForceValue(problem: Problem, quantum: number): PlanValue | null {
  if (assignmentCount(problem) > BRUTE_FORCE_MAX_ASSIGNMENTS) return null;
  const free = problem.nodes.map((n) => Math.floor(n.capacity / quantum));
  const ss = problem.sessions;
  let best: PlanValue = { credit: 0, ready: 0, tokens: 0 };
  const visit = (i: number, credit: number, ready: number, tokens: number): void => {
    if (i === ss.length) {
      const v = { credit, ready, tokens };
      if (better(v, best)) best = v;
      return;
    }
    const s = ss[i]!;
    visit(i + 1, credit, ready, tokens);
    const w = Math.ceil(s.weight / quantum);
    problem.nodes.forEach((n, b) => {
      if (s.eligible !== undefined && !s.eligible.includes(n.id)) return;
      if (w > free[b]!) return;
      free[b]! -= w;
      visit(i + 1, credit + (s.credit?.[n.id] ?? 0), ready + (s.ready ? 1 : 0), tokens + s.tokens);
      free[b]! += w;
    });
  };
  visit(0, 0, 0, 0);
  return best;
}
