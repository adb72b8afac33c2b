import {
  integerIn,
  isIntegerIn,
  anObject,
  isRecord,
  nonEmptyString,
  rejectKeysOutside,
  rejectUnknownKeys,
} from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { MAX_NODES, MAX_SESSIONS, MAX_U32 } from '../limits.js';
import type { Problem } from '../types.js';
import { Slab, SlabArena } from './slab.js';

/**
 * The numeric part of a validated problem: what packing and the plan's bound read (a reduced problem has
 * no ids). Pairs are kept as per-session lists of the nodes a session names, never as a sessions x nodes
 * array: credit is sparse (a session is cached on one node or a few), so every pass over pairs costs
 * O(sessions + nodes + entries).
 */
export interface IndexedArrays {
  /** Node capacities in tokens. */
  readonly capacity: Float64Array;
  /** Session weights in tokens. */
  readonly weight: Float64Array;
  readonly tokens: Float64Array;
  /** 1 if ready, else 0. */
  readonly ready: Uint8Array;
  /**
   * Session i's credit entries are `creditStart[i]` up to `creditStart[i + 1]`: node `creditNode[e]`
   * with credit `creditValue[e]` > 0, each node at most once per session (a pair without an entry has
   * credit 0). `creditStart` has one entry per session plus one.
   */
  readonly creditStart: Int32Array;
  readonly creditNode: Int32Array;
  readonly creditValue: Float64Array;
  /**
   * Per session, which nodes it may go to, given its list `eligibleNode[eligibleStart[i] .. eligibleStart[i + 1])`:
   * EVERY_NODE (the list is empty), LISTED_NODES (only the listed nodes: a session's `eligible`) or
   * UNLISTED_NODES (every node but the listed ones: a reduced problem's form, never made by validation).
   */
  readonly limited: Uint8Array;
  readonly eligibleStart: Int32Array;
  readonly eligibleNode: Int32Array;
}

/** A validated problem in flat, index-addressed form: the one input every solver path reads. */
export interface IndexedProblem extends IndexedArrays {
  readonly nodeIds: readonly string[];
  readonly sessionIds: readonly string[];
}

/** The forms of `IndexedArrays.limited`. */
export const EVERY_NODE = 0;
export const LISTED_NODES = 1;
export const UNLISTED_NODES = 2;

/** Credit of session i on node b (0 without an entry): O(entries of i). */
export function creditOn(problem: IndexedArrays, i: number, b: number): number {
  for (let e = problem.creditStart[i]!; e < problem.creditStart[i + 1]!; e++) {
    if (problem.creditNode[e] === b) return problem.creditValue[e]!;
  }
  return 0;
}

/** Whether session i may go to node b: O(listed nodes of i). */
export function isEligible(problem: IndexedArrays, i: number, b: number): boolean {
  const form = problem.limited[i];
  if (form === EVERY_NODE) return true;
  let listed = false;
  for (let e = problem.eligibleStart[i]!; e < problem.eligibleStart[i + 1]!; e++) {
    if (problem.eligibleNode[e] === b) listed = true;
  }
  return listed === (form === LISTED_NODES);
}

/**
 * Marks session i's listed nodes in `mark` (one entry per node) with `stamp`, which must differ from
 * every value `mark` held before (e.g. i + 1 in a pass over sessions); then `eligibleMarked` answers per
 * node in O(1).
 */
export function markEligible(problem: IndexedArrays, i: number, mark: Int32Array, stamp: number): void {
  for (let e = problem.eligibleStart[i]!; e < problem.eligibleStart[i + 1]!; e++)
    mark[problem.eligibleNode[e]!] = stamp;
}

/** Whether session i may go to node b, after `markEligible(problem, i, mark, stamp)`. */
export function eligibleMarked(problem: IndexedArrays, i: number, b: number, mark: Int32Array, stamp: number): boolean {
  const form = problem.limited[i];
  return form === EVERY_NODE || (mark[b] === stamp) === (form === LISTED_NODES);
}

/** A growable list of pair entries, kept from call to call. */
class EntryBuffer {
  node = new Int32Array(1024);
  value = new Float64Array(1024);
  length = 0;

  push(node: number, value: number): void {
    if (this.length === this.node.length) {
      const grown = new Int32Array(2 * this.length);
      grown.set(this.node);
      this.node = grown;
      const values = new Float64Array(2 * this.length);
      values.set(this.value);
      this.value = values;
    }
    this.node[this.length] = node;
    this.value[this.length++] = value;
  }
}

