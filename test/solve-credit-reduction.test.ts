/**
 * The root reduction of a decided credit level (`creditReduction`, src/solve/credit-level.ts) against its
 * definition, pair by pair: a session of S_b is fixed on b and nowhere in the remainder; every other kept
 * session is a candidate of the remainder on exactly the nodes where it was a candidate with credit 0 and
 * still fits the residual capacity (kept node capacity minus the fixed sessions' quantized weights), and
 * the remainder's nodes have those residual capacities. Over seeded tied ticks and random ticks with
 * eligibility lists (so sessions limited to listed nodes and sessions that may go anywhere meet), credit
 * on one node and on several, and three quanta. `creditedSessions` is checked against a filter of the
 * credit entries.
 */
import { describe, expect, it } from 'vitest';
import { tiedTick } from './helpers/arbitraries.js';
import {
  creditedSessions,
  EVERY_NODE,
  creditLevel,
  creditReduction,
  nodesKept,
  type PackedProblem,
  prepare,
  randomTickProblem,
  resolveSolveOptions,
  sessionsKept,
} from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';

/** Ticks with eligibility lists on some sessions: tied credits on several nodes, or paper-shaped random ones. */
function* ticks(): Generator<{ seed: number; problem: Problem; quantum: number }> {
  for (let seed = 0; seed < 240; seed++) {
    const quantum = [1, 2, 5][seed % 3]!;
    if (seed % 2 === 0) {
      yield {
        seed,
        quantum,
        problem: tiedTick(seed + 31_000, {
          nodes: 2 + (seed % 4),
          sessions: 6 + (seed % 7),
          eligibility: true,
          twins: seed % 4 === 2,
        }),
      };
      continue;
    }
    const problem = randomTickProblem(seed + 32_000, {
      nodes: 2 + (seed % 5),
      sessions: 10 + (seed % 25),
      capacity: 40_000,
      minTokens: 2000,
      maxTokens: 30_000,
      cachedRate: 0.6,
    });
    // Every third session limited to a seeded subset of the nodes.
    const ids = problem.nodes.map((node) => node.id);
    const sessions = problem.sessions.map((s, i) =>
      i % 3 === 0 ? { ...s, eligible: ids.filter((_, b) => (b * 7 + i + seed) % 3 !== 0) } : s,
    );
    yield { seed, quantum, problem: { ...problem, sessions } };
  }
}

/** "j:b" for every (kept session, kept node) pair of `packed` that is a candidate of the remainder. */
function remainderPairs(remainder: PackedProblem): Set<string> {
  const out = new Set<string>();
  const mm = remainder.nodeIndex.length;
  for (let jj = 0; jj < remainder.sessionIndex.length; jj++)
    for (let bb = 0; bb < mm; bb++)
      if (remainder.candidate[jj * mm + bb] === 1) out.add(`${remainder.sessionIndex[jj]}:${remainder.nodeIndex[bb]}`);
  return out;
}

describe('the credit reduction', () => {
  it('fixes S_b on b and leaves every other session on exactly its credit-0 candidates that still fit', () => {
    let reduced = 0;
    let limitedFree = 0;
    let anywhereFree = 0;
    for (const { seed, problem, quantum } of ticks()) {
      const options = resolveSolveOptions({ quantum });
      const { packed } = prepare(problem, options);
      const n = sessionsKept(packed);
      const m = nodesKept(packed);
      if (n === 0) continue;
      const level = creditLevel(packed, Number.POSITIVE_INFINITY);
      if (level === null || !level.decided) continue;
      const r = creditReduction(packed, level.sets, options);

      const fixedOn = new Int32Array(n).fill(-1);
      const residual = Float64Array.from(packed.qcapacity);
      for (let b = 0; b < m; b++)
        for (const j of level.sets[b]!) {
          fixedOn[j] = b;
          residual[b] = residual[b]! - packed.qweight[j]!;
        }
      expect(Array.from(r.fixed), `seed ${seed}`).toEqual(Array.from(fixedOn));
      expect(r.fixedCount).toBe(level.sets.reduce((a, set) => a + set.length, 0));

      const expected = new Set<string>();
      for (let j = 0; j < n; j++) {
        if (fixedOn[j]! >= 0) continue;
        if (packed.limited[j] === EVERY_NODE) anywhereFree++;
        else limitedFree++;
        for (let b = 0; b < m; b++)
          if (packed.candidate[j * m + b] === 1 && packed.credit[j * m + b] === 0 && packed.qweight[j]! <= residual[b]!)
            expected.add(`${j}:${b}`);
      }
      expect([...remainderPairs(r.remainder)].sort(), `seed ${seed}`).toEqual([...expected].sort());
      for (let bb = 0; bb < r.remainder.nodeIndex.length; bb++)
        expect(r.remainder.qcapacity[bb], `seed ${seed}`).toBe(residual[r.remainder.nodeIndex[bb]!]);
      reduced++;
    }
    // The ticks reach the reduction often, with free sessions of both forms.
    expect(reduced).toBeGreaterThan(100);
    expect(limitedFree).toBeGreaterThan(100);
    expect(anywhereFree).toBeGreaterThan(100);
  });

  it('creditedSessions lists the kept sessions with a credit entry on the node, ascending', () => {
    for (const { problem, quantum } of ticks()) {
      const { packed } = prepare(problem, { quantum });
      const n = sessionsKept(packed);
      for (let b = 0; b < nodesKept(packed); b++) {
        const expected: number[] = [];
        for (let j = 0; j < n; j++)
          for (let e = packed.creditStart[j]!; e < packed.creditStart[j + 1]!; e++)
            if (packed.creditNode[e] === b) expected.push(j);
        const got = creditedSessions(packed, b);
        expect(got).toEqual(expected);
        expect(got.length).toBe(expected.length);
      }
    }
  });
});
