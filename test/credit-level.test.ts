/**
 * The credit level on its own (src/solve/credit-level.ts) under independent oracles: the sum of the node
 * optima never below the optimal plan's credit (brute force); the root reduction only when the credit
 * level is really decided, and the solver's plan then equal to the brute-force and HiGHS optima; the
 * decomposition plan feasible and at the bound when the sets are disjoint; the frontier's fractional term
 * never below the exact value (BigInt), and the solver exact with large keys and near-equal densities; the
 * planner's routing estimate of a tick decided at the root. Shapes: ties, sessions credited on several
 * nodes, eligibility limits, interchangeable nodes, several quanta. Each node's knapsack against
 * enumeration, and its rounding and density order, are in test/solve-credit-knapsack-exact.test.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from './helpers/internals.js';
import { CREDIT_STATE_WORK, creditLevel, creditReduction, decompositionPlan } from './helpers/internals.js';
import { estimateWork } from './helpers/internals.js';
import { bestNodesPlan, planTriple } from './helpers/internals.js';
import { resolveSolveOptions } from './helpers/internals.js';
import { nodesKept, sessionsKept } from './helpers/internals.js';
import { loadSolver, prepare, type Solver } from './helpers/internals.js';
import { fractionalUpper } from './helpers/internals.js';
import type { Problem, ProblemSession } from './helpers/internals.js';
import { problemArb } from './helpers/arbitraries.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { twinFirstNode } from './helpers/twins.js';
import { bruteForceOptimum } from './oracles/brute-force.js';
import { enumerateKnapsack } from './oracles/knapsack.js';
import { highsOptimum, loadHighs } from './oracles/highs.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

/** Paper-shaped small ticks: each session credited on one node (or, with `spread`, on several), distinct-ish credits. */
function tickProblem(
  seed: number,
  opts: { nodes: number; sessions: number; spread: boolean; eligibility: boolean; twins: boolean },
): Problem {
  const rnd = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const nodes = Array.from({ length: opts.nodes }, (_, b) => ({ id: `n${b}`, capacity: int(10, 40) }));
  const sessions = Array.from({ length: opts.sessions }, (_, i): ProblemSession => {
    const weight = int(3, 20);
    const credit: Record<string, number> = {};
    const home = int(0, opts.nodes - 1);
    if (rnd() < 0.85) credit[`n${home}`] = int(1, weight * 3);
    if (opts.spread) for (const n of nodes) if (rnd() < 0.3) credit[n.id] = int(0, weight * 3);
    const s: ProblemSession = { id: `s${i}`, weight, tokens: int(0, 30), ready: rnd() < 0.5, credit };
    if (opts.eligibility && rnd() < 0.3) return { ...s, eligible: nodes.filter(() => rnd() < 0.7).map((n) => n.id) };
    return s;
  });
  return twinFirstNode({ nodes, sessions }, opts.twins);
}

