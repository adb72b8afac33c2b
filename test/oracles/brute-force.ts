/**
 * Brute-force oracle: enumerates all (m + 1)^n assignments of a Problem (each session to one node or to
 * none) and returns the lexicographic maximum of the value over those feasible after quantization.
 * Written from the problem statement alone (no solver module is imported), for n <= ~9, m <= ~3.
 */
import type { PlanValue, Problem } from '../helpers/internals.js';

/** Lexicographic comparison of two values: > 0 if a is better. */
export function compareValues(a: PlanValue, b: PlanValue): number {
  return a.credit - b.credit || a.ready - b.ready || a.tokens - b.tokens;
}

/** The best value of any plan feasible at `quantum` (w' = ceil(w / q) per session, C' = floor(C / q)). */
export function bruteForceOptimum(problem: Problem, quantum: number): PlanValue {
  const nodes = problem.nodes;
  const sessions = problem.sessions;
  const m = nodes.length;
  const n = sessions.length;
  const cap = nodes.map((node) => Math.floor(node.capacity / quantum));
  const w = sessions.map((s) => Math.ceil(s.weight / quantum));
  const allowed = sessions.map((s) => nodes.map((node) => s.eligible === undefined || s.eligible.includes(node.id)));
  const credit = sessions.map((s) => nodes.map((node) => s.credit?.[node.id] ?? 0));

  let best: PlanValue = { credit: 0, ready: 0, tokens: 0 };
  const pick = new Array<number>(n).fill(m); // m = not admitted
  const used = new Array<number>(m).fill(0);
  const cur: PlanValue = { credit: 0, ready: 0, tokens: 0 };

  const visit = (i: number): void => {
    if (i === n) {
      if (compareValues(cur, best) > 0) best = { ...cur };
      return;
    }
    visit(i + 1); // session i not admitted
    const s = sessions[i]!;
    for (let b = 0; b < m; b++) {
      if (!allowed[i]![b] || used[b]! + w[i]! > cap[b]!) continue;
      used[b] = used[b]! + w[i]!;
      cur.credit += credit[i]![b]!;
      cur.ready += s.ready ? 1 : 0;
      cur.tokens += s.tokens;
      pick[i] = b;
      visit(i + 1);
      pick[i] = m;
      cur.credit -= credit[i]![b]!;
      cur.ready -= s.ready ? 1 : 0;
      cur.tokens -= s.tokens;
      used[b] = used[b]! - w[i]!;
    }
  };
  visit(0);
  return best;
}
