import { describe, expect, it } from 'vitest';
import { bernsteinBound, durationStats } from './helpers/internals.js';

describe('duration statistics', () => {
  it('gives one sample a variance of 0 (no spread), not 0 / 0', () => {
    expect(durationStats([5])).toEqual({ n: 1, mean: 5, variance: 0, range: 0 });
    expect(bernsteinBound(durationStats([5]), 0.2)).toBe(5);
  });

  it('uses the sample variance (n - 1) from two samples on', () => {
    expect(durationStats([1, 3]).variance).toBe(2);
  });
});
