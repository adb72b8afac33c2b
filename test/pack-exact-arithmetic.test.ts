/**
 * Packing computes in doubles where the values allow it: quantization by remainder, packed keys below 2^53
 * as two 32-bit words, the weight order by one native sort. Each is pinned here against BigInt arithmetic
 * or a comparator sort written out in the test, on both sides of the ranges where the double paths apply;
 * and a Prepared is recognised by a mark that a copy or a proxy does not carry.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidValueError } from './helpers/internals.js';
import { MAX_U32 } from './helpers/internals.js';
import { weightOrder } from './helpers/internals.js';
import { checkPrepared, prepare } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';

/** A problem of `weights.length` sessions on `capacities.length` nodes, every session credited on every node by `credits`. */
function problemOf(
  capacities: number[],
  weights: number[],
  tokens: number[],
  credits: number[][],
  ready: boolean[],
): Problem {
  return {
    nodes: capacities.map((capacity, b) => ({ id: `n${b}`, capacity })),
    sessions: weights.map((weight, i) => ({
      id: `s${i}`,
      weight,
      tokens: tokens[i]!,
      ready: ready[i]!,
      credit: Object.fromEntries(credits[i]!.map((k, b) => [`n${b}`, k])),
    })),
  };
}

const big = fc.oneof(
  fc.integer({ min: 0, max: 40 }),
  fc.integer({ min: 0, max: MAX_U32 }),
  fc.constantFrom(MAX_U32, MAX_U32 - 1, 2 ** 31),
);

const caseArb = fc
  .record({
    m: fc.integer({ min: 1, max: 3 }),
    n: fc.integer({ min: 1, max: 6 }),
    quantum: fc.oneof(
      fc.constantFrom(1, 16, 1024, 3, 2 ** 32, Number.MAX_SAFE_INTEGER),
      fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    ),
  })
  .chain(({ m, n, quantum }) =>
    fc.record({
      quantum: fc.constant(quantum),
      capacities: fc.array(
        fc.oneof(
          fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
          fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 53 - 2, 2 ** 52 + 1, 0),
        ),
        { minLength: m, maxLength: m },
      ),
      weights: fc.array(fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: MAX_U32 })), {
        minLength: n,
        maxLength: n,
      }),
      tokens: fc.array(big, { minLength: n, maxLength: n }),
      credits: fc.array(fc.array(big, { minLength: m, maxLength: m }), { minLength: n, maxLength: n }),
      ready: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    }),
  );

