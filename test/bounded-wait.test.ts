/**
 * The bounded wait: a pool where the paper's evaluation starves large uncredited sessions forever, and the
 * bounded variant admits each within its bound (solved by the real solver); and an independent
 * brute-force oracle of the intended order (head admitted, then starved count, then the paper's triple)
 * against the solver on the boosted Problem.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidValueError } from './helpers/internals.js';
import { evaluate } from './helpers/internals.js';
import type { EvaluateOptions } from './helpers/internals.js';
import { ReadinessPredictor } from './helpers/internals.js';
import type { CacheObservation, Snapshot, SnapshotSession } from './helpers/internals.js';
import { loadSolver, type Solver } from './helpers/internals.js';
import type { Assignment, Problem } from './helpers/internals.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

const predictor = new ReadinessPredictor();

interface Large {
  id: string;
  since: number;
}

/**
 * One node of 20,000 tokens, a tick per second. Three credited sessions of 5,500 tokens return every tick
 * with their prefix freshly cached (admitted at t, back at t + 1); large uncredited sessions of 15,000
 * tokens wait from `since`. A large session fits alone but never beside a credited one. Returns the tick
 * each large session was admitted at (absent: never).
 */
function runPool(larges: readonly Large[], ticks: number, options?: EvaluateOptions): Map<string, number> {
  const admittedAt = new Map<string, number>();
  for (let t = 0; t < ticks; t++) {
    const sessions: SnapshotSession[] = larges
      .filter((l) => !admittedAt.has(l.id) && l.since <= t)
      .map((l) => ({ id: l.id, tokens: 15_000, waitingSince: l.since }));
    for (const id of ['a', 'b', 'c']) {
      sessions.push({
        id,
        tokens: 5_500,
        cache: [{ node: 'n0', tokens: 5_500, observedAt: t }],
        tool: { name: 'bash', startedAt: t - 1, returnedAt: t },
        waitingSince: t,
      });
    }
    const snapshot: Snapshot = { time: t, nodes: [{ id: 'n0', capacity: 20_000 }], sessions };
    const plan = solver.solve(evaluate(snapshot, predictor, options), { quantum: 16 });
    expect(plan.status).toBe('optimal');
    for (const a of plan.assignments) if (a.session.startsWith('L')) admittedAt.set(a.session, t);
  }
  return admittedAt;
}

