/**
 * Traces (src/sim/trace.ts): every rule of the format refuses a malformed line with a typed error naming
 * the line and the field; a generated run and the replay of the trace it wrote give the same runs bit for
 * bit; arrivals hold a task back; a trace that cannot fit the setting's nodes is refused up front.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  simulateCmd,
  InvalidTypeError,
  InvalidValueError,
  simulate,
  type SimulationReport,
  parseSetting,
  SETTINGS,
  generatedTraceLines,
  MAX_TRACE_SECONDS,
  MAX_TRACE_TOKENS,
  parseTrace,
} from './helpers/internals.js';

type ErrorClass = typeof InvalidTypeError | typeof InvalidValueError;

const turn = (prompt: number, output: number, tool?: string, duration?: number): Record<string, unknown> =>
  tool === undefined ? { prompt, output } : { prompt, output, tool, duration };
const task = (id: string, turns: unknown[], extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ id, ...extra, turns });
const good = task('a', [turn(1000, 100, 'bash', 2), turn(1300, 50)]);

/** The runs of a report without the name of their workload (a profile's or a trace's). */
const runsOf = (r: SimulationReport): string => JSON.stringify(r.runs.map(({ profile: _profile, ...rest }) => rest));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('trace format', () => {
  it('reads a task per line: tool kinds by name, results from the prompts, compactions, arrivals', () => {
    const t = parseTrace(
      [
        good,
        task(
          'b',
          [
            turn(2000, 10, 'edit', 0.5),
            { prompt: 500, output: 20, compacted: true, tool: 'bash', duration: 1, command: 'make', deadline: 3 },
            turn(900, 5),
          ],
          {
            arrival: 4.5,
          },
        ),
      ].join('\n') + '\n',
      'mine.jsonl',
    );
    expect(t.ids).toEqual(['a', 'b']);
    expect(t.toolNames).toEqual(['bash', 'edit']);
    expect([...t.arrivals]).toEqual([Number.NaN, 4.5]);
    const b = t.tasks[1]!;
    expect(b.initialTokens).toBe(2000);
    expect([...b.toolKind]).toEqual([1, 0, -1]);
    expect([...b.compactTo]).toEqual([500, -1, -1]);
    // Turn 2's prompt is turn 1's prompt, its output and the tool's result: 900 = 500 + 20 + 380.
    expect([...b.result]).toEqual([0, 380, 0]);
    expect(b.command[1]).toBe('make');
    expect([...b.deadline]).toEqual([Number.NaN, 3, Number.NaN]);
    expect(t.largest).toEqual({ tokens: 2010, line: 2, turn: 0 });
  });

  const bad: [string, string, ErrorClass, string][] = [
    ['not JSON', '{"id":', InvalidValueError, 't line 1 is not valid JSON'],
    ['an empty line', `${good}\n\n${good}`, InvalidValueError, 't line 2 is empty (a trace has one task per line)'],
    ['no tasks', '', InvalidValueError, 't line 1 is empty'],
    ['a line that is not an object', '[1]', InvalidTypeError, 't line 1 must be an object (one task per line)'],
    [
      'an unknown task field',
      task('a', [turn(1, 1)], { user: 'x' }),
      InvalidValueError,
      't line 1: user is not a known field',
    ],
    ['no id', JSON.stringify({ turns: [turn(1, 1)] }), InvalidTypeError, 't line 1: id must be given'],
    ['a numeric id', JSON.stringify({ id: 7, turns: [turn(1, 1)] }), InvalidTypeError, 't line 1: id must be a string'],
    ['an empty id', task('', [turn(1, 1)]), InvalidValueError, 't line 1: id must have 1 to 256 characters'],
    ['a repeated id', `${good}\n${good}`, InvalidValueError, 't line 2: id "a" repeats the task of line 1'],
    [
      'a negative arrival',
      task('a', [turn(1, 1)], { arrival: -1 }),
      InvalidValueError,
      't line 1: arrival must be a number of seconds from 0 to 10000000',
    ],
    [
      'a first arrival after a day',
      task('a', [turn(1, 1)], { arrival: MAX_TRACE_SECONDS + 1 }),
      InvalidValueError,
      't line 1: arrival is more than 86400 s after the previous one',
    ],
    [
      'a string arrival',
      task('a', [turn(1, 1)], { arrival: '3' }),
      InvalidTypeError,
      't line 1: arrival must be a number',
    ],
    [
      'arrivals out of order',
      `${task('a', [turn(1, 1)], { arrival: 10 })}\n${task('b', [turn(1, 1)])}\n${task('c', [turn(1, 1)], { arrival: 5 })}`,
      InvalidValueError,
      't line 3: arrival 5 is before the arrival 10 of line 1 (tasks start in file order)',
    ],
    [
      'an arrival gap over a day',
      `${task('a', [turn(1, 1)], { arrival: 10 })}\n${task('b', [turn(1, 1)], { arrival: 10 + MAX_TRACE_SECONDS + 1 })}`,
      InvalidValueError,
      't line 2: arrival is more than 86400 s after the previous one (the run would stall)',
    ],
    [
      'turns not an array',
      JSON.stringify({ id: 'a', turns: {} }),
      InvalidTypeError,
      't line 1: turns must be an array',
    ],
    ['no turns', task('a', []), InvalidValueError, 't line 1: turns must have 1 to 100000 turns'],
    ['a turn that is not an object', task('a', [3]), InvalidTypeError, 't line 1: turns[0] must be an object'],
    [
      'an unknown turn field',
      task('a', [{ prompt: 1, output: 1, model: 'x' }]),
      InvalidValueError,
      't line 1: turns[0].model is not a known field',
    ],
    ['no prompt', task('a', [{ output: 1 }]), InvalidTypeError, 't line 1: turns[0].prompt must be given'],
    ['no output', task('a', [{ prompt: 1 }]), InvalidTypeError, 't line 1: turns[0].output must be given'],
    [
      'a string prompt',
      task('a', [{ prompt: '1', output: 1 }]),
      InvalidTypeError,
      't line 1: turns[0].prompt must be a number',
    ],
    [
      'a zero output',
      task('a', [turn(5, 0)]),
      InvalidValueError,
      `t line 1: turns[0].output must be an integer from 1 to ${MAX_TRACE_TOKENS}`,
    ],
    [
      'a fractional prompt',
      task('a', [turn(5.5, 1)]),
      InvalidValueError,
      't line 1: turns[0].prompt must be an integer from 1',
    ],
    [
      'a prompt over the limit',
      task('a', [turn(MAX_TRACE_TOKENS + 1, 1)]),
      InvalidValueError,
      't line 1: turns[0].prompt must be an integer from 1',
    ],
    [
      'a middle turn without a tool',
      task('a', [turn(5, 1), turn(9, 1)]),
      InvalidTypeError,
      't line 1: turns[0].tool must be given (every turn but the last is followed by a tool call)',
    ],
    [
      'a tool without a duration',
      task('a', [{ prompt: 5, output: 1, tool: 'bash' }, turn(9, 1)]),
      InvalidTypeError,
      't line 1: turns[0].duration must be given',
    ],
    [
      'a tool on the last turn',
      task('a', [turn(5, 1, 'bash', 1)]),
      InvalidValueError,
      't line 1: turns[0].tool is not allowed on the last turn (no tool call follows it)',
    ],
    [
      'a command on the last turn',
      task('a', [{ prompt: 5, output: 1, command: 'ls' }]),
      InvalidValueError,
      't line 1: turns[0].command is not allowed on the last turn',
    ],
    [
      'a numeric tool',
      task('a', [turn(5, 1, 7 as unknown as string, 1), turn(9, 1)]),
      InvalidTypeError,
      't line 1: turns[0].tool must be a string',
    ],
    [
      'a negative duration',
      task('a', [turn(5, 1, 'bash', -1), turn(9, 1)]),
      InvalidValueError,
      't line 1: turns[0].duration must be a number of seconds from 0 to 86400',
    ],
    [
      'a duration over a day',
      task('a', [turn(5, 1, 'bash', MAX_TRACE_SECONDS + 1), turn(9, 1)]),
      InvalidValueError,
      't line 1: turns[0].duration must be a number of seconds',
    ],
    [
      'a command over the length limit',
      task('a', [{ ...turn(5, 1, 'bash', 1), command: 'x'.repeat(16_001) }, turn(9, 1)]),
      InvalidValueError,
      't line 1: turns[0].command must have at most 16000 characters (has 16001)',
    ],
    [
      'a numeric command',
      task('a', [{ ...turn(5, 1, 'bash', 1), command: 3 }, turn(9, 1)]),
      InvalidTypeError,
      't line 1: turns[0].command must be a string',
    ],
    [
      'a negative deadline',
      task('a', [{ ...turn(5, 1, 'bash', 1), deadline: -2 }, turn(9, 1)]),
      InvalidValueError,
      't line 1: turns[0].deadline must be a number of seconds',
    ],
    [
      'a compacted first turn',
      task('a', [{ prompt: 5, output: 1, compacted: true }]),
      InvalidValueError,
      't line 1: turns[0].compacted is only for a turn after a tool call',
    ],
    [
      'a string compacted',
      task('a', [turn(5, 1, 'bash', 1), { prompt: 9, output: 1, compacted: 'yes' }]),
      InvalidTypeError,
      't line 1: turns[1].compacted must be a boolean',
    ],
    [
      'a prompt that shrinks without a compaction',
      task('a', [turn(1000, 100, 'bash', 1), turn(1099, 1)]),
      InvalidValueError,
      't line 1: turns[1].prompt (1099) is below the previous prompt plus its output (1100): mark the turn "compacted": true if the context was replaced',
    ],
  ];
  it.each(bad)('refuses %s, naming the line and field', (_label, text, cls, message) => {
    let err: unknown;
    try {
      parseTrace(text, 't');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(cls);
    expect((err as Error).message).toContain(message);
  });
});

describe('trace replay', () => {
  it('replays the trace a generated run wrote to the same runs, bit for bit', async () => {
    for (const [setting, policies] of [
      [SETTINGS['ds-16']!, ['round-robin', 'tao'] as const],
      // Claude-Code-like tasks compact their context: the replay must too.
      [
        parseSetting({
          name: 'cc',
          extends: 'qwen-96',
          workers: 8,
          nodes: [{ id: 'a', capacity: 200_000 }],
          workload: 'claude-code',
        }),
        ['cache-aware', 'tao'] as const,
      ],
    ] as const) {
      const tasks = 24;
      const seed = 3;
      const generated = await simulate({ setting, policies, seeds: [seed], mode: { tasks } });
      const text = [...generatedTraceLines(setting.workload, seed, tasks)].join('');
      const trace = parseTrace(text, 'generated');
      if (setting.name === 'cc') expect(trace.tasks.some((t) => t.compactTo.some((c) => c >= 0))).toBe(true);
      const replayed = await simulate({ setting, policies, seeds: [seed], trace });
      expect(replayed.runs.every((r) => r.profile === 'trace generated')).toBe(true);
      expect(runsOf(replayed)).toBe(runsOf(generated));
      expect(JSON.stringify(replayed.summary)).toBe(JSON.stringify(generated.summary));
    }
  });

  it('starts a task no earlier than its arrival and measures its latency from there', async () => {
    const one = (arrival?: number): string =>
      task('a', [turn(1000, 100, 'bash', 2), turn(1300, 50)], arrival === undefined ? {} : { arrival });
    const at0 = await simulate({ setting: 'ds-16', policies: ['round-robin'], trace: parseTrace(one()) });
    const at100 = await simulate({ setting: 'ds-16', policies: ['round-robin'], trace: parseTrace(one(100)) });
    const m0 = at0.runs[0]!.metrics;
    const m100 = at100.runs[0]!.metrics;
    expect(m0.makespan).toBeLessThan(100);
    expect(m100.makespan!).toBeGreaterThan(100);
    expect(m100.latencyMean).toBeCloseTo(m100.makespan! - 100, 9);
  });

  it('refuses a trace whose largest turn does not fit a node, more seeds than one, more tasks than it has', async () => {
    const big = parseTrace(task('a', [turn(900_000, 100)]), 'big.jsonl');
    await expect(simulate({ setting: 'ds-16', policies: ['round-robin'], trace: big })).rejects.toThrow(
      /^big\.jsonl line 1: turns\[0\] needs 900100 tokens \(prompt \+ output\), and with the reserve 512 and one block \d+: more than node "[^"]+" of ds-16 holds/,
    );
    const small = parseTrace(good);
    await expect(
      simulate({ setting: 'ds-16', policies: ['round-robin'], trace: small, seeds: [1, 2] }),
    ).rejects.toThrow('seeds must be a single seed with a trace');
    await expect(
      simulate({ setting: 'ds-16', policies: ['round-robin'], trace: small, mode: { tasks: 2 } }),
    ).rejects.toThrow('mode.tasks (2) is more than the 1 tasks of trace');
    await expect(
      simulate({ setting: 'ds-16', policies: ['round-robin'], trace: small, mode: { duration: 50 } }),
    ).rejects.toThrow('mode must be { tasks } with a trace');
  });
});

