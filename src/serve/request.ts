/**
 * Reading one request line: JSON, then the envelope (`id`, `op`, the op's fields). The payloads
 * (problem, snapshot, options, calls, predictor) are checked by the library where they are used, with
 * messages naming the request field (`problem.sessions[3].weight must be a positive integer`).
 */
import { isRecord } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import {
  NOTIFICATION_OPS,
  REQUEST_FIELDS,
  SIDECAR_OPS,
  type RequestId,
  type SidecarOp,
  type SidecarRequest,
} from './protocol.js';

/**
 * A line read as far as it could be: the id once known (undefined: a notification, which gets no
 * response), the op as sent once it is a string, and the request or the error that stopped it.
 */
export type ReadRequest =
  | { id: RequestId | undefined; op: SidecarOp; request: SidecarRequest; error?: undefined }
  | {
      id: RequestId | null | undefined;
      op: string | null;
      request?: undefined;
      error: InvalidTypeError | InvalidValueError;
    };

const OP_LIST = SIDECAR_OPS.map((op) => `"${op}"`).join(', ');

function isOp(x: unknown): x is SidecarOp {
  return typeof x === 'string' && (SIDECAR_OPS as readonly string[]).includes(x);
}

/** The `id` of a parsed line, or null when it has none usable. */
function idOf(obj: Record<string, unknown>): RequestId | null {
  if (!Object.prototype.hasOwnProperty.call(obj, 'id')) return null;
  const id = obj.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * Deepest nesting of arrays and objects a request line may have. The protocol nests at most 6 deep (a
 * cache entry of a session of a snapshot); a deeper line is refused before it is parsed, since parsing
 * millions of nested brackets costs about 100 bytes of memory per byte of line.
 */
export const MAX_REQUEST_DEPTH = 32;
/** Characters of line per array or object allowed (beyond a first CONTAINER_ALLOWANCE). */
export const CHARS_PER_CONTAINER = 16;
const CONTAINER_ALLOWANCE = 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Why `line` is refused before parsing, if it is: nested deeper than MAX_REQUEST_DEPTH, or holding more
 * arrays and objects than one per CHARS_PER_CONTAINER characters (an empty object costs ~100 bytes once
 * built: a line of `{},{},...` would cost 30-40 times its size). One pass, strings skipped.
 */
function shapeError(line: string): InvalidValueError | undefined {
  const maxContainers = CONTAINER_ALLOWANCE + Math.floor(line.length / CHARS_PER_CONTAINER);
  let depth = 0;
  let containers = 0;
  const n = line.length;
  for (let i = 0; i < n; i++) {
    const c = line.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < n; i++) {
        const d = line.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > MAX_REQUEST_DEPTH)
        return new InvalidValueError(`line must nest arrays and objects at most ${MAX_REQUEST_DEPTH} deep`);
      if (++containers > maxContainers) {
        return new InvalidValueError(
          `line must hold at most ${maxContainers} arrays and objects (one per ${CHARS_PER_CONTAINER} characters)`,
        );
      }
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return undefined;
}

/** Parses and checks the envelope of one request line; never throws. */
export function readRequest(line: string): ReadRequest {
  const shape = shapeError(line);
  if (shape !== undefined) return { id: null, op: null, error: shape };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return { id: null, op: null, error: new InvalidTypeError(`line is not valid JSON: ${detail}`) };
  }
  if (!isRecord(value)) return { id: null, op: null, error: new InvalidTypeError('request must be a JSON object') };
  const sentOp = typeof value.op === 'string' ? value.op : null;
  const hasId = Object.prototype.hasOwnProperty.call(value, 'id');
  // Without an id, a notification op is read on (its failure is logged, never answered).
  const notification = !hasId && (NOTIFICATION_OPS as readonly string[]).includes(sentOp ?? '');
  const id = notification ? undefined : idOf(value);
  if (id === null) {
    const error = hasId
      ? new InvalidTypeError('id must be a string or a number')
      : new InvalidTypeError(
          `id is missing (a string or a number; only ${NOTIFICATION_OPS.join(', ')} may go without one)`,
        );
    return { id: null, op: sentOp, error };
  }
  const op = value.op;
  if (typeof op !== 'string') return { id, op: null, error: new InvalidTypeError('op must be a string') };
  if (!isOp(op)) return { id, op, error: new InvalidValueError(`op must be one of ${OP_LIST} (got "${op}")`) };
  const fields = REQUEST_FIELDS[op];
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key) || key === 'id' || key === 'op') continue;
    if (!fields.includes(key)) {
      return { id, op, error: new InvalidValueError(`${key} is not a field of a "${op}" request`) };
    }
  }
  return { id, op, request: value as unknown as SidecarRequest };
}

/**
 * Bytes a `predictor.load` line may spend around the predictor's JSON: the envelope
 * (`{"id":...,"op":"predictor.load","predictor":...}`) with an id of up to about 970 characters.
 */
export const LOAD_ENVELOPE_BYTES = 1024;

/**
 * Throws an InvalidValueError unless `predictor`, as JSON, fits in a `predictor.load` line under
 * `maxLineBytes`: what the sidecar saves it must be able to load.
 */
export function checkLoadable(predictor: unknown, maxLineBytes: number): void {
  const room = maxLineBytes - LOAD_ENVELOPE_BYTES;
  const bytes = Buffer.byteLength(JSON.stringify(predictor));
  if (bytes > room) {
    throw new InvalidValueError(
      `predictor state is ${bytes} bytes of JSON, over the ${room} a predictor.load line under --max-line-bytes ${maxLineBytes} can carry`,
    );
  }
}
