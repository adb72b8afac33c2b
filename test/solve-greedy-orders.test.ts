/**
 * The credit greedy's session orders (`greedyOrders`): by value, the session's (best credit, ready, tokens)
 * descending; by density, that value over the quantized weight descending; ties by the lower kept index.
 * The oracle orders by exact BigInt keys (credit x (R + 1)(T + 1) + ready x (T + 1) + tokens, R and T the
 * kept ready count and token sum) and compares densities by cross-multiplication, with the best credit
 * read off the packed pairs: none of it shares the code's doubles or comparators.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { problemArb } from './helpers/arbitraries.js';
import {
  bestCredits,
  greedyOrders,
  nodesKept,
  type PackedProblem,
  prepare,
  type Problem,
  type ProblemSession,
  sessionsKept,
} from './helpers/internals.js';

/** Each kept session's exact key, from the packed pairs. */
function exactKeys(packed: PackedProblem): bigint[] {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  let readyCount = 0n;
  let tokenSum = 0n;
  for (let j = 0; j < n; j++) {
    readyCount += BigInt(packed.ready[j]!);
    tokenSum += BigInt(packed.tokens[j]!);
  }
  const keys: bigint[] = [];
  for (let j = 0; j < n; j++) {
    let best = 0;
    for (let b = 0; b < m; b++) if (packed.candidate[j * m + b] === 1) best = Math.max(best, packed.credit[j * m + b]!);
    keys.push(
      BigInt(best) * (readyCount + 1n) * (tokenSum + 1n) +
        BigInt(packed.ready[j]!) * (tokenSum + 1n) +
        BigInt(packed.tokens[j]!),
    );
  }
  return keys;
}

/** The orders by the exact keys: descending, ties by the lower index. */
function oracleOrders(packed: PackedProblem): { byDensity: number[]; byValue: number[] } {
  const key = exactKeys(packed);
  const w = Array.from({ length: key.length }, (_, j) => BigInt(packed.qweight[j]!));
  const index = key.map((_, j) => j);
  const byValue = [...index].sort((a, b) => (key[a]! > key[b]! ? -1 : key[a]! < key[b]! ? 1 : a - b));
  const byDensity = [...index].sort((a, b) => {
    const left = key[a]! * w[b]!;
    const right = key[b]! * w[a]!;
    return left > right ? -1 : left < right ? 1 : a - b;
  });
  return { byDensity, byValue };
}

const s = (id: string, weight: number, tokens: number, ready: boolean, credit: number): ProblemSession => ({
  id,
  weight,
  tokens,
  ready,
  credit: { a: credit },
});

function orders(sessions: ProblemSession[]) {
  const problem: Problem = { nodes: [{ id: 'a', capacity: 1000 }], sessions };
  const { packed } = prepare(problem, { quantum: 1 });
  return greedyOrders(packed, bestCredits(packed));
}

describe('credit greedy orders', () => {
  it('orders by credit, then ready, then tokens, ties by input order', () => {
    // Kept in input order (one node): 0 (credit 1), 1 and 2 (credit 2, ready, tokens 3 and 7), 3 (credit 2,
    // not ready, tokens 50), 4 (as 1). By value: 2, 1, 4 (tie with 1: later), 3, 0.
    const got = orders([
      s('0', 1, 0, true, 1),
      s('1', 1, 3, true, 2),
      s('2', 1, 7, true, 2),
      s('3', 1, 50, false, 2),
      s('4', 1, 3, true, 2),
    ]);
    expect(got.byValue).toEqual([2, 1, 4, 3, 0]);
    // Same weights: density order is value order.
    expect(got.byDensity).toEqual([2, 1, 4, 3, 0]);
  });

  it('orders by value over weight for density, ties by input order', () => {
    // Values (credit 1, all ready, tokens 0) equal; weights 4, 2, 1, 2: density 3, then 1 and 3, then 0.
    const got = orders([s('0', 4, 0, true, 1), s('1', 2, 0, true, 1), s('2', 1, 0, true, 1), s('3', 2, 0, true, 1)]);
    expect(got.byDensity).toEqual([2, 1, 3, 0]);
    expect(got.byValue).toEqual([0, 1, 2, 3]);
  });

  it('lists every kept session once, in both orders', () => {
    const got = orders([s('0', 3, 1, false, 0), s('1', 2, 0, true, 5)]);
    expect(got.byValue).toEqual([1, 0]);
    expect(got.byDensity).toEqual([1, 0]);
  });

  it('matches the orders by exact keys on random problems', () => {
    fc.assert(
      fc.property(problemArb({ maxSessions: 12, maxNodes: 4 }), fc.constantFrom(1, 2, 3), (problem, quantum) => {
        const { packed } = prepare(problem, { quantum });
        expect(greedyOrders(packed, bestCredits(packed))).toEqual(oracleOrders(packed));
      }),
      { numRuns: 300, seed: 44 },
    );
  });
});
