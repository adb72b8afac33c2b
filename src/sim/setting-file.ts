/**
 * Settings from JSON (a `--setting-file`): parsing with field-by-field validation, `extends` of a named
 * setting or profile, and the cross-field checks every setting (built-in or custom) must pass.
 *
 * A file either describes a whole setting, or starts from a named one and overrides fields:
 *
 *     { "name": "ds-64-tight", "extends": "ds-64", "nodes": [{ "id": "a", "capacity": 120000 },
 *       { "id": "b", "capacity": 120000 }], "engine": { "stepBase": 0.012 },
 *       "workload": { "extends": "claude-code", "turns": { "kind": "lognormal", "median": 30, "sigma": 0.5, "max": 200 } } }
 *
 * `engine` and `workload` objects are merged field by field over their base; `nodes` and `tools` replace
 * the base's list. Errors are InvalidTypeError / InvalidValueError naming the field (`setting.nodes[1].capacity`).
 */
import { anObject, isRecord, ownValue } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { readTextFile } from '../input.js';
import { MAX_NODES, MAX_SESSIONS } from '../limits.js';
import { type Dist, upperBound, validateDist } from './dist.js';
import { MAX_SIM_TASKS } from './run-limits.js';
import type { EngineModel } from './engine.js';
import { SETTINGS, SETTING_NAMES, type NodeSpec, type SimSetting } from './settings.js';
import {
  type ContextLimitAction,
  type DeadlineExposure,
  type ToolKind,
  WORKLOAD_PROFILES,
  type WorkloadProfile,
} from './workload.js';

/** Reserve of the largest built-in admission weight (TAO's 512): every session must fit a node with it. */
export const MAX_BUILTIN_RESERVE = 512;

function rejectUnknown(obj: Record<string, unknown>, known: readonly string[], path: string): void {
  for (const key of Object.keys(obj)) {
    if (!known.includes(key)) throw new InvalidValueError(`${path}.${key} is not a known field`);
  }
}

function str(x: unknown, path: string): string {
  if (typeof x !== 'string') throw new InvalidTypeError(`${path} must be a string`);
  if (x.length === 0) throw new InvalidValueError(`${path} must be a non-empty string`);
  return x;
}

function num(x: unknown, path: string): number {
  if (typeof x !== 'number') throw new InvalidTypeError(`${path} must be a number`);
  if (!Number.isFinite(x)) throw new InvalidValueError(`${path} must be a finite number`);
  return x;
}

function positive(x: unknown, path: string): number {
  const v = num(x, path);
  if (v <= 0) throw new InvalidValueError(`${path} must be > 0`);
  return v;
}

function nonNegative(x: unknown, path: string): number {
  const v = num(x, path);
  if (v < 0) throw new InvalidValueError(`${path} must be >= 0`);
  return v;
}

function positiveInt(x: unknown, path: string, max = Number.MAX_SAFE_INTEGER): number {
  const v = num(x, path);
  if (!Number.isInteger(v) || v < 1 || v > max)
    throw new InvalidValueError(`${path} must be an integer from 1 to ${max}`);
  return v;
}

/** A built-in setting by name; InvalidValueError listing the names otherwise. */
export function namedSetting(name: string, path = 'setting'): SimSetting {
  const s = ownValue(SETTINGS, name);
  if (s === undefined)
    throw new InvalidValueError(`${path} must be one of ${SETTING_NAMES.join(', ')} (got "${name}")`);
  return s;
}

const ENGINE_KEYS = [
  'name',
  'blockSize',
  'stepBase',
  'stepPerSeq',
  'stepPerKToken',
  'prefillPerKToken',
  'prefillChunk',
  'requestOverhead',
] as const;

