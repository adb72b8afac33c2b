/**
 * Deterministic cases at the solver's numeric and budget boundaries, where random small problems never
 * go: the packed key's width limit, large keys whose densities differ only in low bits (where the
 * frontier bound's rounding margin decides), the fractional bound against exact BigInt arithmetic, the
 * state budget under a forced path, and usage fields that fill their bits (the dominance test's guard
 * bits). Every case is checked against an independent oracle (brute force) or the TypeScript mirror.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DpStatus } from './helpers/internals.js';
import { frontierInput, frontierSetup } from './helpers/internals.js';
import {
  boundWork,
  frontierSetupWork,
  heuristicWork,
  HEURISTICS,
  heuristicPlan,
  packWork,
} from './helpers/internals.js';
import { sessionsKept, type PackedProblem, WORK_CEILING } from './helpers/internals.js';
import { prepare } from './helpers/internals.js';
import { FrontierMirror, fractionalUpper, solveFrontierReference } from './helpers/internals.js';
import type { Problem, ProblemSession } from './helpers/internals.js';
import { expectFeasible } from './helpers/plan-checks.js';
import { useSolverAndKernel } from './helpers/solvers.js';
import { bruteForceOptimum, compareValues } from './oracles/brute-force.js';
import { highsOptimum, loadHighs } from './oracles/highs.js';

const loaded = useSolverAndKernel();

const I64_MAX = 2n ** 63n - 1n;

/**
 * Session A (credit K on n0, tokens 3 * 2^30 - 1, ready) and B, C (weight 1, no tokens, eligible on n1);
 * two nodes of capacity 1. R = 1, T = 3 * 2^30 - 1, so (R + 1)(T + 1) = 3 * 2^31 and the key sum's bound
 * (K + 1)(R + 1)(T + 1) - 1 crosses 2^63 - 1 between K = 1431655764 and K = 1431655765.
 */
function keyWidthCase(credit: number): Problem {
  return {
    nodes: [
      { id: 'n0', capacity: 1 },
      { id: 'n1', capacity: 1 },
    ],
    sessions: [
      { id: 'A', weight: 1, tokens: 3 * 2 ** 30 - 1, ready: true, credit: { n0: credit }, eligible: ['n0'] },
      { id: 'B', weight: 1, tokens: 0, ready: false, eligible: ['n1'] },
      { id: 'C', weight: 1, tokens: 0, ready: false, eligible: ['n1'] },
    ],
  };
}

describe('the packed key at its width limit', () => {
  it('the two sides of the boundary are where the arithmetic puts them', () => {
    const scale = 2n * (3n * 2n ** 30n);
    expect(1431655765n * scale <= I64_MAX && 1431655766n * scale > I64_MAX).toBe(true);
    expect(1431655765n * scale - 1n <= I64_MAX).toBe(true);
  });

  for (const [credit, fits] of [
    [1431655764, true],
    [1431655765, false],
  ] as const) {
    for (const path of ['auto', 'dense', 'frontier'] as const) {
      it(`credit ${credit} (key ${fits ? 'fits' : 'does not fit'}), path ${path}: the brute-force optimum`, () => {
        const problem = keyWidthCase(credit);
        expect(prepare(problem, { quantum: 1 }).packed.keyFits).toBe(fits);
        const plan = loaded.solver().solve(problem, { quantum: 1, path });
        expect(plan.status).toBe('optimal');
        expect(plan.stats.keyFits).toBe(fits);
        expect(plan.value).toEqual(bruteForceOptimum(problem, 1));
        expect(plan.value.credit).toBe(credit);
        expect(plan.assignments).toContainEqual({ session: 'A', node: 'n0' });
        expectFeasible(problem, plan);
      });
    }
  }
});

/** The frontier run through the WASM kernel and through the TypeScript mirror: status, plan, value, counters. */
function bothFrontiers(packed: PackedProblem): { kernel: unknown; mirror: unknown } {
  const incumbent = heuristicPlan(packed);
  const setup = frontierSetup(packed, incumbent);
  const kernel = loaded.kernel().frontier;
  let status = kernel.start(frontierInput(packed, setup, incumbent));
  while (status === DpStatus.paused) status = kernel.step(1e12);
  const counters = { ...kernel.counters() };
  const k = status === DpStatus.done || status === DpStatus.incumbent ? kernel.finish() : undefined;
  const viaKernel = { status, node: k === undefined ? [] : Array.from(k.node), value: k?.value, counters };
  const mirror = new FrontierMirror(packed, setup);
  let ts = mirror.start();
  while (ts === DpStatus.paused) ts = mirror.step(1e12);
  const viaMirror = {
    status: ts,
    node: Array.from(mirror.finish()),
    value: mirror.value(),
    counters: mirror.counters(),
  };
  return { kernel: viaKernel, mirror: viaMirror };
}

