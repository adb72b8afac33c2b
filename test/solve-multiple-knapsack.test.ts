/**
 * The multiple-knapsack path (src/solve/mkp/) under independent oracles: the node-independence test
 * against the packed keys; the surrogate knapsack DP against enumeration (thresholds, equal
 * efficiencies, values near 2^53, values a weight less a reserve where the swap bound drops states); the exact ratio roundings against BigInt; the bitset subset sum against
 * enumeration across word boundaries; the search against brute force on small problems with eligibility
 * limits, interchangeable nodes, identical sessions, several quanta and ready-first values, hitting the
 * split, the tightening and the branching; regrouping (after the aimed searches) against brute force and,
 * on weakly correlated 100 x 10 instances, against the surrogate bound; the root fill against the total capacity on subset-sum
 * instances; the fallback at the state budget, the deadline and the stop flag
 * (labelled, never worse than BFD, the work within the budget), also for a credit-split remainder.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, SolverTrapError } from './helpers/internals.js';
import { mkpProblem } from './helpers/internals.js';
import { nearFittingProblem } from './helpers/internals.js';
import { bfd, bfdPacked } from './helpers/internals.js';
import {
  ceilRatio,
  floorRatio,
  knapsack,
  KnapsackScratch,
  movesBeyondReach,
  REFILL_WINDOW,
  type KnapsackAnswer,
} from './helpers/internals.js';
import { METER_CHECK_WORK, MkpHalt, WorkMeter } from './helpers/internals.js';
import {
  SPLIT_BITSET_ROOM,
  TIGHTEN_MAX_CAPACITY,
  noCounters,
  regroupPlan,
  searchMultipleKnapsack,
  type MkpOutcome,
} from './helpers/internals.js';
import {
  maxSubsetSum,
  SUBSET_SUM_KEEP_ENTRIES,
  SUBSET_SUM_MAX_CAPACITY,
  SUBSET_SUM_WINDOW,
  SubsetSumScratch,
  type SubsetSumKernel,
  SubsetSumStatus,
  WINDOW_GROWTH,
} from './helpers/internals.js';
import { nodeIndependentValues } from './helpers/internals.js';
import { keyScales, nodesKept, sessionsKept, unpackNodes, type PackedProblem } from './helpers/internals.js';
import { fallbackPlan, loadSolver, prepare, type Solver } from './helpers/internals.js';
import type { Plan, PlanValue, Problem, ProblemSession, SolveOptions } from './helpers/internals.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { bruteForceOptimum, compareValues } from './oracles/brute-force.js';
import { budgetPastLevel } from './helpers/budget.js';
import { WORK_CEILING } from './helpers/internals.js';
import { enumerateKnapsack } from './oracles/knapsack.js';

/** The items of a knapsack answer's set (its first `count` entries). */
function chosenOf(answer: KnapsackAnswer): number[] {
  return Array.from(answer.chosen.subarray(0, answer.count));
}

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

/** A meter that never stops. */
const unbounded = (): WorkMeter =>
  new WorkMeter(
    Number.POSITIVE_INFINITY,
    () => undefined,
    () => 'budget',
  );

/** Items in efficiency order (exact, by cross products; ties by index), as the search passes them. */
function efficiencyOrder(w: number[], p: number[]): Int32Array {
  const ids = w.map((_, i) => i);
  ids.sort((a, b) => {
    const d = BigInt(p[b]!) * BigInt(w[a]!) - BigInt(p[a]!) * BigInt(w[b]!);
    return d > 0n ? 1 : d < 0n ? -1 : a - b;
  });
  return Int32Array.from(ids);
}

/** The packed key of a plan value (the number the search maximises). */
function keyOf(packed: PackedProblem, v: PlanValue): bigint {
  const s = keyScales(packed.ready, packed.tokens);
  return BigInt(v.credit) * s.ready + BigInt(v.ready) * s.tokens + BigInt(v.tokens);
}

/** The search's plan is feasible (candidate nodes, capacities) and worth the value it reports. */
function expectPlanWorthValue(packed: PackedProblem, values: Float64Array, out: MkpOutcome): void {
  const m = nodesKept(packed);
  const used = new Float64Array(m);
  let v = 0;
  out.node.forEach((b, j) => {
    if (b < 0) return;
    expect(packed.candidate[j * m + b]).toBe(1);
    used[b] = used[b]! + packed.qweight[j]!;
    v += values[j]!;
  });
  used.forEach((u, b) => expect(u).toBeLessThanOrEqual(packed.qcapacity[b]!));
  expect(v).toBe(out.value);
}

/** Small problems whose values do not depend on the node: credit equal on every node or none. */
function independentProblem(
  seed: number,
  opts: {
    nodes: number;
    sessions: number;
    eligibility: boolean;
    equalCapacities: boolean;
    twins: boolean;
    credited: boolean;
  },
): Problem {
  const rnd = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const cap = int(8, 40);
  const nodes = Array.from({ length: opts.nodes }, (_, b) => ({
    id: `n${b}`,
    capacity: opts.equalCapacities ? cap : int(0, 40),
  }));
  const sessions: ProblemSession[] = [];
  for (let i = 0; i < opts.sessions; i++) {
    if (opts.twins && i > 0 && rnd() < 0.35) {
      sessions.push({ ...sessions[i - 1]!, id: `s${i}` });
      continue;
    }
    const weight = int(1, 16);
    const s: ProblemSession = { id: `s${i}`, weight, tokens: rnd() < 0.5 ? weight : int(0, 20), ready: rnd() < 0.5 };
    if (opts.credited) {
      const k = int(0, 6);
      s.credit = Object.fromEntries(nodes.map((n) => [n.id, k]));
    }
    if (opts.eligibility && rnd() < 0.4) s.eligible = nodes.filter(() => rnd() < 0.6).map((n) => n.id);
    sessions.push(s);
  }
  return { nodes, sessions };
}

/**
 * The surrogate bound of a problem whose credit is the same on every node: the best credit of a set of
 * sessions weighing at most the total capacity, by a plain DP over weights (quantum 1).
 */
function surrogateBound(problem: Problem): number {
  const total = problem.nodes.reduce((a, n) => a + n.capacity, 0);
  const best = new Float64Array(total + 1);
  for (const s of problem.sessions) {
    const p = s.credit![problem.nodes[0]!.id]!;
    for (let c = total; c >= s.weight; c--) best[c] = Math.max(best[c]!, best[c - s.weight]! + p);
  }
  return best[total]!;
}

/** Small shapes for the searches' later stages: eligibility limits, interchangeable nodes, twins, credit. */
const laterStageShapes = [
  { nodes: 3, sessions: 8, eligibility: false, equalCapacities: false, twins: false, credited: false },
  { nodes: 3, sessions: 8, eligibility: true, equalCapacities: false, twins: true, credited: true },
  { nodes: 4, sessions: 7, eligibility: false, equalCapacities: true, twins: true, credited: false },
  { nodes: 2, sessions: 9, eligibility: true, equalCapacities: true, twins: false, credited: true },
  { nodes: 4, sessions: 8, eligibility: true, equalCapacities: false, twins: true, credited: false },
];

