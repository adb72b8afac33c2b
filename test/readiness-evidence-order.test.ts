import { describe, expect, it } from 'vitest';
import { bernsteinBound, durationStats } from './helpers/internals.js';
import { ReadinessPredictor } from './helpers/internals.js';
import type { ToolCall } from './helpers/internals.js';

/** A predictor whose "bash" history is 1, 1.5, 2 s and whose global history adds "edit" calls. */
function trained(): ReadinessPredictor {
  const p = new ReadinessPredictor();
  p.observe({ name: 'bash', startedAt: 0, returnedAt: 1 });
  p.observe({ name: 'bash', startedAt: 2, returnedAt: 3.5 });
  p.observe({ name: 'bash', startedAt: 4, returnedAt: 6 });
  p.observe({ name: 'edit', startedAt: 7, returnedAt: 7.5 });
  return p;
}

const bashBound = bernsteinBound(durationStats([1, 1.5, 2]), 0.2);
const globalBound = bernsteinBound(durationStats([1, 1.5, 2, 0.5]), 0.2);

describe('readiness evidence order', () => {
  it('uses the 5 s default with no history at all', () => {
    const p = new ReadinessPredictor();
    const tool = { name: 'bash', startedAt: 10 };
    expect(p.predict(tool, 10)).toMatchObject({ source: 'default', duration: 5, remaining: 5 });
    expect(p.remaining(tool, 12)).toBe(3);
  });

  it('falls through to the default while every history has fewer than 2 samples', () => {
    const p = new ReadinessPredictor();
    p.observe({ name: 'bash', startedAt: 0, returnedAt: 1 });
    expect(p.predict({ name: 'bash', startedAt: 10 }, 10).source).toBe('default');
  });

  it('falls through to the global history for a tool with fewer than 2 samples', () => {
    const p = trained();
    // "edit" has 1 sample; "grep" none: both use the bound over all 4 durations.
    expect(p.predict({ name: 'edit', startedAt: 10 }, 10)).toMatchObject({
      source: 'global-history',
      duration: globalBound,
    });
    expect(p.predict({ name: 'grep', startedAt: 10 }, 10)).toMatchObject({
      source: 'global-history',
      duration: globalBound,
    });
  });

  it('prefers the tool history over the global history', () => {
    expect(trained().predict({ name: 'bash', startedAt: 10 }, 10)).toMatchObject({
      source: 'tool-history',
      duration: bashBound,
    });
  });

  it('follows minSamples', () => {
    const p = new ReadinessPredictor({ minSamples: 4 });
    for (let i = 0; i < 3; i++) p.observe({ name: 'bash', startedAt: i, returnedAt: i + 1 });
    expect(p.predict({ name: 'bash', startedAt: 10 }, 10).source).toBe('default');
    p.observe({ name: 'bash', startedAt: 5, returnedAt: 6 });
    expect(p.predict({ name: 'bash', startedAt: 10 }, 10).source).toBe('tool-history');
  });

  it('prefers a parsed sleep over any history', () => {
    const tool = { name: 'bash', startedAt: 10, command: 'sleep 2.5 && cat out.log' };
    expect(trained().predict(tool, 10)).toMatchObject({ source: 'sleep', duration: 2.5 });
    // An unreadable sleep is no evidence: back to history.
    expect(trained().predict({ ...tool, command: 'sleep $T' }, 10).source).toBe('tool-history');
  });

  it('prefers an exposed progress over a sleep, extrapolating the rate since the start', () => {
    // 3 s elapsed at the report, 25% done: D = 3 / 0.25 = 12 s.
    const tool: ToolCall = { name: 'bash', startedAt: 10, command: 'sleep 2', progress: 0.25, reportedAt: 13 };
    expect(trained().predict(tool, 14)).toMatchObject({ source: 'progress', duration: 12, remaining: 8 });
    // Without reportedAt the fraction is read now: 4 s elapsed, D = 16.
    const { reportedAt: _, ...live } = tool;
    expect(trained().predict(live, 14)).toMatchObject({ source: 'progress', duration: 16 });
    // Zero progress gives no ETA: the sleep applies.
    expect(trained().predict({ ...tool, progress: 0 }, 14).source).toBe('sleep');
  });

  it('prefers an exposed deadline over progress, sleep and history', () => {
    const tool: ToolCall = { name: 'bash', startedAt: 10, command: 'sleep 2', progress: 0.5, deadline: 40 };
    expect(trained().predict(tool, 20)).toMatchObject({ source: 'deadline', duration: 30, remaining: 20 });
  });

  it('counts a returned call as ready whatever else it says', () => {
    const tool: ToolCall = { name: 'bash', startedAt: 10, command: 'sleep 100', deadline: 500, returnedAt: 11 };
    const p = trained();
    expect(p.ready(tool, 12)).toBe(true);
    expect(p.remaining(tool, 12)).toBe(0);
    expect(p.predict(tool, 12)).toMatchObject({ source: 'returned', duration: 1, ready: true, remaining: 0 });
  });

  it('says ready exactly when the predicted completion is within the horizon', () => {
    const p = new ReadinessPredictor();
    const tool = { name: 'bash', startedAt: 0, deadline: 10 };
    expect(p.ready(tool, 8.9)).toBe(false);
    expect(p.ready(tool, 9)).toBe(true); // 10 <= 9 + 1
    expect(p.ready(tool, 9.99)).toBe(true);
    const wide = new ReadinessPredictor({ horizon: 3 });
    expect(wide.ready(tool, 7)).toBe(true);
    expect(wide.ready(tool, 6.9)).toBe(false);
  });

  it('skips a call whose command holds a sleep when learning', () => {
    const p = new ReadinessPredictor();
    expect(p.observe({ name: 'bash', startedAt: 0, returnedAt: 60, command: 'sleep 60' })).toBe(false);
    expect(p.observe({ name: 'bash', startedAt: 0, returnedAt: 1, command: 'ls' })).toBe(true);
    expect(p.observe({ name: 'bash', startedAt: 0, returnedAt: 1 })).toBe(true);
    expect(p.toJSON().tools).toEqual([{ name: 'bash', durations: [1, 1], lastSampleAt: 1 }]);
  });
});