describe('bounded wait', () => {
  it('the paper evaluation never admits a large uncredited session while credited ones keep returning', () => {
    expect(runPool([{ id: 'L1', since: 0 }], 60).size).toBe(0);
  });

  it('admits the starved session at the first tick its wait reaches the threshold', () => {
    const at = runPool([{ id: 'L1', since: 0 }], 60, { waitThreshold: 5 });
    expect(at.get('L1')).toBe(5);
  });

  it('admits a backlog of starved sessions longest-waiting first, each within threshold + (older + 1) ticks', () => {
    const larges: Large[] = [
      { id: 'L4', since: 0.75 },
      { id: 'L2', since: 0.25 },
      { id: 'L1', since: 0 },
      { id: 'L3', since: 0.5 },
    ];
    const threshold = 4;
    const at = runPool(larges, 30, { waitThreshold: threshold });
    expect([...at.entries()].sort((x, y) => x[1] - y[1]).map(([id]) => id)).toEqual(['L1', 'L2', 'L3', 'L4']);
    for (const l of larges) {
      const older = larges.filter((o) => o.since < l.since).length;
      expect(at.get(l.id)! - l.since).toBeLessThanOrEqual(threshold + (older + 1) * 1);
    }
  });

  it('starves by the service multiple too, and only sessions that state an expected service', () => {
    const sessions: SnapshotSession[] = [
      { id: 'short', tokens: 100, waitingSince: 0, expectedService: 0.5 },
      { id: 'long', tokens: 100, waitingSince: 0, expectedService: 10 },
      { id: 'silent', tokens: 100, waitingSince: 0 },
    ];
    const snapshot: Snapshot = { time: 6, nodes: [{ id: 'n0', capacity: 10_000 }], sessions };
    const p = evaluate(snapshot, predictor, { waitServiceMultiple: 10 });
    // Pool credit 0, so B1 = 1; one starved session that fits: it is the head, S * B1 = 1.
    expect(p.sessions.map((s) => s.credit?.n0 ?? 0)).toEqual([1, 0, 0]);
  });

  it('times a returned call from its returnedAt when waitingSince is absent, and never a running or new one', () => {
    const sessions: SnapshotSession[] = [
      { id: 'returned', tokens: 100, tool: { name: 'bash', startedAt: 0, returnedAt: 1 } },
      { id: 'running', tokens: 100, tool: { name: 'bash', startedAt: 0 } },
      { id: 'new', tokens: 100 },
    ];
    const p = evaluate({ time: 100, nodes: [{ id: 'n0', capacity: 10_000 }], sessions }, predictor, {
      waitThreshold: 10,
    });
    expect(p.sessions.map((s) => s.credit?.n0 ?? 0)).toEqual([1, 0, 0]);
  });

  it('boosts by the pool credit of the sessions that fit: head S * (K + 1), other starved K + 1, own credit kept', () => {
    const cache = (node: string, tokens: number): CacheObservation[] => [{ node, tokens, observedAt: 10 }];
    const sessions: SnapshotSession[] = [
      { id: 'credited', tokens: 1_000, cache: cache('n1', 700) },
      { id: 'old', tokens: 1_000, waitingSince: 0, cache: cache('n0', 300) },
      { id: 'younger', tokens: 1_000, waitingSince: 2 },
      { id: 'huge', tokens: 50_000, waitingSince: -5, cache: cache('n0', 999) },
    ];
    const snapshot: Snapshot = {
      time: 10,
      nodes: [
        { id: 'n0', capacity: 4_000 },
        { id: 'n1', capacity: 4_000 },
      ],
      sessions,
    };
    const p = evaluate(snapshot, predictor, { waitThreshold: 5 });
    const K = 700 + 300; // "huge" fits nowhere: out of K and S
    expect(p.sessions[0]!.credit).toEqual({ n1: 700 });
    expect(p.sessions[1]!.credit).toEqual({ n0: 2 * (K + 1) + 300, n1: 2 * (K + 1) });
    expect(p.sessions[2]!.credit).toEqual({ n0: K + 1, n1: K + 1 });
    expect(p.sessions[3]!.credit).toEqual({ n0: 999 });
  });

  it('throws an InvalidValueError naming the session and node when a boosted credit exceeds u32', () => {
    const sessions: SnapshotSession[] = [];
    for (let i = 0; i < 3; i++) {
      sessions.push({
        id: `c${i}`,
        tokens: 4_000_000_000,
        reserve: 0,
        cache: [{ node: 'n0', tokens: 4_000_000_000, observedAt: 0 }],
      });
    }
    sessions.push({ id: 's', tokens: 10, waitingSince: 0 });
    const snapshot: Snapshot = { time: 100, nodes: [{ id: 'n0', capacity: 4_000_000_000 }], sessions };
    expect(() => evaluate(snapshot, predictor, { waitThreshold: 1, halfLife: Infinity })).toThrow(
      new InvalidValueError(
        'snapshot.sessions[3] is starved and its boosted credit on node "n0" would be 12000000001, above 4294967295 ' +
          '(1 starved sessions that fit, pool credit 12000000000)',
      ),
    );
  });
});

/** Each session to one node or none; callback per feasible assignment at quantum `q`. */
function forEachPlan(problem: Problem, q: number, visit: (pick: readonly number[]) => void): void {
  const { nodes, sessions } = problem;
  const m = nodes.length;
  const cap = nodes.map((n) => Math.floor(n.capacity / q));
  const pick = new Array<number>(sessions.length).fill(-1);
  const used = new Array<number>(m).fill(0);
  const rec = (i: number): void => {
    if (i === sessions.length) {
      visit(pick);
      return;
    }
    rec(i + 1);
    const s = sessions[i]!;
    const w = Math.ceil(s.weight / q);
    for (let b = 0; b < m; b++) {
      if (s.eligible !== undefined && !s.eligible.includes(nodes[b]!.id)) continue;
      if (used[b]! + w > cap[b]!) continue;
      used[b]! += w;
      pick[i] = b;
      rec(i + 1);
      pick[i] = -1;
      used[b]! -= w;
    }
  };
  rec(0);
}

/**
 * The intended order, written from the rule alone on the paper's (unboosted) Problem: (head admitted,
 * starved admitted, credit, ready, tokens), compared lexicographically.
 */
