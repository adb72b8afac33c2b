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
 * A validated problem in flat, index-addressed form: the one input every solver path reads.
 * Pair arrays are session-major: entry `i * m + b` is session i on node b.
 */
export interface IndexedProblem {
  readonly nodeIds: readonly string[];
  readonly sessionIds: readonly string[];
  /** Node capacities in tokens. */
  readonly capacity: Float64Array;
  /** Session weights in tokens. */
  readonly weight: Float64Array;
  readonly tokens: Float64Array;
  /** 1 if ready, else 0. */
  readonly ready: Uint8Array;
  /** Decayed credit of each pair; 0 where absent. */
  readonly credit: Float64Array;
  /** 1 if the pair is allowed. */
  readonly eligible: Uint8Array;
}

/** The numeric part of an IndexedProblem: what packing reads (a reduced problem has no ids). */
export type IndexedArrays = Omit<IndexedProblem, 'nodeIds' | 'sessionIds'>;

const NODE_KEYS = new Set(['id', 'capacity']);
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
  tables: { nodes: IdTable; sessions: IdTable } | null;
  /** The chunk the indexed problem's arrays are carved out of (without one: a buffer per problem). */
  readonly arena?: SlabArena;
}

/** A store with tables and an arena in it. */
export function validateScratch(): ValidateScratch {
  return { tables: { nodes: new IdTable(), sessions: new IdTable() }, arena: new SlabArena() };
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
  const tables = store.tables ?? { nodes: new IdTable(), sessions: new IdTable() };
  store.tables = null;
  try {
    return validateWith(problem, path, tables.nodes, tables.sessions, store.arena);
  } finally {
    store.tables = tables;
  }
}

function validateWith(
  problem: unknown,
  path: string,
  nodeIndex: IdTable,
  seen: IdTable,
  arena: SlabArena | undefined,
): IndexedProblem {
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

  const slab = Slab.shared(m + 2 * n + n * m, 0, n + n * m, arena);
  const capacity = slab.f64(m);
  const weight = slab.f64(n);
  const tokens = slab.f64(n);
  const credit = slab.f64(n * m);
  const ready = slab.u8(n);
  // Every pair is eligible unless its session lists its nodes (then its row is cleared first).
  const eligible = slab.u8(n * m).fill(1);

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
    rejectKeysOutside(s, isSessionField, p);
    const sid = nonEmptyString(s.id, p, '.id');
    if (seen.get(sid) >= 0) throw new InvalidValueError(`${p()}.id duplicates session "${sid}"`);
    seen.set(sid, i);
    sessionIds[i] = sid;
    weight[i] = integerIn(s.weight, p, 1, MAX_U32, 'a positive integer <= 4294967295', '.weight');
    tokens[i] = integerIn(s.tokens, p, 0, MAX_U32, 'an integer from 0 to 4294967295', '.tokens');
    const r = s.ready;
    if (typeof r !== 'boolean') throw new InvalidTypeError(`${p()}.ready must be a boolean`);
    ready[i] = r ? 1 : 0;
    const signature = s.signature;
    if (typeof signature === 'number') {
      if (!Number.isFinite(signature)) throw new InvalidValueError(`${p()}.signature must be a finite number`);
    } else if (signature !== undefined && typeof signature !== 'string') {
      throw new InvalidTypeError(`${p()}.signature must be a string or a number`);
    }

    const row = i * m;
    const listed = s.eligible;
    if (listed !== undefined) {
      if (!Array.isArray(listed)) throw new InvalidTypeError(`${p()}.eligible must be an array`);
      eligible.fill(0, row, row + m);
      for (let e = 0; e < listed.length; e++) {
        const given = listed[e];
        const nid =
          typeof given === 'string' && given.length > 0 ? given : nonEmptyString(given, () => `${p()}.eligible[${e}]`);
        const b = nodeIndex.get(nid);
        if (b < 0) throw new InvalidValueError(`${p()}.eligible[${e}] names unknown node "${nid}"`);
        if (eligible[row + b] === 1) throw new InvalidValueError(`${p()}.eligible[${e}] repeats node "${nid}"`);
        eligible[row + b] = 1;
      }
    }
    const given = s.credit;
    if (given !== undefined) {
      if (!isRecord(given)) throw new InvalidTypeError(`${p()}.credit must be ${anObject(given)}`);
      for (const nid in given) {
        if (!Object.prototype.hasOwnProperty.call(given, nid)) continue;
        const b = nodeIndex.get(nid);
        if (b < 0) throw new InvalidValueError(`${p()}.credit names unknown node "${nid}"`);
        const k = given[nid];
        // The field's name is built only when the check fails.
        credit[row + b] = isIntegerIn(k, 0, MAX_U32)
          ? k
          : integerIn(k, p, 0, MAX_U32, 'an integer from 0 to 4294967295', `.credit["${nid}"]`);
      }
    }
  }
  return { nodeIds, sessionIds, capacity, weight, tokens, ready, credit, eligible };
}
