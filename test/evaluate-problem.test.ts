import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { evaluate } from './helpers/internals.js';
import { ReadinessPredictor, type ReadinessSource } from './helpers/internals.js';
import type { Snapshot, SnapshotSession, ToolCall } from './helpers/internals.js';
import { creditOn, validateProblem } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';

const never: ReadinessSource = {
  ready() {
    throw new Error('the predictor must not be asked');
  },
};

describe('evaluate', () => {
  it('weights a session tokens + reserve, the session reserve overriding the option', () => {
    const snapshot: Snapshot = {
      time: 0,
      nodes: [{ id: 'n', capacity: 1 }],
      sessions: [
        { id: 'a', tokens: 1000 },
        { id: 'b', tokens: 1000, reserve: 0 },
        { id: 'c', tokens: 0, reserve: 7 },
      ],
    };
    const p = new ReadinessPredictor();
    expect(evaluate(snapshot, p).sessions.map((s) => s.weight)).toEqual([1512, 1000, 7]);
    expect(evaluate(snapshot, p, { reserve: 100 }).sessions.map((s) => s.weight)).toEqual([1100, 1000, 7]);
    expect(evaluate(snapshot, p).sessions.map((s) => s.tokens)).toEqual([1000, 1000, 0]);
  });

  it('counts a new session and a returned call as ready without asking the predictor', () => {
    const snapshot: Snapshot = {
      time: 50,
      nodes: [],
      sessions: [
        { id: 'new', tokens: 10 },
        { id: 'back', tokens: 10, tool: { name: 'bash', startedAt: 0, returnedAt: 49, deadline: 1000 } },
      ],
    };
    expect(evaluate(snapshot, never).sessions.map((s) => s.ready)).toEqual([true, true]);
  });

  it('asks the predictor for a running call, at the snapshot time, with the session id', () => {
    const calls: [ToolCall, number, string | undefined][] = [];
    const spy: ReadinessSource = {
      ready(tool, now, session) {
        calls.push([tool, now, session]);
        return false;
      },
    };
    const tool = { name: 'bash', startedAt: 40 };
    const problem = evaluate({ time: 50, nodes: [], sessions: [{ id: 's1', tokens: 10, tool }] }, spy);
    expect(problem.sessions[0]!.ready).toBe(false);
    expect(calls).toEqual([[tool, 50, 's1']]);
  });

  it('rejects a predictor answer that is not a boolean', () => {
    const bad = { ready: () => 1 } as unknown as ReadinessSource;
    const snapshot: Snapshot = {
      time: 1,
      nodes: [],
      sessions: [{ id: 's', tokens: 1, tool: { name: 'x', startedAt: 0 } }],
    };
    expect(() => evaluate(snapshot, bad)).toThrow(new InvalidTypeError('predictor.ready must return a boolean'));
  });

  it('passes eligibility through and leaves out credit on ineligible nodes', () => {
    const eligible = ['n2'];
    const snapshot: Snapshot = {
      time: 10,
      nodes: [
        { id: 'n1', capacity: 5 },
        { id: 'n2', capacity: 5 },
      ],
      sessions: [
        {
          id: 's',
          tokens: 1,
          eligible,
          cache: [
            { node: 'n1', tokens: 800, observedAt: 0 },
            { node: 'n2', tokens: 600, observedAt: 0 },
          ],
        },
        { id: 't', tokens: 1, cache: [{ node: 'n1', tokens: 800, observedAt: 0 }] },
      ],
    };
    const problem = evaluate(snapshot, never);
    expect(problem.nodes).toBe(snapshot.nodes);
    expect(problem.sessions[0]!.eligible).toBe(eligible);
    expect({ ...problem.sessions[0]!.credit }).toEqual({ n2: 300 });
    expect(problem.sessions[1]!.eligible).toBeUndefined();
    expect({ ...problem.sessions[1]!.credit }).toEqual({ n1: 400 });
  });

  it('keeps a node id such as "__proto__" as an own credit key', () => {
    const snapshot: Snapshot = {
      time: 0,
      nodes: [{ id: '__proto__', capacity: 5 }],
      sessions: [{ id: 's', tokens: 1, cache: [{ node: '__proto__', tokens: 9, observedAt: 0 }] }],
    };
    const problem = evaluate(snapshot, never);
    expect(Object.entries(problem.sessions[0]!.credit!)).toEqual([['__proto__', 9]]);
    expect(creditOn(validateProblem(problem), 0, 0)).toBe(9);
  });
});

// ---- property: every valid snapshot evaluates to a Problem validateProblem accepts ----

const nodeIds = ['n0', 'n1', 'n2', 'n3', '__proto__', 'x y'];

