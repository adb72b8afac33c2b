/**
 * Distributions of the workload model, as plain JSON-able objects so a custom setting file can override
 * any of them, with their validation (messages name the field) and sampling.
 */
import { anObject, isRecord } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import type { Rng } from './rng.js';

/**
 * A non-negative random quantity.
 * - `constant`: always `value`.
 * - `uniform`: uniform on [min, max].
 * - `lognormal`: `median * exp(sigma * N(0,1))`, then limited to [min, max]. The limits are the real
 *   mechanisms (a `max_tokens`, a tool timeout, a step limit), so a draw beyond them *is* the limit
 *   (censoring), which is why it is not redrawn.
 */
export type Dist =
  | { readonly kind: 'constant'; readonly value: number }
  | { readonly kind: 'uniform'; readonly min: number; readonly max: number }
  | {
      readonly kind: 'lognormal';
      readonly median: number;
      readonly sigma: number;
      readonly min?: number;
      readonly max?: number;
    };

/** One draw. */
export function sample(d: Dist, rng: Rng): number {
  switch (d.kind) {
    case 'constant':
      return d.value;
    case 'uniform':
      return d.min + (d.max - d.min) * rng.float();
    case 'lognormal': {
      let x = rng.lognormal(d.median, d.sigma);
      if (d.min !== undefined && x < d.min) x = d.min;
      if (d.max !== undefined && x > d.max) x = d.max;
      return x;
    }
  }
}

/** One draw rounded to the nearest integer (token counts, turn counts). */
export function sampleInt(d: Dist, rng: Rng): number {
  return Math.round(sample(d, rng));
}

/** The mean of the distribution before limits; a lognormal's mean is median * e^(sigma^2 / 2). */
export function nominalMean(d: Dist): number {
  switch (d.kind) {
    case 'constant':
      return d.value;
    case 'uniform':
      return (d.min + d.max) / 2;
    case 'lognormal':
      return d.median * Math.exp((d.sigma * d.sigma) / 2);
  }
}

/** Largest value a draw can take (`Infinity` for an unlimited lognormal). */
export function upperBound(d: Dist): number {
  switch (d.kind) {
    case 'constant':
      return d.value;
    case 'uniform':
      return d.max;
    case 'lognormal':
      return d.max ?? Number.POSITIVE_INFINITY;
  }
}

function finiteNonNegative(x: unknown, path: string): number {
  if (typeof x !== 'number') throw new InvalidTypeError(`${path} must be a number`);
  if (!Number.isFinite(x) || x < 0) throw new InvalidValueError(`${path} must be a finite number >= 0`);
  return x;
}

const KEYS: Readonly<Record<Dist['kind'], readonly string[]>> = {
  constant: ['kind', 'value'],
  uniform: ['kind', 'min', 'max'],
  lognormal: ['kind', 'median', 'sigma', 'min', 'max'],
};

/** Checks a distribution object field by field; returns it typed. */
export function validateDist(x: unknown, path: string): Dist {
  if (!isRecord(x)) throw new InvalidTypeError(`${path} must be ${anObject(x)}`);
  const kind = x.kind;
  if (typeof kind !== 'string') throw new InvalidTypeError(`${path}.kind must be a string`);
  if (kind !== 'constant' && kind !== 'uniform' && kind !== 'lognormal') {
    throw new InvalidValueError(`${path}.kind must be one of constant, uniform, lognormal`);
  }
  for (const key of Object.keys(x)) {
    if (!KEYS[kind].includes(key))
      throw new InvalidValueError(`${path}.${key} is not a field of a ${kind} distribution`);
  }
  switch (kind) {
    case 'constant':
      return { kind, value: finiteNonNegative(x.value, `${path}.value`) };
    case 'uniform': {
      const min = finiteNonNegative(x.min, `${path}.min`);
      const max = finiteNonNegative(x.max, `${path}.max`);
      if (max < min) throw new InvalidValueError(`${path}.max must be >= ${path}.min`);
      return { kind, min, max };
    }
    case 'lognormal': {
      const median = finiteNonNegative(x.median, `${path}.median`);
      if (median <= 0) throw new InvalidValueError(`${path}.median must be > 0`);
      const sigma = finiteNonNegative(x.sigma, `${path}.sigma`);
      const out: { kind: 'lognormal'; median: number; sigma: number; min?: number; max?: number } = {
        kind,
        median,
        sigma,
      };
      if (x.min !== undefined) out.min = finiteNonNegative(x.min, `${path}.min`);
      if (x.max !== undefined) out.max = finiteNonNegative(x.max, `${path}.max`);
      if (out.min !== undefined && out.max !== undefined && out.max < out.min) {
        throw new InvalidValueError(`${path}.max must be >= ${path}.min`);
      }
      return out;
    }
  }
}
