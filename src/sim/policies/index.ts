/** Builds any policy by name. */
import { InvalidValueError } from '../../errors.js';
import type { TaoDeps } from '../deps.js';
import { POLICY_NAMES, type Policy, type PolicyName, type ProblemTick } from '../policy.js';
import type { SimSetting } from '../settings.js';
import { createCacheAware, defaultCacheAwareParams } from './cache-aware.js';
import { createDynamo } from './dynamo.js';
import { createRoundRobin } from './round-robin.js';
import { createTaoPolicy, defaultTaoParams, type TaoParams } from './tao.js';
import {
  createTaoBoundedPolicy,
  defaultTaoBoundedParams,
  TAO_BOUNDED_VARIANTS,
  type TaoBoundedParams,
} from './tao-bounded.js';
import { createThunderAgent, defaultThunderAgentParams } from './thunderagent.js';

/** Policies that build a solver Problem every tick (and so need the solver and evaluation loaded). */
export const PROBLEM_POLICIES: readonly PolicyName[] = [
  'tao',
  'tao-sticky',
  'tao-no-credit',
  'tao-no-ready',
  'tao-bfd',
  'tao-ta-order',
  'greedy',
  ...TAO_BOUNDED_VARIANTS,
];

export function needsDeps(name: PolicyName): boolean {
  return PROBLEM_POLICIES.includes(name);
}

export interface PolicyContext {
  readonly setting: SimSetting;
  /** Required by the Problem-building policies. */
  readonly deps?: TaoDeps;
  readonly tao?: Partial<TaoParams>;
  /** The `tao-bounded` knobs (its ablations switch one part off on top of them). */
  readonly taoBounded?: Partial<TaoBoundedParams>;
  readonly onProblem?: (tick: ProblemTick) => void;
}

/** What every policy on TAO's pipeline takes from the context: params, the solver, the recording hook. */
function pipeline(
  name: PolicyName,
  ctx: PolicyContext,
): { params: TaoParams; deps: TaoDeps; onProblem?: (tick: ProblemTick) => void } {
  if (ctx.deps === undefined) throw new Error(`policy ${name} needs the solver: load it with loadTaoDeps()`);
  return {
    params: { ...defaultTaoParams, ...ctx.tao },
    deps: ctx.deps,
    ...(ctx.onProblem === undefined ? {} : { onProblem: ctx.onProblem }),
  };
}

export function createPolicy(name: PolicyName, ctx: PolicyContext): Policy {
  const nodeCount = ctx.setting.nodes.length;
  switch (name) {
    case 'round-robin':
      return createRoundRobin(nodeCount);
    case 'cache-aware':
      return createCacheAware(nodeCount, defaultCacheAwareParams);
    case 'dynamo':
      return createDynamo(nodeCount, { overlapWeight: 1, blockSize: ctx.setting.engine.blockSize });
    case 'thunderagent':
      return createThunderAgent(defaultThunderAgentParams);
    case 'tao':
    case 'tao-sticky':
    case 'tao-no-credit':
    case 'tao-no-ready':
    case 'tao-bfd':
    case 'tao-ta-order':
    case 'greedy':
      return createTaoPolicy({ variant: name, ...pipeline(name, ctx) });
    case 'tao-bounded':
    case 'tao-bounded-no-wait':
    case 'tao-bounded-no-reserve':
    case 'tao-bounded-no-hold':
    case 'tao-bounded-observed':
      return createTaoBoundedPolicy({
        variant: name,
        bounded: { ...defaultTaoBoundedParams, ...ctx.taoBounded },
        ...pipeline(name, ctx),
      });
    default: {
      const never: never = name;
      throw new InvalidValueError(`policy must be one of ${POLICY_NAMES.join(', ')} (got "${String(never)}")`);
    }
  }
}
