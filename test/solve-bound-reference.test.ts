/**
 * The relaxation bound every fallback Plan carries (`relaxationBound`, src/solve/bound.ts) equals a plain
 * reference written from its definition in exact BigInt arithmetic: each Dantzig bound as the floor of the
 * LP optimum (items by ratio, compared by cross products, the critical item's fraction), the rooms as the
 * least of a node's quantized capacity and the weight of the sessions that fit it, the ready count of the
 * lightest ready sessions, and the ready and tokens bounds given a plan's credit with the same multipliers;
 * and the bound of a credit-split remainder (`packedBound`) from the packed problem's candidates and DP
 * capacities.
 * Random problems: credit on several nodes, eligibility lists, sessions that fit nowhere, several quanta,
 * values up to 2^32 (products past 2^53). That the bound is never below the optimum is checked against
 * brute force in test/plan-bound.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dantzig as dantzigOfSolver,
  nodesKept,
  packedBound,
  type PlanValue,
  type Problem,
  prepare,
  relaxationBound,
  seededRandom,
  sessionsKept,
  validateProblem,
} from './helpers/internals.js';

interface Item {
  w: bigint;
  v: bigint;
}

/** floor of the LP optimum of the 0-1 knapsack over `items` within `cap`, exact. */
function dantzig(items: readonly Item[], cap: bigint): bigint {
  let weight = 0n;
  let value = 0n;
  for (const it of items) {
    weight += it.w;
    value += it.v;
  }
  if (weight <= cap) return value;
  const sorted = [...items].sort((a, b) => {
    const d = b.v * a.w - a.v * b.w;
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  });
  let used = 0n;
  let sum = 0n;
  for (const it of sorted) {
    if (used + it.w <= cap) {
      used += it.w;
      sum += it.v;
      continue;
    }
    return sum + (it.v * (cap - used)) / it.w;
  }
  return sum;
}

const CREDIT_SCALES = [0.25, 1, 4, 16];

function reference(problem: Problem, quantum: number, known?: PlanValue): PlanValue {
  const q = BigInt(quantum);
  const cap = problem.nodes.map((node) => BigInt(node.capacity) / q);
  const m = problem.nodes.length;
  const index = new Map(problem.nodes.map((node, b) => [node.id, b]));
  const sessions = problem.sessions.map((s) => {
    const w = (BigInt(s.weight) + q - 1n) / q;
    const allowed = (b: number) => s.eligible === undefined || s.eligible.includes(problem.nodes[b]!.id);
    const fitsOn = Array.from({ length: m }, (_, b) => allowed(b) && w <= cap[b]!);
    const credit = new Map<number, number>();
    for (const [id, k] of Object.entries(s.credit ?? {})) {
      const b = index.get(id)!;
      if (fitsOn[b] && k > 0) credit.set(b, k);
    }
    return { w, fitsOn, credit, ready: s.ready, tokens: s.tokens };
  });
  const room = cap.map((c, b) => {
    let sum = 0n;
    for (const s of sessions) if (s.fitsOn[b]) sum += s.w;
    return sum < c ? sum : c;
  });
  const total = room.reduce((a, r) => a + r, 0n);
  const kept = sessions.filter((s) => s.fitsOn.some(Boolean));
  const best = kept.map((s) => Math.max(0, ...s.credit.values()));

  let perNode = 0n;
  for (let b = 0; b < m; b++)
    perNode += dantzig(
      kept.filter((s) => s.credit.has(b)).map((s) => ({ w: s.w, v: BigInt(s.credit.get(b)!) })),
      room[b]!,
    );
  const whole = dantzig(
    kept.map((s, t) => ({ w: s.w, v: BigInt(best[t]!) })),
    total,
  );
  const credit = perNode < whole ? perNode : whole;

  const readyWeights = kept
    .filter((s) => s.ready)
    .map((s) => s.w)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let ready = 0;
  for (let used = 0n; ready < readyWeights.length && used + readyWeights[ready]! <= total; ready++)
    used += readyWeights[ready]!;
  let tokens = dantzig(
    kept.map((s) => ({ w: s.w, v: BigInt(s.tokens) })),
    total,
  );

  if (known !== undefined && known.credit > 0) {
    const withCredit = (level: readonly number[]): bigint | null => {
      const n = kept.length;
      let levelSum = 0;
      let creditSum = 0;
      let top = 0;
      for (let t = 0; t < n; t++) {
        levelSum += level[t]!;
        creditSum += best[t]!;
        top = Math.max(top, level[t]!, best[t]!);
      }
      if (levelSum === 0) return null;
      let out: bigint | null = null;
      for (const scale of CREDIT_SCALES) {
        const L = Math.max(1, Math.round((scale * creditSum) / levelSum));
        if ((L + 1) * (top + 1) * (n + 1) >= 2 ** 53) continue;
        const bound = dantzig(
          kept.map((s, t) => ({ w: s.w, v: BigInt(L) * BigInt(level[t]!) + BigInt(best[t]!) })),
          total,
        );
        // floor((bound - floor) / L), rounding toward minus infinity.
        const num = bound - BigInt(known.credit);
        const L64 = BigInt(L);
        const f = num >= 0n ? num / L64 : -((-num + L64 - 1n) / L64);
        if (out === null || f < out) out = f;
      }
      return out;
    };
    const r = withCredit(kept.map((s) => (s.ready ? 1 : 0)));
    if (r !== null && r < BigInt(ready)) ready = Number(r);
    const t = withCredit(kept.map((s) => s.tokens));
    if (t !== null && t < tokens) tokens = t;
  }
  return { credit: Number(credit), ready, tokens: Number(tokens) };
}

