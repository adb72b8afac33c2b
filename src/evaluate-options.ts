import { InvalidTypeError, InvalidValueError } from './errors.js';
import { MAX_U32 } from './limits.js';

/** What a caller may set for evaluating a snapshot. */
export interface EvaluateOptions {
  /**
   * Half-life h of cache credit in seconds: credit = round(k0 * 2^(-age / h)). A scheduling parameter, not a
   * fit of cache retention. `Infinity` disables decay.
   * @default 10
   */
  halfLife?: number;
  /**
   * Rounding unit of decayed credit in tokens: credit is rounded to the nearest multiple of it (halves up).
   * Larger units make old credits tie sooner, so that readiness decides.
   * @default 1
   */
  creditUnit?: number;
  /**
   * Tokens added to a session's context tokens to form its admission weight, unless the session sets its
   * own `reserve`.
   * @default 512
   */
  reserve?: number;
}

/** Options with every field filled in. */
export type ResolvedEvaluateOptions = Required<EvaluateOptions>;

/** The defaults (paper values), frozen. */
export const defaultEvaluateOptions: Readonly<ResolvedEvaluateOptions> = Object.freeze({
  halfLife: 10,
  creditUnit: 1,
  reserve: 512,
});

/**
 * Merges a caller's options over the defaults, validating each field by name. With no options it returns
 * the frozen defaults themselves: `evaluate` runs every scheduling period and need not copy them.
 */
export function resolveEvaluateOptions(
  options: EvaluateOptions | undefined,
  path = 'options',
): Readonly<ResolvedEvaluateOptions> {
  if (options === undefined) return defaultEvaluateOptions;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new InvalidTypeError(`${path} must be an object`);
  }
  for (const key of Object.keys(options)) {
    if (!(key in defaultEvaluateOptions)) throw new InvalidValueError(`${path}.${key} is not a known option`);
  }
  const out: ResolvedEvaluateOptions = { ...defaultEvaluateOptions };
  if (options.halfLife !== undefined) {
    const h = options.halfLife;
    if (typeof h !== 'number') throw new InvalidTypeError(`${path}.halfLife must be a number`);
    if (Number.isNaN(h) || h <= 0) throw new InvalidValueError(`${path}.halfLife must be a positive number or Infinity`);
    out.halfLife = h;
  }
  if (options.creditUnit !== undefined) {
    const u = options.creditUnit;
    if (typeof u !== 'number') throw new InvalidTypeError(`${path}.creditUnit must be a number`);
    if (!Number.isInteger(u) || u < 1 || u > MAX_U32) {
      throw new InvalidValueError(`${path}.creditUnit must be an integer from 1 to ${MAX_U32}`);
    }
    out.creditUnit = u;
  }
  if (options.reserve !== undefined) {
    const r = options.reserve;
    if (typeof r !== 'number') throw new InvalidTypeError(`${path}.reserve must be a number`);
    if (!Number.isInteger(r) || r < 0 || r > MAX_U32) {
      throw new InvalidValueError(`${path}.reserve must be an integer from 0 to ${MAX_U32}`);
    }
    out.reserve = r;
  }
  return out;
}
