/**
 * The cardinality ceiling (src/solve/dp/surrogate-core/cardinality.ts) is +Infinity, never a rounded
 * number, where one of its exact-integer terms reaches 2^53: each case below reaches it in one place only,
 * at 2^53 exactly or past it, at the multiplier the search ends on (or at multiplier 0, where no search
 * runs). A ceiling that let the term through would come out finite, and no longer exact.
 */
import { describe, expect, it } from 'vitest';
import { cardinalityCeiling } from './helpers/internals.js';

const all = (k: number): Int32Array => Int32Array.from({ length: k }, (_, i) => i);
const P = 2 ** 52;

describe('cardinality ceiling at 2^53', () => {
  it.each([
    // Three items of weight 2 within 5 (at most two fit): the search ends on lambda = 2^52 and 2^52 + 1,
    // and lambda times kmax = 2 is 2^53 at the lower end and past it at the upper.
    { at: 'the multiplier term at 2^53 exactly', w: [2, 2, 2], p: [P + 11, P + 11, P + 1], cap: 5 },
    // The same past 2^53 at both ends (lambda = 2^52 + 19 and + 20).
    {
      at: 'the multiplier term past 2^53',
      w: [32, 64, 16, 1, 32],
      p: [P - 1, P + 10, P + 31, P + 20, P + 35],
      cap: 26,
    },
    // The search ends on lambda = 2^52 - 1 (the multiplier term below 2^53) and 2^52 (at 2^53); at the lower
    // end the last item's reduced profit, 2^51 - 2^52, times the break item's weight 4 is -2^53 exactly.
    {
      at: "a profit below the multiplier, times the break item's weight, at -2^53",
      w: [4, 4, 4, 4],
      p: [P + 10, P + 10, P, 2 ** 51 - 1],
      cap: 10,
    },
    // No search (at lambda = 0 the relaxation holds at most kmax items): the break item's profit, 2^48, times
    // the first item's weight, 32, is 2^53 exactly.
    {
      at: "the break item's profit times another weight, at 2^53 exactly",
      w: [32, 1, 1, 1, 4, 1],
      p: [2 ** 48, 56, P / 2 - 2, 2 ** 49, 37, 2 ** 48],
      cap: 2,
    },
    // No search: the break item's profit times the capacity is 2^53 - 160, and the item above it adds 160.
    { at: 'the sum after the items at 2^53 exactly', w: [20, 20, 1], p: [2 ** 48 + 3, 2 ** 48 - 5, 1], cap: 32 },
    // No search: the terms of the items above the break item pass 2^53 only when summed (each is below it).
    { at: 'the sum after the items past 2^53', w: [2, 1, 2], p: [P - 45, 58, 45], cap: 3 },
  ])('is +Infinity where $at', ({ w, p, cap }) => {
    expect(cardinalityCeiling(all(w.length), w.length, p, w, cap)).toBe(Number.POSITIVE_INFINITY);
  });
});
