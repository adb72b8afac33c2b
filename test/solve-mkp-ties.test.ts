/**
 * The multiple-knapsack search among equals (src/solve/mkp/search.ts): of identical sessions, the first
 * listed are admitted (items of equal density and weight come in index order), and a session worth
 * nothing (a packed key of 0) is never placed.
 */
import { describe, expect, it } from 'vitest';
import { nodeIndependentValues, prepare, searchMultipleKnapsack } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import { meterWithin } from './helpers/meter.js';

/** The search's knapsack per kept session of `problem` at quantum 1, by session id (null: left out). */
function placements(problem: Problem): Map<string, string | null> {
  const { packed } = prepare(problem, { quantum: 1 });
  const out = searchMultipleKnapsack(packed, nodeIndependentValues(packed)!, meterWithin());
  expect(out.optimal).toBe(true);
  const at = new Map<string, string | null>();
  out.node.forEach((b, j) => {
    const s = problem.sessions[packed.sessionIndex[j]!]!;
    at.set(s.id, b < 0 ? null : problem.nodes[packed.nodeIndex[b]!]!.id);
  });
  return at;
}

describe('the multiple-knapsack search among equals', () => {
  it('admits the first listed of identical sessions, one per node where each node holds one', () => {
    const same = (id: string) => ({ id, weight: 6, tokens: 6, ready: false });
    // Room for three of the five identical sessions: one per node and one more on neither.
    const problem: Problem = {
      nodes: [
        { id: 'a', capacity: 6 },
        { id: 'b', capacity: 6 },
        { id: 'c', capacity: 6 },
      ],
      sessions: [same('s0'), same('s1'), same('s2'), same('s3'), same('s4')],
    };
    const at = placements(problem);
    expect(at.get('s3')).toBeNull();
    expect(at.get('s4')).toBeNull();
    expect(new Set([at.get('s0'), at.get('s1'), at.get('s2')])).toEqual(new Set(['a', 'b', 'c']));
    // Two identical nodes with room for one of three identical sessions each: the first two are admitted.
    const one = placements({
      nodes: [
        { id: 'a', capacity: 7 },
        { id: 'b', capacity: 7 },
      ],
      sessions: [same('s0'), same('s1'), same('s2'), { id: 'big', weight: 9, tokens: 9, ready: false }],
    });
    expect([one.get('s0'), one.get('s1'), one.get('s2')].filter((b) => b !== null)).toHaveLength(2);
    expect(one.get('s2')).toBeNull();
  });

  it('never places a session worth nothing (no credit, not ready, no tokens)', () => {
    const at = placements({
      nodes: [
        { id: 'a', capacity: 10 },
        { id: 'b', capacity: 10 },
      ],
      sessions: [
        { id: 'zero', weight: 1, tokens: 0, ready: false },
        { id: 's1', weight: 6, tokens: 6, ready: false },
        { id: 's2', weight: 7, tokens: 7, ready: false },
        { id: 's3', weight: 5, tokens: 5, ready: false },
      ],
    });
    expect(at.has('zero')).toBe(true);
    expect(at.get('zero')).toBeNull();
  });
});
