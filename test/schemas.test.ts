/**
 * The published JSON Schemas (schemas/*.json) against the library's validators: every valid fixture
 * passes both the schema and the validator; every invalid fixture of a per-field rule fails both, the
 * validator with its exact message. The rules between fields (unique ids, references to known nodes,
 * times in order) are beyond JSON Schema: those fixtures fail the validator and pass the schema, as the
 * schemas' descriptions say. Fixtures: the known-answer cases, samples of every pinned corpus, the plans
 * the solver returns for them, hand-made edge cases at every limit.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { ReadinessPredictor } from './helpers/internals.js';
import { evaluate } from './helpers/internals.js';
import type { Snapshot } from './helpers/internals.js';
import { validateSnapshot } from './helpers/internals.js';
import { ConnectionState, Dispatcher } from './helpers/internals.js';
import type { SidecarResponse } from './helpers/internals.js';
import { loadSolver, type Solver } from './helpers/internals.js';
import { validateProblem } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import { MAX_COMMAND_LENGTH } from './helpers/internals.js';
import { loadSchemas, SCHEMA_BASE } from './helpers/schemas.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const { files, validate } = loadSchemas();
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** A copy of `base` with `edit` applied. */
function edited<T>(base: T, edit: (x: Json) => void): Json {
  const x = clone(base) as Json;
  edit(x);
  return x;
}

/** The message `check` throws (a typed error), or undefined if it accepts. */
function thrown(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (err) {
    expect(err instanceof InvalidTypeError || err instanceof InvalidValueError, String(err)).toBe(true);
    return (err as Error).message;
  }
}

function schemaErrors(name: keyof typeof validate, x: unknown): string {
  const v = validate[name];
  return v(x) ? '' : JSON.stringify(v.errors?.slice(0, 3));
}

// ---------------------------------------------------------------- fixtures: problems

