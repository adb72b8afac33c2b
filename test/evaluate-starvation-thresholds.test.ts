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

  it('reserves no node for the oldest starved session when it fits alone exactly at the quantum', () => {
    // Weight 160 at quantum 16 is 10 quanta, capacity 160 holds 10: it fits, so nothing is reserved and
    // the other session keeps every node. At capacity 159 (9 quanta) the node is reserved for it.
    const snapshot = (capacity: number): Snapshot => ({
      time: 10,
      nodes: [{ id: 'n', capacity }],
      sessions: [
        { id: 'old', tokens: 160, reserve: 0, waitingSince: 0 },
        { id: 'other', tokens: 10, reserve: 0 },
      ],
    });
    const o = { waitThreshold: 5, waitReserve: true, waitQuantum: 16 };
    expect(evaluate(snapshot(160), new ReadinessPredictor(), o).sessions[1]!.eligible).toBeUndefined();
    expect(evaluate(snapshot(159), new ReadinessPredictor(), o).sessions[1]!.eligible).toEqual([]);
  });

  it('passes through the eligible array of a session not eligible on the reserved node', () => {
    const elsewhere = ['m'];
    const snapshot: Snapshot = {
      time: 10,
      nodes: [
        { id: 'n', capacity: 100 },
        { id: 'm', capacity: 50 },
      ],
      sessions: [
        { id: 'old', tokens: 500, reserve: 0, waitingSince: 0, eligible: ['n'] },
        { id: 'other', tokens: 10, reserve: 0, eligible: elsewhere },
      ],
    };
    const o = { waitThreshold: 5, waitReserve: true };
    expect(evaluate(snapshot, new ReadinessPredictor(), o).sessions[1]!.eligible).toBe(elsewhere);
  });

  it('drops the credit of a session whose only credit was on the reserved node', () => {
    const snapshot: Snapshot = {
      time: 10,
      nodes: [
        { id: 'n', capacity: 100 },
        { id: 'm', capacity: 50 },
      ],
      sessions: [
        { id: 'old', tokens: 500, reserve: 0, waitingSince: 0, eligible: ['n'] },
        { id: 'other', tokens: 10, reserve: 0, cache: [{ node: 'n', tokens: 8, observedAt: 10 }] },
      ],
    };
    const other = evaluate(snapshot, new ReadinessPredictor(), { waitThreshold: 5, waitReserve: true }).sessions[1]!;
    expect(other.eligible).toEqual(['m']);
    expect(other.credit).toBeUndefined();
    expect('credit' in other).toBe(false);
  });

  /** The id of the session with the largest credit: the head of the starved sessions. */
  function head(sessions: Snapshot['sessions']): string {
    const snapshot: Snapshot = { time: 10, nodes: [{ id: 'n', capacity: 1000 }], sessions };
    const out = evaluate(snapshot, new ReadinessPredictor(), { waitThreshold: 1 }).sessions;
    return out.reduce((a, b) => ((b.credit?.n ?? 0) > (a.credit?.n ?? 0) ? b : a)).id;
  }

  it('makes the longest-waiting starved session the head, whatever the ids and order', () => {
    expect(
      head([
        { id: 'b', tokens: 10, waitingSince: 0 },
        { id: 'a', tokens: 10, waitingSince: 5 },
      ]),
    ).toBe('b');
    expect(
      head([
        { id: 'a', tokens: 10, waitingSince: 5 },
        { id: 'b', tokens: 10, waitingSince: 0 },
      ]),
    ).toBe('b');
  });

  it('breaks a tie in waiting time by the smaller id, whatever the order', () => {
    expect(
      head([
        { id: 'b', tokens: 10, waitingSince: 0 },
        { id: 'a', tokens: 10, waitingSince: 0 },
      ]),
    ).toBe('a');
  });
});
