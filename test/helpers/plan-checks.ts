/**
 * Checks every test applies to a plan, written from the Problem alone: each session at most once, only
 * on eligible nodes, the exact (unquantized) weights within each node's capacity, and the reported value
 * equal to the sum of the assigned triples.
 */
import { expect } from 'vitest';
import type { Plan, PlanValue, Problem } from './internals.js';

// biome-ignore lint/suspicious/noShadowRestrictedNames: a module export, never the global; tests import it by this name.
export function valueOf(problem: Problem, plan: Plan): PlanValue {
  const byId = new Map(problem.sessions.map((s) => [s.id, s]));
  const v: PlanValue = { credit: 0, ready: 0, tokens: 0 };
  for (const a of plan.assignments) {
    const s = byId.get(a.session)!;
    v.credit += s.credit?.[a.node] ?? 0;
    v.ready += s.ready ? 1 : 0;
    v.tokens += s.tokens;
  }
  return v;
}

/** Throws (via expect) unless `plan` is feasible for `problem` with exact weights and reports its own value. */
export function expectFeasible(problem: Problem, plan: Plan): void {
  const byId = new Map(problem.sessions.map((s) => [s.id, s]));
  const capacity = new Map(problem.nodes.map((node) => [node.id, node.capacity]));
  const used = new Map<string, number>();
  const seen = new Set<string>();
  for (const a of plan.assignments) {
    const s = byId.get(a.session);
    expect(s, `unknown session ${a.session}`).toBeDefined();
    expect(capacity.has(a.node), `unknown node ${a.node}`).toBe(true);
    expect(seen.has(a.session), `session ${a.session} assigned twice`).toBe(false);
    seen.add(a.session);
    if (s!.eligible !== undefined) expect(s!.eligible).toContain(a.node);
    used.set(a.node, (used.get(a.node) ?? 0) + s!.weight);
  }
  for (const [node, u] of used) expect(u, `node ${node} over capacity`).toBeLessThanOrEqual(capacity.get(node)!);
  expect(plan.value).toEqual(valueOf(problem, plan));
}