const casesDir = new URL('./cases/', import.meta.url);
const caseFiles = readdirSync(casesDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map(
    (f) =>
      [
        f,
        JSON.parse(readFileSync(new URL(f, casesDir), 'utf8')) as { problem: Problem; runs: { options: Json }[] },
      ] as const,
  );
const caseProblems: [string, Problem][] = caseFiles.map(([f, c]) => [`case ${f}`, c.problem]);
/** Every known-answer run as a solve request: the case's problem with the options of the run. */
const caseRequests: [string, Json][] = caseFiles.flatMap(([f, c]) =>
  c.runs.map((run, k): [string, Json] => [
    `case ${f} run ${k}`,
    { id: `${f}#${k}`, op: 'solve', problem: c.problem, options: run.options },
  ]),
);

const corpusDir = new URL('../bench/corpus/', import.meta.url);
const corpusProblems: [string, Problem][] = readdirSync(corpusDir)
  .filter((f) => f.endsWith('.jsonl.gz'))
  .sort()
  .flatMap((f) => {
    const lines = gunzipSync(readFileSync(new URL(f, corpusDir)))
      .toString('utf8')
      .trim()
      .split('\n')
      .slice(1);
    // Every 20th problem of each corpus: the hard settings' pools of up to hundreds of sessions included.
    return lines
      .filter((_, i) => i % 20 === 0)
      .map((l, i): [string, Problem] => [`${f}#${i * 20}`, JSON.parse(l) as Problem]);
  });

const U32 = 4_294_967_295;
const small: Problem = {
  nodes: [
    { id: 'a', capacity: 4096 },
    { id: 'b', capacity: 0 },
  ],
  sessions: [
    { id: 's1', weight: 1024, tokens: 512, ready: true, credit: { a: 10 }, eligible: ['a', 'b'], signature: 'x' },
    { id: 's2', weight: 2048, tokens: 0, ready: false },
  ],
};
const edgeProblems: [string, Problem][] = [
  ['empty', { nodes: [], sessions: [] }],
  ['small', small],
  [
    'limits',
    {
      nodes: Array.from({ length: 64 }, (_, b) => ({ id: `n${b}`, capacity: b === 0 ? Number.MAX_SAFE_INTEGER : 0 })),
      sessions: [
        { id: 's', weight: U32, tokens: U32, ready: true, credit: { n0: U32 }, eligible: [], signature: -1.5 },
      ],
    },
  ],
  [
    '4096 sessions',
    {
      nodes: [{ id: 'a', capacity: 1 }],
      sessions: Array.from({ length: 4096 }, (_, i) => ({ id: `s${i}`, weight: 1, tokens: 0, ready: false })),
    },
  ],
  [
    'unicode ids',
    {
      nodes: [{ id: '节点', capacity: 10 }],
      sessions: [{ id: '𝄞', weight: 1, tokens: 1, ready: true, credit: { 节点: 0 } }],
    },
  ],
];
const validProblems = [...caseProblems, ...corpusProblems, ...edgeProblems];

/** Per-field rules: the schema and the validator both refuse, the validator with this message. */
const perFieldProblems: [string, Json, string][] = [
  ['not an object', [] as unknown as Json, 'problem must be an object'],
  ['unknown field', edited(small, (p) => (p.extra = 1)), 'problem.extra is not a known field'],
  ['nodes missing', edited(small, (p) => delete p.nodes), 'problem.nodes must be an array'],
  ['sessions not an array', edited(small, (p) => (p.sessions = {})), 'problem.sessions must be an array'],
  [
    '65 nodes',
    { nodes: Array.from({ length: 65 }, (_, b) => ({ id: `n${b}`, capacity: 1 })), sessions: [] },
    'problem.nodes must have at most 64 entries (has 65)',
  ],
  [
    '4097 sessions',
    {
      nodes: [],
      sessions: Array.from({ length: 4097 }, (_, i) => ({ id: `s${i}`, weight: 1, tokens: 0, ready: true })),
    },
    'problem.sessions must have at most 4096 entries (has 4097)',
  ],
  ['node not an object', edited(small, (p) => (p.nodes[1] = 'b')), 'problem.nodes[1] must be an object'],
  ['node unknown field', edited(small, (p) => (p.nodes[0].gpu = 'h100')), 'problem.nodes[0].gpu is not a known field'],
  ['node id empty', edited(small, (p) => (p.nodes[0].id = '')), 'problem.nodes[0].id must be a non-empty string'],
  ['node id a number', edited(small, (p) => (p.nodes[0].id = 1)), 'problem.nodes[0].id must be a string'],
  [
    'capacity negative',
    edited(small, (p) => (p.nodes[0].capacity = -1)),
    'problem.nodes[0].capacity must be a non-negative safe integer',
  ],
  [
    'capacity fractional',
    edited(small, (p) => (p.nodes[0].capacity = 1.5)),
    'problem.nodes[0].capacity must be a non-negative safe integer',
  ],
  [
    'capacity above 2^53-1',
    edited(small, (p) => (p.nodes[0].capacity = 2 ** 53)),
    'problem.nodes[0].capacity must be a non-negative safe integer',
  ],
  [
    'capacity a string',
    edited(small, (p) => (p.nodes[0].capacity = '10')),
    'problem.nodes[0].capacity must be a number',
  ],
  ['capacity missing', edited(small, (p) => delete p.nodes[0].capacity), 'problem.nodes[0].capacity must be a number'],
  ['session not an object', edited(small, (p) => (p.sessions[0] = null)), 'problem.sessions[0] must be an object'],
  [
    'session unknown field',
    edited(small, (p) => (p.sessions[1].priority = 1)),
    'problem.sessions[1].priority is not a known field',
  ],
  ['session id missing', edited(small, (p) => delete p.sessions[1].id), 'problem.sessions[1].id must be a string'],
  [
    'weight 0',
    edited(small, (p) => (p.sessions[0].weight = 0)),
    'problem.sessions[0].weight must be a positive integer <= 4294967295',
  ],
  [
    'weight 2^32',
    edited(small, (p) => (p.sessions[0].weight = U32 + 1)),
    'problem.sessions[0].weight must be a positive integer <= 4294967295',
  ],
  [
    'weight fractional',
    edited(small, (p) => (p.sessions[0].weight = 1.5)),
    'problem.sessions[0].weight must be a positive integer <= 4294967295',
  ],
  ['weight null', edited(small, (p) => (p.sessions[0].weight = null)), 'problem.sessions[0].weight must be a number'],
  [
    'tokens negative',
    edited(small, (p) => (p.sessions[1].tokens = -1)),
    'problem.sessions[1].tokens must be an integer from 0 to 4294967295',
  ],
  [
    'tokens 2^32',
    edited(small, (p) => (p.sessions[1].tokens = U32 + 1)),
    'problem.sessions[1].tokens must be an integer from 0 to 4294967295',
  ],
  ['ready a number', edited(small, (p) => (p.sessions[1].ready = 1)), 'problem.sessions[1].ready must be a boolean'],
  ['ready missing', edited(small, (p) => delete p.sessions[1].ready), 'problem.sessions[1].ready must be a boolean'],
  [
    'signature boolean',
    edited(small, (p) => (p.sessions[0].signature = true)),
    'problem.sessions[0].signature must be a string or a number',
  ],
  [
    'signature object',
    edited(small, (p) => (p.sessions[0].signature = {})),
    'problem.sessions[0].signature must be a string or a number',
  ],
  [
    'eligible a string',
    edited(small, (p) => (p.sessions[0].eligible = 'a')),
    'problem.sessions[0].eligible must be an array',
  ],
  [
    'eligible entry empty',
    edited(small, (p) => (p.sessions[0].eligible = [''])),
    'problem.sessions[0].eligible[0] must be a non-empty string',
  ],
  [
    'eligible entry a number',
    edited(small, (p) => (p.sessions[0].eligible = [0])),
    'problem.sessions[0].eligible[0] must be a string',
  ],
  [
    'eligible repeats',
    edited(small, (p) => (p.sessions[0].eligible = ['a', 'a'])),
    'problem.sessions[0].eligible[1] repeats node "a"',
  ],
  [
    'credit an array',
    edited(small, (p) => (p.sessions[0].credit = [1])),
    'problem.sessions[0].credit must be an object',
  ],
  [
    'credit negative',
    edited(small, (p) => (p.sessions[0].credit = { a: -1 })),
    'problem.sessions[0].credit["a"] must be an integer from 0 to 4294967295',
  ],
  [
    'credit fractional',
    edited(small, (p) => (p.sessions[0].credit = { a: 0.5 })),
    'problem.sessions[0].credit["a"] must be an integer from 0 to 4294967295',
  ],
  [
    'credit a string',
    edited(small, (p) => (p.sessions[0].credit = { a: '1' })),
    'problem.sessions[0].credit["a"] must be a number',
  ],
];

/** Rules between fields: the validator refuses; JSON Schema cannot say them, the schema accepts. */
const crossFieldProblems: [string, Json, string][] = [
  ['duplicate node id', edited(small, (p) => (p.nodes[1].id = 'a')), 'problem.nodes[1].id duplicates node "a"'],
  [
    'duplicate session id',
    edited(small, (p) => (p.sessions[1].id = 's1')),
    'problem.sessions[1].id duplicates session "s1"',
  ],
  [
    'eligible names an unknown node',
    edited(small, (p) => (p.sessions[0].eligible = ['z'])),
    'problem.sessions[0].eligible[0] names unknown node "z"',
  ],
  [
    'credit names an unknown node',
    edited(small, (p) => (p.sessions[0].credit = { z: 1 })),
    'problem.sessions[0].credit names unknown node "z"',
  ],
];

// ---------------------------------------------------------------- fixtures: snapshots

const snap = {
  time: 100,
  nodes: [
    { id: 'a', capacity: 20_000 },
    { id: 'b', capacity: 0 },
  ],
  sessions: [
    {
      id: 's1',
      tokens: 3000,
      reserve: 0,
      eligible: ['a'],
      cache: [{ node: 'a', tokens: 2000, observedAt: 101 }],
      tool: { name: 'bash', startedAt: 99.5, deadline: 120, command: 'make', progress: 0.5, reportedAt: 99.9 },
    },
    { id: 's2', tokens: 0 },
    { id: 's3', tokens: 10, tool: { name: 'pytest', startedAt: 50, returnedAt: 100 } },
  ],
};
const validSnapshots: [string, Json][] = [
  ['full', snap],
  ['empty', { time: -5, nodes: [], sessions: [] }],
  [
    'limits',
    {
      time: 0,
      nodes: Array.from({ length: 64 }, (_, b) => ({ id: `n${b}`, capacity: Number.MAX_SAFE_INTEGER })),
      sessions: [
        { id: 's', tokens: U32, reserve: U32, eligible: [], cache: [], tool: { name: 't', startedAt: 0, progress: 1 } },
      ],
    },
  ],
  ['progress 0', edited(snap, (s) => (s.sessions[0].tool.progress = 0))],
  ['observation in the past', edited(snap, (s) => (s.sessions[0].cache[0].observedAt = -1e9))],
  [
    'bounded-wait and live fields',
    edited(snap, (s) => {
      s.sessions[0].cache[0].live = 2000;
      s.sessions[1].waitingSince = 90;
      s.sessions[1].expectedService = 0.5;
      s.sessions[2].waitingSince = 100;
    }),
  ],
];
/** Random snapshots that keep every rule: ids unique, references to known nodes, tool times in order. */
const randomSnapshot: fc.Arbitrary<Json> = fc
  .record({
    time: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    nodes: fc.integer({ min: 0, max: 6 }),
    capacities: fc.array(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), { minLength: 6, maxLength: 6 }),
    sessions: fc.array(
      fc.record({
        tokens: fc.integer({ min: 0, max: U32 }),
        reserve: fc.option(fc.integer({ min: 0, max: U32 }), { nil: undefined }),
        eligible: fc.option(fc.subarray([0, 1, 2, 3, 4, 5]), { nil: undefined }),
        cache: fc.option(fc.subarray([0, 1, 2, 3, 4, 5]), { nil: undefined }),
        cacheTokens: fc.integer({ min: 0, max: U32 }),
        age: fc.double({ min: -5, max: 1e4, noNaN: true }),
        tool: fc.option(
          fc.record({
            name: fc.string({ minLength: 1, maxLength: 8 }),
            ran: fc.double({ min: 0, max: 1e4, noNaN: true }),
            returned: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
            deadline: fc.option(fc.double({ min: 0, max: 1e5, noNaN: true }), { nil: undefined }),
            command: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
            progress: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
          }),
          { nil: undefined },
        ),
      }),
      { maxLength: 8 },
    ),
  })
  .map((r) => {
    const nodes = Array.from({ length: r.nodes }, (_, b) => ({ id: `node-${b}`, capacity: r.capacities[b]! }));
    const known = (list: number[] | undefined): number[] | undefined => list?.filter((b) => b < r.nodes);
    const sessions = r.sessions.map((x, i) => {
      const session: Json = { id: `s${i}`, tokens: x.tokens };
      if (x.reserve !== undefined) session.reserve = x.reserve;
      const eligible = known(x.eligible);
      if (eligible !== undefined) session.eligible = eligible.map((b) => `node-${b}`);
      const cache = known(x.cache);
      if (cache !== undefined)
        session.cache = cache.map((b) => ({ node: `node-${b}`, tokens: x.cacheTokens, observedAt: r.time - x.age }));
      if (x.tool !== undefined) {
        const startedAt = r.time - x.tool.ran;
        const tool: Json = { name: x.tool.name, startedAt };
        if (x.tool.returned !== undefined) tool.returnedAt = startedAt + x.tool.returned * x.tool.ran;
        if (x.tool.deadline !== undefined) tool.deadline = startedAt + x.tool.deadline;
        if (x.tool.command !== undefined) tool.command = x.tool.command;
        if (x.tool.progress !== undefined) tool.progress = x.tool.progress;
        session.tool = tool;
      }
      return session;
    });
    return { time: r.time, nodes, sessions };
  });