describe('node-independent values', () => {
  it('are the packed keys when every session has one key on all its candidate nodes, else null', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.boolean(), (seed, differ) => {
        const problem = independentProblem(seed, {
          nodes: 3,
          sessions: 6,
          eligibility: true,
          equalCapacities: false,
          twins: false,
          credited: true,
        });
        if (differ) {
          // One session worth more on one node than on the others.
          const s = problem.sessions[0]!;
          s.credit = { ...s.credit, n1: (s.credit?.n1 ?? 0) + 1 };
          delete s.eligible;
        }
        const { packed } = prepare(problem, { quantum: 1 });
        const values = nodeIndependentValues(packed);
        const m = nodesKept(packed);
        let independent = true;
        for (let j = 0; j < sessionsKept(packed); j++) {
          const keys = new Set<bigint>();
          for (let b = 0; b < m; b++) if (packed.candidate[j * m + b] === 1) keys.add(packed.key[j * m + b]!);
          if (keys.size > 1) independent = false;
        }
        expect(values !== null).toBe(independent);
        if (values !== null) {
          for (let j = 0; j < sessionsKept(packed); j++) {
            for (let b = 0; b < m; b++)
              if (packed.candidate[j * m + b] === 1) expect(BigInt(values[j]!)).toBe(packed.key[j * m + b]);
          }
        }
      }),
      { numRuns: 300, seed: 3 },
    );
  });

  it('is null when the values sum to 2^53 or more (f64 sums would not be exact)', () => {
    // Credit 2^31 with about 2^22 tokens in all: each key is near 2^53.
    const sessions = [0, 1].map((i) => ({
      id: `s${i}`,
      weight: 10,
      tokens: 2 ** 21,
      ready: false,
      credit: { a: 2 ** 31, b: 2 ** 31 },
    }));
    const { packed } = prepare(
      {
        nodes: [
          { id: 'a', capacity: 10 },
          { id: 'b', capacity: 10 },
        ],
        sessions,
      },
      { quantum: 1 },
    );
    expect(packed.keyFits).toBe(true);
    expect(nodeIndependentValues(packed)).toBeNull();
    const plan = solver.solve(
      {
        nodes: [
          { id: 'a', capacity: 10 },
          { id: 'b', capacity: 10 },
        ],
        sessions,
      },
      { quantum: 1 },
    );
    expect(plan.stats.path).not.toBe('multiple-knapsack');
    expect(plan.value.credit).toBe(2 ** 32);
  });

  /**
   * A packed problem with the given keys only (what the test reads: the key fit, the kept sessions and
   * nodes, the candidates and the keys), -1n where a pair is not a candidate.
   */
  function keysOnly(keys: readonly (readonly bigint[])[], keyFits = true): PackedProblem {
    const n = keys.length;
    const m = keys[0]!.length;
    const flat = keys.flat();
    return {
      keyFits,
      sessionIndex: Int32Array.from({ length: n }, (_, j) => j),
      nodeIndex: Int32Array.from({ length: m }, (_, b) => b),
      candidate: Uint8Array.from(flat, (k) => (k >= 0n ? 1 : 0)),
      key: keyFits ? BigInt64Array.from(flat) : new BigInt64Array(0),
    } as unknown as PackedProblem;
  }

  it('reads keys past 2^32 whole (both words), and a sum of exactly 2^53 is refused where 2^53 - 1 is not', () => {
    const big = 2n ** 52n;
    const values = nodeIndependentValues(
      keysOnly([
        [big - 1n, -1n],
        [2n ** 32n + 5n, 2n ** 32n + 5n],
        [-1n, big - 2n ** 32n - 5n - 1n],
      ]),
    );
    expect(values).not.toBeNull();
    expect(Array.from(values!)).toEqual([2 ** 52 - 1, 2 ** 32 + 5, 2 ** 52 - 2 ** 32 - 6]);
    // The three keys above sum to 2^53 - 2; one more unit, then two.
    const sumTo = (extra: bigint) =>
      nodeIndependentValues(
        keysOnly([
          [big - 1n, -1n],
          [2n ** 32n + 5n, 2n ** 32n + 5n],
          [-1n, big - 2n ** 32n - 5n - 1n + extra],
        ]),
      );
    expect(sumTo(1n)).not.toBeNull();
    expect(sumTo(2n)).toBeNull();
    // One key of 2^53 alone.
    expect(nodeIndependentValues(keysOnly([[2n ** 53n, 2n ** 53n]]))).toBeNull();
  });

  it('a key of 0 on one node and another key on a second is node-dependent; keys that do not fit give null', () => {
    expect(nodeIndependentValues(keysOnly([[0n, 7n]]))).toBeNull();
    expect(nodeIndependentValues(keysOnly([[7n, 0n]]))).toBeNull();
    expect(Array.from(nodeIndependentValues(keysOnly([[0n, 0n]]))!)).toEqual([0]);
    expect(nodeIndependentValues(keysOnly([[3n, -1n]], false))).toBeNull();
    // Through the packer: credit and tokens at their largest on two sessions do not fit a 63-bit key.
    const huge = (id: string) => ({ id, weight: 1, tokens: 2 ** 32 - 1, ready: false, credit: { a: 2 ** 32 - 1 } });
    const { packed } = prepare(
      { nodes: [{ id: 'a', capacity: 4 }], sessions: [huge('s0'), huge('s1')] },
      { quantum: 1 },
    );
    expect(packed.keyFits).toBe(false);
    expect(nodeIndependentValues(packed)).toBeNull();
  });
});

