import { describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { evaluate } from './helpers/internals.js';
import { ReadinessPredictor } from './helpers/internals.js';
import { validateSnapshot } from './helpers/internals.js';

/** A valid snapshot, rebuilt for every case so that mutations do not leak. */
function good(): any {
  return {
    time: 100,
    nodes: [
      { id: 'n1', capacity: 10_000 },
      { id: 'n2', capacity: 0 },
    ],
    sessions: [
      { id: 'a', tokens: 1000 },
      { id: 'b', tokens: 2000, reserve: 0, eligible: ['n2'], cache: [{ node: 'n1', tokens: 500, observedAt: 90 }] },
      {
        id: 'c',
        tokens: 3000,
        cache: [{ node: 'n2', tokens: 100, observedAt: 99 }],
        tool: { name: 'bash', startedAt: 95, command: 'ls', deadline: 120, progress: 0.5, reportedAt: 99 },
      },
    ],
  };
}

type Case = [string, (s: any) => unknown, typeof InvalidTypeError | typeof InvalidValueError, string];

const cases: Case[] = [
  ['not an object', () => 5, InvalidTypeError, 'snapshot must be an object'],
  ['an array', () => [], InvalidTypeError, 'snapshot must be an object'],
  ['unknown top-level field', (s) => ((s.now = 1), s), InvalidValueError, 'snapshot.now is not a known field'],
  ['time missing', (s) => (delete s.time, s), InvalidTypeError, 'snapshot.time must be a number'],
  ['time NaN', (s) => ((s.time = NaN), s), InvalidValueError, 'snapshot.time must be a finite number'],
  ['nodes not an array', (s) => ((s.nodes = {}), s), InvalidTypeError, 'snapshot.nodes must be an array'],
  ['sessions missing', (s) => (delete s.sessions, s), InvalidTypeError, 'snapshot.sessions must be an array'],
  [
    'too many nodes',
    (s) => ((s.nodes = Array.from({ length: 65 }, (_, i) => ({ id: `n${i}`, capacity: 1 }))), s),
    InvalidValueError,
    'snapshot.nodes must have at most 64 entries (has 65)',
  ],
  [
    'node id empty',
    (s) => ((s.nodes[1].id = ''), s),
    InvalidValueError,
    'snapshot.nodes[1].id must be a non-empty string',
  ],
  [
    'node id duplicate',
    (s) => ((s.nodes[1].id = 'n1'), s),
    InvalidValueError,
    'snapshot.nodes[1].id duplicates node "n1"',
  ],
  [
    'node capacity negative',
    (s) => ((s.nodes[0].capacity = -1), s),
    InvalidValueError,
    'snapshot.nodes[0].capacity must be a non-negative safe integer',
  ],
  [
    'node capacity fractional',
    (s) => ((s.nodes[0].capacity = 1.5), s),
    InvalidValueError,
    'snapshot.nodes[0].capacity must be a non-negative safe integer',
  ],
  [
    'node unknown field',
    (s) => ((s.nodes[0].free = 1), s),
    InvalidValueError,
    'snapshot.nodes[0].free is not a known field',
  ],
  [
    'session not an object',
    (s) => ((s.sessions[1] = null), s),
    InvalidTypeError,
    'snapshot.sessions[1] must be an object',
  ],
  [
    'session id duplicate',
    (s) => ((s.sessions[2].id = 'a'), s),
    InvalidValueError,
    'snapshot.sessions[2].id duplicates session "a"',
  ],
  [
    'session id not a string',
    (s) => ((s.sessions[0].id = 7), s),
    InvalidTypeError,
    'snapshot.sessions[0].id must be a string',
  ],
  [
    'tokens negative',
    (s) => ((s.sessions[0].tokens = -1), s),
    InvalidValueError,
    'snapshot.sessions[0].tokens must be an integer from 0 to 4294967295',
  ],
  [
    'tokens a string',
    (s) => ((s.sessions[0].tokens = '1'), s),
    InvalidTypeError,
    'snapshot.sessions[0].tokens must be a number',
  ],
  [
    'reserve fractional',
    (s) => ((s.sessions[0].reserve = 0.5), s),
    InvalidValueError,
    'snapshot.sessions[0].reserve must be an integer from 0 to 4294967295',
  ],
  [
    'unknown session field',
    (s) => ((s.sessions[0].weight = 5), s),
    InvalidValueError,
    'snapshot.sessions[0].weight is not a known field',
  ],
  [
    'eligible not an array',
    (s) => ((s.sessions[1].eligible = 'n2'), s),
    InvalidTypeError,
    'snapshot.sessions[1].eligible must be an array',
  ],
  [
    'eligible unknown node',
    (s) => ((s.sessions[1].eligible = ['n2', 'n9']), s),
    InvalidValueError,
    'snapshot.sessions[1].eligible[1] names unknown node "n9"',
  ],
  [
    'eligible repeat',
    (s) => ((s.sessions[1].eligible = ['n2', 'n2']), s),
    InvalidValueError,
    'snapshot.sessions[1].eligible[1] repeats node "n2"',
  ],
  [
    'cache not an array',
    (s) => ((s.sessions[1].cache = {}), s),
    InvalidTypeError,
    'snapshot.sessions[1].cache must be an array',
  ],
  [
    'cache entry not an object',
    (s) => ((s.sessions[1].cache[0] = 3), s),
    InvalidTypeError,
    'snapshot.sessions[1].cache[0] must be an object',
  ],
  [
    'cache unknown node',
    (s) => ((s.sessions[2].cache[0].node = 'n3'), s),
    InvalidValueError,
    'snapshot.sessions[2].cache[0].node names unknown node "n3"',
  ],
  [
    'cache repeats a node',
    (s) => (s.sessions[1].cache.push({ node: 'n1', tokens: 1, observedAt: 1 }), s),
    InvalidValueError,
    'snapshot.sessions[1].cache[1].node repeats node "n1"',
  ],
  [
    'cache tokens too large',
    (s) => ((s.sessions[1].cache[0].tokens = 2 ** 32), s),
    InvalidValueError,
    'snapshot.sessions[1].cache[0].tokens must be an integer from 0 to 4294967295',
  ],
  [
    'cache observedAt NaN',
    (s) => ((s.sessions[2].cache[0].observedAt = NaN), s),
    InvalidValueError,
    'snapshot.sessions[2].cache[0].observedAt must be a finite number',
  ],
  [
    'cache observedAt Infinity',
    (s) => ((s.sessions[2].cache[0].observedAt = -Infinity), s),
    InvalidValueError,
    'snapshot.sessions[2].cache[0].observedAt must be a finite number',
  ],
  [
    'cache observedAt a string',
    (s) => ((s.sessions[2].cache[0].observedAt = '99'), s),
    InvalidTypeError,
    'snapshot.sessions[2].cache[0].observedAt must be a number',
  ],
  [
    'cache unknown field',
    (s) => ((s.sessions[2].cache[0].age = 1), s),
    InvalidValueError,
    'snapshot.sessions[2].cache[0].age is not a known field',
  ],
  [
    'tool not an object',
    (s) => ((s.sessions[2].tool = 'bash'), s),
    InvalidTypeError,
    'snapshot.sessions[2].tool must be an object',
  ],
  [
    'tool name empty',
    (s) => ((s.sessions[2].tool.name = ''), s),
    InvalidValueError,
    'snapshot.sessions[2].tool.name must be a non-empty string',
  ],
  [
    'tool started in the future',
    (s) => ((s.sessions[2].tool.startedAt = 101), s),
    InvalidValueError,
    'snapshot.sessions[2].tool.startedAt must not be after snapshot.time',
  ],
  [
    'tool returned before it started',
    (s) => ((s.sessions[2].tool.returnedAt = 94), s),
    InvalidValueError,
    'snapshot.sessions[2].tool.returnedAt must not be before snapshot.sessions[2].tool.startedAt',
  ],
  [
    'tool returned in the future',
    (s) => ((s.sessions[2].tool.returnedAt = 100.5), s),
    InvalidValueError,
    'snapshot.sessions[2].tool.returnedAt must not be after snapshot.time',
  ],
  [
    'deadline before start',
    (s) => ((s.sessions[2].tool.deadline = 90), s),
    InvalidValueError,
    'snapshot.sessions[2].tool.deadline must not be before snapshot.sessions[2].tool.startedAt',
  ],
  [
    'command not a string',
    (s) => ((s.sessions[2].tool.command = ['sleep', '1']), s),
    InvalidTypeError,
    'snapshot.sessions[2].tool.command must be a string',
  ],
  [
    'progress above 1',
    (s) => ((s.sessions[2].tool.progress = 1.5), s),
    InvalidValueError,
    'snapshot.sessions[2].tool.progress must be from 0 to 1',
  ],
  [
    'progress negative',
    (s) => ((s.sessions[2].tool.progress = -0.1), s),
    InvalidValueError,
    'snapshot.sessions[2].tool.progress must be from 0 to 1',
  ],
  [
    'progress NaN',
    (s) => ((s.sessions[2].tool.progress = NaN), s),
    InvalidValueError,
    'snapshot.sessions[2].tool.progress must be a finite number',
  ],
  [
    'reportedAt before start',
    (s) => ((s.sessions[2].tool.reportedAt = 90), s),
    InvalidValueError,
    'snapshot.sessions[2].tool.reportedAt must not be before snapshot.sessions[2].tool.startedAt',
  ],
  [
    'reportedAt in the future',
    (s) => ((s.sessions[2].tool.reportedAt = 101), s),
    InvalidValueError,
    'snapshot.sessions[2].tool.reportedAt must not be after snapshot.time',
  ],
  [
    'tool unknown field',
    (s) => ((s.sessions[2].tool.eta = 3), s),
    InvalidValueError,
    'snapshot.sessions[2].tool.eta is not a known field',
  ],
];

describe('snapshot validation', () => {
  it('accepts the valid snapshot the cases start from', () => {
    expect(() => validateSnapshot(good())).not.toThrow();
  });

  it.each(cases)('rejects %s with a typed error naming the path', (_name, mutate, cls, message) => {
    const bad = mutate(good());
    expect(() => validateSnapshot(bad)).toThrow(cls);
    expect(() => validateSnapshot(bad)).toThrow(new cls(message));
    // evaluate validates the same way, with the same message.
    expect(() => evaluate(bad as never, new ReadinessPredictor())).toThrow(new cls(message));
  });

  it('keeps the exact message when the path is renamed', () => {
    const bad = good();
    bad.sessions[2].cache[0].observedAt = NaN;
    expect(() => validateSnapshot(bad, 'live')).toThrow('live.sessions[2].cache[0].observedAt must be a finite number');
  });

  it('rejects a session whose weight would be 0 or above 2^32 - 1', () => {
    const zero = good();
    zero.sessions[0] = { id: 'a', tokens: 0, reserve: 0 };
    expect(() => evaluate(zero, new ReadinessPredictor())).toThrow(
      new InvalidValueError('snapshot.sessions[0].tokens + reserve must be from 1 to 4294967295 (is 0)'),
    );
    const big = good();
    big.sessions[0] = { id: 'a', tokens: 0xffff_ffff };
    expect(() => evaluate(big, new ReadinessPredictor())).toThrow(
      new InvalidValueError('snapshot.sessions[0].tokens + reserve must be from 1 to 4294967295 (is 4294967807)'),
    );
  });

  it('rejects a credit that rounds above 2^32 - 1 instead of clamping it', () => {
    const s = good();
    s.sessions[0].cache = [{ node: 'n1', tokens: 0xffff_ffff, observedAt: 100 }];
    expect(() => evaluate(s, new ReadinessPredictor(), { creditUnit: 2 ** 31 })).toThrow(
      new InvalidValueError(
        'snapshot.sessions[0].cache[0].tokens rounds to 4294967296 at creditUnit 2147483648, above 4294967295',
      ),
    );
  });

  it('rejects a predictor without ready()', () => {
    expect(() => evaluate(good(), {} as never)).toThrow(new InvalidTypeError('predictor.ready must be a function'));
  });
});
