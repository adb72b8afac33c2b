/**
 * TAO and the policies that share its pipeline, every tick of period H:
 *
 *     Snapshot of the pool -> evaluate(snapshot, predictor) -> Problem -> decision -> admissions in plan order
 *
 * - `tao`: the decision is `solve(problem, { quantum, stateBudget })` (the lexicographic DP; BFD when
 *   the state budget is exceeded, counted as a fallback) over the whole waiting pool P, under the interrupt
 *   lifecycle: at a tool boundary a session releases its quota and joins P ("the interrupted sessions plus
 *   the new arrivals"); the DP's feasible set and objective range over every session of P, and the
 *   readiness bit r ranks "about to return" above "still far" sessions once credits tie (docs/simulator.md,
 *   "TAO's lifecycle"). A session seated while its tool runs holds its weight until its next tool boundary.
 * - `tao-ready`: the other reading, only sessions whose request is issued (the tool returned, or a new task)
 *   or whose readiness bit is 1 are admissible: r is then 1 on every session the DP sees.
 * - `tao-sticky`: the same decision resumes paused sessions under ThunderAgent's sticky lifecycle
 *   (sessions keep their node across tools, holding tokens + reserve; after each tick the pause step of
 *   sticky.ts pauses acting sessions smallest first on a node over capacity and marks reasoning ones).
 * Ablations, each changing only what its name says:
 * - `tao-no-credit` (selection without credit): WHICH sessions are admitted is decided by the DP with
 *   every credit zeroed; WHERE they go is then decided as in `tao`, by the DP over the selected sessions
 *   with their credits (placement stage below).
 * - `tao-ta-order` (ThunderAgent's pause ordering as the selection): the selection DP sees ThunderAgent's
 *   three tiers (`thunderAgentTier`) as strict priorities (credit := (n+1)^2 for a session whose request
 *   past its first is issued, n+1 for one that has sent one request, 1 for one whose tool still runs,
 *   n = pool size; ready := 0; tokens := 0), so it admits as many of the first tier as fit, then the
 *   second, then the third; placement as in `tao-no-credit`.
 * - `tao-no-ready`: every `ready` false before the DP (readiness only ever affects selection).
 * - `tao-zero-credit` (Table 4's "no cache credit", k = 0): every credit dropped before the DP, which then
 *   decides whom and where on (0, r, t) alone; unlike `tao-no-credit`, placement ignores the cache too.
 * - `tao-zero-credit-no-ready` (Table 4's "neither", k = 0 and r = 0): both of the above; the DP then
 *   ranks by tokens only.
 * - `tao-bfd`: best-fit decreasing by value (`bfd(problem, { order: 'value' })`) in place of the DP,
 *   then the solver's spreading tie-break (as every DP plan gets).
 * - `tao-bfd-plain` (Table 4's "BFD instead of DP"): the package's `bfd()` plan as it is, each session on
 *   the node where it leaves the least room (SPEC section 3's BFD), with no spreading tie-break.
 * - `greedy`: greedy-by-triple (greedy-triple.ts) in place of the DP, then the same tie-break.
 * Placement stage of the selection ablations: the Problem restricted to the selected sessions, every
 * credit raised by M = 1 + the sum over them of their largest credit, on every node they are eligible
 * for. Admitting one more session is then worth more than any credit, so the lexmax admits all of them
 * (they fit together: the selection DP packed them at the same quantum) and, among such plans, maximizes
 * the credit sum, then readiness and tokens, with the spreading tie-break: TAO's own placement.
 *
 * Options: `eventAdmission` also decides when the pool changes between ticks (a tool returns, a request
 * ends, a task starts), on by default: the paper's Table 4 puts a returned session's wait for admission
 * at ~0.05 s, which admission at 1 s ticks only cannot give (`tao-tick`, the ablation that ticks only, is
 * that reading); `creditSource: 'live'` gives the
 * evaluation the prefix cached on each node now (an eviction-aware credit, as a KV-event feed would)
 * instead of the last observation, which never sees evictions.
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
import type {
  Admission,
  AdmissionCapacity,
  Policy,
  PolicyName,
  PolicyStats,
  ProblemTick,
  SchedulerView,
} from '../policy.js';
import { buildSnapshot } from '../snapshot-builder.js';
import { greedyByTriple } from './greedy-triple.js';
import { pauseUntilSafe } from './sticky.js';
import { thunderAgentTier } from './thunderagent.js';

export type TaoVariant =
  | 'tao'
  | 'tao-ready'
  | 'tao-sticky'
  | 'tao-no-credit'
  | 'tao-no-ready'
  | 'tao-zero-credit'
  | 'tao-zero-credit-no-ready'
  | 'tao-bfd'
  | 'tao-bfd-plain'
  | 'tao-ta-order'
  | 'greedy';

/** Where the evaluation's cache observations come from. */
export type CreditSource = 'observed' | 'live';

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
  /**
   * Also decide between ticks when the pool changes (a tool returns, a request ends, a task starts): the
   * paper's reading (docs/simulator.md, "When TAO admits"); `tao-tick` is the ticks-only reading. @default true
   */
  readonly eventAdmission: boolean;
  /** `observed`: the last-use observation (k0, t_obs); `live`: the prefix cached now. @default 'observed' */
  readonly creditSource: CreditSource;
}

