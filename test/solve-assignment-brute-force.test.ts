/**
 * The assignment path (src/solve/assignment/) against enumeration: the matching (`maxAssignment`)
 * against every assignment of rows to distinct columns; the path's plans (`assignmentPlan`) against brute
 * force on small problems whose nodes hold one session each but for a few (credit on one or several
 * nodes with ties, ready ties, eligibility limits, interchangeable nodes, several quanta); and its
 * limits, and its pruning of the multi nodes' combinations by a bound. The solver on larger problems the
 * path closes, against HiGHS, is in test/assignment.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AssignmentScratch,
  assignmentPlan,
  MatchingScratch,
  maxAssignment,
  nodesKept,
  type Problem,
  type ProblemSession,
  prepare,
  seededRandom,
  sessionsKept,
  unpackNodes,
} from './helpers/internals.js';
import { expectFeasible, valueOf as planValue } from './helpers/plan-checks.js';
import { bruteForceOptimum, compareValues } from './oracles/brute-force.js';

/** Every assignment of rows to distinct columns or none, by enumeration: the best total. */
function enumerateAssignment(value: Float64Array, rows: number, columns: number): number {
  const used = new Uint8Array(columns);
  const visit = (r: number): number => {
    if (r === rows) return 0;
    let best = visit(r + 1);
    for (let c = 0; c < columns; c++) {
      const v = value[r * columns + c]!;
      if (used[c] === 1 || v === Number.NEGATIVE_INFINITY) continue;
      used[c] = 1;
      best = Math.max(best, v + visit(r + 1));
      used[c] = 0;
    }
    return best;
  };
  return visit(0);
}

describe('maxAssignment', () => {
  it('equals enumeration on random matrices with forbidden pairs, zeros and ties', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 1000 })), {
          minLength: 30,
          maxLength: 30,
        }),
        (rows, columns, raw) => {
          const value = new Float64Array(rows * columns);
          for (let e = 0; e < value.length; e++) value[e] = raw[e]! < 0 ? Number.NEGATIVE_INFINITY : raw[e]!;
          const m = maxAssignment(value, rows, columns);
          expect(m.value).toBe(enumerateAssignment(value, rows, columns));
          const seen = new Set<number>();
          let sum = 0;
          for (let r = 0; r < rows; r++) {
            const c = m.column[r]!;
            if (c < 0) continue;
            expect(seen.has(c)).toBe(false);
            seen.add(c);
            expect(value[r * columns + c]).not.toBe(Number.NEGATIVE_INFINITY);
            sum += value[r * columns + c]!;
          }
          expect(sum).toBe(m.value);
        },
      ),
      { numRuns: 400, seed: 22 },
    );
  });
});

describe('maxAssignment with a reused scratch', () => {
  it("gives a fresh scratch's answer after larger and smaller problems, past the scratch's first sizes (64 rows, 1023 columns)", () => {
    const rnd = seededRandom(77);
    const matrix = (rows: number, columns: number) =>
      Float64Array.from({ length: rows * columns }, () =>
        rnd() < 0.2 ? Number.NEGATIVE_INFINITY : Math.floor(rnd() * 1000),
      );
    const scratch = new MatchingScratch();
    // Sizes past the scratch's initial arrays, then small ones that must not read what the large ones left.
    for (const [rows, columns] of [
      [70, 1100],
      [3, 5],
      [66, 40],
      [2, 2],
      [5, 1030],
      [4, 3],
      // rows + columns exactly the size the first column arrays hold, and one past it.
      [4, 1020],
      [4, 1021],
    ] as const) {
      const value = matrix(rows, columns);
      // The last row has no allowed pair: it must take its own empty column, the scratch's last.
      value.fill(Number.NEGATIVE_INFINITY, (rows - 1) * columns, rows * columns);
      const reused = maxAssignment(value, rows, columns, scratch);
      const fresh = maxAssignment(value, rows, columns);
      expect(reused).toEqual(fresh);
      if (rows * columns <= 20) expect(fresh.value).toBe(enumerateAssignment(value, rows, columns));
    }
    // A known answer past the first sizes: the diagonal, one per row.
    const rows = 80;
    const columns = 1100;
    const diagonal = new Float64Array(rows * columns);
    for (let r = 0; r < rows; r++) diagonal[r * columns + r] = 1;
    const m = maxAssignment(diagonal, rows, columns, scratch);
    expect(m.value).toBe(rows);
    expect(Array.from(m.column)).toEqual(Array.from({ length: rows }, (_, r) => r));
  });
});

