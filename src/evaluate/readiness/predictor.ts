/**
 * Tool-return readiness r (paper section 3.2): will a session's tool call return within the horizon H?
 *
 * Evidence, most trusted first; the first that applies gives the predicted total duration D:
 * 1. `returned`: the call has returned; r = 1 whatever any prediction says.
 * 2. `deadline`: an end time the tool interface exposes; D = deadline - startedAt. When both a deadline
 *    and a progress are given, the deadline wins: it is stated, the progress ETA is extrapolated.
 * 3. `progress`: a fraction p > 0 of the work done, reported at `reportedAt` (absent: now). The ETA
 *    extrapolates the average rate since the start: D = (reportedAt - startedAt) / p. p = 0 (or a p so
 *    small that D overflows) gives no ETA and falls through.
 * 4. `sleep`: the `sleep N` seconds parsed from the command line (see `parseSleep`); D = N.
 * 5. `tool-history`: the empirical Bernstein bound over this tool's last `window` durations, once it has
 *    `minSamples`.
 * 6. `global-history`: the same bound over the last `globalWindow` durations of all tools.
 * 7. `default`: D = `defaultDuration` (5 s).
 * Remaining time: max(0, startedAt + D - now).
 *
 * Freshness: the prediction is refreshed when the evidence behind it last changed. For a deadline, when
 * it was reported (`reportedAt`, else `startedAt`); for progress, when it was reported (`reportedAt`,
 * else now); for a sleep or the default, `startedAt` (the command is fixed at launch); for a history, the
 * later of `startedAt` and the history's last sample (`returnedAt` of its most recent observation). A
 * not-yet-overdue call is ready iff startedAt + D <= now + H and now - refreshed <= `freshness`.
 *
 * Probes: once now >= startedAt + D and the call has not returned, the first `ready()` query opens a probe:
 * r = 1 until now + `probeWindow` (default H: one scheduling period). When it closes, r = 0 and the
 * completion estimate is pushed out to double the elapsed time at that instant; the next probe opens at
 * the first query at or after that estimate. A call gets at most `maxProbes` probes, then stays r = 0
 * until it returns. So the time an overdue call spends ready is at most maxProbes * probeWindow, however
 * often its evidence changes. Probe states are kept for the last `maxProbedCalls` probed calls, keyed by
 * the `session` passed with the query (a session runs one call at a time: its next call replaces the
 * state) or, without one, by (name, startedAt); `observe` and a returned query drop a call's state.
 *
 * Memory is bounded: `window` durations per tool, `maxTools` tools (least recently observed evicted),
 * `globalWindow` global durations and `maxProbedCalls` probe states.
 */
import { InvalidTypeError, InvalidValueError } from '../../errors.js';
import { DurationWindow } from './duration-window.js';
import {
  parsePredictorJSON,
  PREDICTOR_JSON_FORMAT,
  PREDICTOR_JSON_VERSION,
  type PredictorJSON,
  type ProbeJSON,
} from './json.js';
import { resolvePredictorOptions, type PredictorOptions, type ResolvedPredictorOptions } from './options.js';
import { parseSleep } from './sleep.js';
import type { ToolCall } from '../snapshot.js';
import { finite, anObject, isRecord, nonEmptyString, rejectUnknownKeys } from '../../checks.js';
import { checkCommand, checkToolCall } from '../validate-snapshot.js';
import { MAX_SESSIONS } from '../../limits.js';

/** Which evidence a prediction rests on, most trusted first. */
export type EvidenceSource =
  | 'returned'
  | 'deadline'
  | 'progress'
  | 'sleep'
  | 'tool-history'
  | 'global-history'
  | 'default';

/** Every evidence source, most trusted first. */
export const EVIDENCE_SOURCES: readonly EvidenceSource[] = Object.freeze([
  'returned',
  'deadline',
  'progress',
  'sleep',
  'tool-history',
  'global-history',
  'default',
]);

/**
 * A completed tool call: what `observe` learns from, what `predictReport` replays, what the simulator's
 * policies are told when a tool returns.
 */
