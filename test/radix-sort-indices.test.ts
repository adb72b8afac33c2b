/**
 * The radix sort of the triple orders gives the order `Array.prototype.sort` gives under the comparator
 * over the same keys broken by index: keys of one to four bytes, shared bytes, both directions, lists
 * past RADIX_MIN_LENGTH, number[] and Int32Array; it refuses (and leaves the list as it was) values
 * that are not integers from 0 to 2^32 - 1 and lists that are not ascending. The triple orders built on
 * it equal their comparator definitions on long lists.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RADIX_MIN_LENGTH, radixSortIndices } from './helpers/internals.js';
import { bfdValueOrder, frontierOrder, prepare, tokensOrder } from './helpers/internals.js';
import { randomTickProblem } from './helpers/internals.js';

/** Values from a few classes: small, byte-sized, two bytes shared high, the extremes of 32 bits. */
const value = fc.oneof(
  fc.integer({ min: 0, max: 3 }),
  fc.integer({ min: 0, max: 255 }),
  fc.integer({ min: 0x1234_0000, max: 0x1234_00ff }),
  fc.constantFrom(0, 1, 0xffff_ffff, 0xffff_fffe, 2 ** 31, 2 ** 31 - 1),
  fc.integer({ min: 0, max: 0xffff_ffff }),
);

describe('radixSortIndices', () => {
  it('orders indices as Array.prototype.sort does under the keys, ties by index', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((k) =>
          fc.record({
            rows: fc.array(fc.array(value, { minLength: k, maxLength: k }), { maxLength: 400 }),
            descending: fc.array(fc.boolean(), { minLength: k, maxLength: k }),
          }),
        ),
        fc.nat(400),
        ({ rows, descending }, cut) => {
          const n = rows.length;
          const length = Math.min(cut, n);
          const keys = descending.map((d, k) => ({ values: rows.map((r) => r[k]!), descending: d }));
          const compare = (a: number, b: number): number => {
            for (const { values, descending: d } of keys) {
              const diff = d ? values[b]! - values[a]! : values[a]! - values[b]!;
              if (diff !== 0) return diff;
            }
            return a - b;
          };
          const start = Array.from(rows, (_, i) => i);
          const expected = [...start.slice(0, length).sort(compare), ...start.slice(length)];
          const list = start.slice();
          expect(radixSortIndices(list, length, keys)).toBe(true);
          expect(list).toEqual(expected);
          const typed = Int32Array.from(start);
          expect(radixSortIndices(typed, length, keys)).toBe(true);
          expect(Array.from(typed)).toEqual(expected);
        },
      ),
    );
  });

  it('reads only the first `length` entries: what a reused buffer holds past them does not matter', () => {
    // Past `length`, a smaller index than the last one sorted (as a buffer reused from a longer list holds).
    for (const make of [(xs: number[]) => xs, (xs: number[]) => Int32Array.from(xs)]) {
      const list = make([0, 1, 2, 3, 0, 0]);
      expect(radixSortIndices(list, 4, [{ values: [5, 7, 6, 4], descending: true }])).toBe(true);
      expect(Array.from(list)).toEqual([1, 2, 0, 3, 0, 0]);
    }
  });

  it('refuses values outside 0..2^32 - 1 or not integers, and lists that are not ascending, leaving them as they were', () => {
    for (const bad of [-1, 2 ** 32, 1.5, Number.NaN]) {
      const list = [0, 1, 2, 3];
      expect(radixSortIndices(list, 4, [{ values: [3, bad, 1, 0], descending: false }])).toBe(false);
      expect(list).toEqual([0, 1, 2, 3]);
    }
    const shuffled = [2, 0, 1];
    expect(radixSortIndices(shuffled, 3, [{ values: [1, 2, 3], descending: false }])).toBe(false);
    expect(shuffled).toEqual([2, 0, 1]);
    const repeated = [0, 0, 1];
    expect(radixSortIndices(repeated, 3, [{ values: [1, 2, 3], descending: false }])).toBe(false);
  });
});

describe('the triple orders past RADIX_MIN_LENGTH', () => {
  it('equal their comparator definitions', () => {
    for (const seed of [1, 2, 3]) {
      const problem = randomTickProblem(seed, {
        nodes: 4,
        sessions: 4 * RADIX_MIN_LENGTH,
        capacity: 360_000,
        minTokens: 2000,
        maxTokens: 40_000,
        cachedRate: 0.7,
      });
      // Ties on every level: a few distinct credits, tokens and weights.
      problem.sessions = problem.sessions.map((s, i) => {
        const tokens = 2000 * (1 + (i % 5));
        const credit =
          s.credit === undefined
            ? undefined
            : Object.fromEntries(Object.keys(s.credit).map((id) => [id, 1000 * (i % 4)]));
        return { ...s, tokens, weight: tokens + 512 * (i % 3), ready: i % 2 === 0, ...(credit ? { credit } : {}) };
      });
      const { packed } = prepare(problem);
      const n = packed.qweight.length;
      expect(n).toBeGreaterThanOrEqual(RADIX_MIN_LENGTH);
      const best = new Float64Array(n);
      for (let j = 0; j < n; j++)
        for (let e = packed.creditStart[j]!; e < packed.creditStart[j + 1]!; e++) {
          const b = packed.creditNode[e]!;
          best[j] = Math.max(best[j]!, packed.credit[j * packed.qcapacity.length + b]!);
        }
      const byTriple = (sign: number) => (a: number, b: number) =>
        best[b]! - best[a]! ||
        packed.ready[b]! - packed.ready[a]! ||
        packed.tokens[b]! - packed.tokens[a]! ||
        sign * (packed.weight[a]! - packed.weight[b]!) ||
        a - b;
      const all = Array.from({ length: n }, (_, j) => j);
      expect(bfdValueOrder(packed, best)).toEqual([...all].sort(byTriple(-1)));
      expect(frontierOrder(packed, best)).toEqual([...all].sort(byTriple(1)));
      expect(tokensOrder(packed)).toEqual(
        [...all].sort(
          (a, b) => packed.tokens[b]! - packed.tokens[a]! || packed.weight[b]! - packed.weight[a]! || a - b,
        ),
      );
    }
  });
});
