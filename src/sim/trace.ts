/**
 * Recorded workloads: a trace is a JSONL file of agent tasks (one task per line, schemas/trace.schema.json)
 * that the simulator replays instead of drawing tasks from a workload profile, so that policies can be
 * compared on a user's own agents. Also the other direction: the tasks a profile draws, written as a trace
 * (a generated run and the replay of its trace give the same metrics, bit for bit).
 *
 * One line:
 *
 *     {"id": "django-11099", "arrival": 0,
 *      "turns": [{"prompt": 3512, "output": 431, "tool": "bash", "duration": 2.4, "command": "pytest -x"},
 *                {"prompt": 4700, "output": 288}]}
 *
 * Turn j is a model request whose prompt is the whole context (`prompt` tokens, of which the part cached on
 * the node is not prefilled again) and which decodes `output` tokens; every turn but the last is followed
 * by a tool call (`tool`, `duration` seconds, optional `command` and `deadline`: the seconds after the
 * call's start its interface exposes). The next prompt is this prompt, the output and the tool's result:
 * a smaller one is a compaction and must say so with `"compacted": true`. `arrival` (seconds from the
 * start) is when the task may start at the earliest; without it a task starts as soon as a worker is free.
 *
 * Errors are InvalidTypeError / InvalidValueError naming the line and the field
 * (`trace.jsonl line 3: turns[1].output must be an integer from 1 to 1073741824`).
 */
import { anObject, isRecord } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { checkCommand } from '../evaluate/validate-snapshot.js';
import { readTextFile } from '../input.js';
import { MAX_SIM_DURATION, MAX_SIM_TASKS } from './run-limits.js';
import { MAX_BUILTIN_RESERVE } from './setting-file.js';
import type { SimSetting } from './settings.js';
import { generateTask, type TaskSpec, type WorkloadProfile } from './workload.js';

/** Most bytes a trace file may hold: 64 MiB (~100k SWE-like tasks). */
export const MAX_TRACE_BYTES = 64 * 2 ** 20;
/** Largest prompt or output of one turn, tokens (2^30). */
export const MAX_TRACE_TOKENS = 2 ** 30;
/** Most turns of one task (the setting files' limit too). */
export const MAX_TRACE_TURNS = 100_000;
/**
 * Longest tool call, and longest wait between two arrivals (the first one from 0), seconds: one day. A run in which nothing
 * progresses for a day is stopped as stalled, so a longer one could not be replayed.
 */
export const MAX_TRACE_SECONDS = 86_400;
/** Longest tool name or task id, characters. */
export const MAX_TRACE_NAME = 256;

/** A trace ready to replay: its tasks as the simulator's task specs, tool kinds indexing `toolNames`. */
export interface Trace {
  /** What the reports call the workload (the file name). */
  readonly name: string;
  readonly ids: readonly string[];
  readonly tasks: readonly TaskSpec[];
  /** Earliest start of each task, seconds; NaN when the task has none. */
  readonly arrivals: Float64Array;
  /** Distinct tool names, in order of first use. */
  readonly toolNames: readonly string[];
  /** The largest prompt + output of any turn, and where it is (for the capacity check). */
  readonly largest: { readonly tokens: number; readonly line: number; readonly turn: number };
}

const TASK_KEYS: ReadonlySet<string> = new Set(['id', 'arrival', 'turns']);
const TURN_KEYS: ReadonlySet<string> = new Set([
  'prompt',
  'output',
  'tool',
  'duration',
  'command',
  'deadline',
  'compacted',
]);

function unknownKey(x: Record<string, unknown>, known: ReadonlySet<string>): string | undefined {
  return Object.keys(x).find((k) => !known.has(k));
}

function tokens(x: unknown, field: string, where: string): number {
  if (typeof x !== 'number') throw new InvalidTypeError(`${where}: ${field} must be a number`);
  if (!Number.isInteger(x) || x < 1 || x > MAX_TRACE_TOKENS)
    throw new InvalidValueError(`${where}: ${field} must be an integer from 1 to ${MAX_TRACE_TOKENS}`);
  return x;
}

function seconds(x: unknown, field: string, where: string, max = MAX_TRACE_SECONDS): number {
  if (typeof x !== 'number') throw new InvalidTypeError(`${where}: ${field} must be a number`);
  if (!(x >= 0 && x <= max))
    throw new InvalidValueError(`${where}: ${field} must be a number of seconds from 0 to ${max}`);
  return x;
}

function name(x: unknown, field: string, where: string): string {
  if (typeof x !== 'string') throw new InvalidTypeError(`${where}: ${field} must be a string`);
  if (x.length === 0 || x.length > MAX_TRACE_NAME)
    throw new InvalidValueError(`${where}: ${field} must have 1 to ${MAX_TRACE_NAME} characters`);
  return x;
}

/** Builds tasks line by line; `add` checks one parsed line. */
class TraceBuilder {
  readonly ids: string[] = [];
  readonly tasks: TaskSpec[] = [];
  readonly arrivals: number[] = [];
  readonly toolNames: string[] = [];
  private readonly toolIndex = new Map<string, number>();
  private readonly seen = new Map<string, number>();
  private lastArrival = 0;
  private lastArrivalLine = 0;
  largest = { tokens: 0, line: 0, turn: 0 };

