/**
 * Plan assignments are ordered most valuable first (triple of the assigned pair descending, ties by
 * smaller weight, then input order), so any prefix is a sensible partial plan; value is the exact sum.
 */
import { expect, it } from 'vitest';
import { resolveSolveOptions } from './helpers/internals.js';
import { packProblem } from './helpers/internals.js';
import { buildPlan, pathStats } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import { validateProblem } from './helpers/internals.js';

it('orders by credit on the assigned node, ready, tokens, smaller weight, input order', () => {
  const problem: Problem = {
    nodes: [
      { id: 'a', capacity: 100 },
      { id: 'b', capacity: 100 },
    ],
    sessions: [
      { id: 'p', weight: 3, tokens: 5, ready: true, credit: { a: 9, b: 1 } }, // on b: credit 1
      { id: 'q', weight: 4, tokens: 5, ready: true, credit: { a: 2 } }, // credit 2
      { id: 'r', weight: 2, tokens: 5, ready: true, credit: { b: 1 } }, // ties p on (1,1,5): lighter first
      { id: 's', weight: 2, tokens: 9, ready: false, credit: { b: 1 } }, // (1,0,9): after ready ones
      { id: 't', weight: 2, tokens: 5, ready: true, credit: { b: 1 } }, // ties r fully: input order
      { id: 'u', weight: 1, tokens: 0, ready: false }, // not admitted
    ],
  };
  const indexed = validateProblem(problem);
  const packed = packProblem(indexed, resolveSolveOptions({ quantum: 1 }));
  const node = Int32Array.from([1, 0, 1, 1, 1, -1]);
  const plan = buildPlan(indexed, node, { status: 'optimal', quantum: 1, stats: pathStats(packed) }, 12.5);
  expect(plan.assignments.map((x) => `${x.session}@${x.node}`)).toEqual(['q@a', 'r@b', 't@b', 'p@b', 's@b']);
  expect(plan.value).toEqual({ credit: 2 + 1 + 1 + 1 + 1, ready: 4, tokens: 29 });
  expect(plan.stats.micros).toBe(12.5);
  expect('reason' in plan).toBe(false);
});