describe('the credit level of a problem', () => {
  it('bounds the optimal credit from above; decided only when the credit level is really decided (brute force)', () => {
    const seen = { decided: 0, undecided: 0, tight: 0 };
    fc.assert(
      fc.property(
        problemArb({ maxNodes: 3, maxSessions: 7, maxCapacity: 30, maxWeight: 12 }),
        fc.constantFrom(1, 2, 3),
        (problem, quantum) => {
          const { packed } = prepare(problem, { quantum });
          if (sessionsKept(packed) === 0) return;
          const level = creditLevel(packed)!;
          const opt = bruteForceOptimum(problem, quantum);
          expect(level.bound).toBeGreaterThanOrEqual(opt.credit);
          if (level.bound === opt.credit) seen.tight++;
          // Every node's set is an optimal one within the node.
          const m = nodesKept(packed);
          for (let b = 0; b < m; b++) {
            const items = level.sets[b]!;
            expect(items.reduce((a, j) => a + packed.qweight[j]!, 0)).toBeLessThanOrEqual(packed.qcapacity[b]!);
            expect(items.reduce((a, j) => a + packed.credit[j * m + b]!, 0)).toBe(level.nodeBound[b]);
          }
          if (level.decided) {
            seen.decided++;
            expect(opt.credit).toBe(level.bound);
            // Uniqueness, by enumeration of each node's credited sessions.
            for (let b = 0; b < m; b++) {
              const items: number[] = [];
              for (let j = 0; j < sessionsKept(packed); j++)
                if (packed.candidate[j * m + b] === 1 && packed.credit[j * m + b]! > 0) items.push(j);
              const e = enumerateKnapsack(
                items.map((j) => packed.qweight[j]!),
                items.map((j) => packed.credit[j * m + b]!),
                packed.qcapacity[b]!,
              );
              expect(e.value).toBe(level.nodeBound[b]);
              if (e.value > 0) expect(e.count).toBe(1);
            }
          } else seen.undecided++;
          // The decomposition plan is feasible at the quantum, and at the bound when the sets are disjoint.
          const d = decompositionPlan(packed, level);
          const used = new Float64Array(m);
          for (let j = 0; j < d.length; j++) if (d[j]! >= 0) used[d[j]!] = used[d[j]!]! + packed.qweight[j]!;
          for (let b = 0; b < m; b++) expect(used[b]).toBeLessThanOrEqual(packed.qcapacity[b]!);
          if (level.decided) expect(planTriple(packed, d)[0]).toBe(level.bound);
        },
      ),
      { numRuns: 800, seed: 5 },
    );
    expect(seen.decided).toBeGreaterThan(50);
    expect(seen.undecided).toBeGreaterThan(50);
    expect(seen.tight).toBeGreaterThan(seen.decided);
  });

  it('a tie between two optimal sets on a node is not decided', () => {
    const problem: Problem = {
      nodes: [{ id: 'a', capacity: 10 }],
      sessions: [
        { id: 'x', weight: 10, tokens: 1, ready: false, credit: { a: 5 } },
        { id: 'y', weight: 10, tokens: 2, ready: true, credit: { a: 5 } },
      ],
    };
    const { packed } = prepare(problem, { quantum: 1 });
    const level = creditLevel(packed)!;
    expect(level.bound).toBe(5);
    expect(level.decided).toBe(false);
    // The DP breaks the tie by readiness.
    const plan = solver.solve(problem, { quantum: 1 });
    expect(plan.assignments).toEqual([{ session: 'y', node: 'a' }]);
  });

  it('a session optimal on two nodes is not decided; the solver still finds the optimum', () => {
    const problem: Problem = {
      nodes: [
        { id: 'a', capacity: 10 },
        { id: 'b', capacity: 10 },
      ],
      sessions: [
        { id: 'x', weight: 10, tokens: 0, ready: false, credit: { a: 9, b: 9 } },
        { id: 'y', weight: 10, tokens: 0, ready: false, credit: { a: 8 } },
      ],
    };
    const { packed } = prepare(problem, { quantum: 1 });
    const level = creditLevel(packed)!;
    expect(level.bound).toBe(18);
    expect(level.decided).toBe(false);
    expect(solver.solve(problem, { quantum: 1 }).value.credit).toBe(17);
  });

  it('the remainder holds only the free sessions, on nodes where their credit is 0, within the residual capacities', () => {
    const problem = tickProblem(3, { nodes: 3, sessions: 14, spread: false, eligibility: false, twins: false });
    const options = resolveSolveOptions({ quantum: 1 });
    const { packed } = prepare(problem, options);
    const level = creditLevel(packed)!;
    expect(level.decided).toBe(true);
    const r = creditReduction(packed, level.sets, options);
    const m = nodesKept(packed);
    const rm = r.remainder;
    const used = new Float64Array(m);
    for (let j = 0; j < r.fixed.length; j++)
      if (r.fixed[j]! >= 0) used[r.fixed[j]!] = used[r.fixed[j]!]! + packed.qweight[j]!;
    for (let jj = 0; jj < rm.sessionIndex.length; jj++) {
      const j = rm.sessionIndex[jj]!;
      expect(r.fixed[j]).toBe(-1);
      for (let bb = 0; bb < rm.nodeIndex.length; bb++) {
        if (rm.candidate[jj * rm.nodeIndex.length + bb] !== 1) continue;
        const b = rm.nodeIndex[bb]!;
        expect(packed.credit[j * m + b]).toBe(0);
        expect(rm.qcapacity[bb]).toBe(packed.qcapacity[b]! - used[b]!);
      }
    }
  });
});