const arbTool = (time: number): fc.Arbitrary<ToolCall> =>
  fc
    .record(
      {
        name: fc.constantFrom('bash', 'edit', 'search', 'ci'),
        elapsed: fc.double({ min: 0, max: 200, noNaN: true }),
        returnedAgo: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
        deadlineIn: fc.option(fc.double({ min: -100, max: 100, noNaN: true }), { nil: undefined }),
        progress: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
        command: fc.option(fc.constantFrom('ls', 'sleep 3', 'sleep 1m && ls', 'sleep $X', 'echo "sleep 9"'), {
          nil: undefined,
        }),
        reported: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
      },
      { requiredKeys: ['name', 'elapsed'] },
    )
    .map((r) => {
      const startedAt = time - r.elapsed;
      const t: ToolCall = { name: r.name, startedAt };
      // Clamped into [startedAt, time] because the interpolation can round past either end.
      const between = (f: number): number => Math.min(time, Math.max(startedAt, startedAt + (time - startedAt) * f));
      if (r.returnedAgo !== undefined) t.returnedAt = between(r.returnedAgo);
      if (r.deadlineIn !== undefined) t.deadline = Math.max(startedAt, time + r.deadlineIn);
      if (r.progress !== undefined) t.progress = r.progress;
      if (r.command !== undefined) t.command = r.command;
      if (r.reported !== undefined) t.reportedAt = between(r.reported);
      return t;
    });

const arbSnapshot: fc.Arbitrary<Snapshot> = fc
  .record({
    time: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    nodeCount: fc.integer({ min: 0, max: nodeIds.length }),
    capacities: fc.array(fc.integer({ min: 0, max: 2 ** 40 }), {
      minLength: nodeIds.length,
      maxLength: nodeIds.length,
    }),
  })
  .chain(({ time, nodeCount, capacities }) => {
    const ids = nodeIds.slice(0, nodeCount);
    const arbSession = (i: number): fc.Arbitrary<SnapshotSession> =>
      fc
        .record(
          {
            tokens: fc.integer({ min: 1, max: 0xffff_ffff - 4096 }),
            reserve: fc.option(fc.integer({ min: 0, max: 4096 }), { nil: undefined }),
            eligible: fc.option(fc.subarray(ids), { nil: undefined }),
            cache: fc.subarray(ids).chain((cached) =>
              fc.tuple(
                ...cached.map((node) =>
                  fc.record({
                    node: fc.constant(node),
                    tokens: fc.integer({ min: 0, max: 0xffff_ffff }),
                    observedAt: fc.double({ min: time - 500, max: time + 5, noNaN: true }),
                  }),
                ),
              ),
            ),
            tool: fc.option(arbTool(time), { nil: undefined }),
          },
          { requiredKeys: ['tokens', 'cache'] },
        )
        .map((r) => {
          const s: SnapshotSession = { id: `s${i}`, tokens: r.tokens, cache: r.cache };
          if (r.reserve !== undefined) s.reserve = r.reserve;
          if (r.eligible !== undefined) s.eligible = r.eligible;
          if (r.tool !== undefined) s.tool = r.tool;
          return s;
        });
    return fc.integer({ min: 0, max: 12 }).chain((n) =>
      fc.tuple(...Array.from({ length: n }, (_, i) => arbSession(i))).map((sessions) => ({
        time,
        nodes: ids.map((id, b) => ({ id, capacity: capacities[b]! })),
        sessions,
      })),
    );
  });

/** A predictor with some history, so that every evidence path is reachable. */
function trainedPredictor(): ReadinessPredictor {
  const p = new ReadinessPredictor();
  for (let i = 0; i < 5; i++) {
    p.observe({ name: 'bash', startedAt: i, returnedAt: i + 1 + i / 3 });
    p.observe({ name: 'edit', startedAt: i, returnedAt: i + 0.2 });
  }
  return p;
}

describe('evaluate (properties)', () => {
  it('never produces a Problem validateProblem rejects', () => {
    fc.assert(
      fc.property(
        arbSnapshot,
        fc.constantFrom(1, 7, 1000),
        fc.constantFrom(10, 0.5, Infinity),
        (snapshot, creditUnit, halfLife) => {
          const problem = evaluate(snapshot, trainedPredictor(), { creditUnit, halfLife });
          expect(() => validateProblem(problem)).not.toThrow();
          expect(problem.sessions.length).toBe(snapshot.sessions.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives every returned call r = 1, whatever its other evidence says', () => {
    fc.assert(
      fc.property(arbSnapshot, (snapshot) => {
        const problem = evaluate(snapshot, trainedPredictor());
        snapshot.sessions.forEach((s, i) => {
          if (s.tool === undefined || s.tool.returnedAt !== undefined) expect(problem.sessions[i]!.ready).toBe(true);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('on arbitrary input either throws a typed error or produces a valid Problem', () => {
    const junk = fc.anything({ maxDepth: 4, withNullPrototype: false });
    const mutated = fc
      .tuple(arbSnapshot, fc.constantFrom('time', 'nodes', 'sessions'), junk)
      .map(([s, key, v]) => ({ ...s, [key]: v }));
    fc.assert(
      fc.property(fc.oneof(junk, mutated), (input) => {
        let problem: Problem;
        try {
          problem = evaluate(input as Snapshot, trainedPredictor());
        } catch (err) {
          expect(err instanceof InvalidTypeError || err instanceof InvalidValueError).toBe(true);
          return;
        }
        expect(() => validateProblem(problem)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