function parseEngine(x: unknown, base: EngineModel | undefined, path: string): EngineModel {
  if (!isRecord(x)) throw new InvalidTypeError(`${path} must be ${anObject(x)}`);
  rejectUnknown(x, ENGINE_KEYS, path);
  const pick = <K extends (typeof ENGINE_KEYS)[number]>(key: K): unknown => {
    if (x[key] !== undefined) return x[key];
    if (base !== undefined) return base[key];
    throw new InvalidTypeError(`${path}.${key} must be given (no base setting to take it from)`);
  };
  return {
    name: str(pick('name'), `${path}.name`),
    blockSize: positiveInt(pick('blockSize'), `${path}.blockSize`, 1 << 20),
    stepBase: positive(pick('stepBase'), `${path}.stepBase`),
    stepPerSeq: nonNegative(pick('stepPerSeq'), `${path}.stepPerSeq`),
    stepPerKToken: nonNegative(pick('stepPerKToken'), `${path}.stepPerKToken`),
    prefillPerKToken: positive(pick('prefillPerKToken'), `${path}.prefillPerKToken`),
    prefillChunk: positiveInt(pick('prefillChunk'), `${path}.prefillChunk`, 1 << 24),
    requestOverhead: nonNegative(pick('requestOverhead'), `${path}.requestOverhead`),
  };
}

const TOOL_KEYS = [
  'label',
  'name',
  'weight',
  'duration',
  'timeout',
  'deadline',
  'etaJitter',
  'command',
  'sleep',
] as const;
const DEADLINES: readonly DeadlineExposure[] = ['none', 'eta', 'timeout'];

function parseTool(x: unknown, path: string): ToolKind {
  if (!isRecord(x)) throw new InvalidTypeError(`${path} must be ${anObject(x)}`);
  rejectUnknown(x, TOOL_KEYS, path);
  const timeout = x.timeout === undefined || x.timeout === null ? null : positive(x.timeout, `${path}.timeout`);
  let deadline: DeadlineExposure = 'none';
  if (x.deadline !== undefined) {
    const d = str(x.deadline, `${path}.deadline`);
    if (!(DEADLINES as readonly string[]).includes(d)) {
      throw new InvalidValueError(`${path}.deadline must be one of ${DEADLINES.join(', ')}`);
    }
    deadline = d as DeadlineExposure;
  }
  if (deadline === 'timeout' && timeout === null) {
    throw new InvalidValueError(`${path}.deadline is "timeout" but ${path}.timeout is not set`);
  }
  return {
    label: str(x.label, `${path}.label`),
    name: str(x.name, `${path}.name`),
    weight: nonNegative(x.weight, `${path}.weight`),
    duration: validateDist(x.duration, `${path}.duration`),
    timeout,
    deadline,
    etaJitter: x.etaJitter === undefined ? 0 : nonNegative(x.etaJitter, `${path}.etaJitter`),
    command: x.command === undefined || x.command === null ? null : str(x.command, `${path}.command`),
    sleep: x.sleep === undefined || x.sleep === null ? null : validateDist(x.sleep, `${path}.sleep`),
  };
}

const WORKLOAD_KEYS = [
  'extends',
  'name',
  'description',
  'initialTokens',
  'turns',
  'output',
  'resultMedianFirst',
  'resultMedianLate',
  'resultDecayTurns',
  'resultSigma',
  'resultMax',
  'contextLimit',
  'onContextLimit',
  'compactTo',
  'tools',
] as const;

