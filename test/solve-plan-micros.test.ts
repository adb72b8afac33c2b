/**
 * A plan's `stats.micros`: the solve's wall time in microseconds, rounded to 0.1 us. Not a timing
 * assertion: the reported time must lie within the time measured around the call (plus the rounding), be
 * above zero, and be a whole number of tenths, whatever the machine's speed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bfd, loadSolver, type Problem, randomTickProblem, type Solver } from './helpers/internals.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

function expectMicrosWithin(solve: () => { stats: { micros: number } }): void {
  const t0 = performance.now();
  const { micros } = solve().stats;
  const around = (performance.now() - t0) * 1000;
  expect(micros).toBeGreaterThan(0);
  expect(micros).toBeLessThanOrEqual(around + 0.05);
  expect(Math.abs(micros * 10 - Math.round(micros * 10))).toBeLessThan(1e-6);
}

describe('stats.micros', () => {
  const problems: Problem[] = [
    randomTickProblem(5, { nodes: 3, sessions: 40 }),
    randomTickProblem(6, { nodes: 1, sessions: 8 }),
    { nodes: [{ id: 'a', capacity: 10 }], sessions: [] },
  ];

  it('of a solve lies within the time measured around it, in tenths of a microsecond', () => {
    for (const problem of problems) expectMicrosWithin(() => solver.solve(problem));
  });

  it('of a standalone bfd() lies within the time measured around it, in tenths of a microsecond', () => {
    for (const problem of problems) expectMicrosWithin(() => bfd(problem));
  });
});