describe('surrogate knapsack (core DP)', () => {
  const counters = () => ({ knapsacks: 0, states: 0, ceilingStops: 0 });

  it('equals enumeration, and answers null exactly when the optimum does not beat the threshold', () => {
    const scratch = new KnapsackScratch();
    fc.assert(
      fc.property(
        fc.array(fc.record({ w: fc.integer({ min: 1, max: 30 }), p: fc.integer({ min: 1, max: 40 }) }), {
          minLength: 0,
          maxLength: 12,
        }),
        fc.integer({ min: 0, max: 120 }),
        fc.constantFrom('free', 'p=w', 'p=w+5'),
        fc.integer({ min: -1, max: 150 }),
        (raw, cap, profile, threshold) => {
          const w = raw.map((x) => x.w);
          const p = raw.map((x) => (profile === 'p=w' ? x.w : profile === 'p=w+5' ? x.w + 5 : x.p));
          const best = enumerateKnapsack(w, p, cap).value;
          const order = efficiencyOrder(w, p);
          const answer = knapsack(order, order.length, p, w, cap, threshold, unbounded(), scratch, counters());
          if (best <= threshold) {
            expect(answer).toBeNull();
            return;
          }
          expect(answer).not.toBeNull();
          expect(answer!.value).toBe(best);
          // The set is real: distinct items, within cap, worth the value.
          expect(new Set(chosenOf(answer!)).size).toBe(answer!.count);
          expect(chosenOf(answer!).reduce((a, i) => a + w[i]!, 0)).toBeLessThanOrEqual(cap);
          expect(chosenOf(answer!).reduce((a, i) => a + p[i]!, 0)).toBe(best);
        },
      ),
      { numRuns: 1500, seed: 11 },
    );
  });

  it('stays exact where the swap bound drops states: values a weight less a reserve (rounded per quantum), ready first, ties', () => {
    const scratch = new KnapsackScratch();
    const before = scratch.swapCuts;
    fc.assert(
      fc.property(
        fc.array(fc.record({ tokens: fc.integer({ min: 1, max: 400 }), ready: fc.boolean(), twin: fc.boolean() }), {
          minLength: 1,
          maxLength: 16,
        }),
        fc.constantFrom(1, 4, 16),
        fc.integer({ min: 0, max: 40 }),
        fc.double({ min: 0.3, max: 1.1, noNaN: true }),
        fc.integer({ min: -1, max: 3 }),
        (raw, quantum, reserve, rho, thresholdMode) => {
          // A session of `tokens` weighs tokens + reserve, in quanta rounded up; its value is its tokens,
          // plus a ready bonus above every token sum (the ready level first). Twins repeat the previous item.
          const rows = raw.map((x, i) => (x.twin && i > 0 ? raw[i - 1]! : x));
          const readyBonus = rows.reduce((a, x) => a + x.tokens, 0) + 1;
          const w = rows.map((x) => Math.ceil((x.tokens + reserve) / quantum));
          const p = rows.map((x) => x.tokens + (x.ready ? readyBonus : 0));
          const cap = Math.floor(w.reduce((a, x) => a + x, 0) * rho);
          const best = enumerateKnapsack(w, p, cap).value;
          // Thresholds: none, just below the optimum, at it, and a little below.
          const threshold =
            thresholdMode < 0
              ? -1
              : thresholdMode === 0
                ? best - 1
                : thresholdMode === 1
                  ? best
                  : best - 1 - thresholdMode * 7;
          const order = efficiencyOrder(w, p);
          const answer = knapsack(order, order.length, p, w, cap, threshold, unbounded(), scratch, counters());
          if (best <= threshold) {
            expect(answer).toBeNull();
            return;
          }
          expect(answer!.value).toBe(best);
          expect(chosenOf(answer!).reduce((a, i) => a + w[i]!, 0)).toBeLessThanOrEqual(cap);
          expect(chosenOf(answer!).reduce((a, i) => a + p[i]!, 0)).toBe(best);
        },
      ),
      { numRuns: 1500, seed: 13 },
    );
    // The bound was exercised (it drops states the Dantzig bound keeps).
    expect(scratch.swapCuts - before).toBeGreaterThan(100);
  });

  it('a layer is skipped only when no moved state passes its Dantzig bound, and whenever none does (small numbers)', () => {
    let skipped = 0;
    let merged = 0;
    fc.assert(
      fc.property(
        fc.array(fc.record({ dw: fc.integer({ min: 0, max: 40 }), dv: fc.integer({ min: 1, max: 60 }) }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: -60, max: 60 }),
        fc.integer({ min: -100, max: 100 }),
        fc.record({
          pAdd: fc.integer({ min: 0, max: 30 }),
          wAdd: fc.integer({ min: 1, max: 30 }),
          more: fc.integer({ min: 0, max: 30 }),
          canRemove: fc.boolean(),
        }),
        (steps, w0, cap, dw, zOffset, e) => {
          // A list with weights ascending and values strictly ascending (as the DP keeps it).
          const sw: number[] = [];
          const sv: number[] = [];
          let ww = w0;
          let vv = 0;
          for (const st of steps) {
            ww += st.dw;
            vv += st.dv;
            if (sw.length > 0 && ww === sw[sw.length - 1]) continue;
            sw.push(ww);
            sv.push(vv);
          }
          // The removable item is at least as efficient as the addable one: pRemove / wRemove >= pAdd / wAdd.
          const wRemove = e.wAdd;
          const pRemove = e.pAdd + e.more;
          const dv = dw * 3 - 5;
          const z = Math.max(0, vv + zOffset);
          // Kept by the Dantzig bound (exact rationals): within the capacity v + r pAdd / wAdd > z, over it
          // (with an item to remove) v - o pRemove / wRemove > z.
          const kept = sw.some((w, x) => {
            const v = sv[x]! + dv;
            const r = cap - (w + dw);
            if (r >= 0) return v * e.wAdd + r * e.pAdd > z * e.wAdd;
            return e.canRemove && v * wRemove + r * pRemove > z * wRemove;
          });
          const skip = movesBeyondReach(
            sw,
            sv,
            sw.length,
            cap,
            z,
            dw,
            dv,
            e.pAdd,
            e.wAdd,
            e.canRemove,
            pRemove,
            wRemove,
          );
          expect(skip).toBe(!kept);
          if (skip) skipped++;
          else merged++;
        },
      ),
      { numRuns: 3000, seed: 17 },
    );
    expect(skipped).toBeGreaterThan(300);
    expect(merged).toBeGreaterThan(300);
  });

  it("a layer is never skipped where the test's products could reach 2^53", () => {
    // Every moved state is far below z, but z times the item weight is past 2^53.
    expect(movesBeyondReach([1, 2], [1, 2], 2, 10, 2 ** 50, 1, 1, 1, 16, true, 2, 16)).toBe(false);
    expect(movesBeyondReach([1, 2], [1, 2], 2, 10, 2 ** 40, 1, 1, 1, 16, true, 2, 16)).toBe(true);
  });

  it('the first incumbent refills the break solution less one of its last items: the DP still finds the optimum where that beats the plain greedy completion', () => {
    const scratch = new KnapsackScratch();
    let better = 0;
    fc.assert(
      fc.property(
        fc.array(fc.record({ tokens: fc.integer({ min: 1, max: 400 }), ready: fc.boolean() }), {
          minLength: 2,
          maxLength: 16,
        }),
        fc.constantFrom(1, 4, 16),
        fc.integer({ min: 0, max: 40 }),
        fc.double({ min: 0.3, max: 1.1, noNaN: true }),
        (rows, quantum, reserve, rho) => {
          const readyBonus = rows.reduce((a, x) => a + x.tokens, 0) + 1;
          const w = rows.map((x) => Math.ceil((x.tokens + reserve) / quantum));
          const p = rows.map((x) => x.tokens + (x.ready ? readyBonus : 0));
          const cap = Math.floor(w.reduce((a, x) => a + x, 0) * rho);
          const order = Array.from(efficiencyOrder(w, p));
          // The greedy completions, computed here: of the break solution, and of it less one of its last items.
          let b = 0;
          let bw = 0;
          while (b < order.length && bw + w[order[b]!]! <= cap) bw += w[order[b++]!]!;
          const fill = (skip: number): number => {
            let fw = 0;
            let fv = 0;
            order.forEach((i, x) => {
              if (x === skip || (x >= b && fw + w[i]! > cap)) return;
              fw += w[i]!;
              fv += p[i]!;
            });
            return fv;
          };
          let refill = 0;
          for (let x = b - 1; x >= 0 && x >= b - REFILL_WINDOW; x--) refill = Math.max(refill, fill(x));
          if (refill > fill(-1)) better++;
          const best = enumerateKnapsack(w, p, cap).value;
          const answer = knapsack(
            Int32Array.from(order),
            order.length,
            p,
            w,
            cap,
            -1,
            unbounded(),
            scratch,
            counters(),
          );
          expect(answer?.value ?? 0).toBe(best);
          expect(best).toBeGreaterThanOrEqual(refill);
          if (answer !== null) expect(chosenOf(answer).reduce((a, i) => a + p[i]!, 0)).toBe(best);
        },
      ),
      { numRuns: 1500, seed: 19 },
    );
    expect(better).toBeGreaterThan(50);
  });

  it('stays exact with values near 2^50 (bounds past 2^53 take the rounded-outward branch)', () => {
    const scratch = new KnapsackScratch();
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ w: fc.integer({ min: 1, max: 2 ** 20 }), p: fc.integer({ min: 2 ** 45, max: 2 ** 48 }) }),
          { minLength: 1, maxLength: 10 },
        ),
        fc.integer({ min: 1, max: 2 ** 22 }),
        (raw, cap) => {
          const w = raw.map((x) => x.w);
          const p = raw.map((x) => x.p);
          const order = efficiencyOrder(w, p);
          const answer = knapsack(order, order.length, p, w, cap, -1, unbounded(), scratch, counters());
          expect(answer!.value).toBe(enumerateKnapsack(w, p, cap).value);
        },
      ),
      { numRuns: 300, seed: 12 },
    );
  });

  it('ceilRatio and floorRatio bracket the exact quotient (equal to it below 2^53), checked with BigInt', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 32 }),
        fc.oneof(fc.integer({ min: 1, max: 2 ** 20 }), fc.integer({ min: 1, max: 2 ** 52 })),
        fc.integer({ min: 1, max: 2 ** 32 }),
        (a, p, w) => {
          const num = BigInt(a) * BigInt(p);
          const floor = num / BigInt(w);
          const ceil = floor * BigInt(w) === num ? floor : floor + 1n;
          const up = ceilRatio(a, p, w);
          const down = floorRatio(a, p, w);
          expect(BigInt(up) >= ceil).toBe(true);
          expect(BigInt(down) <= floor).toBe(true);
          if (a * p < 2 ** 53) {
            expect(BigInt(up)).toBe(ceil);
            expect(BigInt(down)).toBe(floor);
          }
        },
      ),
      { numRuns: 2000, seed: 13 },
    );
  });
});

