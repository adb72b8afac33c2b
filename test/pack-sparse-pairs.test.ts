/**
 * Packing reads pairs from per-session lists (credit entries; eligibility as every node, only the listed
 * nodes, or every node but the listed ones): its fits, reduced capacities, candidates and credit equal
 * the definitions evaluated pair by pair, with ties in capacity, several quanta, sessions that fit
 * nowhere and nodes nothing fits on; the packed keys equal their formula in BigInt whether they are
 * computed in doubles or in 64-bit integers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packProblem, resolveSolveOptions, type IndexedArrays } from './helpers/internals.js';

/** A problem of `minNodes` to `maxNodes` nodes in list form with pairs drawn densely, kept beside the dense truth. */
const arbProblem = (minNodes: number, maxNodes: number) =>
  fc
    .record({
      m: fc.integer({ min: minNodes, max: maxNodes }),
      n: fc.integer({ min: 0, max: 12 }),
      quantum: fc.constantFrom(1, 3, 10),
      // Scales that put the packed keys in doubles, in 64-bit integers, or past them.
      tokenScale: fc.constantFrom(1, 2 ** 20, 2 ** 26),
      creditScale: fc.constantFrom(1, 1000, 400_000),
      seed: fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 200, maxLength: 200 }),
    })
    .map(({ m, n, quantum, seed, tokenScale, creditScale }) => {
      let at = 0;
      const next = (k: number): number => seed[at++ % seed.length]! % k;
      // Few distinct capacities, so that nodes tie.
      const capacity = Float64Array.from({ length: m }, () => [0, 9, 20, 20, 47][next(5)]!);
      const weight = Float64Array.from({ length: n }, () => 1 + next(30));
      const tokens = Float64Array.from({ length: n }, () => next(50) * tokenScale);
      const ready = Uint8Array.from({ length: n }, () => next(2));
      const eligible: boolean[][] = [];
      const credit: number[][] = [];
      const limited = new Uint8Array(n);
      const creditStart = new Int32Array(n + 1);
      const eligibleStart = new Int32Array(n + 1);
      const creditNode: number[] = [];
      const creditValue: number[] = [];
      const eligibleNode: number[] = [];
      for (let i = 0; i < n; i++) {
        const form = next(3);
        limited[i] = form;
        const listed = Array.from({ length: m }, () => next(3) === 0);
        eligible.push(listed.map((l) => (form === 0 ? true : form === 1 ? l : !l)));
        eligibleStart[i] = eligibleNode.length;
        if (form !== 0) listed.forEach((l, b) => l && eligibleNode.push(b));
        credit.push(Array.from({ length: m }, () => (next(3) === 0 ? (1 + next(9)) * creditScale : 0)));
        creditStart[i] = creditNode.length;
        // Entries in a rotated (and for odd i reversed) node order: the lists need not be sorted.
        const order = Array.from({ length: m }, (_, b) => (b + i) % m);
        if (i % 2 === 1) order.reverse();
        for (const b of order) {
          if (credit[i]![b]! > 0) {
            creditNode.push(b);
            creditValue.push(credit[i]![b]!);
          }
        }
      }
      creditStart[n] = creditNode.length;
      eligibleStart[n] = eligibleNode.length;
      const problem: IndexedArrays = {
        capacity,
        weight,
        tokens,
        ready,
        creditStart,
        creditNode: Int32Array.from(creditNode),
        creditValue: Float64Array.from(creditValue),
        limited,
        eligibleStart,
        eligibleNode: Int32Array.from(eligibleNode),
      };
      return { problem, quantum, eligible, credit };
    });

describe('packing over pair lists', () => {
  it('keeps, reduces and marks exactly what the pair-by-pair definitions give', () => {
    checkPacking(arbProblem(1, 6), 400);
  });

  it("the same from 16 nodes on, where an unlimited session's row is written by fills", () => {
    checkPacking(arbProblem(16, 24), 150);
  });
});

function checkPacking(arb: ReturnType<typeof arbProblem>, numRuns: number): void {
  fc.assert(
    fc.property(arb, ({ problem, quantum, eligible, credit }) => {
      const packed = packProblem(problem, resolveSolveOptions({ quantum }));
      const m = problem.capacity.length;
      const n = problem.weight.length;
      const qcap = Array.from(problem.capacity, (c) => Math.floor(c / quantum));
      const qw = Array.from(problem.weight, (w) => Math.ceil(w / quantum));
      const fitsOn = (i: number, b: number): boolean => eligible[i]![b]! && qw[i]! <= qcap[b]!;
      const fitSum = qcap.map((_, b) => qw.reduce((a, w, i) => a + (fitsOn(i, b) ? w : 0), 0));
      const keptSessions = [...Array(n).keys()].filter((i) => [...Array(m).keys()].some((b) => fitsOn(i, b)));
      const keptNodes = [...Array(m).keys()].filter((b) => fitSum[b]! > 0);
      expect(Array.from(packed.sessionIndex)).toEqual(keptSessions);
      expect([...packed.nodeIndex].sort((a, b) => a - b)).toEqual(keptNodes);
      const mk = keptNodes.length;
      packed.nodeIndex.forEach((ob, b) => expect(packed.capacity[b]).toBe(Math.min(qcap[ob]!, fitSum[ob]!)));
      packed.sessionIndex.forEach((i, j) => {
        const credited: number[] = [];
        packed.nodeIndex.forEach((ob, b) => {
          const e = j * mk + b;
          expect(packed.candidate[e]).toBe(fitsOn(i, ob) ? 1 : 0);
          expect(packed.credit[e]).toBe(fitsOn(i, ob) ? credit[i]![ob]! : 0);
          if (fitsOn(i, ob) && credit[i]![ob]! > 0) credited.push(b);
        });
        const listed = Array.from(packed.creditNode.subarray(packed.creditStart[j], packed.creditStart[j + 1]));
        expect(listed.sort((a, b) => a - b)).toEqual(credited);
        expect(packed.limited[j]).toBe(problem.limited[i]);
      });
      // Keys: credit * (R + 1)(T + 1) + ready * (T + 1) + tokens per candidate pair, -1 elsewhere, when they fit.
      const R = BigInt(packed.ready.reduce((a, r) => a + r, 0));
      const T = BigInt(packed.tokens.reduce((a, t) => a + t, 0));
      const kmax = packed.sessionIndex.reduce(
        (a, i) => a + Math.max(0, ...credit[i]!.filter((_, b) => fitsOn(i, b))),
        0,
      );
      expect(packed.keyFits).toBe((BigInt(kmax) + 1n) * (R + 1n) * (T + 1n) <= (1n << 63n) - 1n);
      if (packed.keyFits) {
        packed.credit.forEach((k, e) => {
          const j = Math.floor(e / mk);
          const want =
            packed.candidate[e] === 1
              ? BigInt(k) * (R + 1n) * (T + 1n) + BigInt(packed.ready[j]!) * (T + 1n) + BigInt(packed.tokens[j]!)
              : -1n;
          expect(packed.key[e]).toBe(want);
        });
      }
    }),
    { numRuns },
  );
}
