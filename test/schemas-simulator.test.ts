/**
 * The simulator's file schemas (schemas/setting.schema.json, schemas/trace.schema.json) against the
 * runtime (parseSetting, parseTrace), as test/schemas.test.ts does for the solver's: every valid fixture
 * passes both; every per-field invalid fixture fails both, the runtime with its exact message; a rule
 * between fields fails the runtime and passes the schema, which says in its description that it cannot
 * say it. The schemas' field lists and names are those of the runtime (a field added to one is missed by
 * the other otherwise).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSchemas } from './helpers/schemas.js';
import {
  InvalidTypeError,
  InvalidValueError,
  parseSetting,
  SETTINGS,
  SETTING_NAMES,
  generatedTraceLines,
  parseTrace,
  CLAUDE_CODE_PROFILE,
  SWE_BENCH_PROFILE,
  WORKLOAD_PROFILES,
} from './helpers/internals.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const { validate } = loadSchemas();
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
const edited = (base: unknown, edit: (x: Json) => void): Json => {
  const x = clone(base) as Json;
  edit(x);
  return x;
};

function thrown(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (err) {
    expect(err instanceof InvalidTypeError || err instanceof InvalidValueError, String(err)).toBe(true);
    return (err as Error).message;
  }
}

function agree(
  name: 'setting' | 'trace',
  check: (x: unknown) => void,
  valid: [string, unknown][],
  perField: [string, unknown, string][],
  crossField: [string, unknown, string][],
): void {
  const errors = (x: unknown): string => (validate[name](x) ? '' : JSON.stringify(validate[name].errors?.slice(0, 3)));
  it(`every valid fixture (${valid.length}) passes the schema and the runtime`, () => {
    for (const [label, x] of valid) {
      expect(
        thrown(() => check(x)),
        label,
      ).toBeUndefined();
      expect(errors(x), label).toBe('');
    }
  });
  it(`every per-field invalid fixture (${perField.length}) fails both, the runtime naming the field`, () => {
    for (const [label, x, message] of perField) {
      expect(
        thrown(() => check(x)),
        label,
      ).toBe(message);
      expect(validate[name](x), label).toBe(false);
    }
  });
  it(`rules between fields (${crossField.length}): the runtime refuses, the schema accepts`, () => {
    for (const [label, x, message] of crossField) {
      expect(
        thrown(() => check(x)),
        label,
      ).toBe(message);
      expect(errors(x), label).toBe('');
    }
  });
}

const schemaOf = (file: string): Json =>
  JSON.parse(readFileSync(new URL(`../schemas/${file}`, import.meta.url), 'utf8')) as Json;

// ---------------------------------------------------------------- settings

describe('setting files', () => {
  const schema = schemaOf('setting.schema.json');
  const ds16 = SETTINGS['ds-16']!;
  const whole = clone(ds16);

  it('name the runtime fields, settings and profiles', () => {
    expect(schema.properties.extends.enum).toEqual(SETTING_NAMES);
    expect(schema.$defs.profileName.enum).toEqual(Object.keys(WORKLOAD_PROFILES));
    expect(Object.keys(schema.properties).sort()).toEqual([...Object.keys(ds16), 'extends'].sort());
    expect(Object.keys(schema.$defs.engine.properties).sort()).toEqual(Object.keys(ds16.engine).sort());
    expect([...schema.then.properties.engine.required].sort()).toEqual(Object.keys(ds16.engine).sort());
    expect(Object.keys(schema.$defs.workload.properties).sort()).toEqual(
      [...Object.keys(SWE_BENCH_PROFILE), 'extends'].sort(),
    );
    expect([...schema.$defs.wholeWorkload.required].sort()).toEqual(Object.keys(SWE_BENCH_PROFILE).sort());
    expect(Object.keys(schema.$defs.tool.properties).sort()).toEqual(Object.keys(SWE_BENCH_PROFILE.tools[0]!).sort());
  });

  const valid: [string, unknown][] = [
    ...SETTING_NAMES.map((n): [string, unknown] => [`built-in ${n}, written out whole`, clone(SETTINGS[n]!)]),
    ['a name and a base', { name: 'x', extends: 'ds-64' }],
    ['a profile by name', { name: 'x', extends: 'qwen-96', workload: 'decode-heavy' }],
    [
      'a workload merged over its own base',
      {
        name: 'x',
        extends: 'qwen-96',
        nodes: [{ id: 'a', capacity: 300_000 }],
        workload: { extends: 'claude-code', contextLimit: 150_000 },
      },
    ],
    [
      'a workload merged over the setting',
      { name: 'x', extends: 'ds-16', workload: { turns: { kind: 'constant', value: 5 } } },
    ],
    ['an engine field overridden', { name: 'x', extends: 'ds-16', engine: { stepBase: 0.02 } }],
    ['a whole setting with a named profile', { ...whole, workload: 'swe-bench' }],
    [
      'a tool with a timeout deadline',
      edited(
        whole,
        (x) =>
          (x.workload.tools = [
            {
              label: 'b',
              name: 'bash',
              weight: 1,
              duration: { kind: 'uniform', min: 1, max: 2 },
              timeout: 9,
              deadline: 'timeout',
            },
          ]),
      ),
    ],
    [
      'a whole Claude-Code-like setting',
      { ...whole, nodes: [{ id: 'a', capacity: 200_000 }], workload: clone(CLAUDE_CODE_PROFILE) },
    ],
  ];
  const perField: [string, unknown, string][] = [
    ['not an object', [], 'setting must be an object'],
    ['no name', { extends: 'ds-16' }, 'setting.name must be a string'],
    ['an empty name', { name: '', extends: 'ds-16' }, 'setting.name must be a non-empty string'],
    ['an unknown field', { name: 'x', extends: 'ds-16', gpus: 4 }, 'setting.gpus is not a known field'],
    [
      'an unknown base',
      { name: 'x', extends: 'ds-8' },
      `setting.extends must be one of ${SETTING_NAMES.join(', ')} (got "ds-8")`,
    ],
    ['a numeric description', { name: 'x', extends: 'ds-16', description: 3 }, 'setting.description must be a string'],
    [
      'fractional workers',
      { name: 'x', extends: 'ds-16', workers: 2.5 },
      'setting.workers must be an integer from 1 to 4096',
    ],
    [
      'too many workers',
      { name: 'x', extends: 'ds-16', workers: 4097 },
      'setting.workers must be an integer from 1 to 4096',
    ],
    [
      'too many tasks',
      { name: 'x', extends: 'ds-16', tasks: 1_000_001 },
      'setting.tasks must be an integer from 1 to 1000000',
    ],
    [
      'no nodes without a base',
      { name: 'x', workers: 1, tasks: 1 },
      'setting.nodes must be given (no "extends" to take it from)',
    ],
    [
      'no workload without a base',
      edited(whole, (x) => delete x.workload),
      'setting.workload must be given (no "extends" to take it from)',
    ],
    [
      'no engine field without a base',
      edited(whole, (x) => delete x.engine.stepBase),
      'setting.engine.stepBase must be given (no base setting to take it from)',
    ],
    ['nodes not an array', { name: 'x', extends: 'ds-16', nodes: {} }, 'setting.nodes must be an array'],
    ['no nodes', { name: 'x', extends: 'ds-16', nodes: [] }, 'setting.nodes must have at least one node'],
    [
      '65 nodes',
      { name: 'x', extends: 'ds-16', nodes: Array.from({ length: 65 }, (_, i) => ({ id: `n${i}`, capacity: 60_000 })) },
      'setting.nodes must have at most 64 nodes',
    ],
    [
      'a node field unknown',
      { name: 'x', extends: 'ds-16', nodes: [{ id: 'a', capacity: 60_000, gpu: 'h100' }] },
      'setting.nodes[0].gpu is not a known field',
    ],
    [
      'a zero capacity',
      { name: 'x', extends: 'ds-16', nodes: [{ id: 'a', capacity: 0 }] },
      'setting.nodes[0].capacity must be an integer from 1 to 9007199254740991',
    ],
    [
      'an engine field unknown',
      { name: 'x', extends: 'ds-16', engine: { turbo: true } },
      'setting.engine.turbo is not a known field',
    ],
    [
      'a zero stepBase',
      { name: 'x', extends: 'ds-16', engine: { stepBase: 0 } },
      'setting.engine.stepBase must be > 0',
    ],
    [
      'a negative stepPerSeq',
      { name: 'x', extends: 'ds-16', engine: { stepPerSeq: -1 } },
      'setting.engine.stepPerSeq must be >= 0',
    ],
    [
      'a huge block',
      { name: 'x', extends: 'ds-16', engine: { blockSize: 2 ** 21 } },
      'setting.engine.blockSize must be an integer from 1 to 1048576',
    ],
    [
      'an unknown profile',
      { name: 'x', extends: 'ds-16', workload: 'chat' },
      `setting.workload must be one of ${Object.keys(WORKLOAD_PROFILES).join(', ')} (got "chat")`,
    ],
    [
      'a workload field unknown',
      { name: 'x', extends: 'ds-16', workload: { speed: 2 } },
      'setting.workload.speed is not a known field',
    ],
    [
      'a numeric workload description',
      { name: 'x', extends: 'ds-16', workload: { description: 5 } },
      'setting.workload.description must be a string',
    ],
    [
      'a workload without a base missing a field',
      edited(whole, (x) => delete x.workload.resultMax),
      'setting.workload.resultMax must be given (no base profile to take it from)',
    ],
    [
      'an unknown context action',
      { name: 'x', extends: 'ds-16', workload: { onContextLimit: 'stop' } },
      'setting.workload.onContextLimit must be "end" or "compact"',
    ],
    [
      'a zero result median',
      { name: 'x', extends: 'ds-16', workload: { resultMedianLate: 0 } },
      'setting.workload.resultMedianLate must be > 0',
    ],
    [
      'a fractional context limit',
      { name: 'x', extends: 'ds-16', workload: { contextLimit: 1.5 } },
      'setting.workload.contextLimit must be an integer from 1 to 9007199254740991',
    ],
    [
      'a distribution of unknown kind',
      { name: 'x', extends: 'ds-16', workload: { turns: { kind: 'normal', median: 3 } } },
      'setting.workload.turns.kind must be one of constant, uniform, lognormal',
    ],
    [
      'a distribution field of another kind',
      { name: 'x', extends: 'ds-16', workload: { turns: { kind: 'constant', value: 3, max: 4 } } },
      'setting.workload.turns.max is not a field of a constant distribution',
    ],
    [
      'a negative constant',
      { name: 'x', extends: 'ds-16', workload: { initialTokens: { kind: 'constant', value: -1 } } },
      'setting.workload.initialTokens.value must be a finite number >= 0',
    ],
    [
      'a zero lognormal median',
      { name: 'x', extends: 'ds-16', workload: { initialTokens: { kind: 'lognormal', median: 0, sigma: 1, max: 5 } } },
      'setting.workload.initialTokens.median must be > 0',
    ],
    [
      'an unbounded output',
      { name: 'x', extends: 'ds-16', workload: { output: { kind: 'lognormal', median: 300, sigma: 1 } } },
      'setting.workload.output must have a finite max (a max_tokens)',
    ],
    [
      'too many turns',
      { name: 'x', extends: 'ds-16', workload: { turns: { kind: 'constant', value: 100_001 } } },
      'setting.workload.turns must have a finite max of at most 100000',
    ],
    [
      'unbounded turns',
      { name: 'x', extends: 'ds-16', workload: { turns: { kind: 'lognormal', median: 10, sigma: 1 } } },
      'setting.workload.turns must have a finite max of at most 100000',
    ],
    [
      'no tools',
      { name: 'x', extends: 'ds-16', workload: { tools: [] } },
      'setting.workload.tools must have at least one tool kind',
    ],
    [
      'a tool without a label',
      {
        name: 'x',
        extends: 'ds-16',
        workload: { tools: [{ name: 'bash', weight: 1, duration: { kind: 'constant', value: 1 } }] },
      },
      'setting.workload.tools[0].label must be a string',
    ],
    [
      'a tool field unknown',
      {
        name: 'x',
        extends: 'ds-16',
        workload: {
          tools: [{ label: 'a', name: 'bash', weight: 1, duration: { kind: 'constant', value: 1 }, cost: 2 }],
        },
      },
      'setting.workload.tools[0].cost is not a known field',
    ],
    [
      'a zero timeout',
      {
        name: 'x',
        extends: 'ds-16',
        workload: {
          tools: [{ label: 'a', name: 'bash', weight: 1, duration: { kind: 'constant', value: 1 }, timeout: 0 }],
        },
      },
      'setting.workload.tools[0].timeout must be > 0',
    ],
    [
      'an unknown deadline',
      {
        name: 'x',
        extends: 'ds-16',
        workload: {
          tools: [{ label: 'a', name: 'bash', weight: 1, duration: { kind: 'constant', value: 1 }, deadline: 'soon' }],
        },
      },
      'setting.workload.tools[0].deadline must be one of none, eta, timeout',
    ],
    [
      'a timeout deadline without a timeout',
      {
        name: 'x',
        extends: 'ds-16',
        workload: {
          tools: [
            { label: 'a', name: 'bash', weight: 1, duration: { kind: 'constant', value: 1 }, deadline: 'timeout' },
          ],
        },
      },
      'setting.workload.tools[0].deadline is "timeout" but setting.workload.tools[0].timeout is not set',
    ],
    [
      'an empty command',
      {
        name: 'x',
        extends: 'ds-16',
        workload: {
          tools: [{ label: 'a', name: 'bash', weight: 1, duration: { kind: 'constant', value: 1 }, command: '' }],
        },
      },
      'setting.workload.tools[0].command must be a non-empty string',
    ],
  ];
  const tool = (label: string, weight = 1): Json => ({
    label,
    name: 'bash',
    weight,
    duration: { kind: 'constant', value: 1 },
  });
  const crossField: [string, unknown, string][] = [
    [
      'duplicate node ids',
      {
        name: 'x',
        extends: 'ds-16',
        nodes: [
          { id: 'a', capacity: 60_000 },
          { id: 'a', capacity: 60_000 },
        ],
      },
      'setting.nodes[1].id duplicates node "a"',
    ],
    [
      'a uniform with max below min',
      { name: 'x', extends: 'ds-16', workload: { output: { kind: 'uniform', min: 10, max: 5 } } },
      'setting.workload.output.max must be >= setting.workload.output.min',
    ],
    [
      'duplicate tool labels',
      { name: 'x', extends: 'ds-16', workload: { tools: [tool('a'), tool('a')] } },
      'setting.workload.tools[1].label duplicates "a"',
    ],
    [
      'tool weights all 0',
      { name: 'x', extends: 'ds-16', workload: { tools: [tool('a', 0)] } },
      'setting.workload.tools weights must not all be 0',
    ],
    [
      'a first prompt over the context limit',
      {
        name: 'x',
        extends: 'ds-16',
        workload: { initialTokens: { kind: 'constant', value: ds16.workload.contextLimit + 1 } },
      },
      `setting.workload.initialTokens must have a max of at most setting.workload.contextLimit (${ds16.workload.contextLimit})`,
    ],
    [
      'a node too small for the largest session',
      { name: 'x', extends: 'ds-16', nodes: [{ id: 'a', capacity: 20_000 }] },
      `setting.nodes[0].capacity must be at least ${ds16.workload.contextLimit + 4096 + 512 + 16} (contextLimit ${ds16.workload.contextLimit} + output max 4096 + reserve 512 + one block), got 20000`,
    ],
  ];
  agree('setting', (x) => parseSetting(x), valid, perField, crossField);
});

// ---------------------------------------------------------------- traces

describe('trace lines', () => {
  const schema = schemaOf('trace.schema.json');
  const generated = [
    ...generatedTraceLines(CLAUDE_CODE_PROFILE, 1, 20),
    ...generatedTraceLines(SWE_BENCH_PROFILE, 2, 20),
  ].map((l) => JSON.parse(l) as Json);
  const ok = {
    id: 'a',
    turns: [
      { prompt: 100, output: 10, tool: 'bash', duration: 1 },
      { prompt: 200, output: 5 },
    ],
  };

  it('name the runtime fields', () => {
    expect(Object.keys(schema.properties).sort()).toEqual(['arrival', 'id', 'turns']);
    expect(Object.keys(schema.$defs.turn.properties).sort()).toEqual([
      'command',
      'compacted',
      'deadline',
      'duration',
      'output',
      'prompt',
      'tool',
    ]);
    expect(generated.some((t) => t.turns.some((u: Json) => u.compacted === true))).toBe(true);
  });

  const line = (x: unknown): void => {
    parseTrace(JSON.stringify(x), 't');
  };
  const valid: [string, unknown][] = [
    ...generated.map((t, i): [string, unknown] => [`generated task ${i}`, t]),
    ['one turn', { id: 'a', turns: [{ prompt: 1, output: 1 }] }],
    [
      'an arrival, a command and a deadline',
      edited(ok, (x) =>
        Object.assign(x, { arrival: 30 }, { turns: [{ ...x.turns[0], command: 'make', deadline: 5 }, x.turns[1]] }),
      ),
    ],
    ['a compaction', edited(ok, (x) => (x.turns[1] = { prompt: 20, output: 5, compacted: true }))],
    ['compacted false on the first turn', edited(ok, (x) => (x.turns[0].compacted = false))],
  ];
  const perField: [string, unknown, string][] = [
    ['not an object', 'task', 't line 1 must be an object (one task per line)'],
    ['no id', { turns: ok.turns }, 't line 1: id must be given'],
    ['a long id', { ...ok, id: 'x'.repeat(257) }, 't line 1: id must have 1 to 256 characters'],
    ['an unknown field', { ...ok, user: 'me' }, 't line 1: user is not a known field'],
    [
      'an arrival past the longest run',
      { ...ok, arrival: 10_000_001 },
      't line 1: arrival must be a number of seconds from 0 to 10000000',
    ],
    ['no turns', { id: 'a', turns: [] }, 't line 1: turns must have 1 to 100000 turns'],
    [
      'a turn field unknown',
      edited(ok, (x) => (x.turns[0].model = 'm')),
      't line 1: turns[0].model is not a known field',
    ],
    ['a string output', edited(ok, (x) => (x.turns[1].output = '5')), 't line 1: turns[1].output must be a number'],
    [
      'a zero prompt',
      edited(ok, (x) => (x.turns[0].prompt = 0)),
      't line 1: turns[0].prompt must be an integer from 1 to 1073741824',
    ],
    [
      'a non-boolean compacted',
      edited(ok, (x) => (x.turns[1].compacted = 1)),
      't line 1: turns[1].compacted must be a boolean',
    ],
    [
      'a duration without a tool',
      edited(ok, (x) => delete x.turns[0].tool),
      't line 1: turns[0].tool must be given (every turn but the last is followed by a tool call)',
    ],
    [
      'two turns without a tool',
      {
        id: 'a',
        turns: [
          { prompt: 1, output: 1 },
          { prompt: 9, output: 1 },
        ],
      },
      't line 1: turns[0].tool must be given (every turn but the last is followed by a tool call)',
    ],
    [
      'a last turn with a tool',
      edited(ok, (x) => Object.assign(x.turns[1], { tool: 'bash', duration: 1 })),
      't line 1: turns[1].tool is not allowed on the last turn (no tool call follows it)',
    ],
    [
      'a tool without a duration',
      edited(ok, (x) => delete x.turns[0].duration),
      't line 1: turns[0].duration must be given',
    ],
    [
      'a long tool name',
      edited(ok, (x) => (x.turns[0].tool = 'x'.repeat(257))),
      't line 1: turns[0].tool must have 1 to 256 characters',
    ],
    [
      'a duration over a day',
      edited(ok, (x) => (x.turns[0].duration = 86_401)),
      't line 1: turns[0].duration must be a number of seconds from 0 to 86400',
    ],
    [
      'a negative deadline',
      edited(ok, (x) => (x.turns[0].deadline = -1)),
      't line 1: turns[0].deadline must be a number of seconds from 0 to 86400',
    ],
    [
      'a long command',
      edited(ok, (x) => (x.turns[0].command = 'x'.repeat(16_001))),
      't line 1: turns[0].command must have at most 16000 characters (has 16001)',
    ],
  ];
  const crossField: [string, unknown, string][] = [
    [
      'a compacted first turn',
      edited(ok, (x) => (x.turns[0].compacted = true)),
      't line 1: turns[0].compacted is only for a turn after a tool call',
    ],
    [
      'the tool-less turn first',
      {
        id: 'a',
        turns: [
          { prompt: 1, output: 1 },
          { prompt: 9, output: 1, tool: 'bash', duration: 1 },
        ],
      },
      't line 1: turns[0].tool must be given (every turn but the last is followed by a tool call)',
    ],
    [
      'a prompt that shrinks without a compaction',
      edited(ok, (x) => (x.turns[1].prompt = 50)),
      't line 1: turns[1].prompt (50) is below the previous prompt plus its output (110): mark the turn "compacted": true if the context was replaced',
    ],
    [
      'a first arrival after a day',
      { ...ok, arrival: 90_000 },
      't line 1: arrival is more than 86400 s after the previous one (the run would stall)',
    ],
  ];
  agree('trace', line, valid, perField, crossField);

  it("between lines: a repeated id and arrivals out of order are the runtime's (each line passes the schema)", () => {
    const a = { ...ok, arrival: 20 };
    const b = { ...ok, id: 'b', arrival: 10 };
    expect(validate.trace(a) && validate.trace(b)).toBe(true);
    expect(thrown(() => parseTrace(`${JSON.stringify(a)}\n${JSON.stringify(a)}`, 't'))).toBe(
      't line 2: id "a" repeats the task of line 1',
    );
    expect(thrown(() => parseTrace(`${JSON.stringify(a)}\n${JSON.stringify(b)}`, 't'))).toBe(
      't line 2: arrival 10 is before the arrival 20 of line 1 (tasks start in file order)',
    );
  });
});

describe('docs/simulator-runs.md', () => {
  it('shows a trace line and a setting file that both the runtime and the schemas accept', () => {
    const doc = readFileSync(new URL('../docs/simulator-runs.md', import.meta.url), 'utf8');
    const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as unknown);
    expect(blocks).toHaveLength(2);
    const [traceLine, setting] = blocks;
    expect(thrown(() => parseTrace(JSON.stringify(traceLine), 'doc'))).toBeUndefined();
    expect(validate.trace(traceLine)).toBe(true);
    expect(thrown(() => parseSetting(setting))).toBeUndefined();
    expect(validate.setting(setting)).toBe(true);
  });
});
