/**
 * `tao-bounded`: TAO's pipeline (snapshot -> evaluate -> exact DP -> admissions in plan order), under the
 * paper's interrupt lifecycle as `tao` (every tool boundary releases the admission; the hold rule decides
 * which running tools may be readmitted early), with the evaluation options beyond the paper at the
 * package's recommended values (`boundedEvaluateOptions`): a bounded wait, holds only where they pay, live
 * credit. Its ablations switch one part off each:
 * - `tao-bounded-no-wait`: `waitThreshold` and `waitServiceMultiple` Infinity;
 * - `tao-bounded-no-reserve`: `waitReserve` false (the bounded wait without the reservation);
 * - `tao-bounded-no-hold`: `holdHorizon` Infinity (every running session admissible, as the paper);
 * - `tao-bounded-observed`: `creditSource: 'observed'` (credit from the last observation only).
 *
 * What the simulator adds to each snapshot: `waitingSince` of a pooled session whose request is issued
 * (its tool returned, or it is new) is when it was issued; each cache observation's `live` is the prefix of
 * the session the node caches right now (capped at the observation's tokens), the view a KV-event-fed
 * scheduler has. `expectedService` is not given, so `waitServiceMultiple` has no effect here. It also admits
 * between ticks when the pool changes (`eventAdmission`, on by default here, off for `tao`).
 */
import { checkOptionsObject } from '../../checks.js';
import { InvalidTypeError } from '../../errors.js';
import {
  boundedEvaluateOptions,
  resolveBoundedInto,
  type CreditSource,
  type ResolvedBoundedOptions,
} from '../../evaluate/bounded-options.js';
import type { CacheObservation, Snapshot, SnapshotSession } from '../../evaluate/snapshot.js';
import type { TaoDeps } from '../deps.js';
import type { Policy, ProblemTick, SchedulerView } from '../policy.js';
import { createTaoPolicy, type TaoParams } from './tao.js';

export type TaoBoundedVariant =
  | 'tao-bounded'
  | 'tao-bounded-no-wait'
  | 'tao-bounded-no-reserve'
  | 'tao-bounded-no-hold'
  | 'tao-bounded-observed';

/** Every `tao-bounded` policy: the full variant, then one ablation per part. */
export const TAO_BOUNDED_VARIANTS: readonly TaoBoundedVariant[] = Object.freeze([
  'tao-bounded',
  'tao-bounded-no-wait',
  'tao-bounded-no-reserve',
  'tao-bounded-no-hold',
  'tao-bounded-observed',
]);

/** The knobs of `tao-bounded` beyond TAO's (same names and meaning as the evaluation options). */
export interface TaoBoundedParams {
  /** Seconds of waiting after which a session is starved. @default boundedEvaluateOptions.waitThreshold */
  readonly waitThreshold: number;
  /** Starved also at this multiple of its expected service. @default boundedEvaluateOptions.waitServiceMultiple */
  readonly waitServiceMultiple: number;
  /** Reserve a node for the oldest starved session when it fits nowhere. @default boundedEvaluateOptions.waitReserve */
  readonly waitReserve: boolean;
  /** Hold horizon tau, seconds. @default boundedEvaluateOptions.holdHorizon */
  readonly holdHorizon: number;
  /** Credit source. @default boundedEvaluateOptions.creditSource */
  readonly creditSource: CreditSource;
  /**
   * Also decide between ticks when the pool changes (a tool returns, a request ends, a task starts), as
   * `tao`'s `eventAdmission`; measured to help `tao-bounded` (docs/bounded-wait.md). @default true
   */
  readonly eventAdmission: boolean;
}

export const defaultTaoBoundedParams: Readonly<TaoBoundedParams> = Object.freeze({
  waitThreshold: boundedEvaluateOptions.waitThreshold,
  waitServiceMultiple: boundedEvaluateOptions.waitServiceMultiple,
  waitReserve: boundedEvaluateOptions.waitReserve,
  holdHorizon: boundedEvaluateOptions.holdHorizon,
  creditSource: boundedEvaluateOptions.creditSource,
  eventAdmission: true,
});