function intendedKey(plain: Problem, pick: readonly number[], starved: readonly boolean[], head: number): number[] {
  let [headIn, starvedIn, credit, ready, tokens] = [0, 0, 0, 0, 0];
  pick.forEach((b, i) => {
    if (b < 0) return;
    const s = plain.sessions[i]!;
    if (i === head) headIn++;
    if (starved[i]) starvedIn++;
    credit += s.credit?.[plain.nodes[b]!.id] ?? 0;
    ready += s.ready ? 1 : 0;
    tokens += s.tokens;
  });
  return [headIn, starvedIn, credit, ready, tokens];
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

function pickOf(problem: Problem, assignments: readonly Assignment[]): number[] {
  const pick = new Array<number>(problem.sessions.length).fill(-1);
  for (const a of assignments) {
    pick[problem.sessions.findIndex((s) => s.id === a.session)] = problem.nodes.findIndex((n) => n.id === a.node);
  }
  return pick;
}

const snapshotArb: fc.Arbitrary<Snapshot> = fc
  .record({
    caps: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 3 }),
    sessions: fc.array(
      fc.record({
        tokens: fc.integer({ min: 1, max: 24 }),
        since: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
        credit: fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 3, maxLength: 3 }),
        eligibleMask: fc.integer({ min: 0, max: 7 }),
      }),
      { maxLength: 7 },
    ),
  })
  .map(({ caps, sessions }) => {
    const nodes = caps.map((capacity, b) => ({ id: `n${b}`, capacity }));
    return {
      time: 20,
      nodes,
      sessions: sessions.map((s, i): SnapshotSession => {
        const eligible = nodes.filter((_, b) => (s.eligibleMask & (1 << b)) !== 0).map((n) => n.id);
        const out: SnapshotSession = {
          id: `s${i}`,
          tokens: s.tokens,
          reserve: 0,
          cache: nodes.map((n, b) => ({ node: n.id, tokens: s.credit[b]!, observedAt: 20 })),
        };
        if (s.eligibleMask !== 7) out.eligible = eligible;
        if (s.since !== undefined) out.waitingSince = s.since;
        return out;
      }),
    };
  });

/** The oracle's own reading of "starved" and "head" (threshold trigger only). */
function oracleHead(
  snapshot: Snapshot,
  plain: Problem,
  threshold: number,
  q: number,
): { starved: boolean[]; head: number } {
  const starved = snapshot.sessions.map(
    (s) => s.waitingSince !== undefined && snapshot.time - s.waitingSince >= threshold,
  );
  let head = -1;
  snapshot.sessions.forEach((s, i) => {
    if (!starved[i]) return;
    const w = plain.sessions[i]!.weight;
    const fitsAlone = snapshot.nodes.some(
      (n) => (s.eligible === undefined || s.eligible.includes(n.id)) && Math.ceil(w / q) <= Math.floor(n.capacity / q),
    );
    if (!fitsAlone) return;
    const h = head < 0 ? undefined : snapshot.sessions[head]!;
    if (h === undefined || s.waitingSince! < h.waitingSince! || (s.waitingSince === h.waitingSince && s.id < h.id))
      head = i;
  });
  return { starved, head };
}

/**
 * One node of 20,000 tokens, a tick per second, no reserve, sizes in multiples of the quantum 16. Four
 * admitted sessions of 4,992 tokens hold it at first, releasing one per tick; every admission holds its node
 * for 4 ticks. A credited session of 4,992 tokens returns every tick, and a large uncredited one of 14,992
 * waits from tick 0: the residual after each tick's release is 5,024, so the large session never fits alone
 * unless the node is kept for it. Returns the tick the large session was admitted at (undefined: never).
 */
function runStaggered(ticks: number, options: EvaluateOptions): number | undefined {
  let held: { weight: number; until: number }[] = [1, 2, 3, 4].map((until) => ({ weight: 4_992, until }));
  const waiting: SnapshotSession[] = [{ id: 'L', tokens: 14_992, waitingSince: 0 }];
  for (let t = 0; t < ticks; t++) {
    held = held.filter((h) => h.until > t);
    waiting.push({
      id: `s${t}`,
      tokens: 4_992,
      cache: [{ node: 'n0', tokens: 4_992, observedAt: t }],
      waitingSince: t,
    });
    const used = held.reduce((a, h) => a + h.weight, 0);
    const snapshot: Snapshot = { time: t, nodes: [{ id: 'n0', capacity: 20_000 - used }], sessions: waiting };
    const plan = solver.solve(evaluate(snapshot, predictor, { reserve: 0, ...options }), { quantum: 16 });
    expect(plan.status).toBe('optimal');
    for (const a of plan.assignments) {
      const i = waiting.findIndex((w) => w.id === a.session);
      held.push({ weight: waiting[i]!.tokens, until: t + 4 });
      waiting.splice(i, 1);
      if (a.session === 'L') return t;
    }
  }
  return undefined;
}

