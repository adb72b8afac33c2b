/**
 * Input rules of `solve` that no other solver test reaches: a session's `signature` (a string or a finite
 * number, nothing else), an `eligible` entry that is not a non-empty string, and the ids of one solve
 * never leaking into the next on the same solver (a node or session id of an earlier problem is unknown,
 * or not a duplicate, in a later one), and the options `stateBudget` and `deadlineMs` of the wrong type or
 * out of range. Each refusal is the typed error with the exact message naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError, loadSolver, type Problem, type Solver } from './helpers/internals.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

const nodes = [
  { id: 'a', capacity: 100 },
  { id: 'b', capacity: 50 },
];
const withSession = (patch: Record<string, unknown>): Problem =>
  ({
    nodes,
    sessions: [
      { id: 's0', weight: 10, tokens: 5, ready: true },
      { id: 's1', weight: 10, tokens: 5, ready: true, ...patch },
    ],
  }) as Problem;

function refusal(problem: Problem): { cls: string; message: string } {
  try {
    solver.solve(problem);
  } catch (err) {
    const cls = err instanceof InvalidTypeError ? 'type' : err instanceof InvalidValueError ? 'value' : 'other';
    return { cls, message: (err as Error).message };
  }
  return { cls: 'none', message: '' };
}

describe('solve: a session signature', () => {
  for (const signature of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    it(`refuses the number ${signature}`, () => {
      expect(refusal(withSession({ signature }))).toEqual({
        cls: 'value',
        message: 'problem.sessions[1].signature must be a finite number',
      });
    });
  }

  for (const signature of [true, null, {}, [1], 1n]) {
    it(`refuses ${typeof signature === 'bigint' ? '1n' : JSON.stringify(signature)}: not a string or a number`, () => {
      expect(refusal(withSession({ signature }))).toEqual({
        cls: 'type',
        message: 'problem.sessions[1].signature must be a string or a number',
      });
    });
  }

  for (const signature of ['', 'v2', 0, -3.5, Number.MAX_VALUE]) {
    it(`takes ${JSON.stringify(signature)} and plans as without it`, () => {
      const plan = solver.solve(withSession({ signature }));
      expect(plan.assignments).toEqual(solver.solve(withSession({})).assignments);
      expect(plan.assignments).toHaveLength(2);
    });
  }
});

describe('solve: an eligible entry that is not a non-empty string', () => {
  it('refuses an empty string as such, not as an unknown node', () => {
    expect(refusal(withSession({ eligible: ['a', ''] }))).toEqual({
      cls: 'value',
      message: 'problem.sessions[1].eligible[1] must be a non-empty string',
    });
  });

  for (const entry of [7, null, ['a']]) {
    it(`refuses ${JSON.stringify(entry)}, naming the entry`, () => {
      expect(refusal(withSession({ eligible: [entry] }))).toEqual({
        cls: 'type',
        message: 'problem.sessions[1].eligible[0] must be a string',
      });
    });
  }
});

describe('solve: credit read from own keys only', () => {
  it('ignores an enumerable key inherited from a polluted Object.prototype', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 7;
    try {
      const plan = solver.solve(withSession({ credit: { a: 2 } }));
      expect(plan.value.credit).toBe(2);
      expect(plan.assignments).toHaveLength(2);
    } finally {
      delete proto.polluted;
    }
  });
});

describe('solve: a node or session that is not an object', () => {
  it('refuses a node that is not an object, naming its index', () => {
    expect(refusal({ nodes: [nodes[0]!, 5], sessions: [] } as never)).toEqual({
      cls: 'type',
      message: 'problem.nodes[1] must be an object',
    });
  });

  it('refuses a session that is not an object, naming its index', () => {
    expect(refusal({ nodes, sessions: [withSession({}).sessions[0]!, null] } as never)).toEqual({
      cls: 'type',
      message: 'problem.sessions[1] must be an object',
    });
  });
});

describe('solve: ids of one solve are not seen by the next', () => {
  const earlier: Problem = {
    nodes: [
      { id: 'old', capacity: 100 },
      { id: 'a', capacity: 100 },
    ],
    sessions: [
      { id: 's0', weight: 10, tokens: 5, ready: true },
      { id: 'gone', weight: 10, tokens: 5, ready: true, eligible: ['old'] },
    ],
  };

  it('a node of an earlier problem is unknown to a later one', () => {
    solver.solve(earlier);
    expect(refusal(withSession({ eligible: ['old'] }))).toEqual({
      cls: 'value',
      message: 'problem.sessions[1].eligible[0] names unknown node "old"',
    });
    solver.solve(earlier);
    expect(refusal(withSession({ credit: { old: 3 } }))).toEqual({
      cls: 'value',
      message: 'problem.sessions[1].credit names unknown node "old"',
    });
  });

  it('ids that an earlier problem had are neither duplicates nor missing in a later one', () => {
    solver.solve(earlier);
    const plan = solver.solve({
      nodes: [{ id: 'old', capacity: 100 }],
      sessions: [
        { id: 'gone', weight: 10, tokens: 5, ready: true, eligible: ['old'] },
        { id: 's0', weight: 10, tokens: 5, ready: true, credit: { old: 2 } },
      ],
    });
    expect(plan.assignments.map((x) => [x.session, x.node])).toEqual([
      ['s0', 'old'],
      ['gone', 'old'],
    ]);
    expect(plan.value.credit).toBe(2);
  });

  it('a duplicate id is found after many solves with other ids', () => {
    for (let t = 0; t < 40; t++) {
      solver.solve({
        nodes: [{ id: `n${t}`, capacity: 100 }],
        sessions: Array.from({ length: 60 }, (_, i) => ({ id: `t${t}-${i}`, weight: 1, tokens: 1, ready: false })),
      });
    }
    expect(refusal(withSession({ id: 's0' }))).toEqual({
      cls: 'value',
      message: 'problem.sessions[1].id duplicates session "s0"',
    });
    expect(refusal({ nodes: [nodes[0]!, { id: 'a', capacity: 1 }], sessions: [] })).toEqual({
      cls: 'value',
      message: 'problem.nodes[1].id duplicates node "a"',
    });
  });
});

describe('solve options', () => {
  const problem: Problem = { nodes, sessions: [{ id: 's', weight: 10, tokens: 1, ready: true }] };
  const refusal = (options: Record<string, unknown>): unknown => {
    try {
      solver.solve(problem, options);
    } catch (e) {
      return e;
    }
    return undefined;
  };

  it('refuses a stateBudget or a deadlineMs that is not a number as a type error, naming it', () => {
    for (const [key, value] of [
      ['stateBudget', '5'],
      ['stateBudget', 5n],
      ['deadlineMs', '5'],
      ['deadlineMs', null],
    ] as const) {
      const e = refusal({ [key]: value });
      expect(e).toBeInstanceOf(InvalidTypeError);
      expect((e as Error).message).toBe(`options.${key} must be a number`);
    }
  });

  it('refuses a deadlineMs of 0, below 0 or NaN, and takes the least positive one and Infinity', () => {
    for (const value of [0, -0, -1, Number.NaN]) {
      const e = refusal({ deadlineMs: value });
      expect(e).toBeInstanceOf(InvalidValueError);
      expect((e as Error).message).toBe('options.deadlineMs must be a positive number or Infinity');
    }
    expect(solver.solve(problem, { deadlineMs: Number.MIN_VALUE }).assignments).toBeDefined();
    expect(solver.solve(problem, { deadlineMs: Number.POSITIVE_INFINITY }).status).toBe('optimal');
  });
});
