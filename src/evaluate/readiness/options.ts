import { MAX_PREDICTOR_HISTORY_SLOTS } from '../../limits.js';
import { anyNumber, checkOptionsObject, integerIn, nonNegativeFinite, positiveFinite } from '../../checks.js';
import { InvalidValueError } from '../../errors.js';

/** What a caller may set for a ReadinessPredictor. Times are seconds. */
export interface PredictorOptions {
  /**
   * Readiness horizon H: a session is ready when its tool is predicted to return within H of now. The
   * paper sets it to the scheduling period.
   * @default 1
   */
  horizon?: number;
  /**
   * Confidence delta of the empirical Bernstein bound on history durations, in (0, 1).
   * @default 0.2
   */
  delta?: number;
  /**
   * A prediction whose evidence was last refreshed longer ago than this does not make r = 1 (an overdue
   * probe still can). See ReadinessPredictor for what refreshes evidence.
   * @default 30
   */
  freshness?: number;
  /**
   * Predicted duration of a call with no other evidence and no usable history.
   * @default 5
   */
  defaultDuration?: number;
  /**
   * Samples a history needs before its bound is used (per tool, then global); at least 2, since the
   * bound needs a sample variance.
   * @default 2
   */
  minSamples?: number;
  /**
   * Durations kept per tool: the last `window` only, so the bound follows drift and memory is bounded.
   * @default 128
   */
  window?: number;
  /**
   * Durations kept in the history over all tools (the fallback for tools with too few samples).
   * @default 1024
   */
  globalWindow?: number;
  /**
   * Distinct tool names with a history; past it the least recently observed tool's history is dropped
   * (its calls then use the global history).
   * @default 256
   */
  maxTools?: number;
  /**
   * How long an overdue call stays ready in one probe.
   * @default the resolved `horizon` (one scheduling period)
   */
  probeWindow?: number;
  /**
   * Probes one overdue call may get; 0 disables probing.
   * @default 3
   */
  maxProbes?: number;
  /**
   * Overdue calls whose probe state is remembered; past it the least recently probed is forgotten (and
   * could be probed again if still running).
   * @default 1024
   */
  maxProbedCalls?: number;
}

/** Options with every field filled in. */
export type ResolvedPredictorOptions = Required<PredictorOptions>;

/** The defaults (paper values where the paper gives one), frozen. */
export const defaultPredictorOptions: Readonly<ResolvedPredictorOptions> = Object.freeze({
  horizon: 1,
  delta: 0.2,
  freshness: 30,
  defaultDuration: 5,
  minSamples: 2,
  window: 128,
  globalWindow: 1024,
  maxTools: 256,
  probeWindow: 1,
  maxProbes: 3,
  maxProbedCalls: 1024,
});

/** Largest per-tool window. */
export const MAX_WINDOW = 4096;
/** Largest global window. */
export const MAX_GLOBAL_WINDOW = 65536;
/** Largest tool cap. */
export const MAX_TOOLS = 65536;
/** Largest probe count per call. */
export const MAX_PROBES = 64;
/** Largest number of remembered overdue calls. */
export const MAX_PROBED_CALLS = 1 << 20;

/**
 * Merges a caller's options over the defaults once, validating each field by name. `probeWindow` follows
 * the resolved `horizon` unless set.
 */
export function resolvePredictorOptions(
  options: PredictorOptions | undefined,
  path = 'options',
): ResolvedPredictorOptions {
  if (options === undefined) return { ...defaultPredictorOptions };
  checkOptionsObject(options, defaultPredictorOptions, path);
  const o = options;
  const out: ResolvedPredictorOptions = { ...defaultPredictorOptions };
  if (o.horizon !== undefined) out.horizon = positiveFinite(o.horizon, `${path}.horizon`);
  if (o.delta !== undefined) {
    const d = anyNumber(o.delta, `${path}.delta`);
    if (!(d > 0 && d < 1)) throw new InvalidValueError(`${path}.delta must be a number in (0, 1)`);
    out.delta = d;
  }
  if (o.freshness !== undefined) out.freshness = nonNegativeFinite(o.freshness, `${path}.freshness`);
  if (o.defaultDuration !== undefined) {
    out.defaultDuration = nonNegativeFinite(o.defaultDuration, `${path}.defaultDuration`);
  }
  if (o.window !== undefined) out.window = integerIn(o.window, `${path}.window`, 2, MAX_WINDOW);
  if (o.globalWindow !== undefined) {
    out.globalWindow = integerIn(o.globalWindow, `${path}.globalWindow`, 2, MAX_GLOBAL_WINDOW);
  }
  if (o.minSamples !== undefined) {
    out.minSamples = integerIn(o.minSamples, `${path}.minSamples`, 2, MAX_WINDOW);
  }
  // A minimum no window can reach would silently disable that history.
  if (out.minSamples > out.window) {
    throw new InvalidValueError(`${path}.minSamples must be at most ${path}.window (${out.window})`);
  }
  if (out.minSamples > out.globalWindow) {
    throw new InvalidValueError(`${path}.minSamples must be at most ${path}.globalWindow (${out.globalWindow})`);
  }
  if (o.maxTools !== undefined) out.maxTools = integerIn(o.maxTools, `${path}.maxTools`, 1, MAX_TOOLS);
  // Each tool history reserves `window` slots: the product, not each factor, bounds the memory.
  if (out.maxTools * out.window > MAX_PREDICTOR_HISTORY_SLOTS) {
    throw new InvalidValueError(
      `${path}.maxTools * ${path}.window must be at most ${MAX_PREDICTOR_HISTORY_SLOTS} (is ${out.maxTools * out.window})`,
    );
  }
  out.probeWindow = o.probeWindow === undefined ? out.horizon : positiveFinite(o.probeWindow, `${path}.probeWindow`);
  if (o.maxProbes !== undefined) out.maxProbes = integerIn(o.maxProbes, `${path}.maxProbes`, 0, MAX_PROBES);
  if (o.maxProbedCalls !== undefined) {
    out.maxProbedCalls = integerIn(o.maxProbedCalls, `${path}.maxProbedCalls`, 1, MAX_PROBED_CALLS);
  }
  return out;
}
