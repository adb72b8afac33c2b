/**
 * Field checks shared by the validators and options resolvers: each names the field's path in its message and throws
 * InvalidTypeError for a wrong type, InvalidValueError for a value out of range. Every check takes the path
 * as a PathLike and an optional `field` appended to it, so a hot caller builds no string unless it fails.
 */
import { InvalidTypeError, InvalidValueError } from './errors.js';

/**
 * A path for messages, or a function building it: the hot callers (`evaluate` every scheduling period,
 * the predictor on every query) pass functions so that no path string is built unless a check fails.
 */
export type PathLike = string | (() => string);

/** The message path of `path` + `field`. */
export function at(path: PathLike, field = ''): string {
  return (typeof path === 'string' ? path : path()) + field;
}

/**
 * A plain object: its prototype is Object.prototype (a literal, JSON.parse) or null (Object.create(null)).
 * A Map, a Date, an array or a class instance is not one: reading its own enumerable keys would silently
 * see nothing (`credit: new Map(...)` read as no credit).
 */
export function isRecord(x: unknown): x is Record<string, unknown> {
  if (typeof x !== 'object' || x === null) return false;
  const proto: unknown = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/**
 * What a message says a non-plain-object `x` should have been: `a plain object` for another kind of object
 * (a Map, a Date, a class instance), so the message says why it was refused; `an object` otherwise.
 */
export function anObject(x: unknown): string {
  return typeof x === 'object' && x !== null && !Array.isArray(x) ? 'a plain object' : 'an object';
}

/** A plain object at `path` + `field`. */
export function recordAt(x: unknown, path: PathLike, field = ''): Record<string, unknown> {
  if (!isRecord(x)) throw new InvalidTypeError(`${at(path, field)} must be ${anObject(x)}`);
  return x;
}

/** `record[key]` when `key` is an own key of `record`, else undefined: a lookup that never reaches Object.prototype. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** A record with no prototype, for ids as keys: `"__proto__"` or `"constructor"` stays an ordinary key. */
export function idRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/**
 * Rejects own keys outside `known`: a misspelt optional field must not be silently ignored. `noun` names
 * what a key is in the message (`is not a known field`).
 */
export function rejectUnknownKeys(
  obj: Record<string, unknown>,
  known: ReadonlySet<string>,
  path: PathLike,
  noun = 'field',
): void {
  for (const key in obj) {
    if (Object.prototype.hasOwnProperty.call(obj, key) && !known.has(key)) {
      throw new InvalidValueError(`${at(path)}.${key} is not a known ${noun}`);
    }
  }
}

/**
 * `rejectUnknownKeys` with the known keys given as a predicate: for objects checked by the thousand (a
 * problem's sessions), where a `switch` over the names costs a third of a Set lookup per key.
 */
export function rejectKeysOutside(
  obj: Record<string, unknown>,
  isKnown: (key: string) => boolean,
  path: PathLike,
  noun = 'field',
): void {
  for (const key in obj) {
    if (!isKnown(key) && Object.prototype.hasOwnProperty.call(obj, key)) {
      throw new InvalidValueError(`${at(path)}.${key} is not a known ${noun}`);
    }
  }
}

/** The own keys of each frozen defaults object, computed once. */
const optionKeys = new WeakMap<object, ReadonlySet<string>>();

/**
 * Checks that `options` is a plain object whose own keys all are own keys of `defaults` (a frozen defaults
 * object), so a misspelt option is an error rather than silently ignored.
 */
export function checkOptionsObject(options: unknown, defaults: object, path: PathLike): void {
  let known = optionKeys.get(defaults);
  if (known === undefined) {
    known = new Set(Object.keys(defaults));
    optionKeys.set(defaults, known);
  }
  rejectUnknownKeys(recordAt(options, path), known, path, 'option');
}

/** An array of at most `max` entries at `path` + `field`. */
export function boundedArray(x: unknown, path: PathLike, max: number, field = ''): unknown[] {
  if (!Array.isArray(x)) throw new InvalidTypeError(`${at(path, field)} must be an array`);
  if (x.length > max)
    throw new InvalidValueError(`${at(path, field)} must have at most ${max} entries (has ${x.length})`);
  return x;
}

/** A number of any value (NaN and infinities included): the type check alone. */
export function anyNumber(x: unknown, path: PathLike, field = ''): number {
  if (typeof x !== 'number') throw new InvalidTypeError(`${at(path, field)} must be a number`);
  return x;
}

/** A finite number at `path` + `field`. */
export function finite(x: unknown, path: PathLike, field = ''): number {
  if (!Number.isFinite(anyNumber(x, path, field)))
    throw new InvalidValueError(`${at(path, field)} must be a finite number`);
  return x as number;
}

/** A finite number > 0. */
export function positiveFinite(x: unknown, path: PathLike, field = ''): number {
  const v = anyNumber(x, path, field);
  if (!Number.isFinite(v) || v <= 0) throw new InvalidValueError(`${at(path, field)} must be a positive finite number`);
  return v;
}

/** A finite number >= 0. */
export function nonNegativeFinite(x: unknown, path: PathLike, field = ''): number {
  const v = anyNumber(x, path, field);
  if (!Number.isFinite(v) || v < 0)
    throw new InvalidValueError(`${at(path, field)} must be a non-negative finite number`);
  return v;
}

/** A number > 0, `Infinity` allowed (meaning "no bound"). */
export function positiveOrInfinity(x: unknown, path: PathLike, field = ''): number {
  const v = anyNumber(x, path, field);
  if (Number.isNaN(v) || v <= 0)
    throw new InvalidValueError(`${at(path, field)} must be a positive number or Infinity`);
  return v;
}

/** A number >= 0, `Infinity` allowed (meaning "off"). */
export function nonNegativeOrInfinity(x: unknown, path: PathLike, field = ''): number {
  const v = anyNumber(x, path, field);
  if (Number.isNaN(v) || v < 0)
    throw new InvalidValueError(`${at(path, field)} must be a non-negative number or Infinity`);
  return v;
}

/** Whether `x` is an integer number in [min, max]: `integerIn`'s test, for callers that build the path only on failure. */
export function isIntegerIn(x: unknown, min: number, max: number): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= min && x <= max;
}