validSnapshots.push(
  ...fc.sample(randomSnapshot, { seed: 7, numRuns: 200 }).map((x, i): [string, Json] => [`random ${i}`, x]),
);

const perFieldSnapshots: [string, Json, string][] = [
  ['not an object', 'snap' as unknown as Json, 'snapshot must be an object'],
  ['unknown field', edited(snap, (s) => (s.now = 1)), 'snapshot.now is not a known field'],
  ['time missing', edited(snap, (s) => delete s.time), 'snapshot.time must be a number'],
  ['time a string', edited(snap, (s) => (s.time = '100')), 'snapshot.time must be a number'],
  [
    '65 nodes',
    edited(snap, (s) => (s.nodes = Array.from({ length: 65 }, (_, b) => ({ id: `n${b}`, capacity: 1 })))),
    'snapshot.nodes must have at most 64 entries (has 65)',
  ],
  [
    'capacity fractional',
    edited(snap, (s) => (s.nodes[0].capacity = 0.5)),
    'snapshot.nodes[0].capacity must be a non-negative safe integer',
  ],
  [
    'session unknown field',
    edited(snap, (s) => (s.sessions[1].weight = 1)),
    'snapshot.sessions[1].weight is not a known field',
  ],
  [
    'tokens negative',
    edited(snap, (s) => (s.sessions[1].tokens = -1)),
    'snapshot.sessions[1].tokens must be an integer from 0 to 4294967295',
  ],
  [
    'reserve above u32',
    edited(snap, (s) => (s.sessions[1].reserve = U32 + 1)),
    'snapshot.sessions[1].reserve must be an integer from 0 to 4294967295',
  ],
  [
    'eligible entry empty',
    edited(snap, (s) => (s.sessions[0].eligible = [''])),
    'snapshot.sessions[0].eligible[0] must be a non-empty string',
  ],
  [
    'eligible repeats',
    edited(snap, (s) => (s.sessions[0].eligible = ['a', 'a'])),
    'snapshot.sessions[0].eligible[1] repeats node "a"',
  ],
  [
    'cache not an array',
    edited(snap, (s) => (s.sessions[0].cache = {})),
    'snapshot.sessions[0].cache must be an array',
  ],
  [
    'cache unknown field',
    edited(snap, (s) => (s.sessions[0].cache[0].age = 1)),
    'snapshot.sessions[0].cache[0].age is not a known field',
  ],
  [
    'cache tokens fractional',
    edited(snap, (s) => (s.sessions[0].cache[0].tokens = 1.5)),
    'snapshot.sessions[0].cache[0].tokens must be an integer from 0 to 4294967295',
  ],
  [
    'cache observedAt missing',
    edited(snap, (s) => delete s.sessions[0].cache[0].observedAt),
    'snapshot.sessions[0].cache[0].observedAt must be a number',
  ],
  [
    'tool not an object',
    edited(snap, (s) => (s.sessions[0].tool = 'bash')),
    'snapshot.sessions[0].tool must be an object',
  ],
  [
    'tool unknown field',
    edited(snap, (s) => (s.sessions[0].tool.exitCode = 0)),
    'snapshot.sessions[0].tool.exitCode is not a known field',
  ],
  [
    'tool name empty',
    edited(snap, (s) => (s.sessions[0].tool.name = '')),
    'snapshot.sessions[0].tool.name must be a non-empty string',
  ],
  [
    'tool startedAt missing',
    edited(snap, (s) => delete s.sessions[0].tool.startedAt),
    'snapshot.sessions[0].tool.startedAt must be a number',
  ],
  [
    'tool command a number',
    edited(snap, (s) => (s.sessions[0].tool.command = 5)),
    'snapshot.sessions[0].tool.command must be a string',
  ],
  [
    'tool command too long',
    edited(snap, (s) => (s.sessions[0].tool.command = 'x'.repeat(MAX_COMMAND_LENGTH + 1))),
    `snapshot.sessions[0].tool.command must have at most ${MAX_COMMAND_LENGTH} characters (has ${MAX_COMMAND_LENGTH + 1})`,
  ],
  [
    'tool progress above 1',
    edited(snap, (s) => (s.sessions[0].tool.progress = 1.5)),
    'snapshot.sessions[0].tool.progress must be from 0 to 1',
  ],
  [
    'tool progress negative',
    edited(snap, (s) => (s.sessions[0].tool.progress = -0.1)),
    'snapshot.sessions[0].tool.progress must be from 0 to 1',
  ],
  [
    'waitingSince a string',
    edited(snap, (s) => (s.sessions[1].waitingSince = '90')),
    'snapshot.sessions[1].waitingSince must be a number',
  ],
  [
    'expectedService 0',
    edited(snap, (s) => (s.sessions[1].expectedService = 0)),
    'snapshot.sessions[1].expectedService must be a positive finite number',
  ],
  [
    'cache live negative',
    edited(snap, (s) => (s.sessions[0].cache[0].live = -1)),
    'snapshot.sessions[0].cache[0].live must be an integer from 0 to snapshot.sessions[0].cache[0].tokens (2000)',
  ],
];
const crossFieldSnapshots: [string, Json, string][] = [
  [
    'duplicate session id',
    edited(snap, (s) => (s.sessions[1].id = 's1')),
    'snapshot.sessions[1].id duplicates session "s1"',
  ],
  [
    'cache on an unknown node',
    edited(snap, (s) => (s.sessions[0].cache[0].node = 'z')),
    'snapshot.sessions[0].cache[0].node names unknown node "z"',
  ],
  [
    'two observations on one node',
    edited(snap, (s) => s.sessions[0].cache.push({ node: 'a', tokens: 1, observedAt: 0 })),
    'snapshot.sessions[0].cache[1].node repeats node "a"',
  ],
  [
    'eligible names an unknown node',
    edited(snap, (s) => (s.sessions[0].eligible = ['z'])),
    'snapshot.sessions[0].eligible[0] names unknown node "z"',
  ],
  ['duplicate node id', edited(snap, (s) => (s.nodes[1].id = 'a')), 'snapshot.nodes[1].id duplicates node "a"'],
  [
    'reported after time',
    edited(snap, (s) => (s.sessions[0].tool.reportedAt = 100.5)),
    'snapshot.sessions[0].tool.reportedAt must not be after snapshot.time',
  ],
  [
    'started after time',
    edited(snap, (s) => (s.sessions[0].tool.startedAt = 101)),
    'snapshot.sessions[0].tool.startedAt must not be after snapshot.time',
  ],
  [
    'returned before started',
    edited(snap, (s) => (s.sessions[2].tool.returnedAt = 40)),
    'snapshot.sessions[2].tool.returnedAt must not be before snapshot.sessions[2].tool.startedAt',
  ],
  [
    'deadline before started',
    edited(snap, (s) => (s.sessions[0].tool.deadline = 99)),
    'snapshot.sessions[0].tool.deadline must not be before snapshot.sessions[0].tool.startedAt',
  ],
  [
    'live above the observed tokens',
    edited(snap, (s) => (s.sessions[0].cache[0].live = 2001)),
    'snapshot.sessions[0].cache[0].live must be an integer from 0 to snapshot.sessions[0].cache[0].tokens (2000)',
  ],
  [
    'waitingSince after time',
    edited(snap, (s) => (s.sessions[1].waitingSince = 101)),
    'snapshot.sessions[1].waitingSince must not be after snapshot.time',
  ],
  [
    'waitingSince while the tool runs',
    edited(snap, (s) => (s.sessions[0].waitingSince = 99.9)),
    'snapshot.sessions[0].waitingSince must be absent while snapshot.sessions[0].tool is running (no returnedAt)',
  ],
  [
    'waitingSince before the return',
    edited(snap, (s) => (s.sessions[2].waitingSince = 99)),
    'snapshot.sessions[2].waitingSince must not be before snapshot.sessions[2].tool.returnedAt',
  ],
];

