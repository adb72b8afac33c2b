import { describe, expect, it } from 'vitest';
import { bernsteinBound, durationStats, InvalidValueError, predictReport } from './helpers/internals.js';

describe('predictReport replay order', () => {
  it('processes the returns at an instant before the starts at that instant', () => {
    // Two calls of `x` return at 2; the third starts at 2 and so sees both: its prediction rests on the
    // tool history (minSamples 2), whatever the input order.
    const returnedAt2 = [
      { name: 'x', startedAt: 0, returnedAt: 2 },
      { name: 'x', startedAt: 1, returnedAt: 2 },
    ];
    const startsAt2 = { name: 'x', startedAt: 2, returnedAt: 3 };
    for (const calls of [
      [startsAt2, ...returnedAt2],
      [returnedAt2[0]!, startsAt2, returnedAt2[1]!],
      [...returnedAt2, startsAt2],
    ]) {
      const r = predictReport(calls);
      expect(r.sources['tool-history'].count).toBe(1);
      expect(r.sources.default.count).toBe(2);
    }
  });

  it('observes the returns at one instant in input order', () => {
    // Three calls of `x` return at 5 (durations 5, 4, 3); the window keeps 2, so the call starting at 6
    // is predicted from the last two observed: 4 and 3 in input order.
    const calls = [
      { name: 'x', startedAt: 0, returnedAt: 5 },
      { name: 'x', startedAt: 1, returnedAt: 5 },
      { name: 'x', startedAt: 2, returnedAt: 5 },
      { name: 'x', startedAt: 6, returnedAt: 7 },
    ];
    const r = predictReport(calls, { predictor: { window: 2, delta: 0.2 } });
    const predicted = bernsteinBound(durationStats([4, 3]), 0.2);
    expect(r.sources['tool-history'].count).toBe(1);
    expect(r.sources['tool-history'].meanAbsoluteError).toBeCloseTo(Math.abs(predicted - 1), 12);
  });

  it('refuses a negative maxTicks, naming options.maxTicks', () => {
    expect(() => predictReport([], { maxTicks: -1 })).toThrow(
      new InvalidValueError('options.maxTicks must be a non-negative integer'),
    );
  });
});
