/**
 * Greedy by triple: every eligible (session, node) pair by its value triple (credit, ready, tokens)
 * descending, lexicographically; each pair in turn is taken if its session is not placed yet and its
 * exact weight fits the node's residual. Ties: session order, then node order. This is the per-session
 * greedy the paper's appendix H contrasts with the DP.
 */
import type { Assignment, Problem } from '../../types.js';

export function greedyByTriple(problem: Problem): Assignment[] {
  const nodes = problem.nodes;
  const m = nodes.length;
  const pairs: { i: number; b: number; k: number; r: number; t: number }[] = [];
  problem.sessions.forEach((s, i) => {
    const eligible = s.eligible === undefined ? undefined : new Set(s.eligible);
    for (let b = 0; b < m; b++) {
      const id = nodes[b]!.id;
      if (eligible !== undefined && !eligible.has(id)) continue;
      pairs.push({ i, b, k: s.credit?.[id] ?? 0, r: s.ready ? 1 : 0, t: s.tokens });
    }
  });
  pairs.sort((x, y) => y.k - x.k || y.r - x.r || y.t - x.t || x.i - y.i || x.b - y.b);
  const residual = nodes.map((n) => n.capacity);
  const placed = new Uint8Array(problem.sessions.length);
  const out: Assignment[] = [];
  for (const p of pairs) {
    if (placed[p.i] === 1) continue;
    const w = problem.sessions[p.i]!.weight;
    if (w > residual[p.b]!) continue;
    residual[p.b] = residual[p.b]! - w;
    placed[p.i] = 1;
    out.push({ session: problem.sessions[p.i]!.id, node: nodes[p.b]!.id });
  }
  return out;
}
