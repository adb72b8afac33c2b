/**
 * The cardinality ceiling's multiplier search (src/solve/dp/surrogate-core/cardinality.ts) ends in a few
 * probes however large the profits: each probe lands strictly inside the bracket, so a search over
 * multipliers near 2^39 or 2^52 takes tens of steps, not one per integer, and never cycles where the
 * tangents' meeting point rounds onto the bracket's end.
 */
import { describe, expect, it } from 'vitest';
import { cardinalityCeiling } from './helpers/internals.js';
import { enumerateKnapsack } from './oracles/knapsack.js';

const all = (k: number): Int32Array => Int32Array.from({ length: k }, (_, i) => i);

describe('cardinality ceiling search', () => {
  it.each([
    // One item fits alone: the ceiling is that item's profit, found at a multiplier near 5.3e11.
    { w: [1921, 21, 567], p: [33836225, 129448401, 58788257], cap: 48 },
    { w: [1921, 21, 567, 30], p: [33836225, 129448401, 58788257, 100000007], cap: 52 },
  ])('reaches the optimum on profits near 2^39 without probing every multiplier (%j, profits times 4096)', (c) => {
    const p = c.p.map((x) => x * 4096);
    const optimum = enumerateKnapsack(c.w, p, c.cap).value;
    expect(cardinalityCeiling(all(c.w.length), c.w.length, p, c.w, c.cap)).toBe(optimum);
  });

  it('ends, with no exact ceiling, on profits near 2^52 where the tangents meet within rounding of the bracket', () => {
    const w = [49565794305, 270146207745, 719128577, 102, 87458, 7602952, 68128, 256528897, 128, 233036, 8, 660382];
    const p = [
      3548214217146369, 3498607344877569, 1711050546216961, 992734445830145, 3264093674799105, 257433360400385,
      116449045643265, 3798678707896321, 1863466587521025, 3879504908910593, 2934807524802561, 1184932621713409,
    ];
    expect(cardinalityCeiling(all(w.length), w.length, p, w, 53481336628)).toBe(Number.POSITIVE_INFINITY);
  });
});
