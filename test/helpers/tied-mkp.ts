/**
 * Small multiple-knapsack problems full of ties, whose search stops at a proven ceiling (stage 4 of
 * searchMultipleKnapsack): the instances of test/mkp-search-stops-at-proven-ceiling.test.ts (a sweep,
 * against brute force and HiGHS) and test/solve-mkp-climbs-to-ceiling.test.ts (the climbing seeds, in
 * the fast tier).
 */
import {
  type MkpOutcome,
  nodeIndependentValues,
  type Plan,
  type Problem,
  type ProblemSession,
  searchMultipleKnapsack,
  seededRandom,
  solvePrepared,
  tokenRadix,
  WorkMeter,
} from './internals.js';

/** Two or three nodes, eight or nine sessions whose tokens equal their weight, ties of every kind. */
export function tiedProblem(seed: number): Problem {
  const rnd = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const m = int(2, 3);
  const n = int(8, 9);
  const equal = rnd() < 0.4;
  const cap = int(15, 45);
  const nodes = Array.from({ length: m }, (_, b) => ({ id: `n${b}`, capacity: equal ? cap : int(15, 45) }));
  const sessions: ProblemSession[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0 && rnd() < 0.3) {
      sessions.push({ ...sessions[i - 1]!, id: `s${i}` });
      continue;
    }
    const weight = int(3, 25);
    const s: ProblemSession = { id: `s${i}`, weight, tokens: weight, ready: rnd() < 0.3 };
    if (rnd() < 0.3) s.eligible = nodes.filter(() => rnd() < 0.7).map((node) => node.id);
    sessions.push(s);
  }
  return { nodes, sessions };
}

export const BUDGETS = [400, 800, 1600, 3200, 6400, 12_800];
/**
 * Seeds past the sweep's whose resumed search records plans one below the ceiling (or more) before one
 * worth it: there, stopping at any value short of the ceiling itself would return a plan below the optimum.
 */
export const CLIMBING = [3281, 9549, 10_488, 11_716, 14_285, 14_654];

/**
 * The search's plan of `problem` at quantum 1 within `budget` units of work, its outcome (null: nothing
 * fits) and the work it spent; with `tiers`, on the two-tier values the pipeline passes (the packed key's
 * token radix).
 */
export function searchPlan(
  problem: Problem,
  budget: number,
  tiers = false,
): { plan: Plan; out: MkpOutcome | null; work: number } {
  let out: MkpOutcome | null = null;
  let work = 0;
  const plan = solvePrepared(problem, { quantum: 1 }, (packed, base) => {
    const meter = new WorkMeter(
      budget,
      () => undefined,
      () => 'budget',
    );
    const radix = tiers ? tokenRadix(packed) : undefined;
    out = searchMultipleKnapsack(packed, nodeIndependentValues(packed)!, meter, undefined, undefined, radix);
    work = meter.work;
    return { node: out.node, stats: base };
  });
  return { plan, out, work };
}