const value = (big: boolean) => (big ? fc.integer({ min: 0, max: 2 ** 32 - 1 }) : fc.integer({ min: 0, max: 60 }));

const problemArb = fc.boolean().chain((big) =>
  fc
    .record({
      caps: fc.array(big ? fc.integer({ min: 0, max: 2 ** 32 - 1 }) : fc.integer({ min: 0, max: 120 }), {
        minLength: 1,
        maxLength: 5,
      }),
      sessions: fc.array(
        fc.record({
          weight: big ? fc.integer({ min: 1, max: 2 ** 32 - 1 }) : fc.integer({ min: 1, max: 70 }),
          tokens: value(big),
          ready: fc.boolean(),
          credit: fc.array(fc.tuple(fc.nat(4), value(big)), { maxLength: 3 }),
          eligible: fc.option(fc.array(fc.nat(4), { maxLength: 3 }), { nil: undefined }),
        }),
        { minLength: 1, maxLength: 12 },
      ),
      quantum: fc.constantFrom(1, 4, 16),
      credited: fc.constantFrom(true, true, true, false),
    })
    .map(({ caps, sessions, quantum, credited }) => {
      const ids = caps.map((_, b) => `n${b}`);
      const problem: Problem = {
        nodes: caps.map((capacity, b) => ({ id: ids[b]!, capacity })),
        sessions: sessions.map((s, i) => {
          const credit = Object.fromEntries(s.credit.filter(([b]) => b < ids.length).map(([b, k]) => [ids[b]!, k]));
          const eligible = s.eligible?.filter((b) => b < ids.length).map((b) => ids[b]!);
          return {
            id: `s${i}`,
            weight: s.weight,
            tokens: s.tokens,
            ready: s.ready,
            ...(credited ? { credit } : {}),
            ...(eligible !== undefined && eligible.length > 0 ? { eligible: [...new Set(eligible)] } : {}),
          };
        }),
      };
      return { problem, quantum };
    }),
);

