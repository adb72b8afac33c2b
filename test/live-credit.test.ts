/** `creditSource: 'live'`: the engine's live cached prefix caps the decayed credit. */
import { describe, expect, it } from 'vitest';
import { InvalidValueError } from './helpers/internals.js';
import { evaluate } from './helpers/internals.js';
import { ReadinessPredictor } from './helpers/internals.js';
import type { Snapshot } from './helpers/internals.js';

const predictor = new ReadinessPredictor();

const snapshot: Snapshot = {
  time: 10,
  nodes: [
    { id: 'n0', capacity: 50_000 },
    { id: 'n1', capacity: 50_000 },
    { id: 'n2', capacity: 50_000 },
  ],
  sessions: [
    {
      id: 'a',
      tokens: 12_000,
      cache: [
        { node: 'n0', tokens: 10_000, observedAt: 10, live: 2_000 }, // partly evicted
        { node: 'n1', tokens: 10_000, observedAt: 0, live: 9_000 }, // decayed to 5,000: decay is lower
        { node: 'n2', tokens: 10_000, observedAt: 10, live: 0 }, // evicted
      ],
    },
    { id: 'b', tokens: 12_000, cache: [{ node: 'n0', tokens: 10_000, observedAt: 10 }] }, // no live report
  ],
};

describe('live credit', () => {
  it('caps each credit by the live prefix, and drops a fully evicted one', () => {
    const p = evaluate(snapshot, predictor, { creditSource: 'live' });
    expect(p.sessions[0]!.credit).toEqual({ n0: 2_000, n1: 5_000 });
    expect(p.sessions[1]!.credit).toEqual({ n0: 10_000 });
  });

  it('rounds the live prefix to the credit unit like any credit', () => {
    const p = evaluate(snapshot, predictor, { creditSource: 'live', creditUnit: 3_000 });
    expect(p.sessions[0]!.credit).toEqual({ n0: 3_000, n1: 6_000 });
  });

  it('is ignored by the observed source (the default)', () => {
    const observed = { n0: 10_000, n1: 5_000, n2: 10_000 };
    expect(evaluate(snapshot, predictor).sessions[0]!.credit).toEqual(observed);
    expect(evaluate(snapshot, predictor, { creditSource: 'observed' }).sessions[0]!.credit).toEqual(observed);
  });

  it('rejects a live prefix above the observed one', () => {
    const bad: Snapshot = {
      time: 0,
      nodes: [{ id: 'n0', capacity: 1 }],
      sessions: [{ id: 'a', tokens: 5, cache: [{ node: 'n0', tokens: 4, observedAt: 0, live: 5 }] }],
    };
    expect(() => evaluate(bad, predictor)).toThrow(
      new InvalidValueError(
        'snapshot.sessions[0].cache[0].live must be an integer from 0 to snapshot.sessions[0].cache[0].tokens (4)',
      ),
    );
  });
});
