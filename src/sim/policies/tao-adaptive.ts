/**
 * `tao-adaptive`: `tao-bounded` with its two time constants derived from the setting instead of fixed
 * (docs/recommended-policy.md):
 * - the hold rule (hold.ts) at horizon tau = C / rho, C the node's KV capacity and rho its idle prefill rate:
 *   a session whose tool still runs is held on node b only if w * remaining < tau * k(b), i.e. the
 *   capacity-seconds withheld for the predicted remaining tool time are fewer than the node-time the
 *   re-prefill of the cached prefix would take (each prefilled second of a node stands for C
 *   capacity-seconds). `remaining` is the readiness predictor's. Nodes of different sizes: the smallest tau.
 * - the bounded wait (wait-boost.ts) at threshold theta = `waitHorizons` * tau: once a runnable session has
 *   waited theta its value outranks every credit (the starved tiers), the longest-waiting one is admitted
 *   first, and a large one that fits nowhere gets a reservation (`waitReserve`). The bound this gives on a
 *   wait is stated and proved in docs/recommended-policy.md ("The tail rule").
 * Everything else is `tao-bounded`'s: live credit, event admission, the exact DP. `tao-adaptive-hold` keeps
 * `tao-bounded`'s fixed 60 s threshold (the derived hold alone). Fields of `PolicyContext.taoBounded` that
 * differ from `tao-bounded`'s defaults override the derived ones (the runner fills every field in, so a
 * field at its default cannot be told from one not given).
 */
import { prefillRate } from '../engine.js';
import type { PolicyName } from '../policy.js';
import type { SimSetting } from '../settings.js';
import { createTaoBoundedPolicy, defaultTaoBoundedParams, type TaoBoundedParams } from './tao-bounded.js';
import type { TaoBoundedPolicyOptions } from './tao-bounded.js';

export type TaoAdaptiveVariant = 'tao-adaptive' | 'tao-adaptive-hold';

/**
 * Thresholds of the bounded wait in units of tau: the held-out choice of scripts/beyond-tables.mjs on the
 * calibration before main's merge; docs/results/beyond-selection.md holds the current run's choice, which
 * the script uses and compares with this default.
 */
export const DEFAULT_WAIT_HORIZONS = 4;

/** tau = C / rho of the setting's smallest ratio, seconds. */
export function derivedHoldHorizon(setting: SimSetting): number {
  const rho = prefillRate(setting.engine);
  let tau = Number.POSITIVE_INFINITY;
  for (const n of setting.nodes) tau = Math.min(tau, n.capacity / rho);
  return tau;
}

/** The `tao-bounded` knobs of `variant` on `setting`, with the fields of `overrides` off their defaults on top. */
export function adaptiveParams(
  variant: TaoAdaptiveVariant,
  setting: SimSetting,
  overrides: Partial<TaoBoundedParams> | undefined,
  waitHorizons = DEFAULT_WAIT_HORIZONS,
): TaoBoundedParams {
  const tau = derivedHoldHorizon(setting);
  const derived: TaoBoundedParams = {
    ...defaultTaoBoundedParams,
    holdHorizon: tau,
    waitThreshold: variant === 'tao-adaptive' ? waitHorizons * tau : defaultTaoBoundedParams.waitThreshold,
  };
  const changed: Partial<Record<keyof TaoBoundedParams, unknown>> = {};
  if (overrides !== undefined) {
    for (const key of Object.keys(overrides) as (keyof TaoBoundedParams)[]) {
      if (overrides[key] !== undefined && overrides[key] !== defaultTaoBoundedParams[key])
        changed[key] = overrides[key];
    }
  }
  return { ...derived, ...(changed as Partial<TaoBoundedParams>) };
}

export function createTaoAdaptivePolicy(
  variant: TaoAdaptiveVariant,
  setting: SimSetting,
  overrides: Partial<TaoBoundedParams> | undefined,
  rest: Omit<TaoBoundedPolicyOptions, 'variant' | 'bounded'>,
): ReturnType<typeof createTaoBoundedPolicy> {
  const policy = createTaoBoundedPolicy({
    ...rest,
    variant: 'tao-bounded',
    bounded: adaptiveParams(variant, setting, overrides),
  });
  return { ...policy, name: variant satisfies PolicyName };
}