describe('bitset subset sum', () => {
  it('finds the largest subset sum within the capacity and a subset reaching it, across word boundaries', () => {
    const scratch = new SubsetSumScratch();
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 70 }), { minLength: 0, maxLength: 12 }),
        fc.oneof(fc.constantFrom(0, 1, 31, 32, 33, 63, 64, 65, 95, 96), fc.integer({ min: 0, max: 300 })),
        (w, cap) => {
          const items = Int32Array.from(w.map((_, i) => i));
          const best = enumerateKnapsack(w, w, cap).value;
          const s = maxSubsetSum(items, items.length, w, cap, unbounded(), scratch)!;
          expect(s.sum).toBe(best);
          expect(new Set(s.chosen).size).toBe(s.chosen.length);
          expect(s.chosen.reduce((a, x) => a + w[items[x]!]!, 0)).toBe(best);
        },
      ),
      { numRuns: 1500, seed: 21 },
    );
  });

  /** The largest subset sum within cap and the work of the plain fold (every word of cap per item, until cap is reached), by a table of reachable sums. */
  function reachableTable(w: readonly number[], cap: number): { best: number; charged: number } {
    const reach = new Uint8Array(cap + 1);
    reach[0] = 1;
    let best = 0;
    let charged = 0;
    for (const wi of w) {
      if (best === cap) break;
      if (wi > cap) continue;
      charged += (cap >>> 5) - (wi >>> 5) + 1;
      for (let s = cap; s >= wi; s--) if (reach[s - wi] === 1 && reach[s] === 0) reach[s] = 1;
      for (let s = cap; s > best; s--) {
        if (reach[s] === 1) {
          best = s;
          break;
        }
      }
    }
    return { best, charged };
  }

  /**
   * Most work the windows tried before the plain fold can cost: their rooms grow by WINDOW_GROWTH up to
   * cap / WINDOW_GROWTH, so they sum to at most cap / (WINDOW_GROWTH - 1); one word more per item and window.
   */
  function windowsCharge(w: readonly number[], cap: number): number {
    const windows = Math.ceil(Math.log(cap / SUBSET_SUM_WINDOW) / Math.log(WINDOW_GROWTH)) + 1;
    return w.length * (Math.floor(cap / (WINDOW_GROWTH - 1) / 32) + 2 * windows);
  }

  it('matches a reachable-sums table on large capacities with many items, one scratch reused, and charges every word per fold', () => {
    const scratch = new SubsetSumScratch();
    let windowed = 0;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 6000 }), { minLength: 1, maxLength: 70 }),
        fc.integer({ min: 1, max: 1 << 18 }),
        fc.double({ min: 0.2, max: 0.95, noNaN: true }),
        (w, capSeed, share) => {
          const cap = Math.max(1, Math.min(capSeed, Math.floor(w.reduce((a, x) => a + x, 0) * share)));
          const { best, charged } = reachableTable(w, cap);
          const total = w.reduce((a, x) => a + x, 0);
          const meter = unbounded();
          const items = Int32Array.from(w.map((_, i) => i));
          const s = maxSubsetSum(items, items.length, w, cap, meter, scratch)!;
          expect(s.sum).toBe(total <= cap ? total : best);
          expect(new Set(s.chosen).size).toBe(s.chosen.length);
          expect(s.chosen.reduce((a, x) => a + w[items[x]!]!, 0)).toBe(s.sum);
          if (total <= cap) expect(meter.work).toBe(0);
          else if (cap <= SUBSET_SUM_WINDOW) expect(meter.work).toBe(charged);
          else {
            // Through a window, or the windows and then every word per fold.
            windowed++;
            expect(meter.work).toBeLessThanOrEqual(charged + windowsCharge(w, cap));
          }
        },
      ),
      { numRuns: 60, seed: 5 },
    );
    expect(windowed).toBeGreaterThan(10);
  });

  it("fills a large capacity exactly through a window, at a fraction of the plain fold's work (near-fitting rooms)", () => {
    const scratch = new SubsetSumScratch();
    let cheap = 0;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 130, max: 4000 }), { minLength: 30, maxLength: 70 }),
        fc.double({ min: 0.4, max: 0.8, noNaN: true }),
        (w, share) => {
          const cap = Math.max(SUBSET_SUM_WINDOW + 1, Math.floor(w.reduce((a, x) => a + x, 0) * share));
          const { best, charged } = reachableTable(w, cap);
          const meter = unbounded();
          const items = Int32Array.from(w.map((_, i) => i));
          const s = maxSubsetSum(items, items.length, w, cap, meter, scratch)!;
          expect(s.sum).toBe(best);
          expect(new Set(s.chosen).size).toBe(s.chosen.length);
          expect(s.chosen.reduce((a, x) => a + w[x]!, 0)).toBe(best);
          if (best === cap && meter.work * 2 < charged) cheap++;
        },
      ),
      { numRuns: 40, seed: 6 },
    );
    expect(cheap).toBeGreaterThan(30);
  });

  it('where no subset fills the capacity exactly (even weights, odd capacity) the windows give way to the plain fold: the same largest sum, the windows costing at most a third of the capacity in words per item', () => {
    const scratch = new SubsetSumScratch();
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 65, max: 2000 }), { minLength: 20, maxLength: 60 }),
        fc.double({ min: 0.4, max: 0.8, noNaN: true }),
        (half, share) => {
          const w = half.map((x) => 2 * x);
          const cap = Math.max(SUBSET_SUM_WINDOW + 1, Math.floor(w.reduce((a, x) => a + x, 0) * share)) | 1;
          const { best, charged } = reachableTable(w, cap);
          const meter = unbounded();
          const items = Int32Array.from(w.map((_, i) => i));
          const s = maxSubsetSum(items, items.length, w, cap, meter, scratch)!;
          expect(s.sum).toBe(best);
          expect(s.chosen.reduce((a, x) => a + w[x]!, 0)).toBe(best);
          expect(meter.work).toBeGreaterThanOrEqual(charged);
          expect(meter.work).toBeLessThanOrEqual(charged + windowsCharge(w, cap));
        },
      ),
      { numRuns: 30, seed: 7 },
    );
  });

  it('keeps every entry of its walk-back log when a fold writes more than the log keeps between solves', () => {
    // Even weights and an odd capacity: no window fills it, and the plain fold writes an entry per item
    // and word that gains a sum, far past SUBSET_SUM_KEEP_ENTRIES.
    const rnd = seededRandom(17);
    const w = Array.from({ length: 120 }, () => 2 * (2000 + Math.floor(rnd() * 8000)));
    const cap = (1 << 20) - 1;
    const { best } = reachableTable(w, cap);
    const scratch = new SubsetSumScratch();
    const items = Int32Array.from(w.map((_, i) => i));
    const s = maxSubsetSum(items, items.length, w, cap, unbounded(), scratch)!;
    expect(scratch.item.length).toBeGreaterThan(SUBSET_SUM_KEEP_ENTRIES);
    expect(s.sum).toBe(best);
    expect(new Set(s.chosen).size).toBe(s.chosen.length);
    expect(s.chosen.reduce((a, x) => a + w[x]!, 0)).toBe(best);
  });

  it("halts with the memory cap's reason when the WebAssembly fold cannot grow its log, and traps on a status it does not know", () => {
    /** A kernel that answers every step with `status`, having paid nothing. */
    const answering = (status: SubsetSumStatus): SubsetSumKernel => ({
      start: () => SubsetSumStatus.pending,
      step: () => status,
      counters: () => ({ paid: 0, pending: 0 }),
      finish: () => ({ sum: 0, chosen: [] }),
    });
    const w = [7, 9, 11, 13];
    const items = Int32Array.of(0, 1, 2, 3);
    const scratch = new SubsetSumScratch();
    scratch.kernel = answering(SubsetSumStatus.memory);
    const meter = unbounded();
    expect(maxSubsetSum(items, 4, w, 30, meter, scratch)).toBeNull();
    expect(meter.halt?.reason).toBe(
      "memory cap exceeded: the subset sums' log within 30 quanta would pass the module's memory",
    );
    expect(meter.halt?.atBudget).toBe(false);
    scratch.kernel = answering(SubsetSumStatus.broken);
    expect(() => maxSubsetSum(items, 4, w, 30, unbounded(), scratch)).toThrow(
      new SolverTrapError('subset sums: the kernel found no entry reaching a sum on the walk back'),
    );
  });

  it('declines capacities past its bitset limit unless every item fits', () => {
    const scratch = new SubsetSumScratch();
    const cap = SUBSET_SUM_MAX_CAPACITY + 1;
    expect(maxSubsetSum(Int32Array.of(0, 1), 2, [cap, 5], cap, unbounded(), scratch)).toBeNull();
    expect(maxSubsetSum(Int32Array.of(0, 1), 2, [cap - 5, 5], cap, unbounded(), scratch)!.sum).toBe(cap);
  });
});

