/**
 * `loadSolver({ warmUp: true })` solves a fixed set of tick-shaped problems before it returns: the set
 * reaches every decision path a tick at the paper's sizes takes (so each stage's code has run before the
 * first real tick), its plans are exact (the solver equals brute force on the small ones), and a warmed
 * solver answers like a cold one. A non-boolean is refused, naming the option.
 */
import { describe, expect, it } from 'vitest';
import { InvalidTypeError, loadSolver, warmUpProblems } from './helpers/internals.js';
import { bruteForceOptimum } from './oracles/brute-force.js';

describe('loadSolver({ warmUp })', () => {
  it('the warm-up problems reach the paths of paper-size ticks: best-nodes, multiple-knapsack, dense, and the credit split with each remainder path', async () => {
    const solver = await loadSolver();
    const paths = new Set<string>();
    for (const problem of warmUpProblems()) {
      const plan = solver.solve(problem);
      expect(plan.status).toBe('optimal');
      const remainder = plan.stats.creditLevel?.remainderPath;
      paths.add(remainder === undefined ? plan.stats.path : `${plan.stats.path}>${remainder}`);
    }
    solver.close();
    expect([...paths].sort()).toEqual(
      expect.arrayContaining([
        'best-nodes',
        'credit-split>assignment',
        'credit-split>best-nodes',
        'credit-split>dense',
        'credit-split>multiple-knapsack',
        'credit-split>trivial',
        'dense',
        'multiple-knapsack',
      ]),
    );
  });

  it('is deterministic, and its small problems are solved exactly (brute force)', () => {
    expect(JSON.stringify(warmUpProblems())).toBe(JSON.stringify(warmUpProblems()));
    const small = warmUpProblems().filter((p) => p.sessions.length <= 8 && p.nodes.length <= 3);
    expect(small.length).toBeGreaterThan(0);
    return loadSolver({ warmUp: true }).then((solver) => {
      for (const problem of small) {
        const plan = solver.solve(problem);
        expect(plan.value).toEqual(bruteForceOptimum(problem, plan.quantum));
      }
      solver.close();
    });
  });

  it('a warmed solver returns the plans a cold one does', async () => {
    const [cold, warm] = await Promise.all([loadSolver(), loadSolver({ warmUp: true })]);
    for (const problem of warmUpProblems(12)) {
      const a = cold.solve(problem);
      const b = warm.solve(problem);
      expect([b.status, b.value, b.assignments]).toEqual([a.status, a.value, a.assignments]);
    }
    cold.close();
    warm.close();
  });

  it('refuses a warmUp that is not a boolean, naming it', async () => {
    await expect(loadSolver({ warmUp: 1 as unknown as boolean })).rejects.toThrow(InvalidTypeError);
    await expect(loadSolver({ warmUp: 'yes' as unknown as boolean })).rejects.toThrow(
      /options\.warmUp must be a boolean/,
    );
  });
});