/**
 * An integer in [min, max] at `path` + `field`; `rule` completes the message (`must be ${rule}`), by default
 * `an integer from ${min} to ${max}`.
 */
export function integerIn(x: unknown, path: PathLike, min: number, max: number, rule?: string, field = ''): number {
  const v = anyNumber(x, path, field);
  if (!isIntegerIn(v, min, max)) {
    throw new InvalidValueError(`${at(path, field)} must be ${rule ?? `an integer from ${min} to ${max}`}`);
  }
  return v;
}

/** A non-empty string at `path` + `field`. */
export function nonEmptyString(x: unknown, path: PathLike, field = ''): string {
  if (typeof x !== 'string') throw new InvalidTypeError(`${at(path, field)} must be a string`);
  if (x.length === 0) throw new InvalidValueError(`${at(path, field)} must be a non-empty string`);
  return x;
}

/** An optional AbortSignal at `path` + `field`. */
export function optionalSignal(x: unknown, path: PathLike, field = ''): AbortSignal | undefined {
  if (x !== undefined && !(x instanceof AbortSignal))
    throw new InvalidTypeError(`${at(path, field)} must be an AbortSignal`);
  return x;
}

/** A safe integer >= 1 at `path` + `field`. */
export function positiveInteger(x: unknown, path: PathLike, field = ''): number {
  return integerIn(x, path, 1, Number.MAX_SAFE_INTEGER, 'a positive integer', field);
}

/** A safe integer >= 0 at `path` + `field`. */
export function nonNegativeInteger(x: unknown, path: PathLike, field = ''): number {
  return integerIn(x, path, 0, Number.MAX_SAFE_INTEGER, 'a non-negative integer', field);
}