/**
 * `p` checked field by field (a plain object of known keys, each as the evaluation option of the same
 * name) over the defaults; an error names `path` and the field.
 */
export function resolveTaoBoundedParams(
  p: Partial<TaoBoundedParams> | undefined,
  path = 'options.taoBounded',
): TaoBoundedParams {
  if (p === undefined) return defaultTaoBoundedParams;
  checkOptionsObject(p, defaultTaoBoundedParams, path);
  const { eventAdmission, ...evaluateKnobs } = p;
  if (eventAdmission !== undefined && typeof eventAdmission !== 'boolean')
    throw new InvalidTypeError(`${path}.eventAdmission must be a boolean`);
  const out: ResolvedBoundedOptions = { ...boundedEvaluateOptions, ...defaultTaoBoundedParams };
  resolveBoundedInto(evaluateKnobs, out, path);
  return Object.freeze({
    waitThreshold: out.waitThreshold,
    waitServiceMultiple: out.waitServiceMultiple,
    waitReserve: out.waitReserve,
    holdHorizon: out.holdHorizon,
    creditSource: out.creditSource,
    eventAdmission: eventAdmission ?? defaultTaoBoundedParams.eventAdmission,
  });
}

/** The params of `variant`: the given ones with its part switched off. */
export function ablate(variant: TaoBoundedVariant, p: TaoBoundedParams): TaoBoundedParams {
  switch (variant) {
    case 'tao-bounded':
      return p;
    case 'tao-bounded-no-wait':
      return { ...p, waitThreshold: Number.POSITIVE_INFINITY, waitServiceMultiple: Number.POSITIVE_INFINITY };
    case 'tao-bounded-no-reserve':
      return { ...p, waitReserve: false };
    case 'tao-bounded-no-hold':
      return { ...p, holdHorizon: Number.POSITIVE_INFINITY };
    case 'tao-bounded-observed':
      return { ...p, creditSource: 'observed' };
  }
}

/** `snapshot` (built from `view`) with each issued session's `waitingSince` and, if `live`, the live prefixes. */
export function boundedSnapshot(snapshot: Snapshot, view: SchedulerView, live: boolean): Snapshot {
  const nodeIndex = new Map(view.nodes.map((n) => [n.id, n.index] as const));
  const sessions = snapshot.sessions.map((s, i): SnapshotSession => {
    const pooled = view.pool[i]!;
    let out = s;
    if (pooled.pending) out = { ...out, waitingSince: pooled.issuedAt };
    if (live && s.cache !== undefined) {
      const cache = s.cache.map(
        (o): CacheObservation => ({
          ...o,
          live: Math.min(o.tokens, view.cachedTokens(pooled.index, nodeIndex.get(o.node)!)),
        }),
      );
      out = { ...out, cache };
    }
    return out;
  });
  return { ...snapshot, sessions };
}

export interface TaoBoundedPolicyOptions {
  readonly variant: TaoBoundedVariant;
  readonly params: TaoParams;
  readonly bounded: TaoBoundedParams;
  readonly deps: TaoDeps;
  readonly onProblem?: (tick: ProblemTick) => void;
}

export function createTaoBoundedPolicy(options: TaoBoundedPolicyOptions): Policy {
  const { variant, params, deps, onProblem } = options;
  const b = ablate(variant, options.bounded);
  const live = b.creditSource === 'live';
  return createTaoPolicy({
    variant: 'tao',
    // Its own hold horizon decides how early a session may be seated.
    admissible: 'any',
    name: variant,
    params: { ...params, eventAdmission: b.eventAdmission },
    deps,
    evaluate: {
      waitThreshold: b.waitThreshold,
      waitServiceMultiple: b.waitServiceMultiple,
      waitReserve: b.waitReserve,
      waitQuantum: params.quantum,
      holdHorizon: b.holdHorizon,
      creditSource: b.creditSource,
    },
    snapshot: (snapshot, view) => boundedSnapshot(snapshot, view, live),
    ...(onProblem === undefined ? {} : { onProblem }),
  });
}