describe('relaxationBound', () => {
  it('equals the exact reference on random problems, alone and given a plan credit', () => {
    let withKnown = 0;
    fc.assert(
      fc.property(problemArb, fc.double({ min: 0.1, max: 1, noNaN: true }), ({ problem, quantum }, share) => {
        const indexed = validateProblem(problem);
        expect(relaxationBound(indexed, quantum)).toEqual(reference(problem, quantum));
        // A plan's credit: some share of the credit bound (any credit a plan reaches is at most it).
        const bound = reference(problem, quantum);
        const known = { credit: Math.floor(bound.credit * share), ready: 0, tokens: 0 };
        if (known.credit > 0) withKnown++;
        expect(relaxationBound(indexed, quantum, undefined, known)).toEqual(reference(problem, quantum, known));
      }),
      { numRuns: 1500, seed: 2026 },
    );
    expect(withKnown).toBeGreaterThan(300);
  });

  it('takes the credit level’s exact bound when it is lower, not when it is higher', () => {
    const problem: Problem = {
      nodes: [{ id: 'a', capacity: 10 }],
      sessions: [
        { id: 's0', weight: 6, tokens: 1, ready: true, credit: { a: 6 } },
        { id: 's1', weight: 6, tokens: 1, ready: true, credit: { a: 6 } },
      ],
    };
    const indexed = validateProblem(problem);
    const plain = relaxationBound(indexed, 1);
    expect(plain.credit).toBe(reference(problem, 1).credit);
    const level = (bound: number) => ({ creditLevel: { bound, decided: true, fixed: 0, states: 0, branchNodes: 0 } });
    expect(relaxationBound(indexed, 1, level(plain.credit - 1)).credit).toBe(plain.credit - 1);
    expect(relaxationBound(indexed, 1, level(plain.credit)).credit).toBe(plain.credit);
    expect(relaxationBound(indexed, 1, level(plain.credit + 5)).credit).toBe(plain.credit);
  });

  it('packedBound equals the exact reference over the packed candidates and capacities', () => {
    fc.assert(
      fc.property(problemArb, ({ problem, quantum }) => {
        const { packed } = prepare(problem, { quantum });
        const n = sessionsKept(packed);
        const m = nodesKept(packed);
        if (n === 0) return;
        const w = (j: number) => BigInt(packed.qweight[j]!);
        const lightest = (items: number[], cap: bigint) => {
          const ws = items.map(w).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          let count = 0;
          for (let used = 0n; count < ws.length && used + ws[count]! <= cap; count++) used += ws[count]!;
          return count;
        };
        const all = Array.from({ length: n }, (_, j) => j);
        const total = Array.from({ length: m }, (_, b) => BigInt(packed.capacity[b]!)).reduce((a, c) => a + c, 0n);
        let readyPerNode = 0;
        let tokensPerNode = 0n;
        for (let b = 0; b < m; b++) {
          const candidates = all.filter((j) => packed.candidate[j * m + b] === 1);
          readyPerNode += lightest(
            candidates.filter((j) => packed.ready[j] === 1),
            BigInt(packed.capacity[b]!),
          );
          tokensPerNode += dantzig(
            candidates.map((j) => ({ w: w(j), v: BigInt(packed.tokens[j]!) })),
            BigInt(packed.capacity[b]!),
          );
        }
        const readyAll = lightest(
          all.filter((j) => packed.ready[j] === 1),
          total,
        );
        const tokensAll = dantzig(
          all.map((j) => ({ w: w(j), v: BigInt(packed.tokens[j]!) })),
          total,
        );
        expect(packedBound(packed)).toEqual({
          ready: Math.min(readyPerNode, readyAll),
          tokens: Number(tokensPerNode < tokensAll ? tokensPerNode : tokensAll),
        });
      }),
      { numRuns: 800, seed: 2027 },
    );
  });
});

describe('the Dantzig bound', () => {
  it('equals the exact reference where the terms stay below 2^53 but their sum passes it', () => {
    // Light, dense items of values near 2^41 and light fillers of density 1, one of which is the
    // critical item: every product v q and p w is below 2^53, their sum over the dense items is not.
    let past = 0;
    for (let seed = 0; seed < 40; seed++) {
      const rnd = seededRandom(seed + 61_000);
      const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
      const w: number[] = [];
      const v: number[] = [];
      const dense = 40 + int(0, 40);
      for (let t = 0; t < dense; t++) {
        w.push(int(1, 4));
        v.push(int(2 ** 40, 2 ** 42));
      }
      let fill = 0;
      for (let t = 0; t < 60; t++) {
        const x = int(50, 200);
        w.push(x);
        v.push(x);
        fill += x;
      }
      const cap = w.slice(0, dense).reduce((a, b) => a + b, 0) + Math.floor(fill / 2);
      const items = w.map((_, t) => t);
      const want = dantzig(
        items.map((t) => ({ w: BigInt(w[t]!), v: BigInt(v[t]!) })),
        BigInt(cap),
      );
      expect(BigInt(dantzigOfSolver(items, w, (t) => v[t]!, cap)), `seed ${seed}`).toBe(want);
      let sum = 0n;
      for (let t = 0; t < dense; t++) sum += BigInt(v[t]!) * 200n;
      if (sum > 2n ** 53n) past++;
    }
    expect(past).toBe(40);
  });

  it('equals the exact reference in BigInt when items are denser than the critical one by less than 1e-9', () => {
    // Products near 2^63 (the BigInt path). Five items B are denser than the critical item C by a
    // relative 3e-10 each, so each adds about 0.64 to the bound: leaving them out would put it below the LP.
    const W = 2 ** 31 + 12_345;
    const V = 2 ** 31 + 7;
    const w: number[] = [1];
    const v: number[] = [2 ** 32 - 1];
    for (let k = 0; k < 5; k++) {
      const wb = 2 ** 31 - 1001 - 97 * k;
      w.push(wb);
      v.push(Math.round(((wb * V) / W) * (1 + 3e-10)));
    }
    w.push(W);
    v.push(V);
    const cap = w.slice(0, 6).reduce((a, b) => a + b, 0) + Math.floor(W / 2);
    const items = w.map((_, t) => t);
    const exact = items.map((t) => ({ w: BigInt(w[t]!), v: BigInt(v[t]!) }));
    // Each B is strictly denser than C.
    for (let t = 1; t <= 5; t++) expect(exact[t]!.v * exact[6]!.w > exact[6]!.v * exact[t]!.w).toBe(true);
    expect(BigInt(dantzigOfSolver(items, w, (t) => v[t]!, cap))).toBe(dantzig(exact, BigInt(cap)));
  });
});