/**
 * Sessions whose keys are exactly proportional to their weights (credit c * weight, no tokens, not
 * ready), plus one session Z with 2^32 - 1 tokens that scales every key up to 2^57-2^61: every density is
 * equal, the LP bound's fractional term is an exact integer that f64 cannot represent, and only the
 * bound's rounding margin keeps it from falling one below what a plan reaches (which would prune the
 * optimum). A second family perturbs the credits by a few units (near-equal densities).
 */
const equalDensityArb: fc.Arbitrary<Problem> = fc
  .record({
    nodes: fc.integer({ min: 1, max: 2 }),
    capacity: fc.array(fc.integer({ min: 60, max: 300 }), { minLength: 2, maxLength: 2 }),
    c: fc.constantFrom(1_000_003, 2_999_999, 3_355_443),
    perturb: fc.boolean(),
    sessions: fc.array(
      fc.record({ weight: fc.integer({ min: 10, max: 90 }), delta: fc.integer({ min: -2, max: 2 }) }),
      {
        minLength: 3,
        maxLength: 7,
      },
    ),
  })
  .map(({ nodes, capacity, c, perturb, sessions }) => {
    const ids = Array.from({ length: nodes }, (_, b) => `n${b}`);
    const out: ProblemSession[] = sessions.map((s, i) => {
      const k = c * s.weight + (perturb ? s.delta : 0);
      return {
        id: `s${i}`,
        weight: s.weight,
        tokens: 0,
        ready: false,
        credit: Object.fromEntries(ids.map((id) => [id, k])),
      };
    });
    out.push({ id: 'Z', weight: 1, tokens: 2 ** 32 - 1, ready: true });
    return { nodes: ids.map((id, b) => ({ id, capacity: capacity[b]! })), sessions: out };
  });

/** Runs `check` on `runs` problems of `arb` (fixed seed) whose packed key fits and that keep a session, at quantum 1. */
function forPackedCases(
  arb: fc.Arbitrary<Problem>,
  runs: number,
  seed: number,
  check: (problem: Problem, packed: PackedProblem) => void,
): void {
  fc.assert(
    fc.property(arb, (problem) => {
      const { packed } = prepare(problem, { quantum: 1 });
      if (sessionsKept(packed) > 0 && packed.keyFits) check(problem, packed);
    }),
    { numRuns: runs, seed },
  );
}

describe('large keys with equal and near-equal densities', () => {
  it('the WASM frontier equals the TypeScript mirror (no trap, no empty layer) and the brute-force optimum', () => {
    let large = 0;
    forPackedCases(equalDensityArb, 200, 2026, (problem, packed) => {
      let maxKey = 0n;
      for (const k of packed.key) if (k > maxKey) maxKey = k;
      if (maxKey > 2n ** 56n) large++;
      const { kernel: k, mirror: t } = bothFrontiers(packed);
      expect(k).toEqual(t);
      const plan = loaded.solver().solve(problem, { quantum: 1, path: 'frontier' });
      expect(plan.status).toBe('optimal');
      expect(plan.value).toEqual(bruteForceOptimum(problem, 1));
      const ref = solveFrontierReference(problem, { quantum: 1 });
      expect(ref.value).toEqual(plan.value);
    });
    expect(large).toBeGreaterThan(150);
  });
});

