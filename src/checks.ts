/**
 * Field checks shared by every options resolver: each names the field's path in its message and throws
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
