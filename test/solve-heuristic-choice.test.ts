/**
 * How the fallback heuristics are compared and named: `lexBetter` is the strict lexicographic order of
 * (credit, ready, tokens) triples, checked against a comparison of exact BigInt keys built with a radix
 * above every component; `fallbackPath` names a plan from either BFD order `bfd`, from a credit greedy
 * `heuristic`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fallbackPath, HEURISTICS, lexBetter } from './helpers/internals.js';

describe('lexBetter', () => {
  it('decides on tokens when credit and ready tie', () => {
    expect(lexBetter([3, 2, 5], [3, 2, 4])).toBe(true);
    expect(lexBetter([3, 2, 4], [3, 2, 5])).toBe(false);
    expect(lexBetter([3, 2, 4], [3, 2, 4])).toBe(false);
  });

  it('decides on ready before tokens, and on credit before both', () => {
    expect(lexBetter([3, 3, 0], [3, 2, 9])).toBe(true);
    expect(lexBetter([4, 0, 0], [3, 9, 9])).toBe(true);
    expect(lexBetter([3, 9, 9], [4, 0, 0])).toBe(false);
  });

  it('is the order of exact keys with a radix above every component', () => {
    const component = fc.oneof(fc.constantFrom(0, 1, 2), fc.integer({ min: 0, max: 1000 }));
    const triple = fc.tuple(component, component, component);
    const key = ([c, r, t]: [number, number, number]) => (BigInt(c) * 1001n + BigInt(r)) * 1001n + BigInt(t);
    fc.assert(
      fc.property(triple, triple, (a, b) => {
        expect(lexBetter(a, b)).toBe(key(a) > key(b));
      }),
      { numRuns: 2000, seed: 45 },
    );
  });
});

describe('fallbackPath', () => {
  it('names both BFD orders bfd and both greedy orders heuristic', () => {
    expect(HEURISTICS.map((h) => [h, fallbackPath(h)])).toEqual([
      ['bfd', 'bfd'],
      ['bfd-tokens', 'bfd'],
      ['credit-greedy-density', 'heuristic'],
      ['credit-greedy-value', 'heuristic'],
    ]);
  });
});