describe('tao simulate --trace and --write-trace', () => {
  it('writes the generated tasks as a trace and replays it to the same runs', async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const dir = mkdtempSync(join(tmpdir(), 'tao-trace-'));
    const tracePath = join(dir, 't.jsonl');
    const gen = join(dir, 'g.json');
    const rep = join(dir, 'r.json');
    const common = ['--setting', 'ds-16', '--policy', 'round-robin', '--jobs', '1'];
    expect(
      await simulateCmd([...common, '--tasks', '12', '--seeds', '1', '--write-trace', tracePath, '--json', gen]),
    ).toBe(0);
    expect(readFileSync(tracePath, 'utf8').trim().split('\n')).toHaveLength(12);
    expect(await simulateCmd([...common, '--trace', tracePath, '--json', rep])).toBe(0);
    const g = JSON.parse(readFileSync(gen, 'utf8')) as SimulationReport;
    const r = JSON.parse(readFileSync(rep, 'utf8')) as SimulationReport;
    expect(r.trace).toEqual({ name: tracePath, tasks: 12, toolNames: expect.any(Array) });
    expect(runsOf(r)).toBe(runsOf(g));
  });

  it('refuses the flags a trace cannot be combined with, naming them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tao-trace-'));
    const file = join(dir, 't.jsonl');
    writeFileSync(file, good + '\n');
    const cases: [string[], string][] = [
      [['--seeds', '3'], '--seeds must be a single seed with --trace'],
      [['--duration', '100'], '--duration cannot be used with --trace'],
      [['--workload', 'claude-code'], '--trace replaces the workload profile: drop --workload'],
      [['--tasks', '2'], `--tasks 2 is more than the 1 tasks of ${file}`],
      [
        ['--write-trace', join(dir, 'x.jsonl')],
        '--write-trace writes the tasks a profile draws: it cannot be combined with --trace',
      ],
    ];
    for (const [flags, message] of cases) {
      await expect(simulateCmd(['--trace', file, '--setting', 'ds-16', ...flags])).rejects.toThrow(message);
    }
    writeFileSync(file, `${good}\n{"id": "b", "turns": [{"prompt": 1, "output": -1}]}\n`);
    await expect(simulateCmd(['--trace', file])).rejects.toThrow(
      `${file} line 2: turns[0].output must be an integer from 1 to`,
    );
  });
});
