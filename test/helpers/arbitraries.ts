/**
 * fast-check generators of small Problems with the awkward cases drawn often: tied and zero credits,
 * ineligible pairs, zero capacities, sessions heavier than every node, weights that are not multiples
 * of the quantum.
 */
import fc from 'fast-check';
import { type Problem, type ProblemSession, seededRandom } from './internals.js';
import { twinFirstNode } from './twins.js';

export interface ShapeLimits {
  minSessions: number;
  maxSessions: number;
  minNodes: number;
  maxNodes: number;
  /** Largest node capacity in tokens. */
  maxCapacity: number;
  /** Largest session weight in tokens. */
  maxWeight: number;
}

const small: ShapeLimits = { minSessions: 0, maxSessions: 8, minNodes: 1, maxNodes: 3, maxCapacity: 24, maxWeight: 12 };

/** A problem together with the quantum to solve it at. */
export interface QuantizedCase {
  problem: Problem;
  quantum: number;
}

export function problemArb(limits: Partial<ShapeLimits> = {}): fc.Arbitrary<Problem> {
  const L = { ...small, ...limits };
  return fc.integer({ min: L.minNodes, max: L.maxNodes }).chain((m) => {
    const nodeIds = Array.from({ length: m }, (_, b) => `n${b}`);
    const capacity = fc.oneof(
      { weight: 1, arbitrary: fc.constant(0) },
      { weight: 6, arbitrary: fc.integer({ min: 0, max: L.maxCapacity }) },
    );
    const session = fc.record({
      weight: fc.integer({ min: 1, max: L.maxWeight }),
      tokens: fc.oneof(fc.constantFrom(0, 1, 2, 5), fc.integer({ min: 0, max: 50 })),
      ready: fc.boolean(),
      credit: fc.array(fc.oneof(fc.constantFrom(0, 0, 1, 3), fc.integer({ min: 0, max: 40 })), {
        minLength: m,
        maxLength: m,
      }),
      eligible: fc.option(fc.array(fc.boolean(), { minLength: m, maxLength: m }), { freq: 2 }),
      omitZeroCredits: fc.boolean(),
    });
    return fc
      .record({
        capacities: fc.array(capacity, { minLength: m, maxLength: m }),
        sessions: fc.array(session, { minLength: L.minSessions, maxLength: L.maxSessions }),
      })
      .map(
        ({ capacities, sessions }): Problem => ({
          nodes: nodeIds.map((id, b) => ({ id, capacity: capacities[b]! })),
          sessions: sessions.map((s, i): ProblemSession => {
            const credit: Record<string, number> = {};
            nodeIds.forEach((id, b) => {
              const k = s.credit[b]!;
              if (k !== 0 || !s.omitZeroCredits) credit[id] = k;
            });
            const out: ProblemSession = { id: `s${i}`, weight: s.weight, tokens: s.tokens, ready: s.ready, credit };
            if (s.eligible !== null) return { ...out, eligible: nodeIds.filter((_, b) => s.eligible![b]) };
            return out;
          }),
        }),
      );
  });
}

export function quantizedCaseArb(
  limits: Partial<ShapeLimits> = {},
  quanta = [1, 2, 3, 4],
): fc.Arbitrary<QuantizedCase> {
  return fc.record({ problem: problemArb(limits), quantum: fc.constantFrom(...quanta) });
}

/**
 * Small ticks with credit on several nodes and many ties: credits and weights from short lists; sizes
 * times `scale` (10: the dense grid is past the solver's dense-first threshold, so the credit level runs).
 */
export function tiedTick(
  seed: number,
  opts: { nodes: number; sessions: number; eligibility: boolean; twins: boolean; scale?: number },
): Problem {
  const scale = opts.scale ?? 1;
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const nodes = Array.from({ length: opts.nodes }, (_, b) => ({
    id: `n${b}`,
    capacity: pick([8, 10, 12, 15]) * scale,
  }));
  const sessions = Array.from({ length: opts.sessions }, (_, i): ProblemSession => {
    const credit: Record<string, number> = {};
    for (const node of nodes) if (rnd() < 0.55) credit[node.id] = pick([3, 4, 4, 6, 9]);
    const s: ProblemSession = {
      id: `s${i}`,
      weight: pick([3, 4, 5, 6]) * scale,
      tokens: pick([0, 1, 2, 7]),
      ready: rnd() < 0.5,
      credit,
    };
    if (opts.eligibility && rnd() < 0.3)
      return { ...s, eligible: nodes.filter(() => rnd() < 0.7).map((node) => node.id) };
    return s;
  });
  return twinFirstNode({ nodes, sessions }, opts.twins);
}

/**
 * A seeded uncredited pool of one to three sessions a room: 3-4 nodes of 30-80 tokens, 6-8 sessions of
 * 25-45 (tokens up to the weight, 60% ready). At quantum 1 it is past the dense DP's first try, and small
 * state budgets stop its multiple-knapsack search after the root.
 */
export function uncreditedPool(seed: number): Problem {
  const rnd = seededRandom(seed + 9000);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const nodes = Array.from({ length: int(3, 4) }, (_, b) => ({ id: `n${b}`, capacity: int(30, 80) }));
  const sessions = Array.from({ length: int(6, 8) }, (_, i): ProblemSession => {
    const weight = int(25, 45);
    return { id: `s${i}`, weight, tokens: int(0, weight), ready: rnd() < 0.6 };
  });
  return { nodes, sessions };
}
