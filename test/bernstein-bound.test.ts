import { describe, expect, it } from 'vitest';
import { bernsteinBound, durationStats } from './helpers/internals.js';
import { ReadinessPredictor } from './helpers/internals.js';

describe('empirical Bernstein bound', () => {
  it('matches the hand computation for durations 2, 4, 6 s at delta 0.2', () => {
    // n = 3, mean = 4, sample variance = ((2-4)^2 + 0 + (6-4)^2) / (3 - 1) = 4, range = 6 - 2 = 4,
    // ln(3 / 0.2) = ln 15 = 2.7080502...
    // D = 4 + sqrt(2 * 4 * ln15 / 3) + 3 * 4 * ln15 / 3
    //   = 4 + sqrt(7.2214672) + 10.8322008 = 4 + 2.6872787 + 10.8322008 = 17.5194795
    const ln15 = Math.log(15);
    const byHand = 4 + Math.sqrt((2 * 4 * ln15) / 3) + (3 * 4 * ln15) / 3;
    expect(byHand).toBeCloseTo(17.5194795, 6);

    expect(durationStats([2, 4, 6])).toEqual({ n: 3, mean: 4, variance: 4, range: 4 });
    expect(bernsteinBound({ n: 3, mean: 4, variance: 4, range: 4 }, 0.2)).toBeCloseTo(byHand, 12);

    const p = new ReadinessPredictor();
    p.observe({ name: 'grep', startedAt: 0, returnedAt: 2 });
    p.observe({ name: 'grep', startedAt: 10, returnedAt: 14 });
    p.observe({ name: 'grep', startedAt: 20, returnedAt: 26 });
    const prediction = p.predict({ name: 'grep', startedAt: 100 }, 100);
    expect(prediction.source).toBe('tool-history');
    expect(prediction.duration).toBeCloseTo(byHand, 12);
    // Remaining = D - elapsed.
    expect(p.remaining({ name: 'grep', startedAt: 100 }, 107)).toBeCloseTo(byHand - 7, 12);
  });

  it('matches the hand computation for two equal samples (no spread, no correction)', () => {
    const p = new ReadinessPredictor();
    p.observe({ name: 'edit', startedAt: 0, returnedAt: 0.25 });
    p.observe({ name: 'edit', startedAt: 1, returnedAt: 1.25 });
    // variance 0, range 0: D is the mean.
    expect(p.predict({ name: 'edit', startedAt: 5 }, 5).duration).toBe(0.25);
  });

  it('reads a ring buffer oldest first', () => {
    // Ring [6, 2, 4] starting at index 1 is the sample 2, 4, 6.
    expect(durationStats(new Float64Array([6, 2, 4]), 1, 3)).toEqual({ n: 3, mean: 4, variance: 4, range: 4 });
    expect(durationStats([])).toEqual({ n: 0, mean: 0, variance: 0, range: 0 });
  });

  it('shrinks toward the mean as samples accumulate', () => {
    const bounds = [2, 8, 32, 128].map((n) => {
      const values = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 1 : 3));
      return bernsteinBound(durationStats(values), 0.2);
    });
    for (let i = 1; i < bounds.length; i++) expect(bounds[i]!).toBeLessThan(bounds[i - 1]!);
    expect(bounds[3]! - 2).toBeLessThan(0.5);
  });
});
