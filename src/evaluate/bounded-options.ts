/**
 * The evaluation options beyond the paper: a bounded wait, holding capacity only when it pays, and credit
 * that sees evictions. Each is off by default, so that `evaluate` with no options is the paper's method;
 * `boundedEvaluateOptions` turns all three on. The README section "Beyond the paper" states the rules
 * and the guarantee.
 */
import { nonNegativeOrInfinity, positiveInteger, positiveOrInfinity } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { defaultSolveOptions } from '../solve/options.js';

/** Where cache credit comes from: the last observation only, or also the engine's live cached prefix. */
export type CreditSource = 'observed' | 'live';

/** The values of `creditSource`. */
export const CREDIT_SOURCES: readonly CreditSource[] = Object.freeze(['observed', 'live']);

/** The bounded-wait, hold and credit-source options of `EvaluateOptions`. */
export interface BoundedOptions {
  /**
   * Seconds a runnable session may wait (since its `waitingSince`, else its tool's `returnedAt`) before
   * it is *starved*. Starved sessions outrank credit: the plan admits as many of them as fit, and the
   * longest-waiting starved session that fits alone on an eligible node is always admitted.
   * `Infinity` disables this trigger.
   * @default Infinity
   */
  waitThreshold?: number;
  /**
   * A session whose wait reaches this multiple of its `expectedService` is starved too (the slowdown
   * trigger; sessions without `expectedService` are judged by `waitThreshold` alone). `Infinity`
   * disables this trigger.
   * @default Infinity
   */
  waitServiceMultiple?: number;
  /**
   * Reserve a node for the longest-waiting starved session when it fits alone on none of its eligible
   * nodes: its eligible node with the most residual capacity is made ineligible for every other session
   * until it fits there (and, being the longest-waiting starved session that fits, is admitted). Without
   * it a large starved session waits while smaller ones keep taking the room it needs. Needs the wait
   * bound on (a finite `waitThreshold` or `waitServiceMultiple`).
   * @default false
   */
  waitReserve?: boolean;
  /**
   * The solver's capacity quantum in tokens: "fits alone" (which starved session is sure to be admitted)
   * is judged as the solver judges it, ceil(weight / quantum) <= floor(capacity / quantum). Set it to the
   * quantum you solve with.
   * @default the solver's default quantum (16)
   */
  waitQuantum?: number;
  /**
   * Hold horizon tau in seconds: a session whose tool is still running (predicted ready or not) is
   * eligible on node b only if `weight * remaining < tau * credit(b)` (capacity-seconds withheld less
   * than what the cached prefix saves), with `remaining` the predictor's expected remaining tool time.
   * It is the hold horizon of a session whose whole weight is cached; about node capacity divided by
   * prefill throughput. `Infinity`: every running session is admissible (the paper).
   * @default Infinity
   */
  holdHorizon?: number;
  /**
   * `observed`: credit decays from the last cache observation (the paper). `live`: it is also capped
   * by the `live` prefix the engine reports for that observation (evictions lower it at once).
   * @default 'observed'
   */
  creditSource?: CreditSource;
}

/** Bounded options with every field filled in. */
export type ResolvedBoundedOptions = Required<BoundedOptions>;

/** All three parts off: the paper's evaluation. */
export const defaultBoundedOptions: Readonly<ResolvedBoundedOptions> = Object.freeze({
  waitThreshold: Number.POSITIVE_INFINITY,
  waitServiceMultiple: Number.POSITIVE_INFINITY,
  waitReserve: false,
  waitQuantum: defaultSolveOptions.quantum,
  holdHorizon: Number.POSITIVE_INFINITY,
  creditSource: 'observed',
});

/**
 * The recommended configuration: starved after 60 s of waiting or 10 times the expected service, holds
 * that pay within 2 s at full credit, live credit (the horizon and threshold measured on held-out
 * settings and seeds, docs/bounded-wait.md). Pass it (or spread it under your own fields) as the
 * evaluation options; the simulator policy `tao-bounded` uses the same values.
 */
export const boundedEvaluateOptions: Readonly<ResolvedBoundedOptions> = Object.freeze({
  waitThreshold: 60,
  waitServiceMultiple: 10,
  waitReserve: true,
  waitQuantum: defaultSolveOptions.quantum,
  holdHorizon: 2,
  creditSource: 'live',
});

/** Whether the bounded wait is on (either trigger). */
export function waitBoundOn(o: ResolvedBoundedOptions): boolean {
  return o.waitThreshold !== Number.POSITIVE_INFINITY || o.waitServiceMultiple !== Number.POSITIVE_INFINITY;
}

/**
 * Validates the bounded fields of `options` (already checked to be a plain object of known keys) into
 * `out`, naming each field by `path`.
 */
export function resolveBoundedInto(options: BoundedOptions, out: ResolvedBoundedOptions, path: string): void {
  if (options.waitThreshold !== undefined) {
    out.waitThreshold = nonNegativeOrInfinity(options.waitThreshold, path, '.waitThreshold');
  }
  if (options.waitServiceMultiple !== undefined) {
    out.waitServiceMultiple = positiveOrInfinity(options.waitServiceMultiple, path, '.waitServiceMultiple');
  }
  if (options.waitReserve !== undefined) {
    if (typeof options.waitReserve !== 'boolean') throw new InvalidTypeError(`${path}.waitReserve must be a boolean`);
    out.waitReserve = options.waitReserve;
  }
  if (options.waitQuantum !== undefined) {
    out.waitQuantum = positiveInteger(options.waitQuantum, path, '.waitQuantum');
  }
  if (options.holdHorizon !== undefined) {
    out.holdHorizon = nonNegativeOrInfinity(options.holdHorizon, path, '.holdHorizon');
  }
  if (options.creditSource !== undefined) {
    const c: unknown = options.creditSource;
    if (typeof c !== 'string') throw new InvalidTypeError(`${path}.creditSource must be a string`);
    if (!(CREDIT_SOURCES as readonly string[]).includes(c)) {
      throw new InvalidValueError(`${path}.creditSource must be "observed" or "live"`);
    }
    out.creditSource = c as CreditSource;
  }
}