describe('reservation for the oldest starved session', () => {
  it('without it, a starved session that never fits alone waits forever behind smaller credited ones', () => {
    expect(runStaggered(60, { waitThreshold: 3 })).toBeUndefined();
  });

  it('keeps the node for it until it fits, and admits it within threshold + (older + 1) * (hold + 1) ticks', () => {
    const at = runStaggered(60, { waitThreshold: 3, waitReserve: true });
    // Starved at 3; the node takes nothing new from then on and frees 4,992 a tick: 15,008 free at 5.
    expect(at).toBe(5);
    expect(at!).toBeLessThanOrEqual(3 + (0 + 1) * (4 + 1));
  });

  it('makes the reserved node (most residual, first on ties) ineligible for everyone else, credit restricted', () => {
    const eligible = ['n0', 'n1', 'n2'];
    const sessions: SnapshotSession[] = [
      {
        id: 'other',
        tokens: 1_000,
        eligible,
        cache: [
          { node: 'n1', tokens: 800, observedAt: 10 },
          { node: 'n2', tokens: 600, observedAt: 10 },
        ],
      },
      { id: 'big', tokens: 9_000, waitingSince: 0 },
      { id: 'young', tokens: 1_000, waitingSince: 4, cache: [{ node: 'n1', tokens: 500, observedAt: 10 }] },
    ];
    const nodes = [
      { id: 'n0', capacity: 3_000 },
      { id: 'n1', capacity: 5_000 },
      { id: 'n2', capacity: 5_000 },
    ];
    const snapshot: Snapshot = { time: 10, nodes, sessions };
    const p = evaluate(snapshot, predictor, { waitThreshold: 5, waitReserve: true, reserve: 0 });
    expect(p.sessions[0]!.eligible).toEqual(['n0', 'n2']);
    expect(p.sessions[0]!.credit).toEqual({ n2: 600 });
    expect(sessions[0]!.eligible).toEqual(['n0', 'n1', 'n2']);
    // "big" (oldest starved, fits alone nowhere) keeps every node. "young" is starved too and loses n1 with
    // its credit there; it is the head (the oldest starved that fits): S = 1, K = 600 (big fits nowhere).
    expect(p.sessions[1]!.eligible).toBeUndefined();
    expect(p.sessions[2]!.eligible).toEqual(['n0', 'n2']);
    expect(p.sessions[2]!.credit).toEqual({ n0: 601, n2: 601 });
  });

  it('reserves nothing when the oldest starved session fits alone somewhere', () => {
    const sessions: SnapshotSession[] = [
      { id: 'a', tokens: 2_000, cache: [{ node: 'n0', tokens: 2_000, observedAt: 10 }] },
      { id: 'old', tokens: 4_000, waitingSince: 0 },
      { id: 'oldest-too-big', tokens: 1_000_000, waitingSince: -1, eligible: [] },
    ];
    const snapshot: Snapshot = { time: 10, nodes: [{ id: 'n0', capacity: 5_000 }], sessions };
    const on = evaluate(snapshot, predictor, { waitThreshold: 5, waitReserve: true });
    expect(on).toEqual(evaluate(snapshot, predictor, { waitThreshold: 5 }));
    expect(on.sessions[0]!.eligible).toBeUndefined();
  });
});

