import { describe, expect, it } from 'vitest';
import { bernsteinBound, durationStats } from './helpers/internals.js';
import { ReadinessPredictor } from './helpers/internals.js';

describe('predictor memory bounds', () => {
  it('keeps the last `window` durations per tool and bounds on those only', () => {
    const p = new ReadinessPredictor({ window: 3 });
    for (const d of [100, 50, 1, 2, 3]) p.observe({ name: 'bash', startedAt: 0, returnedAt: d });
    expect(p.toJSON().tools).toEqual([{ name: 'bash', durations: [1, 2, 3], lastSampleAt: 100 }]);
    expect(p.predict({ name: 'bash', startedAt: 0 }, 0).duration).toBe(bernsteinBound(durationStats([1, 2, 3]), 0.2));
  });

  it('keeps the last `globalWindow` durations over all tools', () => {
    const p = new ReadinessPredictor({ globalWindow: 4 });
    for (let i = 0; i < 1000; i++) p.observe({ name: `t${i % 7}`, startedAt: 0, returnedAt: i });
    expect(p.toJSON().global).toEqual({ durations: [996, 997, 998, 999], lastSampleAt: 999 });
  });

  it('keeps at most `maxTools` histories, evicting the least recently observed', () => {
    const p = new ReadinessPredictor({ maxTools: 2 });
    const obs = (name: string, d: number): void => void p.observe({ name, startedAt: 0, returnedAt: d });
    obs('a', 1);
    obs('a', 1);
    obs('b', 2);
    obs('b', 2);
    obs('a', 1); // a is now the most recent: b goes next
    obs('c', 3);
    expect(p.toJSON().tools.map((t) => t.name)).toEqual(['a', 'c']);
    // b lost its history: its calls fall back to the global one.
    expect(p.predict({ name: 'b', startedAt: 0 }, 0).source).toBe('global-history');
    expect(p.predict({ name: 'a', startedAt: 0 }, 0).source).toBe('tool-history');
    for (let i = 0; i < 500; i++) obs(`x${i}`, 1);
    expect(p.toJSON().tools.length).toBe(2);
  });

  it('keeps at most `maxProbedCalls` probe states, evicting the least recently probed', () => {
    const p = new ReadinessPredictor({ maxProbedCalls: 2 });
    for (const s of ['a', 'b', 'c']) p.ready({ name: 'x', startedAt: 0 }, 5, s);
    expect(p.toJSON().probes.map((s) => s.key)).toEqual(['b', 'c']);
    // Without a session each call has its own state: still at most 2.
    for (let i = 0; i < 500; i++) p.ready({ name: 'x', startedAt: i }, i + 6);
    expect(p.toJSON().probes.map((s) => s.startedAt)).toEqual([498, 499]);
  });
});