export interface CompletedToolCall {
  /** Structured tool name: the key of the duration history. */
  name: string;
  startedAt: number;
  returnedAt: number;
  /**
   * The command line. A call with a readable `sleep N` is not added to the history: its duration is
   * explained by the sleep (which predicts such calls first), and one long sleep would inflate the range
   * term of the bound for every other call of the tool for a whole window.
   */
  command?: string;
  /**
   * An end time the tool exposed at its start. A replay (`predictReport`) shows it to the predictor while
   * the call runs; `observe` does not read it.
   */
  deadline?: number;
  /**
   * The session the call belonged to, if its readiness was queried with one: drops its probe state
   * (`predictReport` defaults it to the call's position in the input).
   */
  session?: string;
}

/** @deprecated The former name of `CompletedToolCall`. */
export type CompletedCall = CompletedToolCall;

const COMPLETED_CALL_KEYS: ReadonlySet<string> = new Set([
  'name',
  'startedAt',
  'returnedAt',
  'command',
  'deadline',
  'session',
]);

/**
 * Checks a completed call; throws InvalidTypeError or InvalidValueError naming the path
 * (`call.returnedAt must not be before call.startedAt`). `strictKeys` also rejects fields outside
 * CompletedToolCall (`observe` itself reads only the fields it knows). Callers feeding a batch check every
 * call first, so that a bad one leaves the predictor untouched.
 */
export function checkCompletedCall(
  call: unknown,
  path = 'call',
  strictKeys = false,
): asserts call is CompletedToolCall {
  if (!isRecord(call)) throw new InvalidTypeError(`${path} must be ${anObject(call)}`);
  if (strictKeys) rejectUnknownKeys(call, COMPLETED_CALL_KEYS, path);
  nonEmptyString(call.name, `${path}.name`);
  const startedAt = finite(call.startedAt, `${path}.startedAt`);
  const returnedAt = finite(call.returnedAt, `${path}.returnedAt`);
  if (returnedAt < startedAt) throw new InvalidValueError(`${path}.returnedAt must not be before ${path}.startedAt`);
  if (call.command !== undefined) checkCommand(call.command, path);
  if (call.deadline !== undefined) {
    const d = finite(call.deadline, `${path}.deadline`);
    if (d < startedAt) throw new InvalidValueError(`${path}.deadline must not be before ${path}.startedAt`);
  }
  if (call.session !== undefined && typeof call.session !== 'string') {
    throw new InvalidTypeError(`${path}.session must be a string`);
  }
}

/** What `evaluate` needs from a predictor. */
export interface ReadinessSource {
  /**
   * Whether `tool` returns within the horizon of `now`. `session` identifies the call's owner, so that
   * two sessions' calls with the same name and start time keep separate probe states.
   */
  ready(tool: ToolCall, now: number, session?: string): boolean;
  /**
   * Expected seconds until `tool` returns, at least 0; must not change what `ready` answers. Needed only
   * by the hold rule (evaluation option `holdHorizon`).
   */
  remaining?(tool: ToolCall, now: number, session?: string): number;
}

/** The details behind one readiness answer. */
export interface Prediction {
  source: EvidenceSource;
  /** Predicted total duration D in seconds (for `returned`, the actual duration). */
  duration: number;
  /** When the evidence behind the prediction last changed (see the freshness rule). */
  refreshedAt: number;
  /** Current estimate of the return time: startedAt + D, or the pushed-out estimate of an overdue call. */
  completion: number;
  /** Seconds until `completion`, at least 0. */
  remaining: number;
  ready: boolean;
  /** `ready` because an overdue probe is open. */
  probing: boolean;
  /** Probes this call has had so far. */
  probes: number;
}

/**
 * The probe state of one overdue call, kept under its key. `name` and `startedAt` name the call it belongs
 * to: a key reused by another call (the session's next one) is not it.
 */
type ProbeState = Omit<ProbeJSON, 'key'>;