describe('the search against brute force', () => {
  const shapes = [
    { nodes: 2, sessions: 8, eligibility: false, equalCapacities: false, twins: false, credited: false },
    { nodes: 3, sessions: 7, eligibility: true, equalCapacities: false, twins: false, credited: true },
    { nodes: 3, sessions: 7, eligibility: false, equalCapacities: true, twins: true, credited: false },
    { nodes: 2, sessions: 9, eligibility: true, equalCapacities: true, twins: true, credited: true },
    { nodes: 1, sessions: 10, eligibility: false, equalCapacities: false, twins: true, credited: false },
    { nodes: 4, sessions: 6, eligibility: true, equalCapacities: false, twins: false, credited: false },
  ];

  it('finds the optimum on every shape and quantum, and each mechanism is exercised', () => {
    const hits = { nodes: 0, splitHits: 0, tightened: 0, branched: 0, missedSplit: 0 };
    let checked = 0;
    for (let seed = 0; seed < 900; seed++) {
      const shape = shapes[seed % shapes.length]!;
      const quantum = [1, 2, 3][seed % 3]!;
      const problem = independentProblem(seed, shape);
      const { packed } = prepare(problem, { quantum });
      const values = nodeIndependentValues(packed);
      expect(values).not.toBeNull();
      const out = searchMultipleKnapsack(packed, values!, unbounded());
      expect(out.optimal).toBe(true);
      const expected = keyOf(packed, bruteForceOptimum(problem, quantum));
      expect(BigInt(out.value)).toBe(expected);
      expectPlanWorthValue(packed, values!, out);
      checked++;
      hits.nodes += out.counters.nodes;
      hits.splitHits += out.counters.splitHits;
      hits.tightened += out.counters.tightened;
      if (out.counters.nodes > 1) hits.branched++;
      if (out.counters.splits > out.counters.splitHits) hits.missedSplit++;
    }
    expect(checked).toBe(900);
    expect(hits.splitHits).toBeGreaterThan(300);
    expect(hits.tightened).toBeGreaterThan(20);
    expect(hits.branched).toBeGreaterThan(20);
    expect(hits.missedSplit).toBeGreaterThan(20);
  });

  it('with one knapsack the surrogate answer is the plan: the search ends at its root with the brute-force optimum', () => {
    for (let seed = 0; seed < 150; seed++) {
      const shape = {
        nodes: 1,
        sessions: 6 + (seed % 6),
        eligibility: seed % 4 === 0,
        equalCapacities: false,
        twins: seed % 2 === 0,
        credited: seed % 3 === 0,
      };
      const quantum = [1, 2, 3][seed % 3]!;
      const problem = independentProblem(seed + 5000, shape);
      const { packed } = prepare(problem, { quantum });
      const values = nodeIndependentValues(packed)!;
      const out = searchMultipleKnapsack(packed, values, unbounded());
      expect(out.optimal).toBe(true);
      expect(BigInt(out.value)).toBe(keyOf(packed, bruteForceOptimum(problem, quantum)));
      expectPlanWorthValue(packed, values, out);
      expect(out.counters).toMatchObject({ nodes: 1, splits: 1, splitHits: 1, tightened: 0, aims: 0 });
    }
  });

  it('with one knapsack a budget the knapsack passes stops it: no plan, the reason, the states counted within the budget', () => {
    const problem = nearFittingProblem(1, 0, 1, 82);
    const { packed } = prepare(problem, { quantum: 16 });
    const meter = new WorkMeter(
      2000,
      () => undefined,
      () => 'budget of 2000 units',
    );
    const out = searchMultipleKnapsack(packed, nodeIndependentValues(packed)!, meter);
    expect(out.optimal).toBe(false);
    expect(out.reason).toBe('budget of 2000 units');
    expect(out.atBudget).toBe(true);
    expect(Array.from(out.node).every((b) => b === -1)).toBe(true);
    expect(out.counters.states).toBeGreaterThan(0);
    expect(out.counters.states).toBeLessThanOrEqual(2000);
    expect(meter.work).toBeLessThanOrEqual(2000);
  });

  it('rooms past the bitset sizes (the split pre-filled greedily, residuals not tightened) stay exact', () => {
    let branched = 0;
    for (let seed = 0; seed < 60; seed++) {
      const rnd = seededRandom(seed + 300);
      const nodes = [0, 1, 2].map((b) => ({
        id: `n${b}`,
        capacity: SPLIT_BITSET_ROOM + Math.floor(rnd() * 3 * TIGHTEN_MAX_CAPACITY),
      }));
      const sessions = Array.from({ length: 8 }, (_, i): ProblemSession => {
        const weight = 10_000 + Math.floor(rnd() * 90_000);
        return { id: `s${i}`, weight, tokens: rnd() < 0.5 ? weight : Math.floor(rnd() * 100_000), ready: rnd() < 0.4 };
      });
      const problem = { nodes, sessions };
      const { packed } = prepare(problem, { quantum: 1 });
      const out = searchMultipleKnapsack(packed, nodeIndependentValues(packed)!, unbounded());
      expect(out.optimal).toBe(true);
      expect(BigInt(out.value)).toBe(keyOf(packed, bruteForceOptimum(problem, 1)));
      if (out.counters.nodes > 1) branched++;
    }
    expect(branched).toBeGreaterThan(0);
  });

  it("rooms past the subset sum's capacity limit (millions of quanta): what the bitset declines goes in heaviest first, and the plan stays exact", () => {
    for (let seed = 0; seed < 40; seed++) {
      const rnd = seededRandom(seed);
      const m = 2 + (seed % 2);
      const nodes = Array.from({ length: m }, (_, b) => ({
        id: `n${b}`,
        capacity: SUBSET_SUM_MAX_CAPACITY * 2 + Math.floor(rnd() * 8e6),
      }));
      expect(nodes.every((n) => n.capacity > SUBSET_SUM_MAX_CAPACITY + SPLIT_BITSET_ROOM)).toBe(true);
      const sessions = Array.from({ length: 5 + (seed % 4) }, (_, i): ProblemSession => {
        const weight = 1_000_000 + Math.floor(rnd() * 6_000_000);
        return { id: `s${i}`, weight, tokens: weight, ready: rnd() < 0.3 };
      });
      const problem = { nodes, sessions };
      const { packed } = prepare(problem, { quantum: 1 });
      const out = searchMultipleKnapsack(packed, nodeIndependentValues(packed)!, unbounded());
      expect(out.optimal).toBe(true);
      expect(BigInt(out.value), `seed ${seed}`).toBe(keyOf(packed, bruteForceOptimum(problem, 1)));
    }
  });

  it('a split whose subset sum is declined places the heaviest items that fit: the root closes the search', () => {
    // The split fills knapsack b first: 2.99M and 2.95M do not fit together in its 2.99M, past the subset
    // sum's limit (declined); heaviest first, 2.99M goes in, filling it. Knapsack a takes 5M greedily, then
    // 2.95M fills the 2.95M left. Every item the surrogate chose is placed: the split reaches the bound.
    // (Had b taken 2.95M, 2.99M would not fit in a.)
    expect(2_950_000).toBeGreaterThan(SUBSET_SUM_MAX_CAPACITY);
    const weights = [5_000_000, 2_990_000, 2_950_000];
    const problem = {
      nodes: [
        { id: 'a', capacity: 7_950_000 },
        { id: 'b', capacity: 2_990_000 },
      ],
      sessions: weights.map((w, i): ProblemSession => ({ id: `s${i}`, weight: w, tokens: w, ready: false })),
    };
    const { packed } = prepare(problem, { quantum: 1 });
    const out = searchMultipleKnapsack(packed, nodeIndependentValues(packed)!, unbounded());
    expect(out.optimal).toBe(true);
    expect(out.value).toBe(5_000_000 + 2_990_000 + 2_950_000);
    expect(out.counters.nodes).toBe(1);
    expect(out.counters.splitHits).toBe(1);
    const used = [0, 0];
    out.node.forEach((b, j) => {
      if (b >= 0) used[b] = used[b]! + packed.qweight[j]!;
    });
    expect(used[0]).toBeLessThanOrEqual(packed.qcapacity[0]!);
    expect(used[1]).toBeLessThanOrEqual(packed.qcapacity[1]!);
    // The plan holds what its value says: every item.
    expect(Array.from(out.node).every((b) => b >= 0)).toBe(true);
  });

  it('the solver takes the path where no DP runs first, with the same optimum as brute force', () => {
    // Capacities large enough that the dense DP is not run first (more than 2^15 cells).
    let taken = 0;
    for (let seed = 0; seed < 40; seed++) {
      const rnd = seededRandom(seed + 77);
      const nodes = [0, 1, 2].map((b) => ({ id: `n${b}`, capacity: 2000 + Math.floor(rnd() * 4000) }));
      const sessions = Array.from({ length: 8 }, (_, i): ProblemSession => {
        const weight = 500 + Math.floor(rnd() * 2500);
        return {
          id: `s${i}`,
          weight,
          tokens: weight - 100,
          ready: rnd() < 0.5,
          ...(i % 3 === 0 ? { eligible: ['n0', 'n2'] } : {}),
        };
      });
      const problem = { nodes, sessions };
      const plan = solver.solve(problem, { quantum: 1 });
      expectFeasible(problem, plan);
      expect(plan.status).toBe('optimal');
      expect(plan.value).toEqual(bruteForceOptimum(problem, 1));
      if (plan.stats.path === 'multiple-knapsack') {
        taken++;
        expect(plan.stats.multipleKnapsack?.outcome).toBe('solved');
        expect(plan.stats.work).toBeGreaterThan(0);
      }
    }
    expect(taken).toBeGreaterThan(20);
  });
});

