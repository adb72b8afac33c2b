/**
 * TAO and the policies that share its pipeline, every tick of period H:
 *
 *     Snapshot of the pool -> evaluate(snapshot, predictor) -> Problem -> decision -> admissions in plan order
 *
 * - `tao`: the decision is `solve(problem, { quantum, stateBudget })` (the lexicographic DP; BFD when
 *   the state budget is exceeded, counted as a fallback).
 * - `tao-no-credit`: every credit zeroed before the DP (readiness and tokens decide).
 * - `tao-no-ready`: every `ready` false before the DP.
 * - `tao-bfd`: best-fit decreasing by value (`bfd(problem, { order: 'value' })`) in place of the DP.
 * - `tao-ta-order`: ThunderAgent's pause ordering feeding the DP. Definition (ours): the DP's triple is
 *   replaced by ThunderAgent's three tiers as strict priorities: credit := (n+1)^2 for a session whose
 *   request is issued (tool returned), n+1 for a new session, 1 for one whose tool still runs (n = pool
 *   size), on every node; ready := 0; tokens := 0. Maximizing the sum then admits as many sessions of the
 *   first tier as fit, then of the second, then the third, which is what ThunderAgent's ascending-token
 *   selection approximates greedily; placement is the DP's, cache and readiness play no part.
 * - `greedy`: the same Problem decided by greedy-by-triple (see greedy-triple.ts).
 *
 * The predictor learns from every tool call that returns during the run.
 */
import { defaultEvaluateOptions, type EvaluateOptions } from '../../evaluate/options.js';
import type { Snapshot } from '../../evaluate/snapshot.js';
import { defaultPredictorOptions, type PredictorOptions } from '../../evaluate/readiness/options.js';
import { defaultSolveOptions } from '../../solve/options.js';
import type { Assignment, Plan, Problem, ProblemSession } from '../../types.js';
import type { SimPredictor, TaoDeps } from '../deps.js';
import type { CompletedToolCall } from '../../evaluate/readiness/predictor.js';
import type { Admission, Policy, PolicyName, PolicyStats, ProblemTick, SchedulerView } from '../policy.js';
import { buildSnapshot } from '../snapshot-builder.js';
import { greedyByTriple } from './greedy-triple.js';

export type TaoVariant = 'tao' | 'tao-no-credit' | 'tao-no-ready' | 'tao-bfd' | 'tao-ta-order' | 'greedy';

/** The knobs of the TAO pipeline; each defaults to the package's default of the option it sets. */
export interface TaoParams {
  /** Half-life h of cache credit, seconds. @default defaultEvaluateOptions.halfLife */
  readonly halfLife: number;
  /** Readiness horizon H, seconds; also the scheduling period. @default defaultPredictorOptions.horizon */
  readonly horizon: number;
  /** Confidence delta of the Bernstein bound. @default defaultPredictorOptions.delta */
  readonly delta: number;
  /** Capacity quantum Delta, tokens. @default defaultSolveOptions.quantum */
  readonly quantum: number;
  /** DP state budget (units of work, see SolveOptions.stateBudget). @default defaultSolveOptions.stateBudget */
  readonly stateBudget: number;
  /** Per-session reserve added to the admission weight, tokens. @default defaultEvaluateOptions.reserve */
  readonly reserve: number;
  /** Rounding unit of decayed credit, tokens. @default defaultEvaluateOptions.creditUnit */
  readonly creditUnit: number;
}

/** The TAO parameters' defaults: the evaluation, predictor and solve defaults, frozen. */
export const defaultTaoParams: Readonly<TaoParams> = Object.freeze({
  halfLife: defaultEvaluateOptions.halfLife,
  horizon: defaultPredictorOptions.horizon,
  delta: defaultPredictorOptions.delta,
  quantum: defaultSolveOptions.quantum,
  stateBudget: defaultSolveOptions.stateBudget,
  reserve: defaultEvaluateOptions.reserve,
  creditUnit: defaultEvaluateOptions.creditUnit,
});

function withoutCredit(s: ProblemSession): ProblemSession {
  const { credit: _credit, ...rest } = s;
  return rest;
}

