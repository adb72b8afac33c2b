/**
 * packProblem's working arrays (`PackScratch`) grow on demand: one scratch made for 1 node and 1 session,
 * reused on problems of growing and shrinking size (up to 64 nodes and 2,000 sessions, with eligibility
 * lists), packs each exactly as a scratch made for that problem does.
 */
import { describe, expect, it } from 'vitest';
import {
  PackScratch,
  packProblem,
  randomTickProblem,
  resolveSolveOptions,
  validateProblem,
} from './helpers/internals.js';
import type { PackedProblem, Problem } from './helpers/internals.js';

/** Every array and number of a packed problem, as plain values. */
function plain(p: PackedProblem): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(p).map(([k, v]) => [
      k,
      ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number | bigint>, String) : v,
    ]),
  );
}

/** A random tick of m nodes and n sessions, every fourth session limited to some of the nodes. */
function tick(seed: number, m: number, n: number): Problem {
  const p = randomTickProblem(seed, {
    nodes: m,
    sessions: n,
    capacity: 40_000,
    minTokens: 2000,
    maxTokens: 30_000,
    cachedRate: 0.6,
  });
  const ids = p.nodes.map((node) => node.id);
  return {
    ...p,
    sessions: p.sessions.map((s, i) => (i % 4 === 0 ? { ...s, eligible: ids.filter((_, b) => (b + i) % 3 !== 0) } : s)),
  };
}

describe('the packing scratch', () => {
  it('grows from 1 node and 1 session and packs every problem as a fresh one does', () => {
    const scratch = new PackScratch(1, 1);
    const sizes: [number, number][] = [
      [1, 3],
      [3, 40],
      [2, 10],
      [16, 300],
      [64, 2000],
      [5, 50],
      [64, 1500],
    ];
    for (const [k, [m, n]] of sizes.entries()) {
      const problem = validateProblem(tick(700 + k, m, n));
      const options = resolveSolveOptions({ quantum: [1, 16][k % 2]! });
      expect(plain(packProblem(problem, options, scratch)), `${m} x ${n}`).toEqual(
        plain(packProblem(problem, options)),
      );
    }
  });
});