describe('the fractional bound', () => {
  /** floor(p * rem / w), exact. */
  const exactFloor = (p: bigint, rem: number, w: number): bigint => (p * BigInt(rem)) / BigInt(w);

  it('is never below the exact floor, nor above p, for keys up to 2^63 - 1', () => {
    const keyArb = fc.oneof(
      fc.bigInt({ min: 0n, max: I64_MAX }),
      fc.bigInt({ min: 2n ** 53n - 4096n, max: 2n ** 53n + 4096n }),
      fc.bigInt({ min: I64_MAX - 2n ** 20n, max: I64_MAX }),
    );
    fc.assert(
      fc.property(
        keyArb,
        fc.integer({ min: 1, max: 2 ** 32 - 1 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (p, w, f) => {
          const rem = Math.min(w - 1, Math.floor(f * w));
          const up = fractionalUpper(p, rem, w);
          expect(up >= exactFloor(p, rem, w)).toBe(true);
          expect(up <= p).toBe(true);
        },
      ),
      { numRuns: 20_000, seed: 63 },
    );
  });

  it('holds where the f64 quotient rounds down: rem = w - 1 for keys of 2^60 to 2^63 - 1', () => {
    for (const w of [3, 7, 1000, 65_537, 2 ** 31 - 1, 2 ** 32 - 1]) {
      for (let p = 2n ** 60n; p <= I64_MAX; p = p * 3n - 1n) {
        expect(fractionalUpper(p, w - 1, w) >= exactFloor(p, w - 1, w)).toBe(true);
        expect(fractionalUpper(p, 1, w) >= exactFloor(p, 1, w)).toBe(true);
      }
    }
  });
});

describe('a forced path stays within the state budget', () => {
  /**
   * 2 nodes (capacities 7 and 4) x 22 sessions: a dense grid of 880 cells, within a budget of 1000, but
   * the frontier spends 1487 units of work on it. `auto` may finish with the dense DP once the frontier
   * passes its cap; a forced `frontier` may not.
   */
  const rows: [number, number, boolean][] = [
    [4, 3, true],
    [6, 9, true],
    [5, 0, false],
    [4, 1, true],
    [2, 0, true],
    [3, 6, true],
    [3, 4, true],
    [1, 1, true],
    [2, 1, false],
    [4, 7, false],
    [5, 9, true],
    [5, 5, false],
    [5, 3, false],
    [5, 1, true],
    [6, 1, true],
    [4, 0, true],
    [2, 2, true],
    [4, 5, true],
    [1, 0, false],
    [3, 0, false],
    [5, 2, false],
    [3, 1, true],
  ];
  // No credit: the per-node credit bound cannot prune, so the frontier's states multiply.
  const heavy: Problem = {
    nodes: [
      { id: 'n0', capacity: 7 },
      { id: 'n1', capacity: 4 },
    ],
    sessions: rows.map(([weight, tokens, ready], i) => ({ id: `s${i}`, weight, tokens, ready })),
  };

  /** A budget that buys the preparation and the frontier's set-up, and a few thousand units of the frontier. */
  const within = (() => {
    const { packed } = prepare(heavy, { quantum: 1 });
    const room = (HEURISTICS.length - 2) * heuristicWork(packed) + frontierSetupWork(packed) + 5000;
    return Math.ceil(room / WORK_CEILING);
  })();

  it('the case is what it claims: 880 dense cells, a frontier that needs more than that budget', () => {
    expect(prepare(heavy, { quantum: 1 }).packed.cells).toBe(880);
    const free = loaded.solver().solve(heavy, { quantum: 1, path: 'frontier', stateBudget: 2 ** 26 });
    expect(free.stats.path).toBe('frontier');
    expect(free.stats.work).toBeGreaterThan(within);
  });

  it("path 'frontier' past the budget is a labelled fallback, never a dense solve labelled optimal", async () => {
    const plan = loaded.solver().solve(heavy, { quantum: 1, path: 'frontier', stateBudget: within });
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toMatch(
      new RegExp(
        `^state budget exceeded: the frontier DP passed stateBudget ${within} units of work after \\d+ of 22 sessions$`,
      ),
    );
    expect(['bfd', 'heuristic']).toContain(plan.stats.path);
    const highs = await loadHighs();
    const optimum = highsOptimum(highs, heavy, 1);
    // auto, with the same budget, abandons the frontier for the dense DP, which fits it.
    const auto = loaded.solver().solve(heavy, { quantum: 1, stateBudget: within });
    expect(auto.status).toBe('optimal');
    expect(auto.stats.path).toBe('dense');
    expect(auto.value).toEqual(optimum);
    expect(compareValues(plan.value, optimum)).toBeLessThanOrEqual(0);
  });

  it("the bounded TypeScript frontier (maxWork) stops as a labelled fallback with the solver's plan, and is exact without a bound", async () => {
    const bounded = solveFrontierReference(heavy, { quantum: 1 }, 1000);
    expect(bounded.status).toBe('fallback');
    expect(bounded.reason).toBe('state budget exceeded: the TypeScript frontier passed 1000 units of work');
    expect(['bfd', 'heuristic']).toContain(bounded.stats.path);
    expectFeasible(heavy, bounded);
    // The same incumbent as the WASM solver's fallback at a budget that buys every heuristic, and never
    // above the optimum.
    const wasm = loaded.solver().solve(heavy, { quantum: 1, path: 'frontier', stateBudget: within });
    expect(bounded.value).toEqual(wasm.value);
    const optimum = highsOptimum(await loadHighs(), heavy, 1);
    expect(compareValues(bounded.value, optimum)).toBeLessThanOrEqual(0);
    const exact = solveFrontierReference(heavy, { quantum: 1 });
    expect(exact.status).toBe('optimal');
    expect(exact.value).toEqual(optimum);
  });

  it("path 'dense' above the budget is a labelled fallback that spends no DP work", () => {
    const plan = loaded.solver().solve(heavy, { quantum: 1, path: 'dense', stateBudget: 879 });
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toBe('state budget exceeded: 880 cells (22 sessions x 40 states) > stateBudget 879');
    // No DP work: what it charged is what no solve skips (packing, BFD in both orders and the greedy in
    // density order, the fallback's bound) and at most 879 units of preparation; at one unit, nothing more.
    const { packed } = prepare(heavy, { quantum: 1 });
    const unavoidable = packWork(packed) + 3 * heuristicWork(packed) + boundWork(packed);
    expect(plan.stats.work).toBeGreaterThanOrEqual(unavoidable);
    expect(plan.stats.work).toBeLessThanOrEqual(unavoidable + 879);
    expect(loaded.solver().solve(heavy, { quantum: 1, path: 'dense', stateBudget: 1 }).stats.work).toBe(unavoidable);
    const fits = loaded.solver().solve(heavy, { quantum: 1, path: 'dense', stateBudget: 880 });
    expect(fits.status).toBe('optimal');
    expect(fits.stats.work).toBe(packWork(packed) + 880);
  });
});

describe('usage fields that fill their bits (the dominance test)', () => {
  /**
   * Capacities at and next to powers of two, several nodes so several fields share a 64-bit word, and
   * weights that fill nodes exactly: the field values reach the top of their bits, where a misplaced
   * guard bit would let a borrow cross fields and a dominance test answer wrongly.
   */
  const fullFieldsArb: fc.Arbitrary<Problem> = fc
    .record({
      capacity: fc.oneof(
        fc.array(fc.constantFrom(1, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128), { minLength: 2, maxLength: 6 }),
        // Fields that fill a 64-bit word exactly, with their guard bits (8 x (7 + 1), 4 x (15 + 1),
        // 2 x (31 + 1)), or up to the last guard bit, bit 63 (4 x (12 + 1) + 12, 6 x (9 + 1) + 4, 12 x (4 + 1) + 4).
        fc.constantFrom(
          [127, 127, 127, 127, 127, 127, 127, 127],
          [32767, 32767, 32767, 32767],
          [2 ** 31 - 1, 2 ** 31 - 1],
          [4095, 4095, 4095, 4095, 4095],
          [511, 511, 511, 511, 511, 511, 15],
          Array.from({ length: 13 }, () => 15),
        ),
        fc.array(fc.constantFrom(127, 255, 32767, 65535), { minLength: 7, maxLength: 10 }),
      ),
      sessions: fc.array(
        fc.record({
          weight: fc.constantFrom(1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 127, 255, 511, 2047, 4095, 32767, 2 ** 30),
          credit: fc.integer({ min: 0, max: 5 }),
          tokens: fc.integer({ min: 0, max: 3 }),
          ready: fc.boolean(),
          home: fc.nat(),
        }),
        { minLength: 3, maxLength: 12 },
      ),
    })
    .map(({ capacity, sessions }) => {
      const caps: readonly number[] = capacity;
      const ids = caps.map((_, b) => `n${b}`);
      return {
        nodes: ids.map((id, b) => ({ id, capacity: capacity[b]! })),
        sessions: sessions.map(
          (s, i): ProblemSession => ({
            id: `s${i}`,
            weight: s.weight,
            tokens: s.tokens,
            ready: s.ready,
            credit: s.credit === 0 ? {} : { [ids[s.home % ids.length]!]: s.credit },
          }),
        ),
      };
    });

  it('the WASM frontier equals the TypeScript mirror, counters included (dominance tests, prunes, walk back)', () => {
    let dominance = 0;
    forPackedCases(fullFieldsArb, 400, 1618, (_, packed) => {
      const { kernel: k, mirror: t } = bothFrontiers(packed);
      expect(k).toEqual(t);
      if ((t as { counters: { prunedDominance: number } }).counters.prunedDominance > 0) dominance++;
    });
    expect(dominance).toBeGreaterThan(10);
  });

  it('the frontier plan is the brute-force optimum on the small ones', () => {
    fc.assert(
      fc.property(fullFieldsArb, (problem) => {
        if (problem.sessions.length > 7 || problem.nodes.length > 3) return;
        if (problem.nodes.some((n) => n.capacity > 128)) return;
        const plan = loaded.solver().solve(problem, { quantum: 1, path: 'frontier' });
        expect(plan.status).toBe('optimal');
        expect(plan.value).toEqual(bruteForceOptimum(problem, 1));
        expectFeasible(problem, plan);
      }),
      { numRuns: 300, seed: 314 },
    );
  });
});
