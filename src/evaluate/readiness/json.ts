/**
 * The persisted form of a ReadinessPredictor and its validation on restore. Everything is checked before
 * anything is built: a JSON that fails here never yields a half-restored predictor.
 */
import { InvalidTypeError, InvalidValueError } from '../../errors.js';
import { resolvePredictorOptions, type PredictorOptions, type ResolvedPredictorOptions } from './options.js';
import { finite, integerIn, anObject, isRecord, nonEmptyString, rejectUnknownKeys } from '../../checks.js';

/** Tag of the persisted form. */
export const PREDICTOR_JSON_FORMAT = 'tao-readiness-predictor';
/** Version of the persisted form. */
export const PREDICTOR_JSON_VERSION = 1;

/** One duration history. */
export interface HistoryJSON {
  /** Kept durations in seconds, oldest first. */
  durations: number[];
  /** Latest `returnedAt` among its samples; null when it has none. */
  lastSampleAt: number | null;
}

/** One tool's history. */
export interface ToolHistoryJSON extends HistoryJSON {
  name: string;
}

/** The probe state of one overdue call. */
export interface ProbeJSON {
  /** The key of the call's state: the session it was queried with, else built from name and start. */
  key: string;
  /** The call: tool name and start time. */
  name: string;
  startedAt: number;
  /** Probes given so far. */
  count: number;
  /** When the latest probe opened. */
  openedAt: number;
  /** When the latest probe closes. */
  until: number;
  /** The pushed-out completion estimate: no further probe before it. */
  next: number;
}

/** What `ReadinessPredictor.toJSON()` returns and `fromJSON` reads. */
export interface PredictorJSON {
  format: typeof PREDICTOR_JSON_FORMAT;
  version: typeof PREDICTOR_JSON_VERSION;
  options: ResolvedPredictorOptions;
  /** Per-tool histories, least recently observed first (the eviction order). */
  tools: ToolHistoryJSON[];
  global: HistoryJSON;
  /** Probe states, least recently probed first (the eviction order). */
  probes: ProbeJSON[];
}

const KEYS: ReadonlySet<string> = new Set(['format', 'version', 'options', 'tools', 'global', 'probes']);
const TOOL_KEYS: ReadonlySet<string> = new Set(['name', 'durations', 'lastSampleAt']);
const HISTORY_KEYS: ReadonlySet<string> = new Set(['durations', 'lastSampleAt']);
const PROBE_KEYS: ReadonlySet<string> = new Set(['key', 'name', 'startedAt', 'count', 'openedAt', 'until', 'next']);

function durations(x: unknown, path: string, min: number, max: number): number[] {
  if (!Array.isArray(x)) throw new InvalidTypeError(`${path} must be an array`);
  if (x.length < min || x.length > max) {
    throw new InvalidValueError(`${path} must have from ${min} to ${max} entries (has ${x.length})`);
  }
  const out: number[] = [];
  for (let i = 0; i < x.length; i++) {
    const d = finite(x[i], `${path}[${i}]`);
    if (d < 0) throw new InvalidValueError(`${path}[${i}] must be a non-negative duration`);
    out.push(d);
  }
  return out;
}

function lastSampleAt(x: unknown, path: string, empty: boolean): number | null {
  if (x === null) {
    if (!empty) throw new InvalidValueError(`${path} must be a finite number when there are durations`);
    return null;
  }
  const t = finite(x, path);
  if (empty) throw new InvalidValueError(`${path} must be null when there are no durations`);
  return t;
}

