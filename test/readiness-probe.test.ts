import { describe, expect, it } from 'vitest';
import { ReadinessPredictor } from './helpers/internals.js';
import type { ToolCall } from './helpers/internals.js';

/** Times in [from, to) on a `step` grid at which `ready` says yes. */
function readyTimes(
  p: ReadinessPredictor,
  tool: ToolCall | ((t: number) => ToolCall),
  from: number,
  to: number,
  step: number,
): number[] {
  const out: number[] = [];
  for (let k = 0; from + k * step < to; k++) {
    const t = from + k * step;
    if (p.ready(typeof tool === 'function' ? tool(t) : tool, t)) out.push(t);
  }
  return out;
}

describe('overdue probes', () => {
  it('opens one probe window at the predicted completion, then pushes the estimate to double the elapsed time', () => {
    const p = new ReadinessPredictor(); // 5 s default, H = probe window = 1 s, 3 probes
    const tool = { name: 'bash', startedAt: 0 };
    expect(p.ready(tool, 4)).toBe(true); // due within H, fresh
    expect(p.predict(tool, 5)).toMatchObject({ ready: true, probing: true, probes: 1, remaining: 0 });
    expect(p.ready(tool, 5.5)).toBe(true);
    // Closed at 6; estimate pushed to 2 * 6 = 12.
    expect(p.ready(tool, 6)).toBe(false);
    expect(p.remaining(tool, 6)).toBe(6);
    expect(p.ready(tool, 11.9)).toBe(false);
    // Second probe [12, 13), estimate then 26; third [26, 27), estimate then 54.
    expect(p.predict(tool, 12)).toMatchObject({ ready: true, probes: 2 });
    expect(p.ready(tool, 13)).toBe(false);
    expect(p.remaining(tool, 13)).toBe(13);
    expect(p.predict(tool, 26)).toMatchObject({ ready: true, probes: 3 });
    expect(p.ready(tool, 27)).toBe(false);
    // Probes exhausted: not ready again, the estimate keeps doubling (54, then 108).
    expect(p.ready(tool, 54)).toBe(false);
    expect(p.remaining(tool, 40)).toBe(14);
    expect(p.remaining(tool, 54)).toBe(54);
    expect(p.ready(tool, 1e6)).toBe(false);
  });

  it('bounds the ready time of an overdue call by maxProbes * probeWindow', () => {
    const p = new ReadinessPredictor();
    const times = readyTimes(p, { name: 'bash', startedAt: 0 }, 5, 5000, 0.25);
    expect(times).toEqual([5, 5.25, 5.5, 5.75, 12, 12.25, 12.5, 12.75, 26, 26.25, 26.5, 26.75]);
  });

  it('keeps the bound when the evidence keeps moving', () => {
    // A deadline re-reported every tick, always just passed: each tick is "overdue" under fresh evidence.
    const p = new ReadinessPredictor();
    const moving = (t: number): ToolCall => ({
      name: 'ci',
      startedAt: 0,
      deadline: Math.max(0, t - 0.1),
      reportedAt: t,
    });
    const times = readyTimes(p, moving, 0, 2000, 0.5);
    // Probes open at the first overdue query (0, window [0, 1)) and when each pushed estimate passes:
    // 2 * 1 = 2 (window [2, 3)), then 2 * 3 = 6 (window [6, 7)); then never again.
    expect(times).toEqual([0, 0.5, 2, 2.5, 6, 6.5]);
  });

  it('follows probeWindow and maxProbes', () => {
    const p = new ReadinessPredictor({ probeWindow: 2.5, maxProbes: 1 });
    expect(readyTimes(p, { name: 'x', startedAt: 0 }, 5, 500, 0.5)).toEqual([5, 5.5, 6, 6.5, 7]);
    const none = new ReadinessPredictor({ maxProbes: 0 });
    expect(readyTimes(none, { name: 'x', startedAt: 0 }, 5, 500, 0.5)).toEqual([]);
    expect(none.remaining({ name: 'x', startedAt: 0 }, 7)).toBe(0);
  });

  it('answers the same at the same instant (evaluating twice opens no second probe)', () => {
    const p = new ReadinessPredictor({ maxProbes: 1 });
    const tool = { name: 'x', startedAt: 0 };
    expect(p.ready(tool, 6)).toBe(true);
    expect(p.ready(tool, 6)).toBe(true);
    expect(p.predict(tool, 6).probes).toBe(1);
  });

  it('keeps separate probes for calls of different sessions with the same name and start', () => {
    const p = new ReadinessPredictor();
    const tool = { name: 'bash', startedAt: 0 };
    expect(p.ready(tool, 5, 'a')).toBe(true); // a: [5, 6)
    expect(p.ready(tool, 5.5, 'b')).toBe(true); // b: [5.5, 6.5)
    expect(p.ready(tool, 6.2, 'a')).toBe(false);
    expect(p.ready(tool, 6.2, 'b')).toBe(true);
  });

  it('forgets a call once it returns or is observed', () => {
    const p = new ReadinessPredictor();
    const tool = { name: 'bash', startedAt: 0 };
    p.ready(tool, 5, 'a');
    p.ready(tool, 5, 'b');
    p.ready(tool, 5);
    expect(p.toJSON().probes.map((s) => s.key)).toEqual(['a', 'b', '\u0000bash\u00000']);
    expect(p.ready({ ...tool, returnedAt: 5.2 }, 5.5, 'a')).toBe(true);
    expect(p.toJSON().probes.map((s) => s.key)).toEqual(['b', '\u0000bash\u00000']);
    p.observe({ name: 'bash', startedAt: 0, returnedAt: 7, session: 'b' });
    p.observe({ name: 'bash', startedAt: 0, returnedAt: 7 });
    expect(p.toJSON().probes).toEqual([]);
  });

  it("replaces a session's probe state when its next call is queried", () => {
    const p = new ReadinessPredictor({ maxProbes: 1 });
    const first = { name: 'bash', startedAt: 0 };
    expect(p.ready(first, 5, 's')).toBe(true);
    expect(p.ready(first, 7, 's')).toBe(false); // its only probe is spent
    // The session's next call, overdue at 20: a new call, a new probe budget.
    const next = { name: 'bash', startedAt: 10 };
    expect(p.predict(next, 20, 's')).toMatchObject({ ready: true, probes: 1 });
    expect(p.toJSON().probes).toMatchObject([{ key: 's', name: 'bash', startedAt: 10, count: 1 }]);
    // The session's earlier call has no state left under "s" (a session runs one call at a time).
    expect(p.remaining(first, 21, 's')).toBe(0);
  });

  it('keeps calls without a session apart by name and start time', () => {
    const p = new ReadinessPredictor({ maxProbes: 1 });
    expect(p.ready({ name: 'bash', startedAt: 0 }, 5)).toBe(true);
    expect(p.ready({ name: 'bash', startedAt: 0 }, 7)).toBe(false);
    expect(p.ready({ name: 'grep', startedAt: 0 }, 7)).toBe(true);
    expect(p.ready({ name: 'bash', startedAt: 1 }, 7)).toBe(true);
  });

  it('lets fresh evidence that moves the completion later take over from the probe', () => {
    const p = new ReadinessPredictor();
    const tool: ToolCall = { name: 'ci', startedAt: 0, deadline: 5, reportedAt: 0 };
    expect(p.ready(tool, 5)).toBe(true); // probe 1
    expect(p.ready(tool, 6)).toBe(false);
    // The tool now reports a deadline of 20: not overdue; ready in the horizon before it.
    const later = { ...tool, deadline: 20, reportedAt: 7 };
    expect(p.predict(later, 8)).toMatchObject({ ready: false, remaining: 12, probing: false });
    expect(p.ready(later, 19)).toBe(true);
    // Overdue again at 20, past the pushed estimate (12): probe 2.
    expect(p.predict(later, 20)).toMatchObject({ ready: true, probing: true, probes: 2 });
  });
});