describe('bounded wait keeps the solver exact', () => {
  it('the fallback plan (dense DP over its state budget) admits the head first too', () => {
    let withHead = 0;
    let fellBack = 0;
    fc.assert(
      fc.property(snapshotArb, (snapshot) => {
        const plain = evaluate(snapshot, predictor);
        const { head } = oracleHead(snapshot, plain, 8, 4);
        const boosted = evaluate(snapshot, predictor, { waitThreshold: 8, waitQuantum: 4 });
        const plan = solver.solve(boosted, { quantum: 4, stateBudget: 1, path: 'dense' });
        if (head < 0) return;
        withHead++;
        if (plan.status === 'fallback') fellBack++;
        expect(plan.assignments[0]?.session).toBe(snapshot.sessions[head]!.id);
      }),
      { numRuns: 300 },
    );
    expect(withHead).toBeGreaterThan(50);
    expect(fellBack).toBeGreaterThan(25);
  });

  it.each([1, 4])(
    'the solver on the boosted Problem attains the brute-force optimum of the intended order (quantum %i)',
    (q) => {
      fc.assert(
        fc.property(snapshotArb, (snapshot) => {
          const threshold = 8;
          const plain = evaluate(snapshot, predictor);
          const boosted = evaluate(snapshot, predictor, { waitThreshold: threshold, waitQuantum: q });
          const { starved, head } = oracleHead(snapshot, plain, threshold, q);
          let best: number[] | undefined;
          forEachPlan(plain, q, (pick) => {
            const key = intendedKey(plain, pick, starved, head);
            if (best === undefined || compareKeys(key, best) > 0) best = key;
          });
          const plan = solver.solve(boosted, { quantum: q });
          expect(plan.status).toBe('optimal');
          expect(intendedKey(plain, pickOf(plain, plan.assignments), starved, head)).toEqual(best);
        }),
        { numRuns: 300 },
      );
    },
  );

  it.each([1, 4])(
    'with the reservation, the solver attains the brute-force optimum of the intended order over the plans that leave the reserved node to the oldest starved session (quantum %i)',
    (q) => {
      const threshold = 8;
      let reservations = 0;
      fc.assert(
        fc.property(snapshotArb, (snapshot) => {
          const plain = evaluate(snapshot, predictor);
          const { nodes, sessions } = snapshot;
          const eligibleOf = (s: SnapshotSession): number[] =>
            nodes.map((_, b) => b).filter((b) => s.eligible === undefined || s.eligible.includes(nodes[b]!.id));
          // The oracle's own reading of the reservation: the oldest starved session with an eligible node; if
          // it fits alone on none, its eligible node of most room (first on ties) is left to it alone.
          let owner = -1;
          sessions.forEach((s, i) => {
            if (
              s.waitingSince === undefined ||
              snapshot.time - s.waitingSince < threshold ||
              eligibleOf(s).length === 0
            )
              return;
            const o = owner < 0 ? undefined : sessions[owner]!;
            if (
              o === undefined ||
              s.waitingSince < o.waitingSince! ||
              (s.waitingSince === o.waitingSince && s.id < o.id)
            )
              owner = i;
          });
          let reserved = -1;
          if (owner >= 0) {
            const w = Math.ceil(plain.sessions[owner]!.weight / q);
            const mine = eligibleOf(sessions[owner]!);
            if (!mine.some((b) => w <= Math.floor(nodes[b]!.capacity / q))) {
              reserved = mine.reduce((a, b) => (nodes[b]!.capacity > nodes[a]!.capacity ? b : a));
            }
          }
          const restricted: Snapshot =
            reserved < 0
              ? snapshot
              : {
                  ...snapshot,
                  sessions: sessions.map((s, i) =>
                    i === owner
                      ? s
                      : {
                          ...s,
                          eligible: eligibleOf(s)
                            .filter((b) => b !== reserved)
                            .map((b) => nodes[b]!.id),
                        },
                  ),
                };
          const plainRestricted = evaluate(restricted, predictor);
          const { starved, head } = oracleHead(restricted, plainRestricted, threshold, q);
          let best: number[] | undefined;
          forEachPlan(plainRestricted, q, (pick) => {
            const key = intendedKey(plainRestricted, pick, starved, head);
            if (best === undefined || compareKeys(key, best) > 0) best = key;
          });
          const plan = solver.solve(
            evaluate(snapshot, predictor, { waitThreshold: threshold, waitQuantum: q, waitReserve: true }),
            {
              quantum: q,
            },
          );
          expect(plan.status).toBe('optimal');
          expect(intendedKey(plainRestricted, pickOf(plainRestricted, plan.assignments), starved, head)).toEqual(best);
          if (reserved >= 0) {
            reservations++;
            expect(plan.assignments.filter((a) => a.node === nodes[reserved]!.id)).toEqual([]);
          }
        }),
        { numRuns: 300 },
      );
      expect(reservations).toBeGreaterThan(20);
    },
  );
});