/** Checks a persisted predictor; returns it with options resolved. */
export function parsePredictorJSON(json: unknown, path = 'json'): PredictorJSON {
  if (!isRecord(json)) throw new InvalidTypeError(`${path} must be ${anObject(json)}`);
  rejectUnknownKeys(json, KEYS, path);
  if (json.format !== PREDICTOR_JSON_FORMAT) {
    throw new InvalidValueError(`${path}.format must be "${PREDICTOR_JSON_FORMAT}"`);
  }
  if (json.version !== PREDICTOR_JSON_VERSION) {
    throw new InvalidValueError(`${path}.version must be ${PREDICTOR_JSON_VERSION}`);
  }
  if (!isRecord(json.options)) throw new InvalidTypeError(`${path}.options must be ${anObject(json.options)}`);
  const options = resolvePredictorOptions(json.options as PredictorOptions, `${path}.options`);

  if (!Array.isArray(json.tools)) throw new InvalidTypeError(`${path}.tools must be an array`);
  if (json.tools.length > options.maxTools) {
    throw new InvalidValueError(
      `${path}.tools must have at most ${options.maxTools} entries (has ${json.tools.length})`,
    );
  }
  const names = new Set<string>();
  const tools: ToolHistoryJSON[] = [];
  for (let i = 0; i < json.tools.length; i++) {
    const p = `${path}.tools[${i}]`;
    const t: unknown = json.tools[i];
    if (!isRecord(t)) throw new InvalidTypeError(`${p} must be ${anObject(t)}`);
    rejectUnknownKeys(t, TOOL_KEYS, p);
    const name = nonEmptyString(t.name, `${p}.name`);
    if (names.has(name)) throw new InvalidValueError(`${p}.name duplicates tool "${name}"`);
    names.add(name);
    // A tool enters the history with its first sample, so an empty one cannot have been persisted.
    const d = durations(t.durations, `${p}.durations`, 1, options.window);
    tools.push({ name, durations: d, lastSampleAt: lastSampleAt(t.lastSampleAt, `${p}.lastSampleAt`, false) });
  }

  const g: unknown = json.global;
  if (!isRecord(g)) throw new InvalidTypeError(`${path}.global must be ${anObject(g)}`);
  rejectUnknownKeys(g, HISTORY_KEYS, `${path}.global`);
  const gd = durations(g.durations, `${path}.global.durations`, 0, options.globalWindow);
  const global: HistoryJSON = {
    durations: gd,
    lastSampleAt: lastSampleAt(g.lastSampleAt, `${path}.global.lastSampleAt`, gd.length === 0),
  };

  if (!Array.isArray(json.probes)) throw new InvalidTypeError(`${path}.probes must be an array`);
  if (json.probes.length > options.maxProbedCalls) {
    throw new InvalidValueError(
      `${path}.probes must have at most ${options.maxProbedCalls} entries (has ${json.probes.length})`,
    );
  }
  const keys = new Set<string>();
  const probes: ProbeJSON[] = [];
  for (let i = 0; i < json.probes.length; i++) {
    const p = `${path}.probes[${i}]`;
    const s: unknown = json.probes[i];
    if (!isRecord(s)) throw new InvalidTypeError(`${p} must be ${anObject(s)}`);
    rejectUnknownKeys(s, PROBE_KEYS, p);
    if (typeof s.key !== 'string') throw new InvalidTypeError(`${p}.key must be a string`);
    if (keys.has(s.key)) throw new InvalidValueError(`${p}.key duplicates a probed call`);
    keys.add(s.key);
    const name = nonEmptyString(s.name, `${p}.name`);
    const startedAt = finite(s.startedAt, `${p}.startedAt`);
    const count = integerIn(s.count, `${p}.count`, 1, options.maxProbes, `an integer from 1 to ${options.maxProbes}`);
    const openedAt = finite(s.openedAt, `${p}.openedAt`);
    // A probe opens when an overdue call is queried, so never before the call started.
    if (openedAt < startedAt) throw new InvalidValueError(`${p}.openedAt must not be before ${p}.startedAt`);
    const until = finite(s.until, `${p}.until`);
    if (until <= openedAt) throw new InvalidValueError(`${p}.until must be after ${p}.openedAt`);
    const next = finite(s.next, `${p}.next`);
    if (next < until) throw new InvalidValueError(`${p}.next must not be before ${p}.until`);
    probes.push({ key: s.key, name, startedAt, count, openedAt, until, next });
  }
  return { format: PREDICTOR_JSON_FORMAT, version: PREDICTOR_JSON_VERSION, options, tools, global, probes };
}
