/**
 * Validation of a raw Snapshot and of the ToolCall the readiness predictor reads. Every malformed field is
 * reported with its path and rule (`snapshot.sessions[2].cache[0].observedAt must be a finite number`);
 * nothing is clamped, dropped or reinterpreted.
 */
import {
  at,
  boundedArray,
  finite,
  integerIn,
  anObject,
  isRecord,
  nonEmptyString,
  positiveFinite,
  rejectUnknownKeys,
  type PathLike,
} from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { MAX_COMMAND_LENGTH, MAX_NODES, MAX_SESSIONS, MAX_U32 } from '../limits.js';
import type { Snapshot } from './snapshot.js';

const SNAPSHOT_KEYS: ReadonlySet<string> = new Set(['time', 'nodes', 'sessions']);
const NODE_KEYS: ReadonlySet<string> = new Set(['id', 'capacity']);
const SESSION_KEYS: ReadonlySet<string> = new Set([
  'id',
  'tokens',
  'reserve',
  'eligible',
  'cache',
  'tool',
  'waitingSince',
  'expectedService',
]);
const CACHE_KEYS: ReadonlySet<string> = new Set(['node', 'tokens', 'observedAt', 'live']);
const TOOL_KEYS: ReadonlySet<string> = new Set([
  'name',
  'startedAt',
  'returnedAt',
  'deadline',
  'command',
  'progress',
  'reportedAt',
]);

/** A tool call's command line: a string of at most MAX_COMMAND_LENGTH characters. */
export function checkCommand(command: unknown, path: PathLike): string {
  if (typeof command !== 'string') throw new InvalidTypeError(`${at(path)}.command must be a string`);
  if (command.length > MAX_COMMAND_LENGTH) {
    throw new InvalidValueError(
      `${at(path)}.command must have at most ${MAX_COMMAND_LENGTH} characters (has ${command.length})`,
    );
  }
  return command;
}

/**
 * Checks a tool call as seen at time `now` (named `nowPath` in messages). `strictKeys` rejects unknown
 * fields; the predictor's hot path skips that check (it reads only the fields it knows), snapshot
 * validation does not.
 */
export function checkToolCall(tool: unknown, path: PathLike, now: number, nowPath: string, strictKeys: boolean): void {
  if (!isRecord(tool)) throw new InvalidTypeError(`${at(path)} must be ${anObject(tool)}`);
  if (strictKeys) rejectUnknownKeys(tool, TOOL_KEYS, path);
  nonEmptyString(tool.name, path, '.name');
  const startedAt = finite(tool.startedAt, path, '.startedAt');
  if (startedAt > now) throw new InvalidValueError(`${at(path)}.startedAt must not be after ${nowPath}`);
  if (tool.returnedAt !== undefined) {
    const r = finite(tool.returnedAt, path, '.returnedAt');
    if (r < startedAt) throw new InvalidValueError(`${at(path)}.returnedAt must not be before ${at(path)}.startedAt`);
    // A return "in the future" is not an observation; accepting it would let a caller leak the truth.
    if (r > now) throw new InvalidValueError(`${at(path)}.returnedAt must not be after ${nowPath}`);
  }
  if (tool.deadline !== undefined) {
    const d = finite(tool.deadline, path, '.deadline');
    if (d < startedAt) throw new InvalidValueError(`${at(path)}.deadline must not be before ${at(path)}.startedAt`);
  }
  if (tool.command !== undefined) checkCommand(tool.command, path);
  if (tool.progress !== undefined) {
    const p = finite(tool.progress, path, '.progress');
    if (p < 0 || p > 1) throw new InvalidValueError(`${at(path)}.progress must be from 0 to 1`);
  }
  if (tool.reportedAt !== undefined) {
    const r = finite(tool.reportedAt, path, '.reportedAt');
    if (r < startedAt) throw new InvalidValueError(`${at(path)}.reportedAt must not be before ${at(path)}.startedAt`);
    if (r > now) throw new InvalidValueError(`${at(path)}.reportedAt must not be after ${nowPath}`);
  }
}

/** `waitingSince`: no later than now, not while the tool runs, not before the tool returned. */
function checkWaitingSince(s: Record<string, unknown>, p: () => string, time: number, timePath: string): void {
  const w = finite(s.waitingSince, p, '.waitingSince');
  if (w > time) throw new InvalidValueError(`${p()}.waitingSince must not be after ${timePath}`);
  const tool = s.tool as { returnedAt?: number } | undefined;
  if (tool === undefined) return;
  if (tool.returnedAt === undefined) {
    throw new InvalidValueError(`${p()}.waitingSince must be absent while ${p()}.tool is running (no returnedAt)`);
  }
  if (w < tool.returnedAt) throw new InvalidValueError(`${p()}.waitingSince must not be before ${p()}.tool.returnedAt`);
}

/**
 * Checks every field of a snapshot and returns the index of each node id. Used by `validateSnapshot` and
 * by `evaluate`, which reuses the index.
 */