function parseWorkload(x: unknown, base: WorkloadProfile | undefined, path: string): WorkloadProfile {
  if (typeof x === 'string') {
    const p = ownValue(WORKLOAD_PROFILES, x);
    if (p === undefined) {
      throw new InvalidValueError(`${path} must be one of ${Object.keys(WORKLOAD_PROFILES).join(', ')} (got "${x}")`);
    }
    return p;
  }
  if (!isRecord(x)) throw new InvalidTypeError(`${path} must be a profile name or ${anObject(x)}`);
  rejectUnknown(x, WORKLOAD_KEYS, path);
  let from = base;
  if (x.extends !== undefined) {
    const name = str(x.extends, `${path}.extends`);
    from = ownValue(WORKLOAD_PROFILES, name);
    if (from === undefined) {
      throw new InvalidValueError(
        `${path}.extends must be one of ${Object.keys(WORKLOAD_PROFILES).join(', ')} (got "${name}")`,
      );
    }
  }
  const pick = (key: Exclude<(typeof WORKLOAD_KEYS)[number], 'extends'>): unknown => {
    if (x[key] !== undefined) return x[key];
    if (from !== undefined) return from[key];
    throw new InvalidTypeError(`${path}.${key} must be given (no base profile to take it from)`);
  };
  const action = str(pick('onContextLimit'), `${path}.onContextLimit`);
  if (action !== 'end' && action !== 'compact')
    throw new InvalidValueError(`${path}.onContextLimit must be "end" or "compact"`);
  const toolsRaw = pick('tools');
  if (!Array.isArray(toolsRaw)) throw new InvalidTypeError(`${path}.tools must be an array`);
  const tools = toolsRaw.map((t, i) => parseTool(t, `${path}.tools[${i}]`));
  const dist = (key: 'initialTokens' | 'turns' | 'output' | 'compactTo'): Dist =>
    validateDist(pick(key), `${path}.${key}`);
  return {
    name: str(pick('name'), `${path}.name`),
    description: str(pick('description'), `${path}.description`),
    initialTokens: dist('initialTokens'),
    turns: dist('turns'),
    output: dist('output'),
    resultMedianFirst: positive(pick('resultMedianFirst'), `${path}.resultMedianFirst`),
    resultMedianLate: positive(pick('resultMedianLate'), `${path}.resultMedianLate`),
    resultDecayTurns: positive(pick('resultDecayTurns'), `${path}.resultDecayTurns`),
    resultSigma: nonNegative(pick('resultSigma'), `${path}.resultSigma`),
    resultMax: nonNegative(pick('resultMax'), `${path}.resultMax`),
    contextLimit: positiveInt(pick('contextLimit'), `${path}.contextLimit`),
    onContextLimit: action as ContextLimitAction,
    compactTo: dist('compactTo'),
    tools,
  };
}

function parseNodes(x: unknown, path: string): NodeSpec[] {
  if (!Array.isArray(x)) throw new InvalidTypeError(`${path} must be an array`);
  return x.map((n: unknown, i) => {
    const p = `${path}[${i}]`;
    if (!isRecord(n)) throw new InvalidTypeError(`${p} must be ${anObject(n)}`);
    rejectUnknown(n, ['id', 'capacity', 'reportedCapacity'], p);
    const node = { id: str(n.id, `${p}.id`), capacity: positiveInt(n.capacity, `${p}.capacity`) };
    if (n.reportedCapacity === undefined) return node;
    const reported = positiveInt(n.reportedCapacity, `${p}.reportedCapacity`);
    if (reported > node.capacity)
      throw new InvalidValueError(
        `${p}.reportedCapacity must be at most ${p}.capacity (${node.capacity}), got ${reported}`,
      );
    return { ...node, reportedCapacity: reported };
  });
}

const SETTING_KEYS = ['name', 'description', 'extends', 'workers', 'tasks', 'nodes', 'engine', 'workload'] as const;

/** Parses a setting object (from JSON) and checks it with `validateSetting`. */
export function parseSetting(x: unknown, path = 'setting'): SimSetting {
  if (!isRecord(x)) throw new InvalidTypeError(`${path} must be ${anObject(x)}`);
  rejectUnknown(x, SETTING_KEYS, path);
  const base = x.extends === undefined ? undefined : namedSetting(str(x.extends, `${path}.extends`), `${path}.extends`);
  const need = (key: 'workers' | 'tasks' | 'nodes' | 'engine' | 'workload'): unknown => {
    if (x[key] !== undefined) return x[key];
    if (base !== undefined) return base[key];
    throw new InvalidTypeError(`${path}.${key} must be given (no "extends" to take it from)`);
  };
  const name = str(x.name, `${path}.name`);
  const engineRaw = x.engine === undefined ? base?.engine : x.engine;
  const setting: SimSetting = {
    name,
    description: x.description === undefined ? `custom setting ${name}` : str(x.description, `${path}.description`),
    workers: positiveInt(need('workers'), `${path}.workers`, MAX_SESSIONS),
    tasks: positiveInt(need('tasks'), `${path}.tasks`, MAX_SIM_TASKS),
    nodes: x.nodes === undefined && base !== undefined ? base.nodes : parseNodes(need('nodes'), `${path}.nodes`),
    engine:
      x.engine === undefined && base !== undefined
        ? base.engine
        : parseEngine(engineRaw ?? need('engine'), base?.engine, `${path}.engine`),
    workload:
      x.workload === undefined && base !== undefined
        ? base.workload
        : parseWorkload(need('workload'), base?.workload, `${path}.workload`),
  };
  validateSetting(setting, path);
  return setting;
}

