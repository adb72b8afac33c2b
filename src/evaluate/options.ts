import { checkOptionsObject, integerIn, positiveOrInfinity } from '../checks.js';
import { MAX_U32 } from '../limits.js';
import { defaultBoundedOptions, resolveBoundedInto, type BoundedOptions } from './bounded-options.js';

/**
 * What a caller may set for evaluating a snapshot. The fields of `BoundedOptions` (bounded wait, hold
 * rule, credit source) are off by default.
 */
export interface EvaluateOptions extends BoundedOptions {
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
  ...defaultBoundedOptions,
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
  checkOptionsObject(options, defaultEvaluateOptions, path);
  const out: ResolvedEvaluateOptions = { ...defaultEvaluateOptions };
  if (options.halfLife !== undefined) out.halfLife = positiveOrInfinity(options.halfLife, `${path}.halfLife`);
  if (options.creditUnit !== undefined)
    out.creditUnit = integerIn(options.creditUnit, `${path}.creditUnit`, 1, MAX_U32);
  if (options.reserve !== undefined) out.reserve = integerIn(options.reserve, `${path}.reserve`, 0, MAX_U32);
  resolveBoundedInto(options, out, path);
  return out;
}
