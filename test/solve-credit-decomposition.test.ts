/**
 * The credit level's plans against references written from their definitions (src/solve/credit-level.ts):
 * - `decompositionPlan`: the per-node sets made disjoint (a session in several stays where its credit is
 *   highest, ties: the lower kept node), then each unplaced session, by credit density descending (exact
 *   cross products; ties: ready first, then kept index), to its candidate node of highest credit with room
 *   (ties: most room, then the lower kept node). Checked on the levels the solver computes and on random
 *   overlapping sets.
 * - `solverIncumbent`: the better of the heuristic plan and the best decomposition plan, ties to the
 *   heuristic; once halted, the heuristic plan alone.
 * - `creditLevel` asks `halted` before each node's knapsack and before each node's uniqueness test, and
 *   stops there.
 */
import { describe, expect, it } from 'vitest';
import { tiedTick } from './helpers/arbitraries.js';
import {
  bestCredits,
  bestDecompositionPlan,
  bestHeuristic,
  creditLevel,
  decompositionPlan,
  lexBetter,
  nodesKept,
  type PackedProblem,
  planTriple,
  prepare,
  randomTickProblem,
  seededRandom,
  sessionsKept,
  solverIncumbent,
} from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';

function* ticks(): Generator<{ seed: number; packed: PackedProblem }> {
  for (let seed = 0; seed < 200; seed++) {
    const problem: Problem =
      seed % 2 === 0
        ? tiedTick(seed + 41_000, {
            nodes: 2 + (seed % 4),
            sessions: 6 + (seed % 8),
            eligibility: seed % 4 === 0,
            twins: seed % 6 === 2,
          })
        : randomTickProblem(seed + 42_000, {
            nodes: 2 + (seed % 5),
            sessions: 10 + (seed % 30),
            capacity: 50_000,
            minTokens: 2000,
            maxTokens: 30_000,
            cachedRate: 0.7,
          });
    const { packed } = prepare(problem, { quantum: [1, 3][seed % 2]! });
    if (sessionsKept(packed) === 0) continue;
    yield { seed, packed };
  }
}

/** a denser than b (credit per quantized weight), exactly: positive, 0 when equal, negative. */
function densityCompare(pa: number, wa: number, pb: number, wb: number): number {
  const l = BigInt(pa) * BigInt(wb);
  const r = BigInt(pb) * BigInt(wa);
  return l > r ? 1 : l < r ? -1 : 0;
}

/** decompositionPlan as its comment defines it. */
function referenceDecomposition(packed: PackedProblem, sets: readonly (readonly number[])[]): number[] {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const credit = (j: number, b: number): number => packed.credit[j * m + b]!;
  const out = new Array<number>(n).fill(-1);
  for (let j = 0; j < n; j++) {
    const holding: number[] = [];
    for (let b = 0; b < m; b++) if (sets[b]!.includes(j)) holding.push(b);
    if (holding.length === 0) continue;
    // Highest credit, ties: the lower node.
    out[j] = holding.reduce((x, y) => (credit(j, y) > credit(j, x) ? y : x));
  }
  const left = Array.from(packed.qcapacity);
  for (let j = 0; j < n; j++) if (out[j]! >= 0) left[out[j]!] = left[out[j]!]! - packed.qweight[j]!;
  const best = (j: number): number => {
    let top = 0;
    for (let b = 0; b < m; b++) if (packed.candidate[j * m + b] === 1) top = Math.max(top, credit(j, b));
    return top;
  };
  const rest = Array.from({ length: n }, (_, j) => j).filter((j) => out[j]! < 0);
  rest.sort(
    (a, b) =>
      densityCompare(best(b), packed.qweight[b]!, best(a), packed.qweight[a]!) ||
      packed.ready[b]! - packed.ready[a]! ||
      a - b,
  );
  for (const j of rest) {
    const fits: number[] = [];
    for (let b = 0; b < m; b++) if (packed.candidate[j * m + b] === 1 && packed.qweight[j]! <= left[b]!) fits.push(b);
    if (fits.length === 0) continue;
    fits.sort((x, y) => credit(j, y) - credit(j, x) || left[y]! - left[x]! || x - y);
    const b = fits[0]!;
    out[j] = b;
    left[b] = left[b]! - packed.qweight[j]!;
  }
  return out;
}

