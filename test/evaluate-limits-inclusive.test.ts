import { describe, expect, it } from 'vitest';
import type { Snapshot } from './helpers/internals.js';
import { evaluate, InvalidValueError, predictReport, ReadinessPredictor } from './helpers/internals.js';

const MAX_U32 = 4294967295;

describe('limits are inclusive', () => {
  it('evaluate accepts a weight of exactly 2^32 - 1', () => {
    const snapshot: Snapshot = {
      time: 0,
      nodes: [{ id: 'n', capacity: MAX_U32 }],
      sessions: [{ id: 's', tokens: MAX_U32 - 512 }],
    };
    expect(evaluate(snapshot, new ReadinessPredictor()).sessions[0]!.weight).toBe(MAX_U32);
  });

  it('predictReport counts ceil(duration / tick) decisions per call against maxTicks', () => {
    // 3 -> 13 at tick 2: 5 decisions (3, 5, 7, 9, 11).
    const calls = [{ name: 'x', startedAt: 3, returnedAt: 13 }];
    expect(predictReport(calls, { tick: 2, maxTicks: 5 }).ticks).toBe(5);
    expect(() => predictReport(calls, { tick: 2, maxTicks: 4 })).toThrow(
      new InvalidValueError('calls need 5 ready decisions at tick 2 s, above options.maxTicks (4)'),
    );
  });

  it('evaluate accepts a starved boosted credit of exactly 2^32 - 1 and refuses one above', () => {
    // One starved session, the head: boost = 1 * (K + 1) with K its own best credit, so credit = 2K + 1.
    const boosted = (k: number): Snapshot => ({
      time: 10,
      nodes: [{ id: 'n', capacity: 1000 }],
      sessions: [{ id: 's', tokens: 100, waitingSince: 0, cache: [{ node: 'n', tokens: k, observedAt: 10 }] }],
    });
    const o = { waitThreshold: 5 };
    expect(evaluate(boosted(2147483647), new ReadinessPredictor(), o).sessions[0]!.credit).toEqual({ n: MAX_U32 });
    expect(() => evaluate(boosted(2147483648), new ReadinessPredictor(), o)).toThrow(InvalidValueError);
  });

  it('fromJSON accepts exactly maxProbedCalls probe states', () => {
    const p = new ReadinessPredictor({ maxProbedCalls: 1 });
    p.ready({ name: 'x', startedAt: 0 }, 60, 's');
    const json = JSON.parse(JSON.stringify(p.toJSON()));
    expect(json.probes).toHaveLength(1);
    expect(ReadinessPredictor.fromJSON(json).counts().probes).toBe(1);
  });

  it('fromJSON accepts a probe whose next estimate is its window end, and refuses one before it', () => {
    const probe = { key: 'k', name: 'x', startedAt: 0, count: 1, openedAt: 5, until: 6, next: 6 };
    const json = (next: number): unknown => {
      const j = JSON.parse(JSON.stringify(new ReadinessPredictor().toJSON()));
      j.probes = [{ ...probe, next }];
      return j;
    };
    expect(ReadinessPredictor.fromJSON(json(6)).counts().probes).toBe(1);
    expect(() => ReadinessPredictor.fromJSON(json(5.5))).toThrow(
      new InvalidValueError('json.probes[0].next must not be before json.probes[0].until'),
    );
  });

  it('the predictor accepts maxTools * window of exactly 2^20 slots and names the product above it', () => {
    expect(new ReadinessPredictor({ maxTools: 1024, window: 1024 }).options.maxTools).toBe(1024);
    expect(() => new ReadinessPredictor({ maxTools: 1025, window: 1024 })).toThrow(
      new InvalidValueError('options.maxTools * options.window must be at most 1048576 (is 1049600)'),
    );
  });
});
