/**
 * The budget's charges are the formulas docs/solver.md ("The budget") gives, written out here with their
 * numbers: packing 300 per session, 100 per credit entry, 4 per kept session-node pair; a heuristic 400 per
 * kept session and 4 per pair; a fallback's bound 300 per session and 60 per credit entry; the frontier's
 * set-up 400 per kept session, 40 per pair and 320 more per pair without a 64-bit key; a multiple-knapsack
 * search unit weighed ceil(m / 16)^2 for its shares and charged 2 x max(ceil(m / 16)^2, ceil(m / 4)).
 */
import { describe, expect, it } from 'vitest';
import {
  boundWork,
  frontierSetupWork,
  heuristicWork,
  nodesKept,
  packWork,
  prepare,
  type Problem,
  searchUnitCost,
  searchUnitWeight,
  sessionsKept,
} from './helpers/internals.js';

/** 3 nodes, 5 sessions (one fits nowhere), 4 credit entries. */
const problem: Problem = {
  nodes: [
    { id: 'a', capacity: 100 },
    { id: 'b', capacity: 60 },
    { id: 'c', capacity: 30 },
  ],
  sessions: [
    { id: 's0', weight: 50, tokens: 5, ready: true, credit: { a: 7, b: 3 } },
    { id: 's1', weight: 25, tokens: 2, ready: false, credit: { c: 4 } },
    { id: 's2', weight: 40, tokens: 9, ready: true },
    { id: 's3', weight: 500, tokens: 1, ready: false, credit: { a: 2 } },
    { id: 's4', weight: 10, tokens: 3, ready: false },
  ],
};

describe("the budget's charges", () => {
  it('are the documented formulas on a small problem', () => {
    const { packed } = prepare(problem, { quantum: 1 });
    const n = sessionsKept(packed);
    const m = nodesKept(packed);
    expect([packed.sessionCount, n, m]).toEqual([5, 4, 3]);
    const entries = packed.creditStart[n]!;
    expect(entries).toBe(3);
    expect(packWork(packed)).toBe(300 * 5 + 100 * 3 + 4 * 4 * 3);
    expect(heuristicWork(packed)).toBe(400 * 4 + 4 * 4 * 3);
    expect(boundWork(packed)).toBe(300 * 5 + 60 * 3);
    expect(packed.keyFits).toBe(true);
    expect(frontierSetupWork(packed)).toBe(400 * 4 + 40 * 12);
  });

  it('charge the frontier set-up 320 more per pair without a 64-bit key', () => {
    const wide: Problem = {
      nodes: [
        { id: 'a', capacity: 2 ** 33 },
        { id: 'b', capacity: 2 ** 33 },
      ],
      sessions: Array.from({ length: 3 }, (_, i) => ({
        id: `s${i}`,
        weight: 2 ** 32 - 1,
        tokens: 2 ** 32 - 1,
        ready: true,
        credit: { a: 2 ** 32 - 1 - i },
      })),
    };
    const { packed } = prepare(wide, { quantum: 1 });
    expect(packed.keyFits).toBe(false);
    expect(frontierSetupWork(packed)).toBe(400 * 3 + (40 + 320) * 6);
  });

  it('weigh and charge a multiple-knapsack search unit by the node count', () => {
    const table = [1, 2, 4, 5, 8, 9, 16, 17, 32, 33, 48, 64].map((m) => [m, searchUnitWeight(m), searchUnitCost(m)]);
    expect(table).toEqual([
      [1, 1, 2],
      [2, 1, 2],
      [4, 1, 2],
      [5, 1, 4],
      [8, 1, 4],
      [9, 1, 6],
      [16, 1, 8],
      [17, 4, 10],
      [32, 4, 16],
      [33, 9, 18],
      [48, 9, 24],
      [64, 16, 32],
    ]);
  });
});
