/**
 * Invalid input is the only thing `solve` throws for: each rule has its exact message (path + rule) and
 * error class. Edge cases that are valid (empty pool, oversize sessions, full nodes) get plain answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bfd } from './helpers/internals.js';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { solveReference } from './helpers/internals.js';
import { loadSolver, prepare, type Solver } from './helpers/internals.js';
import { validateProblem } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

type ErrorClass = typeof InvalidTypeError | typeof InvalidValueError;

function expectError(fn: () => unknown, cls: ErrorClass, message: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected ${cls.name}: ${message}`).toBeInstanceOf(cls);
  expect((caught as Error).message).toBe(message);
  expect((caught as InvalidTypeError | InvalidValueError).code).toBe(
    cls === InvalidTypeError ? 'ERR_TAO_INVALID_TYPE' : 'ERR_TAO_INVALID_VALUE',
  );
}

const node = { id: 'a', capacity: 100 };
const session = { id: 's', weight: 10, tokens: 5, ready: true };
const withSession = (patch: Record<string, unknown>): unknown => ({
  nodes: [node],
  sessions: [{ ...session, ...patch }],
});

// [problem, class, message]
const badProblems: [string, unknown, ErrorClass, string][] = [
  ['not an object', 42, InvalidTypeError, 'problem must be an object'],
  ['an array', [], InvalidTypeError, 'problem must be an object'],
  ['missing nodes', { sessions: [] }, InvalidTypeError, 'problem.nodes must be an array'],
  ['non-array sessions', { nodes: [], sessions: {} }, InvalidTypeError, 'problem.sessions must be an array'],
  [
    'unknown top-level field',
    { nodes: [], sessions: [], extra: 1 },
    InvalidValueError,
    'problem.extra is not a known field',
  ],
  [
    'unknown node field',
    { nodes: [{ ...node, gpu: 'h100' }], sessions: [] },
    InvalidValueError,
    'problem.nodes[0].gpu is not a known field',
  ],
  [
    'unknown session field',
    withSession({ colour: 'red' }),
    InvalidValueError,
    'problem.sessions[0].colour is not a known field',
  ],
  [
    'duplicate node id',
    { nodes: [node, { id: 'a', capacity: 1 }], sessions: [] },
    InvalidValueError,
    'problem.nodes[1].id duplicates node "a"',
  ],
  [
    'duplicate session id',
    { nodes: [node], sessions: [session, session] },
    InvalidValueError,
    'problem.sessions[1].id duplicates session "s"',
  ],
  [
    'empty node id',
    { nodes: [{ id: '', capacity: 1 }], sessions: [] },
    InvalidValueError,
    'problem.nodes[0].id must be a non-empty string',
  ],
  ['numeric session id', withSession({ id: 7 }), InvalidTypeError, 'problem.sessions[0].id must be a string'],
  [
    'NaN weight',
    withSession({ weight: Number.NaN }),
    InvalidValueError,
    'problem.sessions[0].weight must be a positive integer <= 4294967295',
  ],
  [
    'zero weight',
    withSession({ weight: 0 }),
    InvalidValueError,
    'problem.sessions[0].weight must be a positive integer <= 4294967295',
  ],
  [
    'weight above 2^32 - 1',
    withSession({ weight: 2 ** 32 }),
    InvalidValueError,
    'problem.sessions[0].weight must be a positive integer <= 4294967295',
  ],
  ['string weight', withSession({ weight: '10' }), InvalidTypeError, 'problem.sessions[0].weight must be a number'],
  [
    'Infinity capacity',
    { nodes: [{ id: 'a', capacity: Infinity }], sessions: [] },
    InvalidValueError,
    'problem.nodes[0].capacity must be a non-negative safe integer',
  ],
  [
    'negative capacity',
    { nodes: [{ id: 'a', capacity: -1 }], sessions: [] },
    InvalidValueError,
    'problem.nodes[0].capacity must be a non-negative safe integer',
  ],
  [
    'negative tokens',
    withSession({ tokens: -1 }),
    InvalidValueError,
    'problem.sessions[0].tokens must be an integer from 0 to 4294967295',
  ],
  [
    'fractional tokens',
    withSession({ tokens: 1.5 }),
    InvalidValueError,
    'problem.sessions[0].tokens must be an integer from 0 to 4294967295',
  ],
  ['non-boolean ready', withSession({ ready: 1 }), InvalidTypeError, 'problem.sessions[0].ready must be a boolean'],
  [
    'fractional credit',
    withSession({ credit: { a: 0.5 } }),
    InvalidValueError,
    'problem.sessions[0].credit["a"] must be an integer from 0 to 4294967295',
  ],
  [
    'credit on an unknown node',
    withSession({ credit: { zz: 1 } }),
    InvalidValueError,
    'problem.sessions[0].credit names unknown node "zz"',
  ],
  [
    'credit not an object',
    withSession({ credit: [1] }),
    InvalidTypeError,
    'problem.sessions[0].credit must be an object',
  ],
  [
    'eligible not an array',
    withSession({ eligible: 'a' }),
    InvalidTypeError,
    'problem.sessions[0].eligible must be an array',
  ],
  [
    'eligible unknown node',
    withSession({ eligible: ['zz'] }),
    InvalidValueError,
    'problem.sessions[0].eligible[0] names unknown node "zz"',
  ],
  [
    'eligible repeats a node',
    withSession({ eligible: ['a', 'a'] }),
    InvalidValueError,
    'problem.sessions[0].eligible[1] repeats node "a"',
  ],
  [
    'too many nodes',
    { nodes: Array.from({ length: 65 }, (_, b) => ({ id: `n${b}`, capacity: 1 })), sessions: [] },
    InvalidValueError,
    'problem.nodes must have at most 64 entries (has 65)',
  ],
  [
    'too many sessions',
    { nodes: [node], sessions: Array.from({ length: 4097 }, (_, i) => ({ ...session, id: `s${i}` })) },
    InvalidValueError,
    'problem.sessions must have at most 4096 entries (has 4097)',
  ],
];

const goodProblem: Problem = { nodes: [node], sessions: [session] };
const badOptions: [string, unknown, ErrorClass, string][] = [
  ['quantum 0', { quantum: 0 }, InvalidValueError, 'options.quantum must be a positive integer'],
  ['fractional quantum', { quantum: 1.5 }, InvalidValueError, 'options.quantum must be a positive integer'],
  ['string quantum', { quantum: '4' }, InvalidTypeError, 'options.quantum must be a number'],
  ['budget 0', { stateBudget: 0 }, InvalidValueError, 'options.stateBudget must be an integer from 1 to 67108864'],
  [
    'budget above the maximum',
    { stateBudget: 2 ** 26 + 1 },
    InvalidValueError,
    'options.stateBudget must be an integer from 1 to 67108864',
  ],
  [
    'negative deadline',
    { deadlineMs: -1 },
    InvalidValueError,
    'options.deadlineMs must be a positive number or Infinity',
  ],
  [
    'NaN deadline',
    { deadlineMs: Number.NaN },
    InvalidValueError,
    'options.deadlineMs must be a positive number or Infinity',
  ],
  ['unknown option', { budget: 5 }, InvalidValueError, 'options.budget is not a known option'],
  ['numeric path', { path: 1 }, InvalidTypeError, 'options.path must be a string'],
  ['unknown path', { path: 'fast' }, InvalidValueError, 'options.path must be one of "auto", "dense", "frontier"'],
  ['options not an object', 7, InvalidTypeError, 'options must be an object'],
];

describe('invalid problems', () => {
  for (const [name, problem, cls, message] of badProblems) {
    it(name, () => {
      expectError(() => solver.solve(problem as Problem), cls, message);
      expectError(() => prepare(problem as Problem), cls, message);
      expectError(() => solveReference(problem as Problem), cls, message);
      expectError(() => bfd(problem as Problem), cls, message);
    });
  }
});

describe('invalid options', () => {
  for (const [name, options, cls, message] of badOptions) {
    it(name, () => {
      expectError(() => solver.solve(goodProblem, options as never), cls, message);
    });
  }
  it('bfd order', () => {
    expectError(
      () => bfd(goodProblem, { order: 'random' as never }),
      InvalidValueError,
      'options.order must be "value" or "tokens"',
    );
    expectError(() => bfd(goodProblem, { order: 3 as never }), InvalidTypeError, 'options.order must be a string');
  });
  it('loadSolver build', async () => {
    await expect(loadSolver({ build: 'fast' as never })).rejects.toThrow(
      new InvalidValueError('options.build must be "release" or "debug"'),
    );
  });
});

describe('valid edge cases', () => {
  it('empty pool: optimal, trivial, nothing admitted', () => {
    const plan = solver.solve({ nodes: [node], sessions: [] });
    expect(plan).toMatchObject({ status: 'optimal', assignments: [], value: { credit: 0, ready: 0, tokens: 0 } });
    expect(plan.stats.path).toBe('trivial');
    expect(solver.solve({ nodes: [], sessions: [session] }).assignments).toEqual([]);
  });

  it('a session heavier than every node is never admitted; the others are', () => {
    const problem: Problem = {
      nodes: [
        { id: 'a', capacity: 4096 },
        { id: 'b', capacity: 8192 },
      ],
      sessions: [
        { id: 'huge', weight: 9000, tokens: 9000, ready: true, credit: { a: 9000, b: 9000 } },
        { id: 'small', weight: 1000, tokens: 500, ready: false },
      ],
    };
    const plan = solver.solve(problem);
    expect(plan.status).toBe('optimal');
    expect(plan.assignments.map((a) => a.session)).toEqual(['small']);
    expect(plan.stats.sessionsKept).toBe(1);
  });

  it('all-zero capacities: optimal, trivial, nothing admitted', () => {
    const problem: Problem = {
      nodes: [
        { id: 'a', capacity: 0 },
        { id: 'b', capacity: 0 },
      ],
      sessions: [session],
    };
    const plan = solver.solve(problem);
    expect(plan).toMatchObject({ status: 'optimal', assignments: [], stats: { path: 'trivial', nodesKept: 0 } });
  });
});

describe('id checks across validations', () => {
  const two = (a: string, b: string): Problem => ({
    nodes: [{ id: 'n', capacity: 10 }],
    sessions: [a, b].map((id) => ({ id, weight: 1, tokens: 1, ready: true, credit: { n: 1 } })),
  });

  it('ids seen by earlier validations are not duplicates; a repeat within one problem always is', () => {
    for (let t = 0; t < 3000; t++) {
      // Ids repeat across problems and new ones keep coming, past the size the kept id table is cleared at.
      expect(validateProblem(two(`s${t}`, `s${t + 1}`)).sessionIds).toEqual([`s${t}`, `s${t + 1}`]);
      if (t % 500 === 0)
        expectError(
          () => validateProblem(two(`s${t}`, `s${t}`)),
          InvalidValueError,
          `problem.sessions[1].id duplicates session "s${t}"`,
        );
    }
  });

  it('a validation run from a getter of the input neither disturbs nor is disturbed by the outer one', () => {
    const inner = two('x', 'y');
    const outer = two('x', 'z');
    let nested: ReturnType<typeof validateProblem> | undefined;
    Object.defineProperty(outer.sessions[1]!, 'weight', {
      enumerable: true,
      get: () => {
        nested = validateProblem(inner);
        return 1;
      },
    });
    expect(validateProblem(outer).sessionIds).toEqual(['x', 'z']);
    expect(nested!.sessionIds).toEqual(['x', 'y']);
    const base = two('x', 'y');
    const dup: Problem = {
      nodes: base.nodes,
      sessions: [...base.sessions, { id: 'x', weight: 1, tokens: 1, ready: true }],
    };
    Object.defineProperty(dup.sessions[1]!, 'weight', {
      enumerable: true,
      get: () => (validateProblem(two('y', 'x')), 1),
    });
    expectError(() => validateProblem(dup), InvalidValueError, 'problem.sessions[2].id duplicates session "x"');
  });
});
