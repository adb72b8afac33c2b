/**
 * A deadline that passes while the frontier DP runs stops it there: the plan is the labelled fallback, its
 * reason says how many sessions the DP had taken, and the frontier's stats say it was abandoned after
 * generating states. On a held clock (test/helpers/held-clock.ts: it reads 0, then jumps 10^9 ms after 100
 * readings, past the set-up's readings), so where the deadline lands does not depend on the machine's load.
 * 16 nodes x 500 sessions, the frontier path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onHeldClock } from './helpers/held-clock.js';
import { bfd, loadSolver, type Solver } from './helpers/internals.js';
import { largeFrontierTick } from './helpers/large-frontier-tick.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { compareValues } from './oracles/brute-force.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

const large = largeFrontierTick();
const options = { stateBudget: 2 ** 26, path: 'frontier', deadlineMs: 1000 } as const;

describe('a deadline inside the frontier DP', () => {
  it('abandons the frontier after some of its steps and returns the labelled fallback', () => {
    // The set-up reads the clock fewer than 100 times: with a budget that stops the frontier at its set-up,
    // the whole solve reads it 11 times.
    expect(onHeldClock(solver, large, { ...options, stateBudget: 1 }).reads).toBeLessThan(100);
    const { plan } = onHeldClock(solver, large, options, 100);
    const got = /^deadline exceeded: 1000 ms passed after (\d+) of 500 sessions of the DP$/.exec(plan.reason ?? '');
    expect(got).not.toBeNull();
    expect(Number(got![1])).toBeGreaterThan(0);
    expect(plan.stats.frontier?.outcome).toBe('abandoned');
    expect(plan.stats.frontier!.generated).toBeGreaterThan(0);
    expect(plan.status).toBe('fallback');
    expect(['bfd', 'heuristic']).toContain(plan.stats.path);
    expect(compareValues(plan.value, bfd(large, options).value)).toBeGreaterThanOrEqual(0);
    expectFeasible(large, plan);
  });
});
