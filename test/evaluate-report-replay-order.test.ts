import { describe, expect, it } from 'vitest';
import type { CompletedToolCall, ToolCall } from './helpers/internals.js';
import {
  bernsteinBound,
  durationStats,
  InvalidValueError,
  predictReport,
  ReadinessPredictor,
} from './helpers/internals.js';

/**
 * The replay of the file comment of src/evaluate/readiness/report.ts written the plain way: every event
 * listed up front and sorted by (time, kind: return, start, tick; input position), then fed to a fresh
 * predictor. Returns the start-time errors per call and the ready decisions in order.
 */
function sortedReplay(calls: CompletedToolCall[], tick: number): { errors: number[]; decisions: boolean[] } {
  const events: [number, number, number][] = [];
  calls.forEach((c, i) => {
    events.push([c.returnedAt, 0, i], [c.startedAt, 1, i]);
    for (let k = 1; c.startedAt + k * tick < c.returnedAt; k++) events.push([c.startedAt + k * tick, 2, i]);
  });
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const p = new ReadinessPredictor();
  const errors: number[] = [];
  const decisions: boolean[] = [];
  for (const [t, kind, i] of events) {
    const c = calls[i]!;
    const running: ToolCall = { name: c.name, startedAt: c.startedAt };
    if (kind === 0) p.observe({ name: c.name, startedAt: c.startedAt, returnedAt: c.returnedAt, session: `#${i}` });
    else if (kind === 1) {
      const pr = p.predict(running, t, `#${i}`);
      errors[i] = Math.abs(pr.duration - (c.returnedAt - c.startedAt));
      if (c.startedAt < c.returnedAt) decisions.push(pr.ready);
    } else decisions.push(p.ready(running, t, `#${i}`));
  }
  return { errors, decisions };
}

/** A seeded trace: overlapping calls of three tools, durations 0 to 9 s, starts spread over 60 s. */
function trace(seed: number, n: number): CompletedToolCall[] {
  let x = seed;
  const next = (): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32;
  };
  const calls: CompletedToolCall[] = [];
  for (let i = 0; i < n; i++) {
    const startedAt = Math.floor(next() * 120) / 2;
    calls.push({ name: ['a', 'b', 'c'][i % 3]!, startedAt, returnedAt: startedAt + Math.floor(next() * 18) / 2 });
  }
  return calls;
}

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

  it.each([1, 2, 3, 4])('matches a replay of the sorted event list (trace %i)', (seed) => {
    const calls = trace(seed, 80);
    const { errors, decisions } = sortedReplay(calls, 1);
    const r = predictReport(calls);
    const within = errors.filter((e) => e <= 0.5).length;
    expect(r.ticks).toBe(decisions.length);
    expect(r.confusion.truePositive + r.confusion.falsePositive).toBe(decisions.filter((d) => d).length);
    expect(r.withinHalfSecond).toBe(within / calls.length);
    expect(r.meanAbsoluteError).toBeCloseTo(errors.reduce((a, e) => a + e, 0) / calls.length, 9);
  });

  it('keeps the probe states of calls without a session apart (keyed by input position)', () => {
    // Two calls of `x` started at 0, overdue from 5 under the default. With one probe state kept, each
    // query evicts the other call's state and opens a fresh probe: ready at every tick from 4 on (due within the 1 s horizon, then probed). Calls
    // sharing one state would have a single probe, then wait for the pushed-out estimate.
    const calls = [
      { name: 'x', startedAt: 0, returnedAt: 40 },
      { name: 'x', startedAt: 0, returnedAt: 40 },
    ];
    const r = predictReport(calls, { predictor: { maxProbedCalls: 1 } });
    expect(r.ticks).toBe(80);
    expect(r.confusion.truePositive + r.confusion.falsePositive).toBe(2 * 36);
  });

  it('keeps a returned sleep out of the history the replay predicts from', () => {
    // Two 1 s calls of bash and one `sleep 50`: the call starting at 60 is predicted from the two 1 s
    // calls alone (zero variance and range: exactly 1 s).
    const calls = [
      { name: 'bash', startedAt: 0, returnedAt: 50, command: 'sleep 50' },
      { name: 'bash', startedAt: 0, returnedAt: 1 },
      { name: 'bash', startedAt: 1, returnedAt: 2 },
      { name: 'bash', startedAt: 60, returnedAt: 61 },
    ];
    const r = predictReport(calls);
    expect(r.sources.sleep.count).toBe(1);
    expect(r.sources['tool-history']).toEqual({ count: 1, meanAbsoluteError: 0, withinHalfSecond: 1 });
  });

  it('counts an error of exactly 0.5 s as within half a second', () => {
    // The 5 s default against a 5.5 s call.
    const r = predictReport([{ name: 'x', startedAt: 0, returnedAt: 5.5 }]);
    expect(r.meanAbsoluteError).toBe(0.5);
    expect(r.withinHalfSecond).toBe(1);
    expect(r.sources.default.withinHalfSecond).toBe(1);
  });

  it('refuses a negative maxTicks, naming options.maxTicks', () => {
    expect(() => predictReport([], { maxTicks: -1 })).toThrow(
      new InvalidValueError('options.maxTicks must be a non-negative integer'),
    );
  });
});