describe('the aimed searches (knapsack-order branching at the root bound)', () => {
  const shapes = laterStageShapes;

  it('budgets that cut the first search short: optimal plans equal brute force, every plan is feasible and worth its value', () => {
    // FIRST_SEARCH_SHARE of a small budget stops the first search after a few nodes, so the aimed searches
    // run (eligibility limits, so candidate sets differ; equal capacities, so nodes are interchangeable;
    // twins; quanta 1-3) and either find a plan worth the root bound, prove none exists, or run out.
    let aimed = 0;
    let aimedOptimal = 0;
    let missed = 0;
    for (let seed = 0; seed < 900; seed++) {
      const shape = shapes[seed % shapes.length]!;
      const quantum = [1, 2, 3][seed % 3]!;
      const budget = [400, 1600, 6400][Math.floor(seed / 3) % 3]!;
      const problem = independentProblem(seed + 5000, shape);
      const { packed } = prepare(problem, { quantum });
      const values = nodeIndependentValues(packed)!;
      const out = searchMultipleKnapsack(
        packed,
        values,
        new WorkMeter(
          budget,
          () => undefined,
          () => 'budget',
        ),
      );
      const expected = keyOf(packed, bruteForceOptimum(problem, quantum));
      expectPlanWorthValue(packed, values, out);
      if (out.optimal) expect(BigInt(out.value)).toBe(expected);
      else {
        expect(BigInt(out.value) <= expected).toBe(true);
        missed++;
      }
      if (out.counters.aims > 0) {
        aimed++;
        if (out.optimal) aimedOptimal++;
      }
    }
    expect(aimed).toBeGreaterThan(100);
    expect(aimedOptimal).toBeGreaterThan(50);
    expect(missed).toBeLessThan(900);
  });

  it('weakly correlated 50 x 5 instances the first search cannot close: a plan worth the surrogate bound, checked by an independent DP', () => {
    // Instances of the weak 50x5 group (seed 1) whose first search stops at its share. The surrogate bound
    // (one knapsack over every item, capacity the total) is computed here by a plain DP over weights: a
    // feasible plan worth it is optimal, whatever found it.
    let aimedOptimal = 0;
    for (const i of [35, 51, 65, 72]) {
      const problem = mkpProblem(1, 5, 'weak', 50, 5, i);
      const { packed } = prepare(problem, { quantum: 1 });
      const values = nodeIndependentValues(packed)!;
      const out = searchMultipleKnapsack(
        packed,
        values,
        new WorkMeter(
          1 << 22,
          () => undefined,
          () => 'budget',
        ),
      );
      const used = new Map<string, number>();
      let credit = 0;
      unpackNodes(packed, out.node).forEach((b, j) => {
        if (b < 0) return;
        const s = problem.sessions[j]!;
        const id = problem.nodes[b]!.id;
        used.set(id, (used.get(id) ?? 0) + s.weight);
        credit += s.credit![id]!;
      });
      for (const n of problem.nodes) expect(used.get(n.id) ?? 0).toBeLessThanOrEqual(n.capacity);
      expect(out.optimal).toBe(true);
      expect(credit).toBe(surrogateBound(problem));
      if (out.counters.aims > 0) aimedOptimal++;
    }
    expect(aimedOptimal).toBeGreaterThanOrEqual(3);
  });
});

describe('regrouping (after the aimed searches)', () => {
  const shapes = laterStageShapes;

  it('regroupPlan (sub-problems solved by the search) from a feasible plan: feasible, never worse, and the brute-force optimum with two or three nodes', () => {
    // The plan to improve: BFD's (eligibility limits, interchangeable nodes, twins, tied values; quanta 1-3).
    let gained = 0;
    for (let seed = 0; seed < 600; seed++) {
      const shape = shapes[seed % shapes.length]!;
      const quantum = [1, 2, 3][seed % 3]!;
      const problem = independentProblem(seed + 9000, shape);
      const { packed } = prepare(problem, { quantum });
      const values = nodeIndependentValues(packed)!;
      const node = bfdPacked(packed);
      // Only sessions of positive value are placed (as the search's plans do).
      let start = 0;
      for (let j = 0; j < node.length; j++) {
        if (!(values[j]! > 0)) node[j] = -1;
        else if (node[j]! >= 0) start += values[j]!;
      }
      const plan = { node, value: start };
      const counters = noCounters();
      regroupPlan(packed, values, plan, Number.POSITIVE_INFINITY, unbounded(), counters);
      expectPlanWorthValue(packed, values, { node: plan.node, value: plan.value, optimal: false, counters });
      expect(plan.value).toBeGreaterThanOrEqual(start);
      const expected = keyOf(packed, bruteForceOptimum(problem, quantum));
      // With two or three kept nodes the last group tried is all of them: the whole problem, solved exactly.
      if (nodesKept(packed) >= 2 && nodesKept(packed) <= 3) expect(BigInt(plan.value)).toBe(expected);
      else expect(BigInt(plan.value) <= expected).toBe(true);
      if (plan.value > start) {
        gained++;
        expect(counters.regroupGains).toBeGreaterThan(0);
      }
    }
    expect(gained).toBeGreaterThan(50);
  });

  it('weakly correlated 100 x 10 instances whose first incumbent falls short: proven optimal at the surrogate bound, checked by an independent DP', () => {
    // Instance 45 of the weak 100x10 group (seed 1): the first search's incumbent is 54 below the root
    // bound, and the aimed searches find no plan worth it within their share; regrouping does.
    for (const i of [45]) {
      const problem = mkpProblem(1, 6, 'weak', 100, 10, i);
      const { packed } = prepare(problem, { quantum: 1 });
      const values = nodeIndependentValues(packed)!;
      const out = searchMultipleKnapsack(
        packed,
        values,
        new WorkMeter(
          1 << 22,
          () => undefined,
          () => 'budget',
        ),
      );
      expectPlanWorthValue(packed, values, out);
      expect(out.optimal).toBe(true);
      expect(out.value).toBe(surrogateBound(problem));
      expect(out.counters.regroupGains).toBeGreaterThan(0);
    }
  });
});

