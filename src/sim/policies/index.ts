/**
 * The policy registry: every policy by name, whether it needs the solver, and how it is built. It is the
 * one list of policies; `POLICY_NAMES` (the order reports list them in) and `PolicyName` derive from it.
 */
import { InvalidValueError } from '../../errors.js';
import type { TaoDeps } from '../deps.js';
import type { Policy, ProblemTick } from '../policy.js';
import type { SimSetting } from '../settings.js';
import { createCacheAware, defaultCacheAwareParams } from './cache-aware.js';
import { createContinuum, defaultContinuumParams } from './continuum.js';
import { createDynamo } from './dynamo.js';
import { createRoundRobin } from './round-robin.js';
import { createTaoPolicy, defaultTaoParams, type TaoParams, type TaoVariant } from './tao.js';
import {
  createTaoBoundedPolicy,
  defaultTaoBoundedParams,
  type TaoBoundedParams,
  type TaoBoundedVariant,
} from './tao-bounded.js';
import { createTaoAdaptivePolicy, type TaoAdaptiveVariant } from './tao-adaptive.js';
import { createThunderAgent, defaultThunderAgentParams } from './thunderagent.js';

export interface PolicyContext {
  readonly setting: SimSetting;
  /** Required by the Problem-building policies. */
  readonly deps?: TaoDeps;
  readonly tao?: Partial<TaoParams>;
  /** The `tao-bounded` knobs (its ablations switch one part off on top of them). */
  readonly taoBounded?: Partial<TaoBoundedParams>;
  readonly onProblem?: (tick: ProblemTick) => void;
}

export interface PolicyEntry {
  /** Builds a solver Problem every tick (needs the solver and evaluation loaded: loadTaoDeps). */
  readonly needsSolver: boolean;
  readonly create: (ctx: PolicyContext) => Policy;
}

/** What every policy on TAO's pipeline takes from the context: params, the solver, the recording hook. */
function pipeline(
  name: string,
  ctx: PolicyContext,
): { params: TaoParams; deps: TaoDeps; onProblem?: (tick: ProblemTick) => void } {
  if (ctx.deps === undefined) throw new Error(`policy ${name} needs the solver: load it with loadTaoDeps()`);
  return {
    params: { ...defaultTaoParams, ...ctx.tao },
    deps: ctx.deps,
    ...(ctx.onProblem === undefined ? {} : { onProblem: ctx.onProblem }),
  };
}

function tao(variant: TaoVariant): PolicyEntry {
  return { needsSolver: true, create: (ctx) => createTaoPolicy({ variant, ...pipeline(variant, ctx) }) };
}

/** `tao` deciding at its ticks only (the other reading of when the paper's TAO admits). */
function taoTick(): PolicyEntry {
  return {
    needsSolver: true,
    create: (ctx) => {
      const p = pipeline('tao-tick', ctx);
      return createTaoPolicy({
        variant: 'tao',
        name: 'tao-tick',
        ...p,
        params: { ...p.params, eventAdmission: false },
      });
    },
  };
}

/**
 * `tao` counting its admissions against the engine's own KV blocks instead of the capacity the engine
 * reports (they differ at DeepSeek only): how much of TAO's result there is the reported capacity's cap.
 */
function taoEngineCapacity(): PolicyEntry {
  return {
    needsSolver: true,
    create: (ctx) =>
      createTaoPolicy({ variant: 'tao', name: 'tao-engine-capacity', admission: 'engine', ...pipeline('tao', ctx) }),
  };
}

function bounded(variant: TaoBoundedVariant): PolicyEntry {
  return {
    needsSolver: true,
    create: (ctx) =>
      createTaoBoundedPolicy({
        variant,
        bounded: { ...defaultTaoBoundedParams, ...ctx.taoBounded },
        ...pipeline(variant, ctx),
      }),
  };
}

function adaptive(variant: TaoAdaptiveVariant): PolicyEntry {
  return {
    needsSolver: true,
    create: (ctx) => createTaoAdaptivePolicy(variant, ctx.setting, ctx.taoBounded, pipeline(variant, ctx)),
  };
}

/** Every policy, in the order reports list them. */
export const POLICY_REGISTRY = Object.freeze({
  tao: tao('tao'),
  'tao-ready': tao('tao-ready'),
  'tao-tick': taoTick(),
  'tao-sticky': tao('tao-sticky'),
  'tao-engine-capacity': taoEngineCapacity(),
  'tao-no-credit': tao('tao-no-credit'),
  'tao-no-ready': tao('tao-no-ready'),
  'tao-zero-credit': tao('tao-zero-credit'),
  'tao-zero-credit-no-ready': tao('tao-zero-credit-no-ready'),
  'tao-bfd': tao('tao-bfd'),
  'tao-bfd-plain': tao('tao-bfd-plain'),
  'tao-ta-order': tao('tao-ta-order'),
  'tao-bounded': bounded('tao-bounded'),
  'tao-bounded-no-wait': bounded('tao-bounded-no-wait'),
  'tao-bounded-no-reserve': bounded('tao-bounded-no-reserve'),
  'tao-bounded-no-hold': bounded('tao-bounded-no-hold'),
  'tao-bounded-observed': bounded('tao-bounded-observed'),
  'tao-adaptive': adaptive('tao-adaptive'),
  'tao-adaptive-hold': adaptive('tao-adaptive-hold'),
  thunderagent: { needsSolver: false, create: () => createThunderAgent(defaultThunderAgentParams) },
  continuum: { needsSolver: false, create: (ctx) => createContinuum(ctx.setting, defaultContinuumParams) },
  greedy: tao('greedy'),
  'round-robin': { needsSolver: false, create: (ctx) => createRoundRobin(ctx.setting.nodes.length) },
  'cache-aware': {
    needsSolver: false,
    create: (ctx) => createCacheAware(ctx.setting.nodes.length, defaultCacheAwareParams),
  },
  dynamo: {
    needsSolver: false,
    create: (ctx) =>
      createDynamo(ctx.setting.nodes.length, { overlapWeight: 1, blockSize: ctx.setting.engine.blockSize }),
  },
} satisfies Record<string, PolicyEntry>);

export type PolicyName = keyof typeof POLICY_REGISTRY;

/** Every policy name, in the order reports list them. */
export const POLICY_NAMES: readonly PolicyName[] = Object.freeze(Object.keys(POLICY_REGISTRY) as PolicyName[]);

export function isPolicyName(x: string): x is PolicyName {
  return Object.hasOwn(POLICY_REGISTRY, x);
}

/** Policies that build a solver Problem every tick. */
export const PROBLEM_POLICIES: readonly PolicyName[] = Object.freeze(
  POLICY_NAMES.filter((n) => POLICY_REGISTRY[n].needsSolver),
);

export function needsDeps(name: PolicyName): boolean {
  return POLICY_REGISTRY[name].needsSolver;
}

export function createPolicy(name: PolicyName, ctx: PolicyContext): Policy {
  if (!isPolicyName(name))
    throw new InvalidValueError(`policy must be one of ${POLICY_NAMES.join(', ')} (got "${String(name)}")`);
  return POLICY_REGISTRY[name].create(ctx);
}
