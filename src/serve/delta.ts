/**
 * A `tick` that carries what changed, not the whole pool: `delta` names the base (the id of the last
 * tick planned on this connection, whose snapshot the sidecar keeps), the new `time`, the nodes when
 * they changed, the sessions that arrived or changed, and the ids of those that left. Applied to the
 * base it gives the snapshot the scheduler would have sent in full: a changed session keeps its place,
 * new ones follow in the order given, and a removed one is gone, so the Problem and its plan are the
 * ones the full snapshot gives.
 *
 * A scheduler's pool changes by a few sessions per tick (arrivals, admissions, tool returns) while the
 * request line of a full snapshot grows with the pool: parsing it is the largest part of a sidecar's
 * overhead over the in-process work (docs/sidecar.md#latency).
 */
import { boundedArray, nonEmptyString, recordAt, rejectUnknownKeys } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import type { Snapshot, SnapshotSession } from '../evaluate/snapshot.js';
import { validateSnapshot } from '../evaluate/validate-snapshot.js';
import { MAX_SESSIONS } from '../limits.js';
import type { RequestId } from './protocol.js';

/** The snapshot of the last tick planned on a connection, and that tick's id. */
export interface TickBase {
  id: RequestId;
  snapshot: Snapshot;
}

/** What a connection keeps between its requests: the base a `delta` applies to. */
export class ConnectionState {
  base: TickBase | undefined = undefined;
}

const DELTA_FIELDS: ReadonlySet<string> = new Set(['base', 'time', 'nodes', 'sessions', 'remove']);

/**
 * The snapshot `delta` makes from `base` (undefined: no tick planned on this connection yet). The delta's
 * own fields are checked here and named `delta.…`; the snapshot it makes is then checked whole by
 * `evaluate`, so a rule a kept session breaks against the new time or nodes is named by its place in
 * that snapshot (`snapshot.sessions[j]…`).
 */
export function applyDelta(x: unknown, base: TickBase | undefined): Snapshot {
  const delta = recordAt(x, 'delta');
  rejectUnknownKeys(delta, DELTA_FIELDS, 'delta');
  const id = delta.base;
  if (typeof id !== 'string' && (typeof id !== 'number' || !Number.isFinite(id))) {
    throw new InvalidTypeError('delta.base must be a string or a number (the id of the tick it applies to)');
  }
  if (base === undefined) {
    throw new InvalidValueError(
      `delta.base is ${JSON.stringify(id)}, but no tick has been planned on this connection yet: send a snapshot`,
    );
  }
  if (id !== base.id) {
    throw new InvalidValueError(
      `delta.base is ${JSON.stringify(id)}, but the last tick planned on this connection is ${JSON.stringify(base.id)}: send a snapshot`,
    );
  }
  const nodes = delta.nodes === undefined ? base.snapshot.nodes : delta.nodes;
  const changed = delta.sessions === undefined ? [] : boundedArray(delta.sessions, 'delta.sessions', MAX_SESSIONS);
  // The delta's sessions, time and nodes are checked as a snapshot of their own (`delta.sessions[k]…`).
  validateSnapshot({ time: delta.time, nodes, sessions: changed }, 'delta');
  const removed = new Set<string>();
  if (delta.remove !== undefined) {
    const list = boundedArray(delta.remove, 'delta.remove', MAX_SESSIONS);
    list.forEach((v, k) => {
      const sid = nonEmptyString(v, 'delta.remove', `[${k}]`);
      if (removed.has(sid)) throw new InvalidValueError(`delta.remove[${k}] repeats session "${sid}"`);
      removed.add(sid);
    });
  }
  // One pass over the base, looking each session up in the delta's few ids (a map of the whole base
  // would cost more than the rest of the delta).
  const byId = new Map<string, number>();
  (changed as SnapshotSession[]).forEach((c, k) => {
    if (removed.has(c.id)) {
      throw new InvalidValueError(`delta.sessions[${k}] is session "${c.id}", which delta.remove also names`);
    }
    byId.set(c.id, k);
  });
  const replaced = new Uint8Array(changed.length);
  let found = 0;
  const all: SnapshotSession[] = [];
  for (const b of base.snapshot.sessions) {
    if (removed.size > 0 && removed.has(b.id)) {
      found++;
      continue;
    }
    const k = byId.size > 0 ? byId.get(b.id) : undefined;
    if (k === undefined) all.push(b);
    else {
      all.push(changed[k] as SnapshotSession);
      replaced[k] = 1;
    }
  }
  if (found < removed.size) {
    const held = new Set(base.snapshot.sessions.map((b) => b.id));
    const k = [...removed].findIndex((sid) => !held.has(sid));
    throw new InvalidValueError(
      `delta.remove[${k}] names session "${[...removed][k]}", which the base snapshot does not hold`,
    );
  }
  changed.forEach((c, k) => {
    if (replaced[k] === 0) all.push(c as SnapshotSession);
  });
  if (all.length > MAX_SESSIONS) {
    throw new InvalidValueError(`delta makes a snapshot of ${all.length} sessions, over the ${MAX_SESSIONS} allowed`);
  }
  return { time: delta.time as number, nodes: nodes as Snapshot['nodes'], sessions: all };
}