  constructor(private readonly source: string) {}

  add(x: unknown, line: number): void {
    const where = `${this.source} line ${line}`;
    if (!isRecord(x)) throw new InvalidTypeError(`${where} must be ${anObject(x)} (one task per line)`);
    const extra = unknownKey(x, TASK_KEYS);
    if (extra !== undefined) throw new InvalidValueError(`${where}: ${extra} is not a known field`);
    if (this.tasks.length >= MAX_SIM_TASKS)
      throw new InvalidValueError(`${where}: a trace may hold at most ${MAX_SIM_TASKS} tasks`);
    if (x.id === undefined) throw new InvalidTypeError(`${where}: id must be given`);
    const id = name(x.id, 'id', where);
    const dup = this.seen.get(id);
    if (dup !== undefined) throw new InvalidValueError(`${where}: id "${id}" repeats the task of line ${dup}`);
    this.seen.set(id, line);
    let arrival = Number.NaN;
    if (x.arrival !== undefined) {
      arrival = seconds(x.arrival, 'arrival', where, MAX_SIM_DURATION);
      if (arrival < this.lastArrival) {
        throw new InvalidValueError(
          `${where}: arrival ${arrival} is before the arrival ${this.lastArrival} of line ${this.lastArrivalLine} (tasks start in file order)`,
        );
      }
      if (arrival - this.lastArrival > MAX_TRACE_SECONDS) {
        throw new InvalidValueError(
          `${where}: arrival is more than ${MAX_TRACE_SECONDS} s after the previous one (the run would stall)`,
        );
      }
      this.lastArrival = arrival;
      this.lastArrivalLine = line;
    }
    if (!Array.isArray(x.turns)) throw new InvalidTypeError(`${where}: turns must be an array`);
    const raw: unknown[] = x.turns;
    const n = raw.length;
    if (n < 1 || n > MAX_TRACE_TURNS)
      throw new InvalidValueError(`${where}: turns must have 1 to ${MAX_TRACE_TURNS} turns`);
    const output = new Int32Array(n);
    const toolKind = new Int16Array(n).fill(-1);
    const duration = new Float64Array(n);
    const result = new Int32Array(n);
    const deadline = new Float64Array(n).fill(Number.NaN);
    const command: (string | undefined)[] = new Array<string | undefined>(n).fill(undefined);
    const compactTo = new Int32Array(n).fill(-1);
    let initialTokens = 0;
    let context = 0;
    for (let j = 0; j < n; j++) {
      const t = raw[j];
      const f = `turns[${j}]`;
      if (!isRecord(t)) throw new InvalidTypeError(`${where}: ${f} must be ${anObject(t)}`);
      const bad = unknownKey(t, TURN_KEYS);
      if (bad !== undefined) throw new InvalidValueError(`${where}: ${f}.${bad} is not a known field`);
      if (t.prompt === undefined) throw new InvalidTypeError(`${where}: ${f}.prompt must be given`);
      if (t.output === undefined) throw new InvalidTypeError(`${where}: ${f}.output must be given`);
      const prompt = tokens(t.prompt, `${f}.prompt`, where);
      const out = tokens(t.output, `${f}.output`, where);
      if (t.compacted !== undefined && typeof t.compacted !== 'boolean')
        throw new InvalidTypeError(`${where}: ${f}.compacted must be a boolean`);
      const compacted = t.compacted === true;
      if (j === 0) {
        if (compacted) throw new InvalidValueError(`${where}: ${f}.compacted is only for a turn after a tool call`);
        initialTokens = prompt;
      } else if (compacted) {
        compactTo[j - 1] = prompt;
      } else {
        if (prompt < context) {
          throw new InvalidValueError(
            `${where}: ${f}.prompt (${prompt}) is below the previous prompt plus its output (${context}): mark the turn "compacted": true if the context was replaced`,
          );
        }
        result[j - 1] = prompt - context;
      }
      output[j] = out;
      context = prompt + out;
      if (context > this.largest.tokens) this.largest = { tokens: context, line, turn: j };
      const last = j === n - 1;
      if (last) {
        for (const k of ['tool', 'duration', 'command', 'deadline'] as const) {
          if (t[k] !== undefined)
            throw new InvalidValueError(
              `${where}: ${f}.${k} is not allowed on the last turn (no tool call follows it)`,
            );
        }
        continue;
      }
      if (t.tool === undefined)
        throw new InvalidTypeError(
          `${where}: ${f}.tool must be given (every turn but the last is followed by a tool call)`,
        );
      if (t.duration === undefined) throw new InvalidTypeError(`${where}: ${f}.duration must be given`);
      const tool = name(t.tool, `${f}.tool`, where);
      let kind = this.toolIndex.get(tool);
      if (kind === undefined) {
        if (this.toolNames.length >= 32_767)
          throw new InvalidValueError(`${where}: ${f}.tool: a trace may use at most 32767 tool names`);
        kind = this.toolNames.length;
        this.toolNames.push(tool);
        this.toolIndex.set(tool, kind);
      }
      toolKind[j] = kind;
      duration[j] = seconds(t.duration, `${f}.duration`, where);
      if (t.command !== undefined) command[j] = checkCommand(t.command, `${where}: ${f}`);
      if (t.deadline !== undefined) deadline[j] = seconds(t.deadline, `${f}.deadline`, where);
    }
    const index = this.tasks.length;
    this.ids.push(id);
    this.arrivals.push(arrival);
    this.tasks.push({
      index,
      initialTokens,
      turns: n,
      output,
      toolKind,
      duration,
      result,
      deadline,
      command,
      compactTo,
      endedBy: 'turns',
    });
  }
}