function transform(variant: TaoVariant, problem: Problem, view: SchedulerView): Problem {
  switch (variant) {
    case 'tao-no-credit':
      return { nodes: problem.nodes, sessions: problem.sessions.map(withoutCredit) };
    case 'tao-no-ready':
      return { nodes: problem.nodes, sessions: problem.sessions.map((s) => ({ ...s, ready: false })) };
    case 'tao-ta-order': {
      const n = view.pool.length;
      const nodeIds = problem.nodes.map((x) => x.id);
      return {
        nodes: problem.nodes,
        sessions: problem.sessions.map((s, i) => {
          const p = view.pool[i]!;
          const score = p.step === 0 ? n + 1 : p.pending ? (n + 1) * (n + 1) : 1;
          const credit: Record<string, number> = Object.create(null) as Record<string, number>;
          for (const id of nodeIds) credit[id] = score;
          return { ...withoutCredit(s), credit, ready: false, tokens: 0 };
        }),
      };
    }
    default:
      return problem;
  }
}

export interface TaoPolicyOptions {
  readonly variant: TaoVariant;
  readonly params: TaoParams;
  readonly deps: TaoDeps;
  /** Extra predictor options (horizon and delta come from `params`). */
  readonly predictor?: PredictorOptions;
  /** Called with the Problem of every tick whose pool is not empty, before it is decided. */
  readonly onProblem?: (tick: ProblemTick) => void;
  /** The policy's name, when it is not the variant's (a policy built on the `tao` pipeline). */
  readonly name?: PolicyName;
  /** Evaluation options beyond `params` (the bounded wait, hold and credit-source options). */
  readonly evaluate?: EvaluateOptions;
  /** Adds what those options read to each tick's snapshot. */
  readonly snapshot?: (snapshot: Snapshot, view: SchedulerView) => Snapshot;
}

export function createTaoPolicy(options: TaoPolicyOptions): Policy {
  const { variant, params, deps, onProblem } = options;
  const predictor: SimPredictor = deps.createPredictor({
    ...options.predictor,
    horizon: params.horizon,
    delta: params.delta,
  });
  const evaluateOptions: EvaluateOptions = {
    ...options.evaluate,
    halfLife: params.halfLife,
    creditUnit: params.creditUnit,
    reserve: params.reserve,
  };
  const solveOptions = { quantum: params.quantum, stateBudget: params.stateBudget };
  const stats: PolicyStats = { solverCalls: 0, solverFallbacks: 0 };
  const indexOf = new Map<string, number>();

  function decide(problem: Problem): readonly Assignment[] {
    if (variant === 'greedy') return greedyByTriple(problem);
    let plan: Plan;
    if (variant === 'tao-bfd') {
      plan = deps.bfd(problem, { ...solveOptions, order: 'value' });
    } else {
      plan = deps.solve(problem, solveOptions);
      stats.solverCalls++;
      if (plan.status === 'fallback') stats.solverFallbacks++;
    }
    return plan.assignments;
  }

  return {
    name: options.name ?? (variant satisfies PolicyName),
    period: params.horizon,
    reactive: false,
    stats,
    schedule(view: SchedulerView): readonly Admission[] {
      const snapshot = buildSnapshot(view);
      const evaluated = deps.evaluate(options.snapshot?.(snapshot, view) ?? snapshot, predictor, evaluateOptions);
      const problem = transform(variant, evaluated, view);
      onProblem?.({ tick: Math.round(view.time / params.horizon), time: view.time, problem });
      const assignments = decide(problem);
      if (assignments.length === 0) return [];
      indexOf.clear();
      view.pool.forEach((s, i) => indexOf.set(s.id, i));
      const nodeIndex = new Map(view.nodes.map((n) => [n.id, n.index] as const));
      return assignments.map((a) => {
        const i = indexOf.get(a.session)!;
        // The admission holds the evaluated weight (tokens + reserve), the one the plan was packed with.
        return { session: view.pool[i]!.index, node: nodeIndex.get(a.node)!, weight: evaluated.sessions[i]!.weight };
      });
    },
    toolReturned(call: CompletedToolCall): void {
      predictor.observe(call);
    },
  } satisfies Policy;
}