// ---------------------------------------------------------------- fixtures: predictor JSON

function predictorWithState(): Json {
  const p = new ReadinessPredictor({ window: 4, maxProbes: 2 });
  for (let k = 0; k < 6; k++)
    p.observe({ name: k % 2 === 0 ? 'bash' : 'grep', startedAt: k, returnedAt: k + 0.5 + k / 10 });
  p.ready({ name: 'bash', startedAt: 0 }, 30, 's1'); // overdue: opens a probe
  return clone(p.toJSON()) as Json;
}
const stateful = predictorWithState();
const validPredictors: [string, Json][] = [
  ['fresh', clone(new ReadinessPredictor().toJSON()) as Json],
  ['with histories and a probe', stateful],
  ['partial options', edited(stateful, (j) => (j.options = { window: 4, maxProbes: 2 }))],
];
/** Predictors with random options after random calls and readiness queries (probes included). */
const randomPredictor: fc.Arbitrary<Json> = fc
  .record({
    window: fc.integer({ min: 2, max: 6 }),
    maxTools: fc.integer({ min: 1, max: 3 }),
    maxProbes: fc.integer({ min: 0, max: 3 }),
    delta: fc.double({ min: 0.01, max: 0.99, noNaN: true }),
    calls: fc.array(
      fc.record({
        tool: fc.constantFrom('bash', 'grep', 'pytest', 'ls'),
        start: fc.integer({ min: 0, max: 100 }),
        took: fc.double({ min: 0, max: 20, noNaN: true }),
      }),
      { maxLength: 30 },
    ),
    queries: fc.array(
      fc.record({
        tool: fc.constantFrom('bash', 'grep'),
        start: fc.integer({ min: 0, max: 100 }),
        at: fc.integer({ min: 0, max: 300 }),
      }),
      { maxLength: 10 },
    ),
  })
  .map((r) => {
    const p = new ReadinessPredictor({
      window: r.window,
      maxTools: r.maxTools,
      maxProbes: r.maxProbes,
      delta: r.delta,
      minSamples: 2,
    });
    for (const c of r.calls) p.observe({ name: c.tool, startedAt: c.start, returnedAt: c.start + c.took });
    r.queries.forEach((q, i) => p.ready({ name: q.tool, startedAt: q.start }, q.start + q.at, `s${i}`));
    return clone(p.toJSON()) as Json;
  });
validPredictors.push(
  ...fc.sample(randomPredictor, { seed: 11, numRuns: 100 }).map((x, i): [string, Json] => [`random ${i}`, x]),
);

