import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import type { CompletedToolCall } from './helpers/internals.js';
import { predictReport } from './helpers/internals.js';

describe('predict-report on a hand-checkable trace', () => {
  // Defaults: H = tick = 1 s, 5 s default, 2 samples minimum.
  const calls: CompletedToolCall[] = [
    { name: 'bash', startedAt: 0, returnedAt: 2 }, // c0
    { name: 'bash', startedAt: 1, returnedAt: 4 }, // c1
    { name: 'bash', startedAt: 5, returnedAt: 6 }, // c2
    { name: 'wait', startedAt: 5, returnedAt: 7.2, command: 'sleep 2' }, // c3
    { name: 'ci', startedAt: 6, returnedAt: 9, deadline: 9.4 }, // c4
  ];
  const ln15 = Math.log(3 / 0.2);
  // c2 starts at 5 after c0 (2 s) and c1 (3 s) returned: mean 2.5, variance 0.5, range 1, n 2.
  const c2Bound = 2.5 + Math.sqrt((2 * 0.5 * ln15) / 2) + (3 * 1 * ln15) / 2; // 7.7257...
  // Start-time errors: c0 |5 - 2| = 3 (default), c1 |5 - 3| = 2 (default, c0 not back yet),
  // c2 |7.7257 - 1| (tool history), c3 |2 - 2.2| = 0.2 (sleep), c4 |3.4 - 3| = 0.4 (deadline).
  const errors = [3, 2, c2Bound - 1, 0.2, 0.4];

  it('reports count, MAE, share within 0.5 s and the sources', () => {
    const r = predictReport(calls);
    expect(r.count).toBe(5);
    expect(r.meanAbsoluteError).toBeCloseTo(errors.reduce((a, b) => a + b) / 5, 12);
    expect(r.meanAbsoluteError).toBeCloseTo(2.465142, 5);
    expect(r.withinHalfSecond).toBe(2 / 5);
    expect(r.sources.default).toEqual({ count: 2, meanAbsoluteError: 2.5, withinHalfSecond: 0 });
    expect(r.sources['tool-history'].count).toBe(1);
    expect(r.sources['tool-history'].meanAbsoluteError).toBeCloseTo(c2Bound - 1, 12);
    expect(r.sources.sleep.count).toBe(1);
    expect(r.sources.sleep.meanAbsoluteError).toBeCloseTo(0.2, 12);
    expect(r.sources.sleep.withinHalfSecond).toBe(1);
    expect(r.sources.deadline.count).toBe(1);
    expect(r.sources.deadline.meanAbsoluteError).toBeCloseTo(0.4, 12);
    expect(r.sources['global-history']).toEqual({ count: 0, meanAbsoluteError: null, withinHalfSecond: null });
    expect(r.sources.progress.count).toBe(0);
  });

  it('reports the confusion matrix of the per-tick ready decisions', () => {
    // tick: decision (why) vs truth (returnedAt <= tick + 1)
    // c0 (due 5):     0 no / no -> TN;  1 no / yes (2 <= 2) -> FN
    // c1 (due 6):     1 no / no -> TN;  2 no / no -> TN;  3 no / yes -> FN
    // c2 (due 12.7):  5 no / yes -> FN
    // c3 (due 7):     5 no / no -> TN;  6 yes (7 <= 7, fresh) / no (7.2 > 7) -> FP;
    //                 7 yes (overdue: probe [7, 8)) / yes -> TP
    // c4 (due 9.4):   6 no / no -> TN;  7 no / no -> TN;  8 no (9.4 > 9) / yes -> FN
    const r = predictReport(calls);
    expect(r.ticks).toBe(12);
    expect(r.confusion).toEqual({ truePositive: 1, falsePositive: 1, falseNegative: 4, trueNegative: 6 });
  });

  it('does not depend on the order of the input', () => {
    const a = predictReport(calls);
    const b = predictReport([...calls].reverse().map((c, i) => ({ ...c, session: `s${4 - i}` })));
    expect(b.confusion).toEqual(a.confusion);
    expect(b.meanAbsoluteError).toBeCloseTo(a.meanAbsoluteError!, 12);
    expect(b.sources).toEqual(a.sources);
  });

  it('uses a return at the same instant as a start (returns are processed first)', () => {
    const r = predictReport([
      { name: 'x', startedAt: 0, returnedAt: 1 },
      { name: 'x', startedAt: 1, returnedAt: 2 },
      { name: 'x', startedAt: 2, returnedAt: 3 }, // both back by 2: history 1, 1 -> D = 1 exactly
    ]);
    expect(r.sources['tool-history']).toEqual({ count: 1, meanAbsoluteError: 0, withinHalfSecond: 1 });
  });
});

