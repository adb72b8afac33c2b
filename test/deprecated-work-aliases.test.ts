/**
 * The deprecated names of the work counters still work as documented: every plan's `stats.cells` is
 * present and equals `stats.work` on every path (closed-form, dense, frontier, fallback, BFD and the
 * TypeScript mirrors), and `estimateCells` is `estimateWork`.
 */
import { describe, expect, it } from 'vitest';
import { randomTickProblem } from './helpers/internals.js';
import { estimateCells, estimateWork } from './helpers/internals.js';
import { bfd } from './helpers/internals.js';
import { prepare } from './helpers/internals.js';
import { solveReference } from './helpers/internals.js';
import { solveFrontierReference } from './helpers/internals.js';
import type { Plan } from './helpers/internals.js';
import { useSolvers } from './helpers/solvers.js';

const solvers = useSolvers();
const tick = randomTickProblem(3, { sessions: 30 });
const small = randomTickProblem(5, { sessions: 6 });

function expectAlias(plan: Plan): void {
  expect(typeof plan.stats.work).toBe('number');
  expect(plan.stats.cells).toBe(plan.stats.work);
}

describe('deprecated work aliases', () => {
  it('stats.cells equals stats.work on every path', () => {
    const solver = solvers.release();
    const plans = [
      solver.solve({ nodes: tick.nodes, sessions: [] }),
      solver.solve(tick),
      solver.solve(tick, { quantum: 1024, path: 'dense' }),
      solver.solve(tick, { quantum: 1024, path: 'frontier' }),
      solver.solve(tick, { quantum: 1024, path: 'dense', stateBudget: 10 }),
      solver.solve(tick, { quantum: 1024, path: 'frontier', stateBudget: 10 }),
      bfd(tick),
      solveReference(small, { quantum: 1024 }),
      solveFrontierReference(small, { quantum: 1024 }),
    ];
    expect(new Set(plans.map((p) => p.stats.path)).size).toBeGreaterThanOrEqual(5);
    expect(plans.some((p) => p.stats.work > 0)).toBe(true);
    for (const plan of plans) expectAlias(plan);
  });

  it('estimateCells is estimateWork', () => {
    expect(estimateCells).toBe(estimateWork);
    expect(estimateCells(prepare(tick, { quantum: 1024 }))).toBe(estimateWork(prepare(tick, { quantum: 1024 })));
  });
});