const perFieldPredictors: [string, Json, string][] = [
  ['format', edited(stateful, (j) => (j.format = 'x')), 'predictor.format must be "tao-readiness-predictor"'],
  ['version', edited(stateful, (j) => (j.version = 2)), 'predictor.version must be 1'],
  ['unknown field', edited(stateful, (j) => (j.extra = 1)), 'predictor.extra is not a known field'],
  ['options missing', edited(stateful, (j) => delete j.options), 'predictor.options must be an object'],
  ['unknown option', edited(stateful, (j) => (j.options.speed = 1)), 'predictor.options.speed is not a known option'],
  ['delta 1', edited(stateful, (j) => (j.options.delta = 1)), 'predictor.options.delta must be a number in (0, 1)'],
  [
    'window 1',
    edited(stateful, (j) => (j.options.window = 1)),
    'predictor.options.window must be an integer from 2 to 4096',
  ],
  [
    'horizon 0',
    edited(stateful, (j) => (j.options.horizon = 0)),
    'predictor.options.horizon must be a positive finite number',
  ],
  ['tools not an array', edited(stateful, (j) => (j.tools = {})), 'predictor.tools must be an array'],
  [
    'tool without durations',
    edited(stateful, (j) => (j.tools[0].durations = [])),
    'predictor.tools[0].durations must have from 1 to 4 entries (has 0)',
  ],
  [
    'negative duration',
    edited(stateful, (j) => (j.tools[0].durations[0] = -1)),
    'predictor.tools[0].durations[0] must be a non-negative duration',
  ],
  [
    'tool lastSampleAt null',
    edited(stateful, (j) => (j.tools[0].lastSampleAt = null)),
    'predictor.tools[0].lastSampleAt must be a finite number when there are durations',
  ],
  [
    'global lastSampleAt null with durations',
    edited(stateful, (j) => (j.global.lastSampleAt = null)),
    'predictor.global.lastSampleAt must be a finite number when there are durations',
  ],
  [
    'global lastSampleAt without durations',
    edited(stateful, (j) => (j.global = { durations: [], lastSampleAt: 5 })),
    'predictor.global.lastSampleAt must be null when there are no durations',
  ],
  [
    'probe count 0',
    edited(stateful, (j) => (j.probes[0].count = 0)),
    'predictor.probes[0].count must be an integer from 1 to 2',
  ],
  ['probe key a number', edited(stateful, (j) => (j.probes[0].key = 1)), 'predictor.probes[0].key must be a string'],
];
const crossFieldPredictors: [string, Json, string][] = [
  [
    'minSamples above window',
    edited(stateful, (j) => (j.options.minSamples = 5)),
    'predictor.options.minSamples must be at most predictor.options.window (4)',
  ],
  [
    'more durations than the window',
    edited(stateful, (j) => (j.tools[0].durations = [1, 2, 3, 4, 5])),
    'predictor.tools[0].durations must have from 1 to 4 entries (has 5)',
  ],
  [
    'duplicate tool',
    edited(stateful, (j) => (j.tools[1].name = j.tools[0].name)),
    `predictor.tools[1].name duplicates tool "${stateful.tools[0].name}"`,
  ],
  [
    'probe closes before it opens',
    edited(stateful, (j) => (j.probes[0].until = j.probes[0].openedAt)),
    'predictor.probes[0].until must be after predictor.probes[0].openedAt',
  ],
  [
    'probe count above maxProbes',
    edited(stateful, (j) => (j.probes[0].count = 3)),
    'predictor.probes[0].count must be an integer from 1 to 2',
  ],
];

// ---------------------------------------------------------------- tests

