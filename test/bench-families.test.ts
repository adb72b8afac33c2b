import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bruteForceValue } from './helpers/internals.js';
import { familyGroups, FAMILY_NAMES, groupKey } from './helpers/internals.js';
import { RESERVE } from './helpers/internals.js';
import { BIG_STEADY } from './helpers/internals.js';
import { BURST } from './helpers/internals.js';
import { CLUSTER } from './helpers/internals.js';
import { LARGE } from './helpers/internals.js';
import { MKP } from './helpers/internals.js';
import { NEAR_FITTING } from './helpers/internals.js';
import { SINGLE_CREDIT } from './helpers/internals.js';
import { SPREAD_CREDIT } from './helpers/internals.js';
import { describeProblems } from './helpers/internals.js';
import { validateProblem } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import { quantizedCaseArb } from './helpers/arbitraries.js';
import { bruteForceOptimum } from './oracles/brute-force.js';

const GENERATED = ['single-credit', 'spread-credit', 'near-fitting', 'large', 'mkp', 'burst', 'big-steady'];
const group = (key: string) => {
  const g = familyGroups(FAMILY_NAMES).find((x) => groupKey(x) === key);
  if (g === undefined) throw new Error(`no group ${key}`);
  return g;
};
const demand = (p: Problem): number => p.sessions.reduce((a, s) => a + s.weight, 0);
const room = (p: Problem): number => p.nodes.reduce((a, n) => a + n.capacity, 0);
const creditedOn = (p: Problem) => p.sessions.map((s) => Object.values(s.credit ?? {}).filter((c) => c > 0).length);