describe('packing arithmetic', () => {
  it('quantizes exactly: floor(C / q) and ceil(w / q) as BigInt division gives them, up to the largest safe integer', () => {
    fc.assert(
      fc.property(caseArb, ({ quantum, capacities, weights, tokens, credits, ready }) => {
        const { packed } = prepare(problemOf(capacities, weights, tokens, credits, ready), { quantum });
        const q = BigInt(quantum);
        packed.nodeIndex.forEach((ob, b) => expect(BigInt(packed.qcapacity[b]!)).toBe(BigInt(capacities[ob]!) / q));
        packed.sessionIndex.forEach((oi, j) =>
          expect(BigInt(packed.qweight[j]!)).toBe((BigInt(weights[oi]!) + q - 1n) / q),
        );
      }),
      { numRuns: 400 },
    );
  });

  it('packs every key as the BigInt credit * (R + 1)(T + 1) + ready * (T + 1) + tokens, below and above 2^53', () => {
    let doubles = 0;
    let wide = 0;
    fc.assert(
      fc.property(caseArb, ({ quantum, capacities, weights, tokens, credits, ready }) => {
        const { packed } = prepare(problemOf(capacities, weights, tokens, credits, ready), { quantum });
        const n = packed.sessionIndex.length;
        const m = packed.nodeIndex.length;
        let r = 0n;
        let t = 0n;
        let kmax = 0n;
        for (let j = 0; j < n; j++) {
          const oi = packed.sessionIndex[j]!;
          r += ready[oi] ? 1n : 0n;
          t += BigInt(tokens[oi]!);
          let best = 0n;
          for (let b = 0; b < m; b++) {
            if (packed.candidate[j * m + b] === 1 && BigInt(credits[oi]![packed.nodeIndex[b]!]!) > best)
              best = BigInt(credits[oi]![packed.nodeIndex[b]!]!);
          }
          kmax += best;
        }
        const bound = (kmax + 1n) * (r + 1n) * (t + 1n);
        if (bound < 2n ** 53n) doubles++;
        else wide++;
        expect(packed.keyFits).toBe(bound <= 2n ** 63n - 1n);
        if (!packed.keyFits) return;
        const expected: bigint[] = [];
        for (let j = 0; j < n; j++) {
          const oi = packed.sessionIndex[j]!;
          for (let b = 0; b < m; b++) {
            const k = BigInt(credits[oi]![packed.nodeIndex[b]!]!);
            const rt = (ready[oi] ? t + 1n : 0n) + BigInt(tokens[oi]!);
            expected.push(packed.candidate[j * m + b] === 1 ? k * (r + 1n) * (t + 1n) + rt : -1n);
          }
        }
        expect(Array.from(packed.key)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
    // Both sides of the double path were exercised.
    expect(doubles).toBeGreaterThan(20);
    expect(wide).toBeGreaterThan(20);
  });

  it('a key space of exactly 2^63 - 1 fits the i64 table, one token more does not', () => {
    // 2^63 - 1 = (C + 1)(R + 1)(T + 1) with C + 1 = 649,657, R + 1 = 511 = 7 x 73 and T + 1 = 27,783,356,041
    // = 7 x 127 x 337 x 92,737: 510 ready sessions holding T tokens, one of them credited C.
    const C = 649_656;
    const R = 510;
    const T = 27_783_356_040;
    expect((BigInt(C) + 1n) * (BigInt(R) + 1n) * (BigInt(T) + 1n)).toBe(2n ** 63n - 1n);
    const withTokens = (total: number): Problem => ({
      nodes: [{ id: 'a', capacity: 1 }],
      sessions: Array.from({ length: R }, (_, i) => ({
        id: `s${i}`,
        weight: 1,
        tokens: Math.floor(total / R) + (i < total % R ? 1 : 0),
        ready: true,
        ...(i === 0 ? { credit: { a: C } } : {}),
      })),
    });
    const fits = prepare(withTokens(T), { quantum: 1 }).packed;
    expect(fits.keyFits).toBe(true);
    expect(fits.key[0]).toBe(
      BigInt(C) * (BigInt(R) + 1n) * (BigInt(T) + 1n) + BigInt(T) + 1n + BigInt(Math.floor(T / R) + 1),
    );
    expect(prepare(withTokens(T + 1), { quantum: 1 }).packed.keyFits).toBe(false);
  });

  it('orders sessions by quantized weight descending, then input order, as a comparator sort does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: MAX_U32 })), {
          minLength: 0,
          maxLength: 60,
        }),
        (weights) => {
          const problem: Problem = {
            nodes: [{ id: 'n', capacity: Number.MAX_SAFE_INTEGER }],
            sessions: weights.map((weight, i) => ({ id: `s${i}`, weight, tokens: 0, ready: true })),
          };
          const { packed } = prepare(problem, { quantum: 1 });
          const expected = Array.from(packed.qweight, (_, j) => j).sort(
            (a, b) => packed.qweight[b]! - packed.qweight[a]! || a - b,
          );
          expect(Array.from(weightOrder(packed))).toEqual(expected);
        },
      ),
    );
  });
});

describe('the mark of a Prepared', () => {
  const problem: Problem = {
    nodes: [{ id: 'n', capacity: 10 }],
    sessions: [{ id: 's', weight: 3, tokens: 1, ready: true }],
  };

  it('keeps a plain object, accepted by checkPrepared', () => {
    const prepared = prepare(problem);
    expect(Object.getPrototypeOf(prepared)).toBe(Object.prototype);
    expect(Object.keys(prepared)).toEqual(['problem', 'options', 'packed']);
    expect(checkPrepared(prepared).packed).toBe(prepared.packed);
  });

  it('is not carried by a spread copy, a structured clone or a proxy: each is refused naming the path', () => {
    const prepared = prepare(problem);
    const message = 'prepared must be a Prepared made by prepare() (a copy or a look-alike object is not accepted)';
    for (const copy of [{ ...prepared }, structuredClone(prepared), new Proxy(prepared, {})]) {
      expect(() => checkPrepared(copy)).toThrow(new InvalidValueError(message));
    }
  });
});
