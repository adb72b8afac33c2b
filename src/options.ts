import { InvalidTypeError, InvalidValueError } from './errors.js';
import { MAX_STATE_BUDGET } from './limits.js';

/** What a caller may set for one solve. */
export interface SolveOptions {
  /**
   * Capacity quantum Delta in tokens: weights are rounded up and capacities down to multiples of it.
   * A plan feasible after quantization is feasible before it.
   * @default 1024
   */
  quantum?: number;
  /**
   * Most dense DP cells (sessions x states) the solver may visit. Above it the DP is not started and
   * the plan is a labelled BFD fallback.
   * @default 4194304 (2^22)
   */
  stateBudget?: number;
  /**
   * Wall-clock bound on one solve in milliseconds. A DP still running then stops and the plan is a
   * labelled BFD fallback. `Infinity` means no bound.
   * @default Infinity
   */
  deadlineMs?: number;
}

/** Options with every field filled in. */
export type ResolvedSolveOptions = Required<SolveOptions>;

/** The defaults, frozen. */
export const defaultSolveOptions: Readonly<ResolvedSolveOptions> = Object.freeze({
  quantum: 1024,
  stateBudget: 2 ** 22,
  deadlineMs: Number.POSITIVE_INFINITY,
});

/** Merges a caller's options over the defaults once, validating each field by name. */
export function resolveSolveOptions(options: SolveOptions | undefined, path = 'options'): ResolvedSolveOptions {
  if (options === undefined) return { ...defaultSolveOptions };
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new InvalidTypeError(`${path} must be an object`);
  }
  for (const key of Object.keys(options)) {
    if (!(key in defaultSolveOptions)) throw new InvalidValueError(`${path}.${key} is not a known option`);
  }
  const out: ResolvedSolveOptions = { ...defaultSolveOptions };
  if (options.quantum !== undefined) {
    const q = options.quantum;
    if (typeof q !== 'number') throw new InvalidTypeError(`${path}.quantum must be a number`);
    if (!Number.isSafeInteger(q) || q < 1) throw new InvalidValueError(`${path}.quantum must be a positive integer`);
    out.quantum = q;
  }
  if (options.stateBudget !== undefined) {
    const b = options.stateBudget;
    if (typeof b !== 'number') throw new InvalidTypeError(`${path}.stateBudget must be a number`);
    if (!Number.isSafeInteger(b) || b < 1 || b > MAX_STATE_BUDGET) {
      throw new InvalidValueError(`${path}.stateBudget must be an integer from 1 to ${MAX_STATE_BUDGET}`);
    }
    out.stateBudget = b;
  }
  if (options.deadlineMs !== undefined) {
    const d = options.deadlineMs;
    if (typeof d !== 'number') throw new InvalidTypeError(`${path}.deadlineMs must be a number`);
    if (Number.isNaN(d) || d <= 0) throw new InvalidValueError(`${path}.deadlineMs must be a positive number or Infinity`);
    out.deadlineMs = d;
  }
  return out;
}