describe('buffers kept between solves', () => {
  it("a solve's plan and counters do not depend on the solves before it (sizes up and down, searches halted mid-path)", () => {
    // 25 x 2 up to 100 x 10 (aimed searches, regrouping), stopped by the budget with nodes open (also
    // aimed searches stopped at their share), and stopped before any plan was found.
    const cases = [
      { problem: mkpProblem(1, 0, 'weak', 25, 2, 3), budget: 1 << 22 },
      { problem: mkpProblem(1, 6, 'weak', 100, 10, 45), budget: 1 << 22 },
      { problem: mkpProblem(1, 3, 'strong', 50, 5, 7), budget: 1 << 22 },
      { problem: mkpProblem(1, 6, 'weak', 100, 10, 20), budget: 1 << 18 },
      { problem: mkpProblem(1, 6, 'weak', 100, 10, 20), budget: 1 << 22 },
      { problem: mkpProblem(1, 6, 'weak', 100, 10, 20), budget: 1000 },
      { problem: mkpProblem(1, 2, 'subset-sum', 50, 5, 1), budget: 1 << 22 },
      { problem: mkpProblem(1, 0, 'uncorrelated', 25, 2, 5), budget: 1 << 22 },
    ];
    const solveAll = (order: readonly number[]): string[] => {
      const out: string[] = [];
      for (const i of order) {
        const { problem, budget } = cases[i]!;
        const { packed } = prepare(problem, { quantum: 1 });
        const o = searchMultipleKnapsack(
          packed,
          nodeIndependentValues(packed)!,
          new WorkMeter(
            budget,
            () => undefined,
            () => 'budget',
          ),
        );
        out[i] = JSON.stringify({ ...o, node: Array.from(o.node) });
      }
      return out;
    };
    const forward = solveAll([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(solveAll([7, 6, 5, 4, 3, 2, 1, 0])).toEqual(forward);
    expect(solveAll([3, 7, 0, 6, 1, 4, 2, 5])).toEqual(forward);
    // The cases reach what the test is about: a halted search and an aimed or regrouping one.
    expect(forward.some((x) => JSON.parse(x).optimal === false)).toBe(true);
    expect(forward.some((x) => JSON.parse(x).counters.aims > 0)).toBe(true);
    expect(JSON.parse(forward[cases.findIndex((c) => c.budget === 1000)]!).value).toBe(0);
  });
});

describe("the aimed searches under the solve's limits", () => {
  // Weak 100x10 instance 20 (seed 1): neither the first search nor the aimed searches close it within 2^22.
  const problem = mkpProblem(1, 6, 'weak', 100, 10, 20);
  const { packed } = prepare(problem, { quantum: 1 });
  const values = nodeIndependentValues(packed)!;

  it('a halting check that says stop while an aimed search runs ends the whole search with that reason', () => {
    let asked = 0;
    // The first search's share (2^22 / 40) passes about 6 checks; from the 10th on, the check says stop.
    const meter = new WorkMeter(
      1 << 22,
      () => (++asked >= 10 ? 'stop now' : undefined),
      () => 'budget',
    );
    const out = searchMultipleKnapsack(packed, values, meter);
    expect(out.optimal).toBe(false);
    expect(out.reason).toBe('stop now');
    expect(out.atBudget).toBe(false);
    expect(out.counters.aims).toBeGreaterThanOrEqual(1);
    expect(asked).toBe(10);
    expectPlanWorthValue(packed, values, out);
  });

  it("the aimed searches' work counts against the budget: the total never passes it", () => {
    for (const budget of [1 << 18, 1 << 20, 1 << 22]) {
      const meter = new WorkMeter(
        budget,
        () => undefined,
        () => 'budget',
      );
      const out = searchMultipleKnapsack(packed, values, meter);
      expect(out.optimal).toBe(false);
      expect(out.atBudget).toBe(true);
      expect(out.counters.aims).toBeGreaterThanOrEqual(1);
      expect(meter.work).toBeLessThanOrEqual(budget);
      expectPlanWorthValue(packed, values, out);
    }
  });
});

describe('the root fill', () => {
  it('subset-sum 100x10 instances the split cannot close: each knapsack packed full at the root (value = total capacity, checked on the plan)', () => {
    let closedByFill = 0;
    for (let i = 0; i < 12; i++) {
      const problem = mkpProblem(1, 14, 'subset-sum', 100, 10, i);
      const { packed } = prepare(problem, { quantum: 1 });
      const out = searchMultipleKnapsack(
        packed,
        nodeIndependentValues(packed)!,
        new WorkMeter(
          1 << 22,
          () => undefined,
          () => 'budget',
        ),
      );
      expect(out.optimal).toBe(true);
      // Independent oracle: with value = weight, no plan is worth more than the total capacity.
      const total = problem.nodes.reduce((a, n) => a + n.capacity, 0);
      expect(out.value).toBe(total);
      const used = new Float64Array(nodesKept(packed));
      out.node.forEach((b, j) => {
        if (b >= 0) used[b] = used[b]! + packed.qweight[j]!;
      });
      used.forEach((u, b) => expect(u).toBe(packed.qcapacity[b]));
      if (out.counters.nodes === 1 && out.counters.splitHits === 0) closedByFill++;
    }
    expect(closedByFill).toBeGreaterThan(3);
  });
});

describe('bounded: budget, deadline, stop flag', () => {
  /** A 4-node pool the search cannot finish in a few units. */
  const pool = nearFittingProblem(1, 2, 4, 0);

  function expectLabelledFallback(problem: Problem, plan: Plan, options: SolveOptions = {}): void {
    expectFeasible(problem, plan);
    expect(plan.status).toBe('fallback');
    expect(['bfd', 'heuristic']).toContain(plan.stats.path);
    expect(plan.stats.heuristic).toBeDefined();
    expect(plan.stats.multipleKnapsack?.outcome).toBe('stopped');
    expect(compareValues(plan.value, bfd(problem).value)).toBeGreaterThanOrEqual(0);
    expect(compareValues(plan.value, bfd(problem, { order: 'tokens' }).value)).toBeGreaterThanOrEqual(0);
    if (plan.stats.heuristic !== 'surrogate-split') {
      expect(plan.value).toEqual(fallbackPlan(prepare(problem, options), plan.reason!).value);
    }
  }

  it("past the state budget: a labelled fallback whose search's work stays within the budget", () => {
    // What no solve skips costs the same at every one of these budgets, and the rest runs within the
    // ceiling, so the work adds at most WORK_CEILING x the budget to that of a one-unit budget.
    const floor = solver.solve(pool, { stateBudget: 1 }).stats.work;
    for (const stateBudget of [1, 100, 1000, 3000]) {
      const plan = solver.solve(pool, { stateBudget });
      expectLabelledFallback(pool, plan, { stateBudget });
      expect(plan.reason).toBe(
        `state budget exceeded: the multiple-knapsack search passed stateBudget ${stateBudget} units of work`,
      );
      expect(plan.stats.work - floor).toBeLessThanOrEqual(WORK_CEILING * stateBudget);
    }
    const full = solver.solve(pool);
    expect(full.status).toBe('optimal');
    expect(full.stats.path).toBe('multiple-knapsack');
  });

  it('the meter refuses work past the budget and asks the halting check every few thousand units', () => {
    let asked = 0;
    const meter = new WorkMeter(
      100_000,
      () => (++asked >= 3 ? 'stop now' : undefined),
      (w) => `budget after ${w}`,
    );
    const spent = Array.from({ length: 100 }, () => meter.spend(1000));
    expect(spent.includes(false)).toBe(true);
    expect(meter.halt).toEqual(new MkpHalt('stop now'));
    expect(asked).toBe(3);
    const tight = new WorkMeter(
      10,
      () => undefined,
      (w) => `budget after ${w}`,
    );
    expect(tight.spend(6)).toBe(true);
    expect(tight.spend(5)).toBe(false);
    expect(tight.halt).toEqual(new MkpHalt('budget after 6', true));
    expect(tight.work).toBe(6);
  });

  it('the meter asks its halting check when the work reaches each check point, not one unit later', () => {
    let asked = 0;
    const meter = new WorkMeter(
      10 * METER_CHECK_WORK,
      () => {
        asked++;
        return undefined;
      },
      (w) => `budget after ${w}`,
    );
    expect(meter.quiet()).toBe(METER_CHECK_WORK - 1);
    expect(meter.spend(METER_CHECK_WORK - 1)).toBe(true);
    expect(asked).toBe(0);
    expect(meter.quiet()).toBe(0);
    expect(meter.spend(1)).toBe(true);
    expect(asked).toBe(1);
    // The next check point is METER_CHECK_WORK units after the work at the last check.
    expect(meter.quiet()).toBe(METER_CHECK_WORK - 1);
    expect(meter.spend(METER_CHECK_WORK + 7)).toBe(true);
    expect(asked).toBe(2);
    expect(meter.quiet()).toBe(METER_CHECK_WORK - 1);
    // Near the limit, the room left to the budget.
    const near = new WorkMeter(
      100,
      () => undefined,
      (w) => `budget after ${w}`,
      40,
    );
    expect(near.spend(30)).toBe(true);
    expect(near.quiet()).toBe(10);
    expect(near.spend(10)).toBe(true);
    expect(near.quiet()).toBe(0);
    expect(near.spend(1)).toBe(false);
    expect(near.quiet()).toBe(0);
  });

  it('a halted meter stays halted for its first reason: spend and poll refuse, a later stop does not replace it', () => {
    let asked = 0;
    const meter = new WorkMeter(
      10,
      () => {
        asked++;
        return undefined;
      },
      (w) => `budget after ${w}`,
    );
    expect(meter.spend(11)).toBe(false);
    const first = meter.halt;
    expect(first).toEqual(new MkpHalt('budget after 0', true));
    // Work that would fit the budget is still refused, and the halting check is not asked.
    expect(meter.spend(1)).toBe(false);
    expect(meter.work).toBe(0);
    expect(meter.poll()).toBe(false);
    expect(asked).toBe(0);
    expect(meter.stop(new MkpHalt('memory'))).toBe(false);
    expect(meter.halt).toBe(first);
    // A halt from the halting check is not labelled as the budget's.
    const stopped = new WorkMeter(
      100,
      () => 'deadline',
      (w) => `budget after ${w}`,
    );
    expect(stopped.poll()).toBe(false);
    expect(stopped.halt?.atBudget).toBe(false);
    expect(stopped.halt?.reason).toBe('deadline');
  });

  it('a deadline or a stop flag set during the search ends it with a labelled fallback', () => {
    const hard = mkpProblem(1, 5, 'weak', 50, 5, 3);
    const prepared = prepare(hard, { quantum: 1, stateBudget: 2 ** 26 });
    const stop = new Int32Array(1);
    stop[0] = 1;
    const stopped = solver.runPacked(prepared.packed, prepared.options, performance.now(), stop);
    expect(stopped.status).toBe('fallback');
    expect(stopped.reason).toMatch(/^stopped: /);
    const late = solver.solve(hard, { quantum: 1, stateBudget: 2 ** 26, deadlineMs: 0.001 });
    expect(late.status).toBe('fallback');
    expect(late.reason).toMatch(/^deadline exceeded: /);
  });

  it('a credit-split remainder the search cannot finish falls back to at least the fallback plan', () => {
    // Two credited sessions, one per node (the credit level is decided at the root), and an uncredited
    // near-fitting pool left for the remainder.
    const base = nearFittingProblem(1, 1, 2, 0);
    const [a, b] = base.nodes.map((n) => n.id);
    const sessions: ProblemSession[] = base.sessions.map((s, i) =>
      i === 0 ? { ...s, credit: { [a!]: 5 } } : i === 1 ? { ...s, credit: { [b!]: 7 } } : s,
    );
    const problem: Problem = { nodes: base.nodes, sessions };
    // 500 units past the credit level, which the remainder's search cannot finish in.
    const options = { stateBudget: budgetPastLevel(problem, {}, 500) };
    const plan = solver.solve(problem, options);
    expectFeasible(problem, plan);
    expect(plan.status).toBe('fallback');
    expect(plan.stats.creditLevel?.decided).toBe(true);
    expect(['bfd', 'heuristic']).toContain(plan.stats.creditLevel?.remainderPath);
    expect(
      compareValues(plan.value, fallbackPlan(prepare(problem, options), plan.reason!).value),
    ).toBeGreaterThanOrEqual(0);
    const full = solver.solve(problem);
    expect(full.status).toBe('optimal');
    expect(full.stats.path).toBe('credit-split');
    expect(full.stats.creditLevel?.remainderPath).toBe('multiple-knapsack');
  });
});

describe('abandoned for the dense DP', () => {
  it('past its share of the dense cost the search gives way to the other paths, which stay exact', () => {
    // Six small knapsacks (4-9) and thirty sessions of weight 2, 3 or 5: the surrogate packs the
    // knapsacks' total room, which no assignment reaches, and the search's nodes multiply.
    const rnd = seededRandom(7);
    const nodes = [4, 5, 6, 7, 8, 9].map((capacity, b) => ({ id: `n${b}`, capacity }));
    const sessions = Array.from({ length: 30 }, (_, i): ProblemSession => {
      const weight = rnd() < 0.6 ? 3 : 2 + 3 * Math.floor(rnd() * 2);
      return { id: `s${i}`, weight, tokens: weight * 13 + Math.floor(rnd() * 9), ready: false };
    });
    const problem: Problem = { nodes, sessions };
    const options = { quantum: 1, stateBudget: 2 ** 23 };
    const { packed } = prepare(problem, options);
    expect(packed.cells).toBeLessThanOrEqual(options.stateBudget);
    const plan = solver.solve(problem, options);
    expectFeasible(problem, plan);
    expect(plan.status).toBe('optimal');
    expect(plan.stats.multipleKnapsack?.outcome).toBe('abandoned');
    expect(['frontier', 'dense', 'bound']).toContain(plan.stats.path);
    // The search's work (its share: half the dense cells) is counted with the path that finished.
    expect(plan.stats.work).toBeGreaterThan(packed.cells / 2);
    expect(plan.value).toEqual(solver.solve(problem, { ...options, path: 'dense' }).value);
  });
});