export function indexSnapshot(snapshot: unknown, path: string): Map<string, number> {
  if (!isRecord(snapshot)) throw new InvalidTypeError(`${path} must be ${anObject(snapshot)}`);
  rejectUnknownKeys(snapshot, SNAPSHOT_KEYS, path);
  const time = finite(snapshot.time, `${path}.time`);
  const nodes = boundedArray(snapshot.nodes, path, MAX_NODES, '.nodes');
  const sessions = boundedArray(snapshot.sessions, path, MAX_SESSIONS, '.sessions');

  const nodeIndex = new Map<string, number>();
  for (let b = 0; b < nodes.length; b++) {
    const p = (): string => `${path}.nodes[${b}]`;
    const node: unknown = nodes[b];
    if (!isRecord(node)) throw new InvalidTypeError(`${p()} must be ${anObject(node)}`);
    rejectUnknownKeys(node, NODE_KEYS, p);
    const nid = nonEmptyString(node.id, p, '.id');
    if (nodeIndex.has(nid)) throw new InvalidValueError(`${p()}.id duplicates node "${nid}"`);
    nodeIndex.set(nid, b);
    integerIn(node.capacity, p, 0, Number.MAX_SAFE_INTEGER, 'a non-negative safe integer', '.capacity');
  }

  // stamp[b] === i + 1 marks node b as seen for session i: one allocation per snapshot, not per session.
  const eligibleStamp = new Int32Array(nodes.length);
  const cacheStamp = new Int32Array(nodes.length);
  const seen = new Set<string>();
  const timePath = `${path}.time`;
  for (let i = 0; i < sessions.length; i++) {
    const p = (): string => `${path}.sessions[${i}]`;
    const s: unknown = sessions[i];
    if (!isRecord(s)) throw new InvalidTypeError(`${p()} must be ${anObject(s)}`);
    rejectUnknownKeys(s, SESSION_KEYS, p);
    const sid = nonEmptyString(s.id, p, '.id');
    if (seen.has(sid)) throw new InvalidValueError(`${p()}.id duplicates session "${sid}"`);
    seen.add(sid);
    integerIn(s.tokens, p, 0, MAX_U32, 'an integer from 0 to 4294967295', '.tokens');
    if (s.reserve !== undefined) {
      integerIn(s.reserve, p, 0, MAX_U32, 'an integer from 0 to 4294967295', '.reserve');
    }
    if (s.eligible !== undefined) {
      if (!Array.isArray(s.eligible)) throw new InvalidTypeError(`${p()}.eligible must be an array`);
      for (let e = 0; e < s.eligible.length; e++) {
        const nid = nonEmptyString(s.eligible[e], p, `.eligible[${e}]`);
        const b = nodeIndex.get(nid);
        if (b === undefined) throw new InvalidValueError(`${p()}.eligible[${e}] names unknown node "${nid}"`);
        if (eligibleStamp[b] === i + 1) throw new InvalidValueError(`${p()}.eligible[${e}] repeats node "${nid}"`);
        eligibleStamp[b] = i + 1;
      }
    }
    if (s.cache !== undefined) {
      if (!Array.isArray(s.cache)) throw new InvalidTypeError(`${p()}.cache must be an array`);
      for (let c = 0; c < s.cache.length; c++) {
        const cp = (): string => `${p()}.cache[${c}]`;
        const obs: unknown = s.cache[c];
        if (!isRecord(obs)) throw new InvalidTypeError(`${cp()} must be ${anObject(obs)}`);
        rejectUnknownKeys(obs, CACHE_KEYS, cp);
        const nid = nonEmptyString(obs.node, cp, '.node');
        const b = nodeIndex.get(nid);
        if (b === undefined) throw new InvalidValueError(`${cp()}.node names unknown node "${nid}"`);
        if (cacheStamp[b] === i + 1) throw new InvalidValueError(`${cp()}.node repeats node "${nid}"`);
        cacheStamp[b] = i + 1;
        const tokens = integerIn(obs.tokens, cp, 0, MAX_U32, 'an integer from 0 to 4294967295', '.tokens');
        if (obs.live !== undefined) {
          integerIn(obs.live, cp, 0, tokens, `an integer from 0 to ${cp()}.tokens (${tokens})`, '.live');
        }
        // An observation after `time` is allowed: clocks of cache events and scheduler may differ
        // slightly; its age counts as 0 (no decay), see `decayCredit`.
        finite(obs.observedAt, cp, '.observedAt');
      }
    }
    if (s.tool !== undefined) checkToolCall(s.tool, () => `${p()}.tool`, time, timePath, true);
    if (s.waitingSince !== undefined) checkWaitingSince(s, p, time, timePath);
    if (s.expectedService !== undefined) positiveFinite(s.expectedService, p, '.expectedService');
  }
  return nodeIndex;
}

/**
 * Checks every field of a snapshot; throws InvalidTypeError or InvalidValueError naming the path
 * (`snapshot.sessions[2].cache[0].observedAt must be a finite number`). Rules beyond the types: node and
 * session ids unique; `eligible` and `cache` name known nodes at most once each; tokens, reserve and
 * capacities non-negative integers; a tool call started, returned and reported no later than `time`,
 * returned and due no earlier than it started; progress in [0, 1]; a cache observation's `live` at most
 * its `tokens`; `waitingSince` no later than `time`, only once the tool returned and not before that;
 * `expectedService` positive.
 */
export function validateSnapshot(snapshot: unknown, path = 'snapshot'): asserts snapshot is Snapshot {
  indexSnapshot(snapshot, path);
}