const NODE_KEYS = new Set(['id', 'capacity']);

/** The fields of a Session a key scan found (`sessionFields`). */
const HAS_SIGNATURE = 1;
const HAS_ELIGIBLE = 2;
const HAS_CREDIT = 4;
const HAS_ID = 8;
const HAS_WEIGHT = 16;
const HAS_TOKENS = 32;
const HAS_READY = 64;

/** The values of a session's fields, as its key scan read them (`sessionFields`). */
class SessionValues {
  id: unknown;
  weight: unknown;
  tokens: unknown;
  ready: unknown;
  signature: unknown;
  eligible: unknown;
  credit: unknown;
}

/**
 * The keys of session `s` (a for-in pass, as `rejectKeysOutside` makes) checked against the Session's
 * fields, with which fields it has; each field's value is read in the same pass into `into`. A read by the
 * scan's key costs the same whatever the session's shape, where `s.weight` on sessions of many shapes (a
 * credit object per node makes one each) is a slow lookup per field, and a field a session does not have
 * a slow lookup on its prototypes (docs/history.md, "Time at the caps" and "The deadline path at the caps").
 */
function sessionFields(s: Record<string, unknown>, p: () => string, into: SessionValues): number {
  let has = 0;
  for (const key in s) {
    switch (key) {
      case 'id':
        has |= HAS_ID;
        into.id = s[key];
        break;
      case 'weight':
        has |= HAS_WEIGHT;
        into.weight = s[key];
        break;
      case 'tokens':
        has |= HAS_TOKENS;
        into.tokens = s[key];
        break;
      case 'ready':
        has |= HAS_READY;
        into.ready = s[key];
        break;
      case 'signature':
        has |= HAS_SIGNATURE;
        into.signature = s[key];
        break;
      case 'eligible':
        has |= HAS_ELIGIBLE;
        into.eligible = s[key];
        break;
      case 'credit':
        has |= HAS_CREDIT;
        into.credit = s[key];
        break;
      default:
        // An unknown own key: the message `rejectKeysOutside` gives for the first one.
        if (Object.prototype.hasOwnProperty.call(s, key)) rejectKeysOutside(s, isSessionField, p);
    }
  }
  return has;
}

/** The fields of a Session. */
function isSessionField(key: string): boolean {
  switch (key) {
    case 'id':
    case 'weight':
    case 'tokens':
    case 'ready':
    case 'credit':
    case 'eligible':
    case 'signature':
      return true;
    default:
      return false;
  }
}
const PROBLEM_KEYS = new Set(['nodes', 'sessions']);

/** Ids an IdTable may hold beyond twice the ids of the current call before it is cleared. */
const ID_TABLE_SLACK = 1024;

/**
 * Ids to indices within one validation, kept from call to call: a fresh Set or Map per call allocates
 * and regrows its hash table every solve. Each call stores `start + index`, with `start` past every value
 * an earlier call stored, so earlier calls' entries read as absent without clearing the table; it is
 * cleared when it holds more than twice the call's ids plus ID_TABLE_SLACK, so ids that stopped appearing
 * do not pile up.
 */
class IdTable {
  readonly #index = new Map<string, number>();
  #start = 0;
  #end = 0;

  /** Begins a call over `count` ids: every id reads as absent until `set`. */
  begin(count: number): void {
    if (this.#index.size > 2 * count + ID_TABLE_SLACK || this.#end + count > Number.MAX_SAFE_INTEGER) {
      this.#index.clear();
      this.#end = 0;
    }
    this.#start = this.#end;
    this.#end += count;
  }

  /** The index `id` was given in this call, or -1. */
  get(id: string): number {
    const v = this.#index.get(id);
    return v !== undefined && v >= this.#start && v < this.#end ? v - this.#start : -1;
  }

  set(id: string, index: number): void {
    this.#index.set(id, this.#start + index);
  }
}

/**
 * Where a caller keeps the node and session tables `validateProblem` uses between calls: null while a
 * validation holds them (a getter on the input could validate another problem meanwhile: that one gets
 * tables of its own).
 */
export interface ValidateScratch {
  tables: ValidateTables | null;
  /** The chunk the indexed problem's arrays are carved out of (without one: a buffer per problem). */
  readonly arena?: SlabArena;
}

