/**
 * Interchangeable nodes by construction: a twin of a node has the same capacity, and every session has
 * the same credit and eligibility on it as on the original, so the frontier merges them into one class.
 */
import fc from 'fast-check';
import type { Problem, ProblemSession } from './internals.js';

/** Adds a twin (id + "t") to each node picked by `pick`. */
export function twinNodes(problem: Problem, pick: readonly boolean[]): Problem {
  const twinned = problem.nodes.filter((_, b) => pick[b] === true);
  const nodes = [...problem.nodes, ...twinned.map((n) => ({ id: `${n.id}t`, capacity: n.capacity }))];
  const sessions = problem.sessions.map((s): ProblemSession => {
    const credit: Record<string, number> = { ...s.credit };
    for (const n of twinned) if (s.credit?.[n.id] !== undefined) credit[`${n.id}t`] = s.credit[n.id]!;
    const out: ProblemSession = { ...s, credit };
    if (s.eligible === undefined) return out;
    return {
      ...out,
      eligible: [...s.eligible, ...twinned.filter((n) => s.eligible!.includes(n.id)).map((n) => `${n.id}t`)],
    };
  });
  return { nodes, sessions };
}

/** The problem with its first node twinned when `twins` is set, else the problem itself. */
export function twinFirstNode(problem: Problem, twins: boolean): Problem {
  return twins
    ? twinNodes(
        problem,
        problem.nodes.map((_, b) => b === 0),
      )
    : problem;
}

/** The problem with at least one node twinned (up to all of them). */
export function withTwins(problem: Problem): fc.Arbitrary<Problem> {
  const m = problem.nodes.length;
  return fc
    .array(fc.boolean(), { minLength: m, maxLength: m })
    .map((pick) => (pick.some((x) => x) ? pick : pick.map((_, b) => b === 0)))
    .map((pick) => twinNodes(problem, pick));
}
