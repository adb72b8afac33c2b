import { describe, expect, it } from 'vitest';
import { ReadinessPredictor } from './helpers/internals.js';

describe('readiness freshness (a prediction older than 30 s does not make r = 1)', () => {
  it('denies a due prediction whose evidence dates from more than 30 s ago', () => {
    // The default duration is fixed at launch: refreshed at startedAt.
    const long = new ReadinessPredictor({ defaultDuration: 40 });
    expect(long.predict({ name: 'x', startedAt: 0 }, 39.5)).toMatchObject({
      refreshedAt: 0,
      remaining: 0.5,
      ready: false,
    });
    // Same call, a 30 s-or-younger prediction: ready.
    const short = new ReadinessPredictor({ defaultDuration: 20 });
    expect(short.ready({ name: 'x', startedAt: 0 }, 19.5)).toBe(true);
    // The 40 s prediction is ready when freshness allows it: freshness, not the duration, denied it.
    expect(
      new ReadinessPredictor({ defaultDuration: 40, freshness: 60 }).ready({ name: 'x', startedAt: 0 }, 39.5),
    ).toBe(true);
  });

  it('counts exactly freshness seconds as fresh', () => {
    const p = new ReadinessPredictor({ defaultDuration: 30.5 });
    expect(p.ready({ name: 'x', startedAt: 0 }, 30)).toBe(true);
    expect(new ReadinessPredictor({ defaultDuration: 30.6 }).ready({ name: 'x', startedAt: 0 }, 30.1)).toBe(false);
  });

  it('dates a sleep by the call start', () => {
    const p = new ReadinessPredictor();
    expect(p.ready({ name: 'bash', startedAt: 0, command: 'sleep 20' }, 19.5)).toBe(true);
    expect(p.predict({ name: 'bash', startedAt: 0, command: 'sleep 45' }, 44.5)).toMatchObject({
      source: 'sleep',
      ready: false,
    });
  });

  it('dates a deadline by its report, else by the call start', () => {
    const p = new ReadinessPredictor();
    const tool = { name: 'ci', startedAt: 0, deadline: 100 };
    expect(p.ready(tool, 99.5)).toBe(false);
    expect(p.ready({ ...tool, reportedAt: 80 }, 99.5)).toBe(true);
    expect(p.ready({ ...tool, reportedAt: 69 }, 99.5)).toBe(false);
  });

  it('dates progress by its report, else reads it as current', () => {
    const p = new ReadinessPredictor();
    // Reported at 10 with 20% done: D = 50, due at 50, but the report is 39.5 s old at 49.5.
    expect(p.predict({ name: 'x', startedAt: 0, progress: 0.2, reportedAt: 10 }, 49.5)).toMatchObject({
      source: 'progress',
      duration: 50,
      ready: false,
    });
    // Read now (49.5 s elapsed, 99% done): D = 50, fresh.
    expect(p.ready({ name: 'x', startedAt: 0, progress: 0.99 }, 49.5)).toBe(true);
  });

  it('refreshes a history prediction when the history gains a sample', () => {
    const p = new ReadinessPredictor();
    // Two 50 s calls: zero spread, D = 50 exactly; last sample at -50.
    p.observe({ name: 'build', startedAt: -150, returnedAt: -100 });
    p.observe({ name: 'build', startedAt: -100, returnedAt: -50 });
    const tool = { name: 'build', startedAt: 0 };
    expect(p.predict(tool, 49.5)).toMatchObject({ source: 'tool-history', duration: 50, refreshedAt: 0, ready: false });
    // A third 50 s call returns at 40: same D, evidence refreshed at 40.
    p.observe({ name: 'build', startedAt: -10, returnedAt: 40 });
    expect(p.predict(tool, 49.5)).toMatchObject({ duration: 50, refreshedAt: 40, ready: true });
  });

  it('refreshes a global-history prediction when any tool gains a sample', () => {
    const p = new ReadinessPredictor();
    p.observe({ name: 'a', startedAt: -150, returnedAt: -100 });
    p.observe({ name: 'b', startedAt: -100, returnedAt: -50 });
    expect(p.predict({ name: 'c', startedAt: 0 }, 49.5)).toMatchObject({
      source: 'global-history',
      duration: 50,
      ready: false,
    });
    p.observe({ name: 'd', startedAt: -10, returnedAt: 40 });
    expect(p.predict({ name: 'c', startedAt: 0 }, 49.5)).toMatchObject({
      source: 'global-history',
      refreshedAt: 40,
      ready: true,
    });
  });
});
