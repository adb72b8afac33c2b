import { describe, expect, it } from 'vitest';
import { InvalidValueError, predictReport } from './helpers/internals.js';

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

  it('refuses a negative maxTicks, naming options.maxTicks', () => {
    expect(() => predictReport([], { maxTicks: -1 })).toThrow(
      new InvalidValueError('options.maxTicks must be a non-negative integer'),
    );
  });
});