/** Random sets per node, each within the node's capacity, overlapping across nodes. */
function randomSets(packed: PackedProblem, seed: number): number[][] {
  const rnd = seededRandom(seed);
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  return Array.from({ length: m }, (_, b) => {
    const set: number[] = [];
    let used = 0;
    for (let j = 0; j < n; j++) {
      if (packed.candidate[j * m + b] !== 1 || rnd() < 0.5) continue;
      if (used + packed.qweight[j]! > packed.qcapacity[b]!) continue;
      used += packed.qweight[j]!;
      set.push(j);
    }
    return set;
  });
}

describe('the decomposition plan', () => {
  it('equals the reference on the computed levels and on random overlapping sets', () => {
    let placedInSecondPhase = 0;
    let overlapping = 0;
    for (const { seed, packed } of ticks()) {
      const level = creditLevel(packed, Number.POSITIVE_INFINITY);
      const candidates: number[][][] = [randomSets(packed, seed + 7)];
      if (level !== null) candidates.push(level.sets);
      for (const sets of candidates) {
        const got = decompositionPlan(packed, { sets });
        const want = referenceDecomposition(packed, sets);
        expect(Array.from(got), `seed ${seed}`).toEqual(want);
        const inSets = new Set(sets.flat());
        placedInSecondPhase += want.filter((b, j) => b >= 0 && !inSets.has(j)).length;
        if (inSets.size < sets.flat().length) overlapping++;
      }
    }
    expect(placedInSecondPhase).toBeGreaterThan(200);
    expect(overlapping).toBeGreaterThan(50);
  });
});

describe('the incumbent', () => {
  it('is the better of the heuristic and the best decomposition plan, ties to the heuristic', () => {
    const won = { decomposition: 0, heuristic: 0 };
    for (const { seed, packed } of ticks()) {
      const level = creditLevel(packed, Number.POSITIVE_INFINITY);
      if (level === null) continue;
      const best = bestCredits(packed);
      const h = bestHeuristic(packed, best);
      const d = bestDecompositionPlan(packed, level);
      const got = solverIncumbent(packed, best, level);
      if (d !== null && lexBetter(planTriple(packed, d), planTriple(packed, h.node))) {
        expect(got.heuristic, `seed ${seed}`).toBe('credit-decomposition');
        expect(Array.from(got.node)).toEqual(Array.from(d));
        won.decomposition++;
      } else {
        expect(got.heuristic, `seed ${seed}`).toBe(h.heuristic);
        expect(Array.from(got.node)).toEqual(Array.from(h.node));
        won.heuristic++;
      }
      // Halted after the heuristics: the heuristic plan alone.
      const halted = solverIncumbent(packed, best, level, () => true);
      const alone = bestHeuristic(packed, best, () => true);
      expect(halted.heuristic).toBe(alone.heuristic);
      expect(Array.from(halted.node)).toEqual(Array.from(alone.node));
    }
    expect(won.decomposition).toBeGreaterThan(5);
    expect(won.heuristic).toBeGreaterThan(5);
  });
});

describe('the credit level', () => {
  it('asks halted before every node of both passes and stops at the first true', () => {
    let checked = 0;
    for (const { seed, packed } of ticks()) {
      const level = creditLevel(packed, Number.POSITIVE_INFINITY);
      if (level === null) continue;
      const m = nodesKept(packed);
      // The uniqueness pass runs while the sets are disjoint and no other set reaches a node's bound: for a
      // decided level, over every node with a positive bound; an undecided level with disjoint sets stopped
      // at a node the test does not know, so it is checked through the first pass only.
      const owners = new Set<number>();
      let disjoint = true;
      for (const set of level.sets)
        for (const j of set) {
          if (owners.has(j)) disjoint = false;
          owners.add(j);
        }
      const secondPass = level.decided ? Array.from(level.nodeBound).filter((v) => v > 0).length : 0;
      const last = disjoint && !level.decided ? m : m + secondPass + 1;
      for (let stopAt = 1; stopAt <= last; stopAt++) {
        let calls = 0;
        const r = creditLevel(packed, Number.POSITIVE_INFINITY, undefined, () => ++calls >= stopAt);
        if (stopAt <= m + secondPass) {
          expect(r, `seed ${seed}, halted at call ${stopAt}`).toBeNull();
          expect(calls).toBe(stopAt);
        } else {
          expect(r).toEqual(level);
        }
      }
      if (secondPass > 0) checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });
});