/** The id tables, and the credit and eligibility entries of the call in progress (copied out at its end). */
interface ValidateTables {
  readonly nodes: IdTable;
  readonly sessions: IdTable;
  readonly credit: EntryBuffer;
  readonly eligible: EntryBuffer;
  /** Per node: the last session (plus one) that listed it, to find repeats without a pass over nodes. */
  listedBy: Int32Array;
  /** The fields of the session being checked. */
  readonly fields: SessionValues;
}

function validateTables(): ValidateTables {
  return {
    nodes: new IdTable(),
    sessions: new IdTable(),
    credit: new EntryBuffer(),
    eligible: new EntryBuffer(),
    listedBy: new Int32Array(0),
    fields: new SessionValues(),
  };
}

/** A store with tables and an arena in it. */
export function validateScratch(): ValidateScratch {
  return { tables: validateTables(), arena: new SlabArena() };
}

/**
 * Checks every field of a Problem and returns its indexed form. Throws InvalidTypeError or
 * InvalidValueError whose message names the path, e.g. `problem.sessions[3].weight must be a positive
 * integer`. Nothing is clamped or dropped.
 */
export function validateProblem(
  problem: unknown,
  path = 'problem',
  store: ValidateScratch = { tables: null },
): IndexedProblem {
  const tables = store.tables ?? validateTables();
  store.tables = null;
  try {
    return validateWith(problem, path, tables, store.arena);
  } finally {
    store.tables = tables;
  }
}