/**
 * A problem whose nodes mostly hold one session: node capacities between one and two weights (a few
 * nodes room for two or three), weights from a small range so ties are common.
 */
const smallProblem = fc
  .record({
    m: fc.integer({ min: 1, max: 4 }),
    sessions: fc.array(
      fc.record({
        weight: fc.integer({ min: 20, max: 40 }),
        tokens: fc.integer({ min: 0, max: 30 }),
        ready: fc.boolean(),
        creditNodes: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 2 }),
        credit: fc.integer({ min: 1, max: 3 }),
        limit: fc.option(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 2 }), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 7 },
    ),
    room: fc.array(fc.integer({ min: 20, max: 100 }), { minLength: 4, maxLength: 4 }),
    equalNodes: fc.boolean(),
    quantum: fc.constantFrom(1, 4, 16),
  })
  .map(({ m, sessions, room, equalNodes, quantum }): [Problem, number] => {
    const ids = Array.from({ length: m }, (_, b) => `n${b}`);
    const problem: Problem = {
      nodes: ids.map((id, b) => ({ id, capacity: equalNodes ? room[0]! : room[b]! })),
      sessions: sessions.map((s, i): ProblemSession => {
        const out: ProblemSession = { id: `s${i}`, weight: s.weight, tokens: s.tokens, ready: s.ready };
        const credited = s.creditNodes.filter((b) => b < m);
        if (credited.length > 0) out.credit = Object.fromEntries(credited.map((b) => [ids[b]!, s.credit]));
        const limit = s.limit?.filter((b) => b < m);
        if (limit !== undefined && limit.length > 0) out.eligible = [...new Set(limit.map((b) => ids[b]!))];
        return out;
      }),
    };
    return [problem, quantum];
  });