describe('benchmark families', () => {
  it('every generated group is valid input, the same for the same seed, and instance i does not depend on the count', async () => {
    for (const g of familyGroups(GENERATED)) {
      const a = await g.generate(7, 6);
      const b = await g.generate(7, 3);
      a.forEach((p, i) => validateProblem(p, `${groupKey(g)}[${i}]`));
      expect(a.slice(0, 3), groupKey(g)).toEqual(b);
      expect(
        a.every((p) => p.nodes.length === g.nodes),
        groupKey(g),
      ).toBe(true);
      expect(await g.generate(8, 3), groupKey(g)).not.toEqual(b);
    }
  });

  it('single-credit: 50-120 waiting, each credited on exactly one node, room for 1-4 sessions per node, far more demand than room', async () => {
    for (const p of await group('single-credit/4n').generate(1, 40)) {
      expect(p.sessions.length).toBeGreaterThanOrEqual(SINGLE_CREDIT.sessions[0]);
      expect(p.sessions.length).toBeLessThanOrEqual(SINGLE_CREDIT.sessions[1]);
      expect(creditedOn(p).every((k) => k === 1)).toBe(true);
      const mean = demand(p) / p.sessions.length;
      for (const n of p.nodes) {
        expect(n.capacity / mean).toBeGreaterThanOrEqual(0.999);
        expect(n.capacity / mean).toBeLessThanOrEqual(4.001);
      }
      expect(demand(p)).toBeGreaterThan(room(p));
      expect(p.sessions.every((s) => s.weight === s.tokens + RESERVE)).toBe(true);
    }
  });

  it('spread-credit and large: about 30% uncredited, the others credited on 1-3 nodes; large has 200-500 sessions', async () => {
    for (const key of ['spread-credit/4n', 'large/8n']) {
      const ps = await group(key).generate(1, 30);
      const counts = ps.flatMap(creditedOn);
      const uncredited = counts.filter((k) => k === 0).length / counts.length;
      expect(uncredited, key).toBeGreaterThan(SPREAD_CREDIT.uncredited - 0.05);
      expect(uncredited, key).toBeLessThan(SPREAD_CREDIT.uncredited + 0.05);
      expect(Math.max(...counts)).toBe(SPREAD_CREDIT.maxCreditNodes);
      expect(counts.some((k) => k === 2)).toBe(true);
    }
    for (const p of await group('large/16n').generate(1, 10)) {
      expect(p.sessions.length).toBeGreaterThanOrEqual(LARGE.sessions[0]);
      expect(p.sessions.length).toBeLessThanOrEqual(LARGE.sessions[1]);
    }
  });

  it('near-fitting: no credit, demand 1.02-1.3x the room', async () => {
    for (const m of NEAR_FITTING.nodes) {
      for (const p of await group(`near-fitting/${m}n`).generate(1, 30)) {
        expect(creditedOn(p).every((k) => k === 0)).toBe(true);
        const r = demand(p) / room(p);
        expect(r).toBeGreaterThanOrEqual(NEAR_FITTING.demandOverRoom[0]);
        expect(r).toBeLessThanOrEqual(NEAR_FITTING.demandOverRoom[1] * 1.001);
      }
    }
  });

  it('mkp: weights 10..1000, profits by class, equal credit on every node, capacities summing to half the weight', async () => {
    const profits = (p: Problem) =>
      p.sessions.map((s) => [s.weight, ...Object.values(s.credit ?? {})] as [number, ...number[]]);
    for (const [n, m] of MKP.sizes) {
      for (const cls of ['uncorrelated', 'weak', 'strong', 'subset-sum']) {
        const g = group(`mkp/${cls}-${n}x${m}`);
        expect(g.quantum).toBe(1);
        for (const p of await g.generate(1, 5)) {
          expect(p.sessions.length).toBe(n);
          expect(room(p)).toBe(Math.floor(demand(p) / 2));
          expect(Math.min(...p.nodes.map((x) => x.capacity))).toBeGreaterThanOrEqual(Math.ceil((0.4 * demand(p)) / m));
          for (const [w, ...ps] of profits(p)) {
            expect(w).toBeGreaterThanOrEqual(10);
            expect(w).toBeLessThanOrEqual(1000);
            expect(ps).toHaveLength(m);
            expect(new Set(ps).size).toBe(1);
            const pr = ps[0] as number;
            if (cls === 'strong') expect(pr).toBe(w + 100);
            if (cls === 'subset-sum') expect(pr).toBe(w);
            if (cls === 'weak') expect(Math.abs(pr - w) <= 100 || pr === 1).toBe(true);
          }
          expect(p.sessions.every((s) => s.tokens === 0 && !s.ready)).toBe(true);
        }
      }
    }
  });

  it('burst and big-steady: one group per size, contexts 3k-90k, 70% credited on one node, 30% ready; bursts have room for ~40% of the weight, steady nodes for 1-4 sessions', async () => {
    const sizes = CLUSTER.sizes.map(([m, n]) => `${m}x${n}`);
    expect(familyGroups(['burst']).map((g) => g.name)).toEqual(sizes);
    expect(familyGroups(['big-steady']).map((g) => g.name)).toEqual(sizes);
    expect(familyGroups(['burst']).map((g) => g.highs)).toEqual(CLUSTER.sizes.map(([m]) => m <= 8));
    for (const key of ['burst/8x256', 'big-steady/8x256']) {
      const ps = await group(key).generate(2, 8);
      const sessions = ps.flatMap((p) => p.sessions);
      expect(ps.every((p) => p.sessions.length === 256 && p.nodes.length === 8)).toBe(true);
      expect(
        sessions.every(
          (s) => s.tokens >= CLUSTER.tokens[0] && s.tokens <= CLUSTER.tokens[1] && s.weight === s.tokens + RESERVE,
        ),
      ).toBe(true);
      const counts = ps.flatMap(creditedOn);
      expect(Math.max(...counts)).toBe(1);
      const credited = counts.filter((k) => k === 1).length / counts.length;
      expect(credited, key).toBeGreaterThan(CLUSTER.creditedRate - 0.05);
      expect(credited, key).toBeLessThan(CLUSTER.creditedRate + 0.05);
      const ready = sessions.filter((s) => s.ready).length / sessions.length;
      expect(ready, key).toBeGreaterThan(CLUSTER.readyRate - 0.05);
      expect(ready, key).toBeLessThan(CLUSTER.readyRate + 0.05);
      for (const p of ps) {
        if (key.startsWith('burst')) {
          const share = room(p) / demand(p);
          expect(share).toBeGreaterThan(BURST.roomShare * BURST.spread[0]);
          expect(share).toBeLessThan(BURST.roomShare * BURST.spread[1]);
        } else {
          const mean = demand(p) / p.sessions.length;
          for (const n of p.nodes) {
            expect(n.capacity / mean).toBeGreaterThanOrEqual(BIG_STEADY.roomSessions[0] - 0.001);
            expect(n.capacity / mean).toBeLessThanOrEqual(BIG_STEADY.roomSessions[1] + 0.001);
          }
        }
      }
    }
  });

  it('describes its inputs: room per node in sessions, demand over room, credited share', () => {
    const p: Problem = {
      nodes: [
        { id: 'a', capacity: 20 },
        { id: 'b', capacity: 40 },
      ],
      sessions: [
        { id: 'x', weight: 10, tokens: 1, ready: true, credit: { a: 3 } },
        { id: 'y', weight: 30, tokens: 1, ready: false, credit: { a: 0 } },
      ],
    };
    const d = describeProblems([p]);
    expect(d.roomSessionsP50).toBeCloseTo(1.5);
    expect(d.demandOverRoomP50).toBeCloseTo(40 / 60);
    expect(d.allFitPct).toBe(100);
    expect(d.creditedPct).toBe(50);
  });
});

describe('the benchmark brute-force oracle', () => {
  it('agrees with the test oracle on small problems at several quanta', () => {
    fc.assert(
      fc.property(quantizedCaseArb(), ({ problem, quantum }) => {
        expect(bruteForceValue(problem, quantum)).toEqual(bruteForceOptimum(problem, quantum));
      }),
      { numRuns: 300 },
    );
  });

  it('declines problems with too many assignments', () => {
    const sessions = Array.from({ length: 20 }, (_, i) => ({ id: `s${i}`, weight: 1, tokens: 1, ready: false }));
    expect(
      bruteForceValue(
        {
          nodes: [
            { id: 'a', capacity: 5 },
            { id: 'b', capacity: 5 },
          ],
          sessions,
        },
        1,
      ),
    ).toBeNull();
  });
});
