import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decayCredit, evaluate } from './helpers/internals.js';
import { ReadinessPredictor } from './helpers/internals.js';
import type { Snapshot } from './helpers/internals.js';
import type { ProblemSession } from './helpers/internals.js';

/** Compares (credit on node, ready, tokens) triples lexicographically: > 0 when a is better. */
function compareTriples(a: readonly [number, number, number], b: readonly [number, number, number]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

function triple(s: ProblemSession, node: string): [number, number, number] {
  return [s.credit?.[node] ?? 0, s.ready ? 1 : 0, s.tokens];
}

function oneCache(time: number, observedAt: number, tokens = 8000): Snapshot {
  return {
    time,
    nodes: [{ id: 'n1', capacity: 100_000 }],
    sessions: [{ id: 's', tokens: 9000, cache: [{ node: 'n1', tokens, observedAt }] }],
  };
}

describe('decayed cache credit', () => {
  it('halves every half-life: 8000 observed 10 s ago is 4000, 30 s ago is 1000', () => {
    const p = new ReadinessPredictor();
    expect(evaluate(oneCache(110, 100), p).sessions[0]!.credit).toEqual({ n1: 4000 });
    expect(evaluate(oneCache(130, 100), p).sessions[0]!.credit).toEqual({ n1: 1000 });
  });

  it('does not decay (nor grow) an observation stamped after now', () => {
    const p = new ReadinessPredictor();
    expect(evaluate(oneCache(100, 105), p).sessions[0]!.credit).toEqual({ n1: 8000 });
    expect(decayCredit(8000, -5, 10, 1)).toBe(8000);
  });

  it('rounds to the nearest multiple of the credit unit, halves up', () => {
    // 8000 * 2^(-15/10) = 2828.427...
    expect(decayCredit(8000, 15, 10, 1)).toBe(2828);
    expect(decayCredit(8000, 15, 10, 1000)).toBe(3000);
    expect(decayCredit(8000, 15, 10, 2000)).toBe(2000); // 1.414 units -> 1
    // 50 * 2^-1 = 25 = 2.5 units of 10 -> 3 units
    expect(decayCredit(50, 10, 10, 10)).toBe(30);
    const p = new ReadinessPredictor();
    expect(evaluate(oneCache(115, 100), p, { creditUnit: 1000 }).sessions[0]!.credit).toEqual({ n1: 3000 });
  });

  it('follows the halfLife option, and Infinity disables decay', () => {
    const p = new ReadinessPredictor();
    expect(evaluate(oneCache(120, 100), p, { halfLife: 20 }).sessions[0]!.credit).toEqual({ n1: 4000 });
    expect(evaluate(oneCache(1e6, 100), p, { halfLife: Infinity }).sessions[0]!.credit).toEqual({ n1: 8000 });
  });

  it('leaves out a credit that rounds to 0', () => {
    // 8000 * 2^-20 = 0.0076
    const s = evaluate(oneCache(300, 100), new ReadinessPredictor()).sessions[0]!;
    expect(s.credit).toBeUndefined();
  });

  it('is monotone non-increasing in age (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffff_ffff }),
        fc.double({ min: -100, max: 1000, noNaN: true }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.double({ min: 0.01, max: 1000, noNaN: true }),
        fc.integer({ min: 1, max: 100_000 }),
        (tokens, age, extra, halfLife, unit) => {
          const younger = decayCredit(tokens, age, halfLife, unit);
          const older = decayCredit(tokens, age + extra, halfLife, unit);
          expect(older).toBeLessThanOrEqual(younger);
          expect(younger).toBeLessThanOrEqual(Math.round(tokens / unit) * unit);
        },
      ),
    );
  });

  it('is monotone in age through evaluate too (property)', () => {
    const p = new ReadinessPredictor();
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.double({ min: 0, max: 200, noNaN: true }),
        fc.double({ min: 0, max: 200, noNaN: true }),
        (tokens, a, b) => {
          const [young, old] = a <= b ? [a, b] : [b, a];
          const k = (age: number): number =>
            evaluate(oneCache(1000 + age, 1000, tokens), p).sessions[0]!.credit?.n1 ?? 0;
          expect(k(old)).toBeLessThanOrEqual(k(young));
        },
      ),
    );
  });
});

describe("the FAQ's worked example", () => {
  // Two sessions wait for room on node 1, 8000 tokens cached there each. A's tool returns in 0.5 s,
  // B's in about 30 s (both stated as deadlines the tool interface exposed at the current time).
  function example(observedB: number): Snapshot {
    const now = 1000;
    return {
      time: now,
      nodes: [{ id: 'n1', capacity: 9000 }],
      sessions: [
        {
          id: 'A',
          tokens: 8000,
          cache: [{ node: 'n1', tokens: 8000, observedAt: now - 10 }],
          tool: { name: 'bash', startedAt: now - 3, deadline: now + 0.5, reportedAt: now },
        },
        {
          id: 'B',
          tokens: 8000,
          cache: [{ node: 'n1', tokens: 8000, observedAt: observedB }],
          tool: { name: 'bash', startedAt: now - 3, deadline: now + 30, reportedAt: now },
        },
      ],
    };
  }

  it('A observed 10 s ago (4000) beats B observed 30 s ago (1000) on credit alone', () => {
    const problem = evaluate(example(970), new ReadinessPredictor());
    const [a, b] = problem.sessions;
    expect(triple(a!, 'n1')).toEqual([4000, 1, 8000]);
    expect(triple(b!, 'n1')).toEqual([1000, 0, 8000]);
    expect(compareTriples(triple(a!, 'n1'), triple(b!, 'n1'))).toBeGreaterThan(0);
  });

  it('both observed 10 s ago tie at 4000 and readiness decides: A ready, B not', () => {
    const problem = evaluate(example(990), new ReadinessPredictor());
    const [a, b] = problem.sessions;
    expect(a!.credit).toEqual({ n1: 4000 });
    expect(b!.credit).toEqual({ n1: 4000 });
    expect(a!.ready).toBe(true);
    expect(b!.ready).toBe(false);
    // Only one fits on n1 (9000 < 2 * 8512): the lexicographic order admits A.
    expect(a!.weight + b!.weight).toBeGreaterThan(9000);
    expect(compareTriples(triple(a!, 'n1'), triple(b!, 'n1'))).toBeGreaterThan(0);
  });
});