describe('assignmentPlan', () => {
  it('equals brute force wherever it applies (single and few-session nodes, ties, eligibility, quanta)', () => {
    let applied = 0;
    let multi = 0;
    fc.assert(
      fc.property(smallProblem, ([problem, quantum]) => {
        const { packed } = prepare(problem, { quantum });
        if (nodesKept(packed) === 0) return;
        const out = assignmentPlan(packed, 2 ** 22);
        if (out === 'not-applicable' || 'abandoned' in out) return;
        applied++;
        const m = nodesKept(packed);
        for (let b = 0; b < m; b++) {
          let count = 0;
          for (let j = 0; j < out.node.length; j++) if (out.node[j] === b) count++;
          if (count > 1) multi++;
        }
        const node = unpackNodes(packed, out.node);
        const plan = {
          status: 'optimal' as const,
          assignments: Array.from(node)
            .map((b, i) => ({ b, i }))
            .filter(({ b }) => b >= 0)
            .map(({ b, i }) => ({ session: problem.sessions[i]!.id, node: problem.nodes[b]!.id })),
          value: { credit: 0, ready: 0, tokens: 0 },
          bound: { credit: 0, ready: 0, tokens: 0 },
          quantum,
          stats: { path: 'assignment' as const, work: 0, cells: 0, states: 0, micros: 0 },
        };
        plan.value = planValue(problem, plan);
        expectFeasible(problem, plan);
        expect(compareValues(plan.value, bruteForceOptimum(problem, quantum))).toBe(0);
      }),
      { numRuns: 1500, seed: 7 },
    );
    // The property must reach the path, on single nodes and on nodes it fills with several sessions.
    expect(applied).toBeGreaterThan(500);
    expect(multi).toBeGreaterThan(20);
  });

  it("gives a fresh scratch's plan and work with one scratch kept across problems of every size", () => {
    // The kept scratch's column table must be clean after every call (it is -1 between calls): a stale
    // entry would merge two sessions' columns in the next problem's matchings.
    const kept = new AssignmentScratch();
    let applied = 0;
    fc.assert(
      fc.property(smallProblem, ([problem, quantum]) => {
        const { packed } = prepare(problem, { quantum });
        if (nodesKept(packed) === 0) return;
        const reused = assignmentPlan(packed, 2 ** 22, kept);
        expect(reused).toEqual(assignmentPlan(packed, 2 ** 22));
        if (reused !== 'not-applicable' && !('abandoned' in reused)) applied++;
      }),
      { numRuns: 600, seed: 8 },
    );
    expect(applied).toBeGreaterThan(200);
  });

  it("equals the maximum matching of the whole value matrix on 14 single nodes, past the scratch's first sizes", () => {
    // 14 rows read up to 14 candidates each (196 columns, more than the 64 the scratch starts with) and a
    // 14 x 196 matrix (more than its 1,024 entries); one scratch, kept from small problems to this one.
    const kept = new AssignmentScratch();
    const rnd = seededRandom(5);
    const nodes = Array.from({ length: 14 }, (_, b) => ({ id: `n${b}`, capacity: 100 + b }));
    for (const sessionsCount of [3, 60, 240]) {
      const sessions: ProblemSession[] = Array.from({ length: sessionsCount }, (_, i) => {
        const credit: Record<string, number> = {};
        for (const node of nodes) if (rnd() < 0.3) credit[node.id] = 1 + Math.floor(rnd() * 50);
        return {
          id: `s${i}`,
          weight: 60 + Math.floor(rnd() * 40),
          tokens: Math.floor(rnd() * 90),
          ready: rnd() < 0.5,
          credit,
        };
      });
      const { packed } = prepare({ nodes, sessions }, { quantum: 1 });
      const out = assignmentPlan(packed, 2 ** 26, kept);
      if (out === 'not-applicable' || 'abandoned' in out) throw new Error('the path must apply');
      // Every node is single (no two sessions fit): the optimum is the best matching over every pair.
      const n = sessionsKept(packed);
      const m = nodesKept(packed);
      // Each pair is worth its packed key (small here: exact as a double).
      const pair = (j: number, b: number) => (packed.candidate[j * m + b] === 1 ? Number(packed.key[j * m + b]!) : -1);
      const matrix = new Float64Array(m * n);
      for (let b = 0; b < m; b++)
        for (let j = 0; j < n; j++) matrix[b * n + j] = pair(j, b) >= 0 ? pair(j, b) : Number.NEGATIVE_INFINITY;
      let value = 0;
      for (let j = 0; j < n; j++) if (out.node[j]! >= 0) value += pair(j, out.node[j]!);
      expect(value).toBe(maxAssignment(matrix, m, n).value);
    }
  });

  it('refuses a node that holds many sessions, and gives way at the budget', () => {
    const many: Problem = {
      nodes: [{ id: 'a', capacity: 1000 }],
      sessions: Array.from({ length: 30 }, (_, i) => ({ id: `s${i}`, weight: 20 + i, tokens: i, ready: false })),
    };
    expect(assignmentPlan(prepare(many, { quantum: 1 }).packed, 2 ** 22)).toBe('not-applicable');
    const single: Problem = {
      nodes: Array.from({ length: 6 }, (_, b) => ({ id: `n${b}`, capacity: 50 + b })),
      sessions: Array.from({ length: 20 }, (_, i) => ({ id: `s${i}`, weight: 30 + i, tokens: i, ready: i % 2 === 0 })),
    };
    const out = assignmentPlan(prepare(single, { quantum: 1 }).packed, 10);
    expect(out !== 'not-applicable' && 'abandoned' in out).toBe(true);
  });

  it('skips the combinations its bound rules out: a multi node of hundreds of patterns decided with a few matchings, the brute-force optimum', () => {
    // One node with room for two or three of 26 sessions (every pair and triple that fits is a pattern),
    // three single nodes that each fit one of the lighter ones.
    const sessions = Array.from({ length: 26 }, (_, i) => ({
      id: `s${i}`,
      weight: 30 + i,
      tokens: 30 + i,
      ready: i % 3 === 0,
    }));
    const problem: Problem = {
      nodes: [
        { id: 'multi', capacity: 100 },
        { id: 'a', capacity: 40 },
        { id: 'b', capacity: 45 },
        { id: 'c', capacity: 50 },
      ],
      sessions,
    };
    let patterns = 0;
    for (let x = 0; x < 26; x++)
      for (let y = x + 1; y < 26; y++) {
        if (60 + x + y <= 100) patterns++;
        for (let z = y + 1; z < 26; z++) if (90 + x + y + z <= 100) patterns++;
      }
    expect(patterns).toBeGreaterThan(200);
    const { packed } = prepare(problem, { quantum: 1 });
    const out = assignmentPlan(packed, 2 ** 22);
    if (out === 'not-applicable' || 'abandoned' in out) throw new Error('the path must apply');
    // Without the bound every combination (each pattern, and "at most one") costs a plan entry per session
    // and a matching: at least 26 steps each.
    expect(out.work).toBeLessThan((26 * (patterns + 1)) / 4);
    const value = { credit: 0, ready: 0, tokens: 0 };
    unpackNodes(packed, out.node).forEach((b, i) => {
      if (b < 0) return;
      value.ready += sessions[i]!.ready ? 1 : 0;
      value.tokens += sessions[i]!.tokens;
    });
    expect(compareValues(value, bruteForceOptimum(problem, 1))).toBe(0);
  });

  it('refuses values whose sums could reach 2^53 (the packed key past 64 bits, a key past 2^53, a matching potential past it) and takes the same shape with smaller credits', () => {
    // Two nodes that each hold one of two sessions, both ready, of 2^32 - 1 tokens: (R + 1)(T + 1) is about
    // 2^34.6, so a credit c makes keys of about c x 2^34.6.
    const tokens = 2 ** 32 - 1;
    const tick = (credit: number): Problem => ({
      nodes: [
        { id: 'a', capacity: 150 },
        { id: 'b', capacity: 150 },
      ],
      sessions: [
        { id: 's0', weight: 100, tokens, ready: true, credit: { a: credit, b: credit - 1 } },
        // The last pair's key is the least: the top key is not the last one read.
        { id: 's1', weight: 100, tokens, ready: true, credit: { a: credit, b: 1 } },
      ],
    });
    const topKey = (packed: ReturnType<typeof prepare>['packed']) =>
      packed.key.reduce((top, k) => (k > top ? k : top), 0n);
    // (K + 1)(R + 1)(T + 1) past 2^63: no 64-bit key at all.
    const wide = prepare(tick(2 ** 32 - 1), { quantum: 1 }).packed;
    expect(wide.keyFits).toBe(false);
    expect(assignmentPlan(wide, 2 ** 22)).toBe('not-applicable');
    // The key fits 64 bits but a pair's key is past 2^53.
    const past = prepare(tick(2 ** 20), { quantum: 1 }).packed;
    expect(past.keyFits).toBe(true);
    expect(topKey(past)).toBeGreaterThanOrEqual(2n ** 53n);
    expect(assignmentPlan(past, 2 ** 22)).toBe('not-applicable');
    // Every key below 2^53, but a matching's potentials (up to 4 (m + 1) keys beside a plan's n) could pass it:
    // 14 x the top key is past 2^53, 6 x it (4 (m - 1) instead of 4 (m + 1)) is not.
    const near = prepare(tick(40_000), { quantum: 1 }).packed;
    const top = topKey(near);
    expect(top < 2n ** 53n && 14n * top >= 2n ** 53n && 6n * top < 2n ** 53n).toBe(true);
    expect(assignmentPlan(near, 2 ** 22)).toBe('not-applicable');
    // Smaller credits: the path applies, and its plan is the optimum (s0 on b, s1 on a: 2c - 1 against c + 1).
    const small = prepare(tick(1_000), { quantum: 1 }).packed;
    const out = assignmentPlan(small, 2 ** 22);
    if (out === 'not-applicable' || 'abandoned' in out) throw new Error('the path must apply');
    expect(Array.from(unpackNodes(small, out.node))).toEqual([1, 0]);
  });

  it('stops past its pattern and combination limits, not before: at exactly the patterns and combinations a problem has, it applies', () => {
    // Two multi nodes of four single nodes: node x fits any two of s0-s3 (6 patterns), node y any two of
    // s4-s6 (3 patterns); 7 x 4 = 28 combinations.
    const problem: Problem = {
      nodes: [
        { id: 'x', capacity: 20 },
        { id: 'y', capacity: 40 },
        { id: 'a', capacity: 12 },
        { id: 'b', capacity: 12 },
      ],
      sessions: [
        ...Array.from({ length: 4 }, (_, i) => ({
          id: `s${i}`,
          weight: 10,
          tokens: i + 1,
          ready: true,
          eligible: ['x', 'a', 'b'],
        })),
        ...Array.from({ length: 3 }, (_, i) => ({
          id: `t${i}`,
          weight: 20,
          tokens: 9 + i,
          ready: false,
          eligible: ['y'],
        })),
      ],
    };
    const { packed } = prepare(problem, { quantum: 1 });
    const run = (patterns: number, combos: number) => assignmentPlan(packed, 2 ** 22, undefined, { patterns, combos });
    const full = run(9, 28);
    if (full === 'not-applicable' || 'abandoned' in full) throw new Error('the path must apply');
    expect(run(8, 28)).toBe('not-applicable');
    expect(run(9, 27)).toBe('not-applicable');
    expect(run(100, 100)).toEqual(full);
    const value = { credit: 0, ready: 0, tokens: 0 };
    unpackNodes(packed, full.node).forEach((b, i) => {
      if (b < 0) return;
      const s = problem.sessions[i]!;
      value.ready += s.ready ? 1 : 0;
      value.tokens += s.tokens;
    });
    expect(compareValues(value, bruteForceOptimum(problem, 1))).toBe(0);
  });
});
