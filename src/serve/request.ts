/**
 * Reading one request line: JSON, then the envelope (`id`, `op`, the op's fields). The payloads
 * (problem, snapshot, options, calls, predictor) are checked by the library where they are used, with
 * messages naming the request field (`problem.sessions[3].weight must be a positive integer`).
 */
import { isRecord } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { nestingError, nestingOfText, type Nesting } from './nesting.js';
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
  if (!Object.hasOwn(obj, 'id')) return null;
  const id = obj.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * Parses and checks the envelope of one request line; never throws. `nesting` is the line's, when the
 * caller counted it on the bytes (the line splitter does); else it is counted here on the text.
 */
export function readRequest(line: string, nesting: Nesting = nestingOfText(line)): ReadRequest {
  const shape = nestingError(nesting, line.length);
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
  const hasId = Object.hasOwn(value, 'id');
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
    if (!Object.hasOwn(value, key) || key === 'id' || key === 'op') continue;
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