function validateWith(
  problem: unknown,
  path: string,
  tables: ValidateTables,
  arena: SlabArena | undefined,
): IndexedProblem {
  const { nodes: nodeIndex, sessions: seen, credit: creditEntries, eligible: eligibleEntries, fields } = tables;
  if (!isRecord(problem)) throw new InvalidTypeError(`${path} must be ${anObject(problem)}`);
  rejectUnknownKeys(problem, PROBLEM_KEYS, path);
  const { nodes, sessions } = problem as Partial<Problem> & Record<string, unknown>;
  if (!Array.isArray(nodes)) throw new InvalidTypeError(`${path}.nodes must be an array`);
  if (!Array.isArray(sessions)) throw new InvalidTypeError(`${path}.sessions must be an array`);
  if (nodes.length > MAX_NODES) {
    throw new InvalidValueError(`${path}.nodes must have at most ${MAX_NODES} entries (has ${nodes.length})`);
  }
  if (sessions.length > MAX_SESSIONS) {
    throw new InvalidValueError(`${path}.sessions must have at most ${MAX_SESSIONS} entries (has ${sessions.length})`);
  }
  const m = nodes.length;
  const n = sessions.length;

  // The entry lists are built in the reused buffers and copied into the problem's slab at the end.
  const head = Slab.shared(m + 2 * n, 2 * (n + 1), 2 * n, arena);
  const capacity = head.f64(m);
  const weight = head.f64(n);
  const tokens = head.f64(n);
  const creditStart = head.i32(n + 1);
  const eligibleStart = head.i32(n + 1);
  const ready = head.u8(n);
  const limited = head.u8(n);
  creditEntries.length = 0;
  eligibleEntries.length = 0;
  if (tables.listedBy.length < m) tables.listedBy = new Int32Array(MAX_NODES);
  const listedBy = tables.listedBy.fill(0, 0, m);

  const nodeIds = new Array<string>(m);
  nodeIndex.begin(m);
  for (let b = 0; b < m; b++) {
    const p = `${path}.nodes[${b}]`;
    const node: unknown = nodes[b];
    if (!isRecord(node)) throw new InvalidTypeError(`${p} must be ${anObject(node)}`);
    rejectUnknownKeys(node, NODE_KEYS, p);
    const nid = nonEmptyString(node.id, `${p}.id`);
    if (nodeIndex.get(nid) >= 0) throw new InvalidValueError(`${p}.id duplicates node "${nid}"`);
    nodeIndex.set(nid, b);
    nodeIds[b] = nid;
    capacity[b] = integerIn(node.capacity, `${p}.capacity`, 0, Number.MAX_SAFE_INTEGER, 'a non-negative safe integer');
  }

  const sessionIds = new Array<string>(n);
  seen.begin(n);
  // The path of session i for messages, built only when a check fails.
  let i = 0;
  const p = (): string => `${path}.sessions[${i}]`;
  for (; i < n; i++) {
    const s: unknown = sessions[i];
    if (!isRecord(s)) throw new InvalidTypeError(`${p()} must be ${anObject(s)}`);
    const has = sessionFields(s, p, fields);
    // A required field the scan did not find (not enumerable, or missing) is read as a property.
    const sid = nonEmptyString((has & HAS_ID) !== 0 ? fields.id : s.id, p, '.id');
    if (seen.get(sid) >= 0) throw new InvalidValueError(`${p()}.id duplicates session "${sid}"`);
    seen.set(sid, i);
    sessionIds[i] = sid;
    const w = (has & HAS_WEIGHT) !== 0 ? fields.weight : s.weight;
    weight[i] = integerIn(w, p, 1, MAX_U32, 'a positive integer <= 4294967295', '.weight');
    const t = (has & HAS_TOKENS) !== 0 ? fields.tokens : s.tokens;
    tokens[i] = integerIn(t, p, 0, MAX_U32, 'an integer from 0 to 4294967295', '.tokens');
    const r = (has & HAS_READY) !== 0 ? fields.ready : s.ready;
    if (typeof r !== 'boolean') throw new InvalidTypeError(`${p()}.ready must be a boolean`);
    ready[i] = r ? 1 : 0;
    const signature = (has & HAS_SIGNATURE) !== 0 ? fields.signature : undefined;
    if (typeof signature === 'number') {
      if (!Number.isFinite(signature)) throw new InvalidValueError(`${p()}.signature must be a finite number`);
    } else if (signature !== undefined && typeof signature !== 'string') {
      throw new InvalidTypeError(`${p()}.signature must be a string or a number`);
    }

    const listed = (has & HAS_ELIGIBLE) !== 0 ? fields.eligible : undefined;
    eligibleStart[i] = eligibleEntries.length;
    if (listed !== undefined) {
      if (!Array.isArray(listed)) throw new InvalidTypeError(`${p()}.eligible must be an array`);
      limited[i] = LISTED_NODES;
      for (let e = 0; e < listed.length; e++) {
        const given = listed[e];
        const nid =
          typeof given === 'string' && given.length > 0 ? given : nonEmptyString(given, () => `${p()}.eligible[${e}]`);
        const b = nodeIndex.get(nid);
        if (b < 0) throw new InvalidValueError(`${p()}.eligible[${e}] names unknown node "${nid}"`);
        if (listedBy[b] === i + 1) throw new InvalidValueError(`${p()}.eligible[${e}] repeats node "${nid}"`);
        listedBy[b] = i + 1;
        eligibleEntries.push(b, 1);
      }
    }
    creditStart[i] = creditEntries.length;
    const given = (has & HAS_CREDIT) !== 0 ? fields.credit : undefined;
    if (given !== undefined) {
      if (!isRecord(given)) throw new InvalidTypeError(`${p()}.credit must be ${anObject(given)}`);
      // Own enumerable keys, in for-in order: cheaper than for-in with an own-property test per key
      // (docs/history.md, "Time at the caps").
      const names = Object.keys(given);
      for (let x = 0; x < names.length; x++) {
        const nid = names[x]!;
        const b = nodeIndex.get(nid);
        if (b < 0) throw new InvalidValueError(`${p()}.credit names unknown node "${nid}"`);
        const k = given[nid];
        // The field's name is built only when the check fails.
        const credit = isIntegerIn(k, 0, MAX_U32)
          ? k
          : integerIn(k, p, 0, MAX_U32, 'an integer from 0 to 4294967295', `.credit["${nid}"]`);
        // Credit 0 is no entry: the pair reads as 0 either way.
        if (credit > 0) creditEntries.push(b, credit);
      }
    }
  }
  creditStart[n] = creditEntries.length;
  eligibleStart[n] = eligibleEntries.length;
  const entries = creditEntries.length;
  const listedCount = eligibleEntries.length;
  const tail = Slab.shared(entries, entries + listedCount, 0, arena);
  const creditValue = tail.f64(entries);
  const creditNode = tail.i32(entries);
  const eligibleNode = tail.i32(listedCount);
  creditValue.set(creditEntries.value.subarray(0, entries));
  creditNode.set(creditEntries.node.subarray(0, entries));
  eligibleNode.set(eligibleEntries.node.subarray(0, listedCount));
  return {
    nodeIds,
    sessionIds,
    capacity,
    weight,
    tokens,
    ready,
    creditStart,
    creditNode,
    creditValue,
    limited,
    eligibleStart,
    eligibleNode,
  };
}
