import { describe, expect, it } from 'vitest';
import type { Snapshot } from './helpers/internals.js';
import { evaluate, ReadinessPredictor } from './helpers/internals.js';

const nodes = [{ id: 'n', capacity: 10_000 }];

/** Whether the session is starved: an uncached session gets credit only from the starvation boost. */
function starved(time: number, waitingSince: number, expectedService: number): boolean {
  const snapshot: Snapshot = { time, nodes, sessions: [{ id: 's', tokens: 100, waitingSince, expectedService }] };
  const p = evaluate(snapshot, new ReadinessPredictor(), { waitServiceMultiple: 10 });
  return p.sessions[0]!.credit !== undefined;
}

describe('starvation thresholds', () => {
  it('starves a session whose wait reaches exactly waitServiceMultiple times its expected service', () => {
    expect(starved(5, 0, 0.5)).toBe(true);
    expect(starved(4.999, 0, 0.5)).toBe(false);
  });

  it('starves a session whose wait reaches exactly waitThreshold', () => {
    const snapshot: Snapshot = { time: 60, nodes, sessions: [{ id: 's', tokens: 100, waitingSince: 0 }] };
    expect(evaluate(snapshot, new ReadinessPredictor(), { waitThreshold: 60 }).sessions[0]!.credit).toBeDefined();
    expect(evaluate(snapshot, new ReadinessPredictor(), { waitThreshold: 60.5 }).sessions[0]!.credit).toBeUndefined();
  });
});