/** Parses a trace's text; `source` names it in messages and in reports. */
export function parseTrace(text: string, source = 'trace'): Trace {
  const b = new TraceBuilder(source);
  const lines = text.split('\n');
  // One final newline ends the last line; it does not open an empty one.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  lines.forEach((raw, i) => {
    const line = i + 1;
    const textLine = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (textLine.trim() === '')
      throw new InvalidValueError(`${source} line ${line} is empty (a trace has one task per line)`);
    let json: unknown;
    try {
      json = JSON.parse(textLine);
    } catch (err) {
      throw new InvalidValueError(
        `${source} line ${line} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    b.add(json, line);
  });
  if (b.tasks.length === 0) throw new InvalidValueError(`${source} has no tasks`);
  return {
    name: source,
    ids: b.ids,
    tasks: b.tasks,
    arrivals: Float64Array.from(b.arrivals),
    toolNames: b.toolNames,
    largest: b.largest,
  };
}

/** Reads (at most MAX_TRACE_BYTES) and parses a trace file. */
export async function loadTraceFile(file: string): Promise<Trace> {
  return parseTrace(await readTextFile(file, MAX_TRACE_BYTES), file);
}

/**
 * Refuses a trace whose largest turn cannot fit a node of `setting` (with the largest built-in reserve and
 * one block): that session could never run and the replay would never end.
 */
export function checkTraceFits(trace: Trace, setting: SimSetting): void {
  const need = trace.largest.tokens + MAX_BUILTIN_RESERVE + setting.engine.blockSize;
  const small = setting.nodes.find((n) => n.capacity < need);
  if (small !== undefined) {
    throw new InvalidValueError(
      `${trace.name} line ${trace.largest.line}: turns[${trace.largest.turn}] needs ${trace.largest.tokens} tokens (prompt + output), ` +
        `and with the reserve ${MAX_BUILTIN_RESERVE} and one block ${need}: more than node "${small.id}" of ${setting.name} holds (${small.capacity})`,
    );
  }
}

/** One task of a trace, as a JSON line's object. */
export interface TraceTaskJson {
  readonly id: string;
  readonly arrival?: number;
  readonly turns: readonly TraceTurnJson[];
}

export interface TraceTurnJson {
  readonly prompt: number;
  readonly output: number;
  readonly compacted?: true;
  readonly tool?: string;
  readonly duration?: number;
  readonly command?: string;
  readonly deadline?: number;
}

/** A task spec as a trace line's object; `toolName` maps its tool kinds to names. */
export function taskToTraceJson(
  task: TaskSpec,
  id: string,
  toolName: (kind: number) => string,
  arrival = Number.NaN,
): TraceTaskJson {
  const turns: TraceTurnJson[] = [];
  let prompt = task.initialTokens;
  let compacted = false;
  for (let j = 0; j < task.turns; j++) {
    const out = task.output[j]!;
    const kind = task.toolKind[j]!;
    const turn: { -readonly [K in keyof TraceTurnJson]: TraceTurnJson[K] } = { prompt, output: out };
    if (compacted) turn.compacted = true;
    if (kind >= 0) {
      turn.tool = toolName(kind);
      turn.duration = task.duration[j]!;
      const command = task.command[j];
      if (command !== undefined) turn.command = command;
      const deadline = task.deadline[j]!;
      if (!Number.isNaN(deadline)) turn.deadline = deadline;
    }
    turns.push(turn);
    const to = task.compactTo[j]!;
    compacted = to >= 0;
    prompt = compacted ? to : prompt + out + task.result[j]!;
  }
  return Number.isNaN(arrival) ? { id, turns } : { id, arrival, turns };
}

/**
 * The first `count` tasks `profile` draws for `seed`, as trace lines (each ending in a newline): the
 * trace a generated run replays from. Lazy, so a large trace is written without holding it.
 */
export function* generatedTraceLines(profile: WorkloadProfile, seed: number, count: number): Generator<string> {
  const toolName = (kind: number): string => profile.tools[kind]!.name;
  for (let i = 0; i < count; i++) {
    yield JSON.stringify(taskToTraceJson(generateTask(profile, seed, i), `seed${seed}-task${i}`, toolName)) + '\n';
  }
}