/** Reads (at most MAX_INPUT_BYTES) and parses a setting file. */
export async function loadSettingFile(file: string): Promise<SimSetting> {
  const text = await readTextFile(file);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new InvalidValueError(`${file} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parseSetting(json, 'setting');
}

/**
 * Cross-field checks: what makes a run impossible or ill-defined rather than just unusual.
 * - Every node must fit the largest session the workload can produce with the largest built-in reserve
 *   and its KV for the request's output: otherwise that session could never run and a fixed-count run
 *   would never end.
 * - Distributions that size contexts must be bounded for the same reason.
 */
export function validateSetting(s: SimSetting, path = 'setting'): void {
  if (s.nodes.length === 0) throw new InvalidValueError(`${path}.nodes must have at least one node`);
  if (s.nodes.length > MAX_NODES) throw new InvalidValueError(`${path}.nodes must have at most ${MAX_NODES} nodes`);
  // Every worker's session can wait at once: a snapshot must be able to hold them all.
  if (!Number.isInteger(s.workers) || s.workers < 1 || s.workers > MAX_SESSIONS) {
    throw new InvalidValueError(`${path}.workers must be an integer from 1 to ${MAX_SESSIONS}`);
  }
  const ids = new Set<string>();
  s.nodes.forEach((n, i) => {
    if (ids.has(n.id)) throw new InvalidValueError(`${path}.nodes[${i}].id duplicates node "${n.id}"`);
    ids.add(n.id);
  });
  const w = s.workload;
  const wp = `${path}.workload`;
  const outMax = upperBound(w.output);
  if (!Number.isFinite(outMax)) throw new InvalidValueError(`${wp}.output must have a finite max (a max_tokens)`);
  if (!Number.isFinite(upperBound(w.turns)) || upperBound(w.turns) > 100_000) {
    throw new InvalidValueError(`${wp}.turns must have a finite max of at most 100000`);
  }
  if (upperBound(w.initialTokens) > w.contextLimit) {
    throw new InvalidValueError(
      `${wp}.initialTokens must have a max of at most ${wp}.contextLimit (${w.contextLimit})`,
    );
  }
  if (w.onContextLimit === 'compact' && upperBound(w.compactTo) > w.contextLimit) {
    throw new InvalidValueError(`${wp}.compactTo must have a max of at most ${wp}.contextLimit (${w.contextLimit})`);
  }
  if (w.tools.length === 0) throw new InvalidValueError(`${wp}.tools must have at least one tool kind`);
  if (w.tools.reduce((a, t) => a + t.weight, 0) <= 0)
    throw new InvalidValueError(`${wp}.tools weights must not all be 0`);
  const labels = new Set<string>();
  w.tools.forEach((t, i) => {
    if (labels.has(t.label)) throw new InvalidValueError(`${wp}.tools[${i}].label duplicates "${t.label}"`);
    labels.add(t.label);
  });
  const largest = w.contextLimit + Math.round(outMax) + MAX_BUILTIN_RESERVE + s.engine.blockSize;
  // An issued request's prompt is at most contextLimit (the agent stops or compacts first), so a scheduler
  // counting against the reported capacity can always seat it; a session whose tool still runs may hold its
  // output as well, and then waits for its tool's return.
  const largestIssued = w.contextLimit + MAX_BUILTIN_RESERVE + s.engine.blockSize;
  s.nodes.forEach((n, i) => {
    if (n.capacity < largest) {
      throw new InvalidValueError(
        `${path}.nodes[${i}].capacity must be at least ${largest} (contextLimit ${w.contextLimit} + output max ${Math.round(outMax)} + reserve ${MAX_BUILTIN_RESERVE} + one block), got ${n.capacity}`,
      );
    }
    if (n.reportedCapacity !== undefined && n.reportedCapacity < largestIssued) {
      throw new InvalidValueError(
        `${path}.nodes[${i}].reportedCapacity must be at least ${largestIssued} (contextLimit ${w.contextLimit} + reserve ${MAX_BUILTIN_RESERVE} + one block), got ${n.reportedCapacity}`,
      );
    }
  });
}