describe('schema files', () => {
  it('are the eight published schemas, each draft 2020-12 with its id under the package', () => {
    expect(files).toEqual([
      'plan.schema.json',
      'predictor.schema.json',
      'problem.schema.json',
      'request.schema.json',
      'response.schema.json',
      'setting.schema.json',
      'snapshot.schema.json',
      'trace.schema.json',
    ]);
    for (const f of files) {
      const s = JSON.parse(readFileSync(new URL(`../schemas/${f}`, import.meta.url), 'utf8')) as {
        $schema: string;
        $id: string;
      };
      expect(s.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(s.$id).toBe(`${SCHEMA_BASE}${f}`);
    }
  });

  it('state the command-length rule with the runtime constant', () => {
    const text = (f: string): string => readFileSync(new URL(`../schemas/${f}`, import.meta.url), 'utf8');
    for (const f of ['snapshot.schema.json', 'request.schema.json']) {
      expect(text(f).match(/"maxLength": \d+/g), f).toEqual([`"maxLength": ${MAX_COMMAND_LENGTH}`]);
    }
  });
});

function pairs(
  label: string,
  schema: keyof typeof validate,
  valid: [string, unknown][],
  perField: [string, Json, string][],
  crossField: [string, Json, string][],
  check: (x: unknown) => void,
): void {
  describe(label, () => {
    it(`every valid fixture (${valid.length}) passes the schema and the validator`, () => {
      expect(valid.length).toBeGreaterThan(0);
      for (const [name, x] of valid) {
        expect(
          thrown(() => check(x)),
          name,
        ).toBeUndefined();
        expect(schemaErrors(schema, x), name).toBe('');
      }
    });
    it(`every per-field invalid fixture (${perField.length}) fails both, the validator naming the field`, () => {
      for (const [name, x, message] of perField) {
        expect(
          thrown(() => check(x)),
          name,
        ).toBe(message);
        expect(validate[schema](x), name).toBe(false);
      }
    });
    it(`rules between fields (${crossField.length}): the validator refuses, the schema (which cannot say them) accepts`, () => {
      for (const [name, x, message] of crossField) {
        expect(
          thrown(() => check(x)),
          name,
        ).toBe(message);
        expect(schemaErrors(schema, x), name).toBe('');
      }
    });
  });
}

pairs('Problem', 'problem', validProblems, perFieldProblems, crossFieldProblems, (x) => validateProblem(x));
pairs('Snapshot', 'snapshot', validSnapshots, perFieldSnapshots, crossFieldSnapshots, (x) => validateSnapshot(x));
pairs('PredictorJSON', 'predictor', validPredictors, perFieldPredictors, crossFieldPredictors, (x) =>
  ReadinessPredictor.fromJSON(x, 'predictor'),
);

describe('Plan', () => {
  let solver: Solver;
  beforeAll(async () => {
    solver = await loadSolver();
  });
  afterAll(() => solver.close());

  it('every plan the solver returns for the valid problems passes the schema (optimal, fallback, each path)', () => {
    const paths = new Set<string>();
    let plans = 0;
    for (const [name, problem] of validProblems) {
      for (const options of [
        {},
        { quantum: 1024 },
        { stateBudget: 10 },
        { path: 'frontier' as const },
        { path: 'dense' as const, stateBudget: 2 ** 16 },
      ]) {
        const plan = solver.solve(problem, options);
        expect(schemaErrors('plan', clone(plan)), `${name} ${JSON.stringify(options)}`).toBe('');
        paths.add(`${plan.status}:${plan.stats.path}`);
        plans += 1;
      }
    }
    expect(plans).toBeGreaterThan(200);
    for (const p of [
      'optimal:trivial',
      'optimal:dense',
      'optimal:frontier',
      'optimal:best-nodes',
      'optimal:credit-split',
    ])
      expect(paths).toContain(p);
    expect([...paths].some((p) => p === 'fallback:bfd' || p === 'fallback:heuristic')).toBe(true);
  });

  it('refuses plans with a field out of shape', () => {
    const plan = clone(solver.solve(small)) as Json;
    expect(schemaErrors('plan', plan)).toBe('');
    const bad: [string, Json][] = [
      ['status', edited(plan, (p) => (p.status = 'ok'))],
      ['path', edited(plan, (p) => (p.stats.path = 'magic'))],
      ['negative value', edited(plan, (p) => (p.value.credit = -1))],
      ['assignment without node', edited(plan, (p) => delete p.assignments[0].node)],
      ['unknown field', edited(plan, (p) => (p.extra = 1))],
      ['unknown stat', edited(plan, (p) => (p.stats.extra = 1))],
      ['quantum 0', edited(plan, (p) => (p.quantum = 0))],
      ['stats missing', edited(plan, (p) => delete p.stats)],
      ['heuristic on an exact plan', edited(plan, (p) => (p.stats.heuristic = 'bfd'))],
      [
        'heuristic fallback without its name',
        edited(plan, (p) => ((p.status = 'fallback'), (p.reason = 'x'), (p.stats.path = 'heuristic'))),
      ],
      ['unknown heuristic', edited(plan, (p) => ((p.stats.path = 'heuristic'), (p.stats.heuristic = 'magic')))],
    ];
    for (const [name, x] of bad) expect(validate.plan(x), name).toBe(false);
  });
});

describe('sidecar messages', () => {
  let solver: Solver;
  let dispatcher: Dispatcher;
  const responses: SidecarResponse[] = [];
  beforeAll(async () => {
    solver = await loadSolver();
    dispatcher = new Dispatcher(solver, { maxLineBytes: 1 << 20, log: () => expect.unreachable('no internal errors') });
  });
  afterAll(() => solver.close());

  /** The lines below are read as one connection's: a tick's delta applies to the last tick planned. */
  const connection = new ConnectionState();
  /** The sidecar's answer to one request line; every response is kept for the response schema test. */
  function answer(request: unknown): SidecarResponse {
    const { response } = dispatcher.handle({ kind: 'line', text: JSON.stringify(request) }, connection);
    expect(response, JSON.stringify(request).slice(0, 200)).toBeDefined();
    responses.push(response!);
    return response!;
  }

  const validRequests: [string, Json][] = [
    ['hello', { id: 1, op: 'hello' }],
    ['hello with protocols', { id: 1.5, op: 'hello', protocols: [1, 7] }],
    ['tick', { id: 't', op: 'tick', snapshot: snap }],
    [
      'tick with every field',
      {
        id: 't2',
        op: 'tick',
        snapshot: snap,
        evaluateOptions: { reserve: 1, halfLife: 3 },
        solveOptions: { quantum: 1, path: 'dense' },
        previous: { assignments: [{ session: 's2', node: 'a' }], signatures: { s2: 7, s1: 'x' } },
      },
    ],
    [
      'tick carrying a plan over',
      {
        id: 't3',
        op: 'tick',
        snapshot: snap,
        previous: {
          assignments: [{ session: 's1', node: 'a' }],
          signatures: { s1: evaluate(snap as Snapshot, new ReadinessPredictor()).sessions[0]!.signature! },
        },
      },
    ],
    [
      'tick carrying a delta against the tick before',
      {
        id: 't4',
        op: 'tick',
        delta: { base: 't3', time: 100.5, nodes: snap.nodes, sessions: [{ id: 'n1', tokens: 100 }], remove: ['s1'] },
      },
    ],
    ['solve', { id: 'a', op: 'solve', problem: small }],
    [
      'solve with every option',
      {
        id: 2.5,
        op: 'solve',
        problem: small,
        options: { quantum: 1, stateBudget: 2 ** 26, deadlineMs: 0.5, path: 'frontier' },
      },
    ],
    ...caseRequests,
    ...validProblems
      .slice(caseProblems.length, caseProblems.length + 40)
      .map(([name, problem], i): [string, Json] => [`solve ${name}`, { id: `p${i}`, op: 'solve', problem }]),
    ['evaluate', { id: 3, op: 'evaluate', snapshot: snap }],
    [
      'evaluate with options',
      { id: 4, op: 'evaluate', snapshot: snap, options: { halfLife: 0.5, creditUnit: 16, reserve: 1 } },
    ],
    [
      'evaluate with the bounded options',
      {
        id: 4.5,
        op: 'evaluate',
        snapshot: snap,
        options: {
          waitThreshold: 0,
          waitServiceMultiple: 10,
          waitReserve: true,
          waitQuantum: 16,
          holdHorizon: 30,
          creditSource: 'live',
        },
      },
    ],
    [
      'observe',
      { id: 5, op: 'observe', calls: [{ name: 'bash', startedAt: 1, returnedAt: 2, command: 'ls', session: 's' }] },
    ],
    ['observe nothing', { id: 6, op: 'observe', calls: [] }],
    [
      'observe with a deadline',
      { id: 6.5, op: 'observe', calls: [{ name: 'make', startedAt: 1, returnedAt: 9, deadline: 30 }] },
    ],
    ['predictor.save', { id: 7, op: 'predictor.save' }],
    ['predictor.load', { id: 8, op: 'predictor.load', predictor: stateful }],
    ['stats', { id: 9, op: 'stats' }],
    ['shutdown', { id: 10, op: 'shutdown' }],
  ];
  const invalidRequests: [string, unknown, string][] = [
    ['not an object', [1], 'request must be a JSON object'],
    ['no id', { op: 'hello' }, 'id is missing (a string or a number; only observe may go without one)'],
    [
      'tick without id',
      { op: 'tick', snapshot: snap },
      'id is missing (a string or a number; only observe may go without one)',
    ],
    [
      'hello, protocols empty',
      { id: 1, op: 'hello', protocols: [] },
      'protocols must have from 1 to 64 entries (has 0)',
    ],
    ['hello, protocols of strings', { id: 1, op: 'hello', protocols: ['1'] }, 'protocols[0] must be a number'],
    ['hello, protocol 0', { id: 1, op: 'hello', protocols: [0] }, 'protocols[0] must be a positive integer (got 0)'],
    ['tick without snapshot', { id: 1, op: 'tick' }, 'snapshot must be an object'],
    [
      'tick with a snapshot and a delta',
      { id: 1, op: 'tick', snapshot: snap, delta: { base: 't4', time: 101 } },
      'a tick carries a snapshot or a delta against the last one, not both',
    ],
    [
      'tick, delta with an unknown field',
      { id: 1, op: 'tick', delta: { base: 't4', time: 101, add: [] } },
      'delta.add is not a known field',
    ],
    [
      'tick, delta without base',
      { id: 1, op: 'tick', delta: { time: 101 } },
      'delta.base must be a string or a number (the id of the tick it applies to)',
    ],
    [
      'tick, delta removing a number',
      { id: 1, op: 'tick', delta: { base: 't4', time: 101, remove: [3] } },
      'delta.remove[0] must be a string',
    ],
    ['tick, bad snapshot', { id: 1, op: 'tick', snapshot: perFieldSnapshots[5]![1] }, perFieldSnapshots[5]![2]],
    [
      'tick, solve option unknown',
      { id: 1, op: 'tick', snapshot: snap, solveOptions: { q: 1 } },
      'solveOptions.q is not a known option',
    ],
    [
      'tick, evaluate option out of range',
      { id: 1, op: 'tick', snapshot: snap, evaluateOptions: { creditUnit: 0 } },
      'evaluateOptions.creditUnit must be an integer from 1 to 4294967295',
    ],
    [
      'tick, the one options field of solve',
      { id: 1, op: 'tick', snapshot: snap, options: {} },
      'options is not a field of a "tick" request',
    ],
    ['tick, previous not an object', { id: 1, op: 'tick', snapshot: snap, previous: [] }, 'previous must be an object'],
    [
      'tick, previous with an unknown field',
      { id: 1, op: 'tick', snapshot: snap, previous: { assignments: [], signatures: {}, plan: {} } },
      'previous.plan is not a known field',
    ],
    [
      'tick, previous assignment with an unknown field',
      {
        id: 1,
        op: 'tick',
        snapshot: snap,
        previous: { assignments: [{ session: 's1', node: 'a', at: 1 }], signatures: { s1: 1 } },
      },
      'previous.assignments[0].at is not a known field',
    ],
    [
      'tick, previous assignment node empty',
      {
        id: 1,
        op: 'tick',
        snapshot: snap,
        previous: { assignments: [{ session: 's1', node: '' }], signatures: { s1: 1 } },
      },
      'previous.assignments[0].node must be a non-empty string',
    ],
    [
      'tick, previous signature a boolean',
      { id: 1, op: 'tick', snapshot: snap, previous: { assignments: [], signatures: { s1: true } } },
      'previous.signatures["s1"] must be a string or a finite number',
    ],
    [
      'tick, previous without signatures',
      { id: 1, op: 'tick', snapshot: snap, previous: { assignments: [] } },
      'previous.signatures must be an object',
    ],
    ['id null', { id: null, op: 'hello' }, 'id must be a string or a number'],
    ['id boolean', { id: true, op: 'hello' }, 'id must be a string or a number'],
    ['no op', { id: 1 }, 'op must be a string'],
    [
      'unknown op',
      { id: 1, op: 'solveAll' },
      'op must be one of "hello", "tick", "solve", "evaluate", "observe", "predictor.save", "predictor.load", "stats", "shutdown" (got "solveAll")',
    ],
    ['field of another op', { id: 1, op: 'stats', problem: small }, 'problem is not a field of a "stats" request'],
    ['solve without problem', { id: 1, op: 'solve' }, 'problem must be an object'],
    ['solve, bad problem', { id: 1, op: 'solve', problem: perFieldProblems[18]![1] }, perFieldProblems[18]![2]],
    ['solve, options not an object', { id: 1, op: 'solve', problem: small, options: 16 }, 'options must be an object'],
    [
      'solve, unknown option',
      { id: 1, op: 'solve', problem: small, options: { q: 16 } },
      'options.q is not a known option',
    ],
    [
      'solve, quantum 0',
      { id: 1, op: 'solve', problem: small, options: { quantum: 0 } },
      'options.quantum must be a positive integer',
    ],
    [
      'solve, budget above 2^26',
      { id: 1, op: 'solve', problem: small, options: { stateBudget: 2 ** 26 + 1 } },
      'options.stateBudget must be an integer from 1 to 67108864',
    ],
    [
      'solve, deadline 0',
      { id: 1, op: 'solve', problem: small, options: { deadlineMs: 0 } },
      'options.deadlineMs must be a positive number or Infinity',
    ],
    [
      'solve, unknown path',
      { id: 1, op: 'solve', problem: small, options: { path: 'bfd' } },
      'options.path must be one of "auto", "dense", "frontier"',
    ],
    ['evaluate without snapshot', { id: 1, op: 'evaluate' }, 'snapshot must be an object'],
    ['evaluate, bad snapshot', { id: 1, op: 'evaluate', snapshot: perFieldSnapshots[5]![1] }, perFieldSnapshots[5]![2]],
    [
      'evaluate, halfLife 0',
      { id: 1, op: 'evaluate', snapshot: snap, options: { halfLife: 0 } },
      'options.halfLife must be a positive number or Infinity',
    ],
    [
      'evaluate, creditUnit 0',
      { id: 1, op: 'evaluate', snapshot: snap, options: { creditUnit: 0 } },
      'options.creditUnit must be an integer from 1 to 4294967295',
    ],
    [
      'evaluate, holdHorizon negative',
      { id: 1, op: 'evaluate', snapshot: snap, options: { holdHorizon: -1 } },
      'options.holdHorizon must be a non-negative number or Infinity',
    ],
    [
      'evaluate, unknown creditSource',
      { id: 1, op: 'evaluate', snapshot: snap, options: { creditSource: 'engine' } },
      'options.creditSource must be "observed" or "live"',
    ],
    ['observe without calls', { id: 1, op: 'observe' }, 'calls must be an array'],
    [
      'observe, call without name',
      { id: 1, op: 'observe', calls: [{ startedAt: 1, returnedAt: 2 }] },
      'calls[0].name must be a string',
    ],
    [
      'observe, call with unknown field',
      { id: 1, op: 'observe', calls: [{ name: 'x', startedAt: 1, returnedAt: 2, tool: 'x' }] },
      'calls[0].tool is not a known field',
    ],
    [
      'observe, command a number',
      { id: 1, op: 'observe', calls: [{ name: 'x', startedAt: 1, returnedAt: 2, command: 1 }] },
      'calls[0].command must be a string',
    ],
    [
      'observe, command too long',
      {
        id: 1,
        op: 'observe',
        calls: [{ name: 'x', startedAt: 1, returnedAt: 2, command: 'x'.repeat(MAX_COMMAND_LENGTH + 1) }],
      },
      `calls[0].command must have at most ${MAX_COMMAND_LENGTH} characters (has ${MAX_COMMAND_LENGTH + 1})`,
    ],
    ['predictor.load without predictor', { id: 1, op: 'predictor.load' }, 'predictor must be an object'],
    [
      'predictor.load, bad predictor',
      { id: 1, op: 'predictor.load', predictor: perFieldPredictors[6]![1] },
      perFieldPredictors[6]![2],
    ],
  ];

  it(`every valid request (${validRequests.length}) passes the schema and gets an ok response`, () => {
    for (const [name, r] of validRequests) {
      expect(schemaErrors('request', r), name).toBe('');
      const response = answer(r);
      expect(response, `${name}: ${JSON.stringify(response).slice(0, 300)}`).toMatchObject({
        id: r.id,
        op: r.op,
        ok: true,
      });
    }
  });

  it(`every invalid request (${invalidRequests.length}) fails the schema and gets the error naming the field`, () => {
    for (const [name, r, message] of invalidRequests) {
      expect(validate.request(r), name).toBe(false);
      const response = answer(r);
      expect(response.ok, name).toBe(false);
      expect((response as { error: { message: string } }).error.message, name).toBe(message);
    }
  });

  it('a request breaking a rule between fields passes the schema and gets the error', () => {
    const cases: [string, Json, string][] = [
      ...crossFieldProblems.map(([name, problem, message]): [string, Json, string] => [
        name,
        { op: 'solve', problem },
        message,
      ]),
      ...crossFieldSnapshots.map(([name, snapshot, message]): [string, Json, string] => [
        name,
        { op: 'evaluate', snapshot },
        message,
      ]),
      ...crossFieldPredictors.map(([name, predictor, message]): [string, Json, string] => [
        name,
        { op: 'predictor.load', predictor },
        message,
      ]),
      [
        'call returned before it started',
        { op: 'observe', calls: [{ name: 'x', startedAt: 2, returnedAt: 1 }] },
        'calls[0].returnedAt must not be before calls[0].startedAt',
      ],
      [
        'deadline before the start',
        { op: 'observe', calls: [{ name: 'x', startedAt: 2, returnedAt: 3, deadline: 1 }] },
        'calls[0].deadline must not be before calls[0].startedAt',
      ],
      [
        'tick, a planned session without its signature',
        { op: 'tick', snapshot: snap, previous: { assignments: [{ session: 's1', node: 'a' }], signatures: {} } },
        'previous.signatures has no signature for session "s1" of previous.assignments[0]',
      ],
      [
        'tick, a delta against another tick than the last one planned',
        { op: 'tick', delta: { base: 't3', time: 101 } },
        'delta.base is "t3", but the last tick planned on this connection is "t4": send a snapshot',
      ],
      [
        'tick, a delta removing a session its base does not hold',
        { op: 'tick', delta: { base: 't4', time: 101, remove: ['s1'] } },
        'delta.remove[0] names session "s1", which the base snapshot does not hold',
      ],
      [
        'hello, no shared protocol',
        { op: 'hello', protocols: [99] },
        'protocols shares no version with this sidecar: it speaks 1, 2, the client 99',
      ],
    ];
    for (const [name, body, message] of cases) {
      const r = { id: name, ...body };
      expect(schemaErrors('request', r), name).toBe('');
      expect(answer(r), name).toEqual({
        id: name,
        op: body.op,
        ok: false,
        error: { code: 'ERR_TAO_INVALID_VALUE', message },
      });
    }
  });

  it('every response the sidecar gave above, ok or error, passes the response schema', () => {
    const lines = ['not json', '{"id": 1}', '{"id": 1, "op": 2}', '{"op": "solve"}'];
    for (const text of lines) responses.push(dispatcher.handle({ kind: 'line', text }).response!);
    responses.push(dispatcher.handle({ kind: 'oversized', bytes: 1 << 21 }).response!);
    expect(responses.length).toBeGreaterThan(60);
    const kinds = new Set<string>();
    for (const r of responses) {
      expect(schemaErrors('response', clone(r)), JSON.stringify(r).slice(0, 200)).toBe('');
      kinds.add(r.ok ? r.op : 'error');
    }
    expect([...kinds].sort()).toEqual([
      'error',
      'evaluate',
      'hello',
      'observe',
      'predictor.load',
      'predictor.save',
      'shutdown',
      'solve',
      'stats',
      'tick',
    ]);
    expect(responses.some((r) => r.ok && r.op === 'tick' && r.revalidation?.outcome === 'applied')).toBe(true);
  });

  it('a notification (observe without an id) passes the request schema and gets no response', () => {
    const r = { op: 'observe', calls: [{ name: 'bash', startedAt: 1, returnedAt: 2 }] };
    expect(schemaErrors('request', r)).toBe('');
    expect(dispatcher.handle({ kind: 'line', text: JSON.stringify(r) })).toEqual({
      response: undefined,
      shutdown: false,
    });
  });

  it('responses may carry fields the schema does not list (a later release adds them); requests may not', () => {
    const plan = clone(solver.solve(small)) as Json;
    const extra: Json[] = [
      { id: 1, op: 'solve', ok: true, plan, addedLater: 1 },
      {
        id: 1,
        op: 'hello',
        ok: true,
        protocol: 1,
        protocols: [1],
        version: '9.9.9',
        ops: ['hello'],
        maxLineBytes: 10,
        features: ['x'],
      },
      { id: 1, op: 'observe', ok: true, learned: 0, skipped: 0 },
      {
        id: null,
        op: null,
        ok: false,
        error: { code: 'ERR_TAO_INVALID_TYPE', message: 'x', path: 'problem' },
        hint: 'x',
      },
      { id: 1, op: 'shutdown', ok: true, drained: true },
    ];
    for (const r of extra) expect(schemaErrors('response', r), JSON.stringify(r)).toBe('');
    for (const r of [
      { id: 1, op: 'hello', extra: 1 },
      { id: 1, op: 'stats', verbose: true },
      { op: 'observe', calls: [], extra: 1 },
    ]) {
      expect(validate.request(r), JSON.stringify(r)).toBe(false);
    }
  });

  it('refuses responses out of shape', () => {
    const bad: unknown[] = [
      { id: 1, op: 'solve', ok: true, plan: {} },
      { id: 1, op: 'solve', ok: false },
      { id: 1, op: 'solve', ok: false, error: { code: 'E', message: 'x' } },
      { id: 1, op: 'observe', ok: true, learned: -1 },
      { id: null, op: 'shutdown', ok: true },
      { id: 1, ok: true, learned: 0 },
      { id: 1, op: 'solv', ok: true },
      { id: 1, op: 'tick', ok: true, plan: clone(solver.solve(small)) },
      {
        id: 1,
        op: 'tick',
        ok: true,
        plan: clone(solver.solve(small)),
        signatures: {},
        revalidation: { outcome: 'kept' },
      },
      { id: 1, op: 'hello', ok: true, protocol: 1, version: '0.1.0', ops: [], maxLineBytes: 1 },
    ];
    for (const r of bad) expect(validate.response(r), JSON.stringify(r)).toBe(false);
  });
});
