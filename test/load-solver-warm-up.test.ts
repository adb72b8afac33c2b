/**
 * `loadSolver({ warmUp: true })` solves a fixed set of tick-shaped problems before it returns: the set
 * reaches every decision path a tick at the paper's sizes takes (so each stage's code has run before the
 * first real tick), its plans are exact (the solver equals brute force on the small ones), and a warmed
 * solver answers like a cold one. A non-boolean is refused, naming the option.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidTypeError, loadSolver, WARM_UP_ROUNDS, warmUpProblems } from './helpers/internals.js';
import { bruteForceOptimum } from './oracles/brute-force.js';

describe('loadSolver({ warmUp })', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it(`solves each warm-up problem ${WARM_UP_ROUNDS} times with warmUp: true, and nothing without it`, async () => {
    const probe = await loadSolver();
    const solve = vi.spyOn(Object.getPrototypeOf(probe) as { solve: () => unknown }, 'solve');
    const cold = await loadSolver();
    expect(solve).toHaveBeenCalledTimes(0);
    const quiet = await loadSolver({ warmUp: false });
    expect(solve).toHaveBeenCalledTimes(0);
    const warm = await loadSolver({ warmUp: true });
    expect(solve).toHaveBeenCalledTimes(WARM_UP_ROUNDS * warmUpProblems().length);
    for (const s of [probe, cold, quiet, warm]) s.close();
  });

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

  it('the warm-up problems have the shapes the generator documents, in the order of k', () => {
    expect(warmUpProblems(5)).toHaveLength(5);
    const problems = warmUpProblems();
    expect(problems).toHaveLength(64);
    let sessions = 0;
    let ready = 0;
    let creditedInShapes01 = 0;
    let inShapes01 = 0;
    let decayedBelowHalf = 0;
    for (const [k, { nodes, sessions: pool }] of problems.entries()) {
      const shape = k % 4;
      const m = 1 + ((k >> 2) % 4);
      expect(nodes.map((node) => node.id)).toEqual(Array.from({ length: m }, (_, b) => `n${b}`));
      const [lo, hi] = shape === 3 ? [4, 12] : [20, 100];
      expect(pool.length).toBeGreaterThanOrEqual(lo);
      expect(pool.length).toBeLessThanOrEqual(hi);
      const weightSum = pool.reduce((sum, s) => sum + s.weight, 0);
      const mean = weightSum / pool.length;
      for (const s of pool) {
        sessions++;
        if (s.ready) ready++;
        // Contexts log-uniform in [2k, 90k], weight = tokens + 512.
        expect(s.tokens).toBeGreaterThanOrEqual(2000);
        expect(s.tokens).toBeLessThanOrEqual(90_000);
        expect(s.weight).toBe(s.tokens + 512);
        if (shape === 2) expect(s.credit).toBeUndefined();
        if (shape < 2) inShapes01++;
        if (s.credit === undefined) continue;
        if (shape < 2) creditedInShapes01++;
        const on = Object.keys(s.credit);
        expect(on.length).toBeGreaterThanOrEqual(1);
        expect(on.length).toBeLessThanOrEqual(Math.min(3, m));
        // A prefix credit decayed by 2^-x, x in [0, 3): from an eighth of the context to all of it.
        for (const c of Object.values(s.credit)) {
          expect(c).toBeGreaterThanOrEqual(Math.round(s.tokens / 8));
          expect(c).toBeLessThanOrEqual(s.tokens);
          if (c < s.tokens / 2) decayedBelowHalf++;
        }
      }
      const lightest = pool.map((s) => s.weight).sort((a, b) => a - b);
      const two = lightest[0]! + (lightest[1] ?? 0);
      for (const [b, { capacity }] of nodes.entries()) {
        if (shape === 0 && b > 0) {
          // The tight shape: nodes after the first hold one session at most.
          expect(capacity).toBeLessThan(two);
          expect(capacity).toBeGreaterThanOrEqual(Math.floor(0.6 * two));
        } else if (shape === 3) {
          // Room for nearly all of a few sessions.
          expect(capacity).toBeGreaterThanOrEqual(Math.floor((weightSum / m) * 0.8));
          expect(capacity).toBeLessThanOrEqual(Math.ceil((weightSum / m) * 1.1));
        } else if (shape === 2) {
          // The pool's weight over 1.02-1.3, split unevenly (a factor 0.5-1.5 per node).
          expect(capacity).toBeGreaterThanOrEqual(Math.floor((weightSum / m / 1.3) * 0.5));
          expect(capacity).toBeLessThanOrEqual(Math.ceil((weightSum / m / 1.02) * 1.5));
        } else {
          // Room for 1-4 sessions of the mean weight.
          expect(capacity).toBeGreaterThanOrEqual(Math.floor(mean));
          expect(capacity).toBeLessThanOrEqual(Math.ceil(4 * mean));
        }
      }
    }
    // About 40% ready, 70% credited where credit is drawn, and decays spread over the range.
    expect(ready / sessions).toBeGreaterThan(0.35);
    expect(ready / sessions).toBeLessThan(0.45);
    expect(creditedInShapes01 / inShapes01).toBeGreaterThan(0.65);
    expect(creditedInShapes01 / inShapes01).toBeLessThan(0.75);
    expect(decayedBelowHalf).toBeGreaterThan(0);
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
