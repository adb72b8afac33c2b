import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReadinessPredictor } from './helpers/internals.js';
import type { ToolCall } from './helpers/internals.js';

const arbHistory = fc.array(
  fc.record({
    name: fc.constantFrom('bash', 'edit', 'ci'),
    startedAt: fc.double({ min: -1000, max: 1000, noNaN: true }),
    duration: fc.double({ min: 0, max: 100, noNaN: true }),
  }),
  { maxLength: 30 },
);

const arbQuery = fc
  .record({
    name: fc.constantFrom('bash', 'edit', 'ci', 'other'),
    startedAt: fc.double({ min: -1000, max: 1000, noNaN: true }),
    elapsed: fc.double({ min: 0, max: 500, noNaN: true }),
    returnedFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    deadline: fc.option(fc.double({ min: 0, max: 600, noNaN: true }), { nil: undefined }),
    progress: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    command: fc.option(fc.constantFrom('sleep 3', 'ls', 'sleep 1m && make'), { nil: undefined }),
  })
  .map((q) => {
    const now = q.startedAt + q.elapsed;
    const tool: ToolCall = { name: q.name, startedAt: q.startedAt };
    if (q.deadline !== undefined) tool.deadline = q.startedAt + q.deadline;
    if (q.progress !== undefined) tool.progress = q.progress;
    if (q.command !== undefined) tool.command = q.command;
    return { tool, now, returnedAt: Math.min(now, q.startedAt + q.elapsed * q.returnedFraction) };
  });

function trained(history: { name: string; startedAt: number; duration: number }[]): ReadinessPredictor {
  const p = new ReadinessPredictor();
  for (const h of history) p.observe({ name: h.name, startedAt: h.startedAt, returnedAt: h.startedAt + h.duration });
  return p;
}

describe('readiness (properties)', () => {
  it('a returned call is always ready with nothing remaining', () => {
    fc.assert(
      fc.property(arbHistory, fc.array(arbQuery, { minLength: 1, maxLength: 10 }), (history, qs) => {
        const p = trained(history);
        for (const { tool, now, returnedAt } of qs) {
          // Probe state from an earlier query of the same call must not matter either.
          p.ready(tool, now);
          const back = { ...tool, returnedAt };
          expect(p.ready(back, now)).toBe(true);
          expect(p.remaining(back, now)).toBe(0);
        }
      }),
    );
  });

  it('remaining is finite and non-negative, and asking twice at one instant gives one answer', () => {
    fc.assert(
      fc.property(arbHistory, fc.array(arbQuery, { minLength: 1, maxLength: 10 }), (history, qs) => {
        const p = trained(history);
        for (const { tool, now } of qs) {
          const first = p.predict(tool, now);
          expect(p.predict(tool, now)).toEqual(first);
          expect(first.remaining).toBeGreaterThanOrEqual(0);
          expect(Number.isFinite(first.remaining)).toBe(true);
        }
      }),
    );
  });
});