describe('the solver with the credit level (auto) against the oracles', () => {
  it('paper-shaped small ticks: equal to brute force on every path taken (credit-split, the credit-bounded frontier)', () => {
    const paths = new Map<string, number>();
    let n = 0;
    for (const spread of [false, true]) {
      for (const eligibility of [false, true]) {
        for (const twins of [false, true]) {
          for (let seed = 0; seed < 40; seed++) {
            const problem = tickProblem(seed * 13 + 1, {
              nodes: twins ? 2 : 3,
              sessions: 9,
              spread,
              eligibility,
              twins,
            });
            for (const quantum of [1, 3]) {
              const plan = solver.solve(problem, { quantum });
              expectFeasible(problem, plan);
              expect(plan.status).toBe('optimal');
              expect(plan.value).toEqual(bruteForceOptimum(problem, quantum));
              paths.set(plan.stats.path, (paths.get(plan.stats.path) ?? 0) + 1);
              n++;
            }
          }
        }
      }
    }
    expect(paths.get('credit-split') ?? 0).toBeGreaterThan(n / 10);
    expect(paths.get('frontier') ?? 0).toBeGreaterThan(0);
  });

  it('medium ticks (20-60 sessions, 2-4 nodes, room for a few per node): equal to HiGHS', async () => {
    const highs = await loadHighs();
    const paths = new Map<string, number>();
    for (let seed = 0; seed < 24; seed++) {
      const rnd = seededRandom(seed + 500);
      const nodes = 2 + (seed % 3);
      const problem = tickProblem(seed + 1000, {
        nodes,
        sessions: 20 + Math.floor(rnd() * 40),
        spread: seed % 2 === 1,
        eligibility: seed % 4 === 3,
        twins: false,
      });
      const plan = solver.solve(problem, { quantum: 1 });
      expectFeasible(problem, plan);
      if (plan.status !== 'optimal') continue;
      expect(plan.value).toEqual(highsOptimum(highs, problem, 1));
      paths.set(plan.stats.path, (paths.get(plan.stats.path) ?? 0) + 1);
    }
    expect(paths.get('credit-split') ?? 0).toBeGreaterThan(3);
  });
});

describe('rounding of the LP terms (exact BigInt checks)', () => {
  it("the frontier's fractional term is never below the exact floor, with keys near 2^62 and near-equal densities", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 2n ** 61n, max: 2n ** 62n }),
        fc.integer({ min: 2, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (p, w, r) => {
          const rem = r % w;
          const exactFloor = (p * BigInt(rem)) / BigInt(w);
          expect(fractionalUpper(p, rem, w)).toBeGreaterThanOrEqual(exactFloor);
        },
      ),
      { numRuns: 5000, seed: 9 },
    );
  });

  it('large keys and near-equal densities: the solver equals brute force on the credit-bounded frontier', () => {
    const rnd = seededRandom(77);
    for (let k = 0; k < 60; k++) {
      const nodes = [
        { id: 'a', capacity: 30 + Math.floor(rnd() * 20) },
        { id: 'b', capacity: 30 + Math.floor(rnd() * 20) },
      ];
      const sessions = Array.from({ length: 8 }, (_, i): ProblemSession => {
        const weight = 5 + Math.floor(rnd() * 15);
        // Credit nearly proportional to weight, tokens near 2^31: keys close to each other in density.
        const credit = weight * 1_000_003 + Math.floor(rnd() * 3);
        const home = rnd() < 0.5 ? 'a' : 'b';
        return {
          id: `s${i}`,
          weight,
          tokens: 2 ** 31 - Math.floor(rnd() * 1000),
          ready: rnd() < 0.5,
          credit: { [home]: credit, ...(rnd() < 0.4 ? { [home === 'a' ? 'b' : 'a']: credit - 1 } : {}) },
        };
      });
      const problem = { nodes, sessions };
      for (const path of ['auto', 'frontier'] as const) {
        const plan = solver.solve(problem, { quantum: 1, path });
        expect(plan.status).toBe('optimal');
        expect(plan.value).toEqual(bruteForceOptimum(problem, 1));
      }
    }
  });
});

describe('routing estimate', () => {
  it('a tick whose credit level is decided at the root is estimated at its knapsack states plus its remainder, far below its dense cells', () => {
    let seen = 0;
    for (let seed = 0; seed < 40; seed++) {
      const problem = tickProblem(seed + 3000, {
        nodes: 3,
        sessions: 40,
        spread: false,
        eligibility: false,
        twins: false,
      });
      const prepared = prepare(problem, { quantum: 1 });
      const level = creditLevel(prepared.packed);
      if (level === null || !level.decided || level.bound === 0) continue;
      if (bestNodesPlan(prepared.packed) !== null) continue;
      const remainder = creditReduction(prepared.packed, level.sets, prepared.options).remainder;
      const pairs = sessionsKept(prepared.packed) * nodesKept(prepared.packed);
      const estimate = estimateWork(prepared);
      expect(estimate).toBe(
        pairs + level.states * CREDIT_STATE_WORK + estimateWork({ ...prepared, packed: remainder }),
      );
      expect(estimate).toBeLessThan(prepared.packed.cells);
      seen++;
    }
    expect(seen).toBeGreaterThan(10);
  });
});