describe('predict-report on generated traces', () => {
  const arbTrace = fc.array(
    fc.record({
      name: fc.constantFrom('bash', 'edit', 'ci'),
      startedAt: fc.integer({ min: 0, max: 400 }).map((x) => x / 4),
      duration: fc.integer({ min: 0, max: 100 }).map((x) => x / 8),
    }),
    { maxLength: 40 },
  );

  it('gives a perfect score when every call exposes its true return as a deadline', () => {
    fc.assert(
      fc.property(arbTrace, (trace) => {
        const calls = trace.map((c) => ({
          name: c.name,
          startedAt: c.startedAt,
          returnedAt: c.startedAt + c.duration,
          deadline: c.startedAt + c.duration,
        }));
        const r = predictReport(calls);
        expect(r.count).toBe(calls.length);
        expect(r.sources.deadline.count).toBe(calls.length);
        if (calls.length > 0) {
          expect(r.meanAbsoluteError).toBe(0);
          expect(r.withinHalfSecond).toBe(1);
        }
        // Durations are under 30 s, so every deadline is fresh: ready exactly when it returns within H.
        expect(r.confusion.falsePositive).toBe(0);
        expect(r.confusion.falseNegative).toBe(0);
      }),
    );
  });

  it('counts every call once and every tick once', () => {
    fc.assert(
      fc.property(arbTrace, fc.constantFrom(0.25, 0.5, 1), (trace, tick) => {
        const calls = trace.map((c) => ({
          name: c.name,
          startedAt: c.startedAt,
          returnedAt: c.startedAt + c.duration,
        }));
        const r = predictReport(calls, { tick });
        const bySource = Object.values(r.sources).reduce((a, s) => a + s.count, 0);
        expect(bySource).toBe(calls.length);
        // Ticks at startedAt + k * tick while < returnedAt (the grids are exact in binary).
        const ticks = calls.reduce((a, c) => a + Math.ceil((c.returnedAt - c.startedAt) / tick), 0);
        expect(r.ticks).toBe(ticks);
        const c = r.confusion;
        expect(c.truePositive + c.falsePositive + c.falseNegative + c.trueNegative).toBe(ticks);
      }),
    );
  });
});

describe('predict-report input checks', () => {
  it.each<[string, unknown, typeof InvalidTypeError | typeof InvalidValueError, string]>([
    ['not an array', {}, InvalidTypeError, 'calls must be an array'],
    [
      'a returned-before-start call',
      [{ name: 'x', startedAt: 2, returnedAt: 1 }],
      InvalidValueError,
      'calls[0].returnedAt must not be before calls[0].startedAt',
    ],
    [
      'an unknown field',
      [{ name: 'x', startedAt: 0, returnedAt: 1, eta: 2 }],
      InvalidValueError,
      'calls[0].eta is not a known field',
    ],
    [
      'a deadline before start',
      [{ name: 'x', startedAt: 3, returnedAt: 4, deadline: 2 }],
      InvalidValueError,
      'calls[0].deadline must not be before calls[0].startedAt',
    ],
    ['a missing name', [{ startedAt: 0, returnedAt: 1 }], InvalidTypeError, 'calls[0].name must be a string'],
  ])('rejects %s', (_name, calls, cls, message) => {
    expect(() => predictReport(calls as never)).toThrow(cls);
    expect(() => predictReport(calls as never)).toThrow(new cls(message));
  });

  it('refuses a trace needing more ticks than maxTicks', () => {
    expect(() => predictReport([{ name: 'x', startedAt: 0, returnedAt: 100 }], { maxTicks: 99 })).toThrow(
      new InvalidValueError('calls need 100 ready decisions at tick 1 s, above options.maxTicks (99)'),
    );
  });

  it('checks its options', () => {
    expect(() => predictReport([], { tick: 0 })).toThrow(
      new InvalidValueError('options.tick must be a positive finite number'),
    );
    expect(() => predictReport([], { predictor: { delta: 3 } })).toThrow(
      new InvalidValueError('options.predictor.delta must be a number in (0, 1)'),
    );
    expect(() => predictReport([], { horizon: 1 } as never)).toThrow(
      new InvalidValueError('options.horizon is not a known field'),
    );
  });

  it('reports nulls for an empty trace', () => {
    const r = predictReport([]);
    expect(r).toMatchObject({ count: 0, meanAbsoluteError: null, withinHalfSecond: null, ticks: 0 });
  });
});