/**
 * Key of a call's probe state. With a session (one running call at a time), the session id itself: no
 * string is built on the hot path, and the session's next call replaces the state of its previous one.
 * Without, the call's name and start time.
 */
function probeKey(session: string | undefined, name: string, startedAt: number): string {
  return session ?? `\u0000${name}\u0000${startedAt}`;
}

/**
 * Command lines whose parsed sleep is remembered: as many as a snapshot may hold sessions, so that every
 * running call's command (at most MAX_COMMAND_LENGTH characters) is parsed once, not on every tick.
 */
const SLEEP_CACHE_SIZE = MAX_SESSIONS;

function checkNow(now: unknown): number {
  return finite(now, 'now');
}

function checkSession(session: unknown): void {
  if (session !== undefined && typeof session !== 'string') throw new InvalidTypeError('session must be a string');
}

/** Predicts tool-call durations and readiness from the evidence order above. */
export class ReadinessPredictor implements ReadinessSource {
  /** The resolved options, frozen. */
  readonly options: Readonly<ResolvedPredictorOptions>;
  /** Insertion order is recency of observation: the first key is the next to evict. */
  readonly #tools = new Map<string, DurationWindow>();
  #global: DurationWindow;
  /** Insertion order is recency of probing: the first key is the next to evict. */
  readonly #probes = new Map<string, ProbeState>();
  /**
   * Parsed sleeps of recent command lines (null: none). A running call is queried every scheduling period
   * with the same command; parsing it once saves tokenizing it each time. Cleared when full.
   */
  readonly #sleeps = new Map<string, number | null>();
  // Output of #evidence(), kept in fields so that ready() allocates nothing.
  #source: EvidenceSource = 'default';
  #duration = 0;
  #refreshedAt = 0;

  constructor(options?: PredictorOptions) {
    this.options = Object.freeze(resolvePredictorOptions(options));
    this.#global = new DurationWindow(this.options.globalWindow, this.options.delta);
  }

  /**
   * Learns from a completed call: its duration (returnedAt - startedAt) joins the tool's and the global
   * history unless its command holds a readable sleep. Returns whether it did.
   */
  observe(call: CompletedToolCall): boolean {
    checkCompletedCall(call);
    const { name, startedAt, returnedAt } = call;
    if (this.#probeState(call.session, name, startedAt) !== undefined) {
      this.#probes.delete(probeKey(call.session, name, startedAt));
    }
    if (call.command !== undefined && parseSleep(call.command) !== undefined) return false;

    const o = this.options;
    let w = this.#tools.get(name);
    if (w === undefined) {
      if (this.#tools.size >= o.maxTools) {
        const oldest = this.#tools.keys().next();
        if (!oldest.done) this.#tools.delete(oldest.value);
      }
      w = new DurationWindow(o.window, o.delta);
    } else {
      this.#tools.delete(name); // re-inserted below: most recently observed
    }
    this.#tools.set(name, w);
    const duration = returnedAt - startedAt;
    w.push(duration, returnedAt);
    this.#global.push(duration, returnedAt);
    return true;
  }

  /**
   * Whether `tool` will return within the horizon of `now` (r). May open a probe for an overdue call,
   * see the file comment; asking twice at the same `now` gives the same answer.
   */
  ready(tool: ToolCall, now: number, session?: string): boolean {
    checkNow(now);
    checkSession(session);
    checkToolCall(tool, 'tool', now, 'now', false);
    return this.#ready(tool, now, session);
  }

  /** Seconds until the predicted return of `tool`, at least 0. Never changes probe state. */
  remaining(tool: ToolCall, now: number, session?: string): number {
    checkNow(now);
    checkSession(session);
    checkToolCall(tool, 'tool', now, 'now', false);
    return this.#remaining(tool, now, session);
  }

