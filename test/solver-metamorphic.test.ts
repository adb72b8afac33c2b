/**
 * Metamorphic relations of the optimal value: permuting sessions, permuting nodes, adding a session
 * that can go nowhere, or adding a node with zero capacity leaves it unchanged.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSolver, type Solver } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import { quantizedCaseArb } from './helpers/arbitraries.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

const cases = quantizedCaseArb({ maxNodes: 4, maxSessions: 12, maxCapacity: 40, maxWeight: 15 }, [1, 2, 3]);
const withPermutation = cases.chain((c) =>
  fc.record({
    c: fc.constant(c),
    sessionKeys: fc.array(fc.double({ noNaN: true }), {
      minLength: c.problem.sessions.length,
      maxLength: c.problem.sessions.length,
    }),
    nodeKeys: fc.array(fc.double({ noNaN: true }), {
      minLength: c.problem.nodes.length,
      maxLength: c.problem.nodes.length,
    }),
  }),
);

function permute<T>(items: readonly T[], keys: readonly number[]): T[] {
  return items
    .map((item, k) => ({ item, key: keys[k]!, k }))
    .sort((a, b) => a.key - b.key || a.k - b.k)
    .map((x) => x.item);
}

describe('the optimal value is invariant under', () => {
  it('permuting sessions and permuting nodes', () => {
    fc.assert(
      fc.property(withPermutation, ({ c, sessionKeys, nodeKeys }) => {
        const base = solver.solve(c.problem, { quantum: c.quantum });
        const bySessions: Problem = { nodes: c.problem.nodes, sessions: permute(c.problem.sessions, sessionKeys) };
        const byNodes: Problem = { nodes: permute(c.problem.nodes, nodeKeys), sessions: c.problem.sessions };
        expect(solver.solve(bySessions, { quantum: c.quantum }).value).toEqual(base.value);
        expect(solver.solve(byNodes, { quantum: c.quantum }).value).toEqual(base.value);
      }),
      { numRuns: 300, seed: 21 },
    );
  });

  it('adding a session with no eligible node, or one heavier than every node', () => {
    fc.assert(
      fc.property(cases, fc.integer({ min: 0, max: 12 }), ({ problem, quantum }, at) => {
        const base = solver.solve(problem, { quantum });
        const credit = Object.fromEntries(problem.nodes.map((n) => [n.id, 1_000_000]));
        const ineligible = { id: 'extra', weight: 1, tokens: 1_000_000, ready: true, credit, eligible: [] };
        const heaviest = Math.max(0, ...problem.nodes.map((n) => n.capacity));
        const oversize = { id: 'extra', weight: heaviest + 1, tokens: 1_000_000, ready: true, credit };
        for (const extra of [ineligible, oversize]) {
          const sessions = [...problem.sessions];
          sessions.splice(Math.min(at, sessions.length), 0, extra);
          const plan = solver.solve({ nodes: problem.nodes, sessions }, { quantum });
          expect(plan.value).toEqual(base.value);
          expect(plan.assignments.some((a) => a.session === 'extra')).toBe(false);
        }
      }),
      { numRuns: 300, seed: 22 },
    );
  });

  it('adding a zero-capacity node every session may use and has high credit on', () => {
    fc.assert(
      fc.property(cases, fc.integer({ min: 0, max: 4 }), ({ problem, quantum }, at) => {
        const base = solver.solve(problem, { quantum });
        const nodes = [...problem.nodes];
        nodes.splice(Math.min(at, nodes.length), 0, { id: 'full', capacity: 0 });
        const sessions = problem.sessions.map((s) => ({
          ...s,
          credit: { ...s.credit, full: 1_000_000 },
          ...(s.eligible !== undefined ? { eligible: [...s.eligible, 'full'] } : {}),
        }));
        const plan = solver.solve({ nodes, sessions }, { quantum });
        expect(plan.value).toEqual(base.value);
        expect(plan.assignments.some((a) => a.node === 'full')).toBe(false);
      }),
      { numRuns: 300, seed: 23 },
    );
  });
});
