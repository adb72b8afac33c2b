/**
 * The credit greedy's stop (`creditGreedy` with `halted`): it asks once per HALT_CHECK_SESSIONS sessions
 * placed (after the 256th, the 512th, ...), answers null as soon as `halted` says true, and otherwise
 * gives the plan it gives without `halted`.
 */
import { describe, expect, it } from 'vitest';
import {
  bestCredits,
  creditGreedy,
  greedyOrders,
  HALT_CHECK_SESSIONS,
  prepare,
  type Problem,
} from './helpers/internals.js';

/** n sessions of weight 1 on one node of room n / 2 (half are admitted). */
function greedyCase(n: number) {
  const problem: Problem = {
    nodes: [{ id: 'a', capacity: Math.floor(n / 2) }],
    sessions: Array.from({ length: n }, (_, j) => ({ id: `s${j}`, weight: 1, tokens: j % 7, ready: true })),
  };
  const { packed } = prepare(problem, { quantum: 1 });
  return { packed, sequence: greedyOrders(packed, bestCredits(packed)).byValue };
}

describe('credit greedy: asking whether to stop', () => {
  it('asks once per HALT_CHECK_SESSIONS sessions', () => {
    expect(HALT_CHECK_SESSIONS).toBe(256);
    for (const [n, asks] of [
      [255, 0],
      [256, 1],
      [511, 1],
      [512, 2],
      [700, 2],
    ] as const) {
      const { packed, sequence } = greedyCase(n);
      let asked = 0;
      const plan = creditGreedy(packed, sequence, () => {
        asked++;
        return false;
      });
      expect([n, asked]).toEqual([n, asks]);
      expect(plan).toEqual(creditGreedy(packed, sequence));
    }
  });

  it('answers null once halted says true, and a plan when it says so only after the last ask', () => {
    const { packed, sequence } = greedyCase(600);
    let asked = 0;
    expect(creditGreedy(packed, sequence, () => ++asked === 2)).toBeNull();
    expect(asked).toBe(2);
    asked = 0;
    const plan = creditGreedy(packed, sequence, () => ++asked === 3);
    expect(asked).toBe(2);
    expect(plan).not.toBeNull();
    // Half the sessions fit: those first in the sequence.
    expect(Array.from(plan!).filter((b) => b === 0).length).toBe(300);
    expect(sequence.slice(0, 300).every((j) => plan![j] === 0)).toBe(true);
  });
});