  /** `ready` (with its effect on probe state) and `remaining` together, with the evidence behind them. */
  predict(tool: ToolCall, now: number, session?: string): Prediction {
    checkNow(now);
    checkSession(session);
    checkToolCall(tool, 'tool', now, 'now', false);
    const ready = this.#ready(tool, now, session);
    const remaining = this.#remaining(tool, now, session);
    const overdue = this.#source !== 'returned' && now >= tool.startedAt + this.#duration;
    const state = this.#probeState(session, tool.name, tool.startedAt);
    return {
      source: this.#source,
      duration: this.#duration,
      refreshedAt: this.#refreshedAt,
      completion: this.#source === 'returned' ? (tool.returnedAt ?? now) : now + remaining,
      remaining,
      ready,
      probing: ready && overdue,
      probes: state?.count ?? 0,
    };
  }

  /** The probe state of this call, if it has one. */
  #probeState(session: string | undefined, name: string, startedAt: number): ProbeState | undefined {
    if (this.#probes.size === 0) return undefined;
    const state = this.#probes.get(probeKey(session, name, startedAt));
    return state !== undefined && state.name === name && state.startedAt === startedAt ? state : undefined;
  }

  /** Sets #source, #duration and #refreshedAt from the strongest evidence (file comment, steps 1-7). */
  #evidence(tool: ToolCall, now: number): void {
    const s = tool.startedAt;
    if (tool.returnedAt !== undefined) {
      this.#source = 'returned';
      this.#duration = tool.returnedAt - s;
      this.#refreshedAt = tool.returnedAt;
      return;
    }
    if (tool.deadline !== undefined) {
      this.#source = 'deadline';
      this.#duration = tool.deadline - s;
      this.#refreshedAt = tool.reportedAt ?? s;
      return;
    }
    if (tool.progress !== undefined && tool.progress > 0) {
      const at = tool.reportedAt ?? now;
      const eta = (at - s) / tool.progress;
      // A fraction so small that the extrapolation overflows says as little as 0 does.
      if (Number.isFinite(eta)) {
        this.#source = 'progress';
        this.#duration = eta;
        this.#refreshedAt = at;
        return;
      }
    }
    const sleep = tool.command === undefined ? null : this.#sleepOf(tool.command);
    if (sleep !== null) {
      this.#source = 'sleep';
      this.#duration = sleep;
      this.#refreshedAt = s;
      return;
    }
    const min = this.options.minSamples;
    const w = this.#tools.get(tool.name);
    if (w !== undefined && w.count >= min) {
      this.#source = 'tool-history';
      this.#duration = w.bound;
      this.#refreshedAt = Math.max(s, w.lastSampleAt);
      return;
    }
    if (this.#global.count >= min) {
      this.#source = 'global-history';
      this.#duration = this.#global.bound;
      this.#refreshedAt = Math.max(s, this.#global.lastSampleAt);
      return;
    }
    this.#source = 'default';
    this.#duration = this.options.defaultDuration;
    this.#refreshedAt = s;
  }

  #sleepOf(command: string): number | null {
    let sleep = this.#sleeps.get(command);
    if (sleep === undefined) {
      // Evict the oldest entry (insertion order): a full tick's commands stay cached together.
      if (this.#sleeps.size >= SLEEP_CACHE_SIZE) this.#sleeps.delete(this.#sleeps.keys().next().value!);
      sleep = parseSleep(command) ?? null;
      this.#sleeps.set(command, sleep);
    }
    return sleep;
  }

  #ready(tool: ToolCall, now: number, session: string | undefined): boolean {
    this.#evidence(tool, now);
    if (this.#source === 'returned') {
      // The call is over: its probe state can go now rather than wait for eviction.
      if (this.#probeState(session, tool.name, tool.startedAt) !== undefined) {
        this.#probes.delete(probeKey(session, tool.name, tool.startedAt));
      }
      return true;
    }
    const o = this.options;
    const completion = tool.startedAt + this.#duration;
    if (now < completion) return completion <= now + o.horizon && now - this.#refreshedAt <= o.freshness;
    return this.#probe(tool, now, session);
  }

  /** The probe rule for an overdue call (file comment). */
  #probe(tool: ToolCall, now: number, session: string | undefined): boolean {
    const o = this.options;
    if (o.maxProbes === 0) return false;
    const s = tool.startedAt;
    const key = probeKey(session, tool.name, s);
    const state = this.#probeState(session, tool.name, s);
    if (state === undefined) {
      // A state under this key from the session's previous call is replaced.
      this.#probes.delete(key);
      if (this.#probes.size >= o.maxProbedCalls) {
        const oldest = this.#probes.keys().next();
        if (!oldest.done) this.#probes.delete(oldest.value);
      }
      const until = now + o.probeWindow;
      this.#probes.set(key, {
        name: tool.name,
        startedAt: s,
        count: 1,
        openedAt: now,
        until,
        next: s + 2 * (until - s),
      });
      return true;
    }
    if (state.openedAt <= now && now < state.until) return true;
    if (state.count < o.maxProbes && now >= state.next) {
      state.count++;
      state.openedAt = now;
      state.until = now + o.probeWindow;
      state.next = s + 2 * (state.until - s);
      this.#probes.delete(key); // re-inserted: most recently probed
      this.#probes.set(key, state);
      return true;
    }
    return false;
  }

  #remaining(tool: ToolCall, now: number, session: string | undefined): number {
    this.#evidence(tool, now);
    if (this.#source === 'returned') return 0;
    const s = tool.startedAt;
    const completion = s + this.#duration;
    if (now < completion) return completion - now;
    const state = this.#probeState(session, tool.name, s);
    if (state === undefined) return 0;
    if (state.openedAt <= now && now < state.until) return 0;
    if (now < state.next) return state.next - now;
    // Due for the next probe: the estimate says "now".
    if (state.count < this.options.maxProbes) return 0;
    // Probes exhausted: keep doubling the elapsed time, as each probe did. next - s >= 2 * probeWindow > 0.
    let elapsed = state.next - s;
    while (s + elapsed <= now) elapsed *= 2;
    return s + elapsed - now;
  }

  /** How much the predictor holds: tools with a history, samples in the global one, probe states. O(1). */
  counts(): { tools: number; globalSamples: number; probes: number } {
    return { tools: this.#tools.size, globalSamples: this.#global.count, probes: this.#probes.size };
  }

  /** The persisted state: options, histories (with their eviction order) and probe states. */
  toJSON(): PredictorJSON {
    const tools = [];
    for (const [name, w] of this.#tools) tools.push({ name, durations: w.values(), lastSampleAt: w.lastSampleAt });
    const probes = [];
    for (const [key, p] of this.#probes) {
      probes.push({
        key,
        name: p.name,
        startedAt: p.startedAt,
        count: p.count,
        openedAt: p.openedAt,
        until: p.until,
        next: p.next,
      });
    }
    const g = this.#global;
    return {
      format: PREDICTOR_JSON_FORMAT,
      version: PREDICTOR_JSON_VERSION,
      options: { ...this.options },
      tools,
      global: { durations: g.values(), lastSampleAt: g.count > 0 ? g.lastSampleAt : null },
      probes,
    };
  }

  /**
   * A predictor in the state `json` (from `toJSON()`, possibly through JSON text) describes; it gives
   * the same predictions as the original. Throws InvalidTypeError or InvalidValueError naming the path
   * (`json.tools[0].durations[3] must be a finite number`); `path` names the value in messages.
   */
  static fromJSON(json: unknown, path = 'json'): ReadinessPredictor {
    const parsed = parsePredictorJSON(json, path);
    const p = new ReadinessPredictor(parsed.options);
    const o = p.options;
    for (const t of parsed.tools) {
      p.#tools.set(t.name, DurationWindow.restore(o.window, t.durations, t.lastSampleAt ?? -Infinity, o.delta));
    }
    const g = parsed.global;
    p.#global = DurationWindow.restore(o.globalWindow, g.durations, g.lastSampleAt ?? -Infinity, o.delta);
    for (const s of parsed.probes) {
      p.#probes.set(s.key, {
        name: s.name,
        startedAt: s.startedAt,
        count: s.count,
        openedAt: s.openedAt,
        until: s.until,
        next: s.next,
      });
    }
    return p;
  }
}