/** The numeric TAO parameters (the ones a sweep can vary). */
export type NumericTaoParam = { [K in keyof TaoParams]: TaoParams[K] extends number ? K : never }[keyof TaoParams];

/** The TAO parameters' defaults: the evaluation, predictor and solve defaults, frozen. */
export const defaultTaoParams: Readonly<TaoParams> = Object.freeze({
  halfLife: defaultEvaluateOptions.halfLife,
  horizon: defaultPredictorOptions.horizon,
  delta: defaultPredictorOptions.delta,
  quantum: defaultSolveOptions.quantum,
  stateBudget: defaultSolveOptions.stateBudget,
  reserve: defaultEvaluateOptions.reserve,
  creditUnit: defaultEvaluateOptions.creditUnit,
  eventAdmission: true,
  creditSource: 'observed',
});

function withoutCredit(s: ProblemSession): ProblemSession {
  const { credit: _credit, ...rest } = s;
  return rest;
}

/** The Problem the selection is decided on: TAO's, or the ablation's. */
function selectionProblem(variant: TaoVariant, problem: Problem, view: SchedulerView): Problem {
  switch (variant) {
    case 'tao-no-credit':
      return { nodes: problem.nodes, sessions: problem.sessions.map(withoutCredit) };
    case 'tao-no-ready':
      return { nodes: problem.nodes, sessions: problem.sessions.map((s) => ({ ...s, ready: false })) };
    case 'tao-zero-credit':
      return { nodes: problem.nodes, sessions: problem.sessions.map(withoutCredit) };
    case 'tao-zero-credit-no-ready':
      return { nodes: problem.nodes, sessions: problem.sessions.map((s) => ({ ...withoutCredit(s), ready: false })) };
    case 'tao-ta-order': {
      const n = view.pool.length;
      const nodeIds = problem.nodes.map((x) => x.id);
      return {
        nodes: problem.nodes,
        sessions: problem.sessions.map((s, i) => {
          const p = view.pool[i]!;
          const score = [(n + 1) * (n + 1), n + 1, 1][thunderAgentTier(p)]!;
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

/**
 * Which pooled sessions the Problem keeps: every one with `'any'` (the paper's pool P); with
 * `admissible: 'ready'`, those with an issued request or a ready bit (for `tao-no-ready`, which has no
 * readiness, issued requests only).
 */
function admissibleProblem(
  problem: Problem,
  evaluated: Problem,
  view: SchedulerView,
  admissible: Admissible,
  variant: TaoVariant,
): Problem {
  if (admissible === 'any') return problem;
  const keep = new Set<string>();
  view.pool.forEach((p, i) => {
    if (p.pending || (!withoutReadiness(variant) && evaluated.sessions[i]!.ready === true)) keep.add(p.id);
  });
  if (keep.size === problem.sessions.length) return problem;
  return { nodes: problem.nodes, sessions: problem.sessions.filter((s) => keep.has(s.id)) };
}

/** The variants that set every readiness bit to 0. */
function withoutReadiness(variant: TaoVariant): boolean {
  return variant === 'tao-no-ready' || variant === 'tao-zero-credit-no-ready';
}

/** The selection ablations: the selection is theirs, the placement TAO's. */
function separatesPlacement(variant: TaoVariant): boolean {
  return variant === 'tao-no-credit' || variant === 'tao-ta-order';
}

/**
 * The placement stage: `selected` sessions of `problem`, each with credit + M on every node it may use,
 * M larger than any credit sum, so that the lexmax places all of them and then maximizes their credit.
 */
export function placementProblem(problem: Problem, selected: ReadonlySet<string>): Problem {
  const sessions = problem.sessions.filter((s) => selected.has(s.id));
  let m = 1;
  for (const s of sessions) {
    let best = 0;
    if (s.credit !== undefined) for (const k of Object.values(s.credit)) if (k > best) best = k;
    m += best;
  }
  const nodeIds = problem.nodes.map((n) => n.id);
  return {
    nodes: problem.nodes,
    sessions: sessions.map((s) => {
      const credit: Record<string, number> = Object.create(null) as Record<string, number>;
      for (const id of s.eligible ?? nodeIds) credit[id] = (s.credit?.[id] ?? 0) + m;
      return { ...s, credit };
    }),
  };
}

/** Which pooled sessions a policy may admit (see `admissibleProblem`). */
export type Admissible = 'ready' | 'any';

export interface TaoPolicyOptions {
  readonly variant: TaoVariant;
  /** @default 'ready' for `tao-ready`, 'any' for the other variants */
  readonly admissible?: Admissible;
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
  /** What admissions are counted against (see Policy.admission). @default 'reported' */
  readonly admission?: AdmissionCapacity;
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

  function solve(problem: Problem): readonly Assignment[] {
    const plan: Plan = deps.solve(problem, solveOptions);
    stats.solverCalls++;
    if (plan.status === 'fallback') stats.solverFallbacks++;
    return plan.assignments;
  }

  function decide(evaluated: Problem, problem: Problem): readonly Assignment[] {
    if (variant === 'greedy') return deps.spread(problem, greedyByTriple(problem), solveOptions);
    if (variant === 'tao-bfd')
      return deps.spread(problem, deps.bfd(problem, { ...solveOptions, order: 'value' }).assignments, solveOptions);
    if (variant === 'tao-bfd-plain') return deps.bfd(problem, { ...solveOptions, order: 'value' }).assignments;
    const selected = solve(problem);
    if (!separatesPlacement(variant) || selected.length === 0) return selected;
    return solve(placementProblem(evaluated, new Set(selected.map((a) => a.session))));
  }

  const sticky = variant === 'tao-sticky';
  const admissible: Admissible = options.admissible ?? (variant === 'tao-ready' ? 'ready' : 'any');
  return {
    name: options.name ?? (variant satisfies PolicyName),
    lifecycle: sticky ? 'sticky' : 'interrupt',
    ...(options.admission === undefined ? {} : { admission: options.admission }),
    ...(sticky
      ? { stickyReserve: params.reserve, rebalance: (view: SchedulerView) => pauseUntilSafe(view, params.reserve) }
      : {}),
    period: params.horizon,
    reactive: params.eventAdmission,
    stats,
    schedule(view: SchedulerView): readonly Admission[] {
      const snapshot = buildSnapshot(view, params.creditSource);
      const evaluated = deps.evaluate(options.snapshot?.(snapshot, view) ?? snapshot, predictor, evaluateOptions);
      const problem = admissibleProblem(
        selectionProblem(variant, evaluated, view),
        evaluated,
        view,
        admissible,
        variant,
      );
      // Nothing admissible: no decision to make (and nothing to record).
      if (problem.sessions.length === 0) return [];
      onProblem?.({ tick: Math.round(view.time / params.horizon), time: view.time, problem });
      const assignments = decide(evaluated, problem);
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
