/**
 * Field checks shared by the validators and options resolvers: each names the field's path in its message and throws
 * InvalidTypeError for a wrong type, InvalidValueError for a value out of range.
 */
import { InvalidTypeError, InvalidValueError } from './errors.js';

/**
 * Checks that `options` is a plain object whose keys all appear in `known` (the frozen defaults), so a
 * misspelt option is an error rather than silently ignored.
 */
export function checkOptionsObject(options: unknown, known: object, path: string): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new InvalidTypeError(`${path} must be an object`);
  }
  for (const key of Object.keys(options)) {
    if (!(key in known)) throw new InvalidValueError(`${path}.${key} is not a known option`);
  }
}

/** A number of any value (NaN and infinities included): the type check alone. */
export function numberAt(x: unknown, path: string): number {
  if (typeof x !== 'number') throw new InvalidTypeError(`${path} must be a number`);
  return x;
}

/** An integer in [min, max]. */
export function integerAt(x: unknown, path: string, min: number, max: number): number {
  const v = numberAt(x, path);
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new InvalidValueError(`${path} must be an integer from ${min} to ${max}`);
  }
  return v;
}

/** A finite number > 0. */
export function positiveFiniteAt(x: unknown, path: string): number {
  const v = numberAt(x, path);
  if (!Number.isFinite(v) || v <= 0) throw new InvalidValueError(`${path} must be a positive finite number`);
  return v;
}

/** A finite number >= 0. */
export function nonNegativeFiniteAt(x: unknown, path: string): number {
  const v = numberAt(x, path);
  if (!Number.isFinite(v) || v < 0) throw new InvalidValueError(`${path} must be a non-negative finite number`);
  return v;
}

/** A number > 0, `Infinity` allowed (meaning "no bound"). */
export function positiveOrInfinityAt(x: unknown, path: string): number {
  const v = numberAt(x, path);
  if (Number.isNaN(v) || v <= 0) throw new InvalidValueError(`${path} must be a positive number or Infinity`);
  return v;
}

/**
 * A path for messages, or a function building it: the hot callers (`evaluate` every scheduling period,
 * the predictor on every query) pass functions so that no path string is built unless a check fails.
 */
export type PathLike = string | (() => string);

/** The message path of `path` + `field`. */
export function at(path: PathLike, field = ''): string {
  return (typeof path === 'string' ? path : path()) + field;
}

/** A plain object (not null, not an array). */
export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Rejects keys outside `known`: a misspelt optional field must not be silently ignored. */
export function rejectUnknownKeys(obj: Record<string, unknown>, known: ReadonlySet<string>, path: PathLike): void {
  for (const key in obj) {
    if (Object.prototype.hasOwnProperty.call(obj, key) && !known.has(key)) {
      throw new InvalidValueError(`${at(path)}.${key} is not a known field`);
    }
  }
}

/** A finite number at `path` + `field`. */
export function finite(x: unknown, path: PathLike, field = ''): number {
  if (typeof x !== 'number') throw new InvalidTypeError(`${at(path, field)} must be a number`);
  if (!Number.isFinite(x)) throw new InvalidValueError(`${at(path, field)} must be a finite number`);
  return x;
}

/** An integer in [min, max] at `path` + `field`; `rule` completes the message (`must be ${rule}`). */
export function integerIn(x: unknown, path: PathLike, min: number, max: number, rule: string, field = ''): number {
  if (typeof x !== 'number') throw new InvalidTypeError(`${at(path, field)} must be a number`);
  if (!Number.isInteger(x) || x < min || x > max) throw new InvalidValueError(`${at(path, field)} must be ${rule}`);
  return x;
}

/** A non-empty string at `path` + `field`. */
export function nonEmptyString(x: unknown, path: PathLike, field = ''): string {
  if (typeof x !== 'string') throw new InvalidTypeError(`${at(path, field)} must be a string`);
  if (x.length === 0) throw new InvalidValueError(`${at(path, field)} must be a non-empty string`);
  return x;
}
