/**
 * The simulator's seam to the package's solver and evaluation: the one file of src/sim that imports them.
 * Policies take these as values, so the simulator core has no dependency on WASM being loaded.
 */
import { bfd } from '../solve/bfd.js';
import { evaluate } from '../evaluate/evaluate.js';
import type { EvaluateOptions } from '../evaluate/options.js';
import type { SolveOptions } from '../solve/options.js';
import { ReadinessPredictor, type ReadinessSource } from '../evaluate/readiness/predictor.js';
import type { PredictorOptions } from '../evaluate/readiness/options.js';
import { loadSolver } from '../solve/solver.js';
import { resolveSolveOptions } from '../solve/options.js';
import { packProblem } from '../solve/pack.js';
import { spreadTies } from '../solve/ties.js';
import { validateProblem } from '../solve/validate.js';
import type { Snapshot } from '../evaluate/snapshot.js';
import type { Assignment, Plan, Problem } from '../types.js';

/** A predictor as the simulator drives it: evaluation queries it, completed tool calls teach it. */
export interface SimPredictor extends ReadinessSource {
  observe(call: { name: string; startedAt: number; returnedAt: number; command?: string }): unknown;
}

/** What the Problem-building policies need. */
export interface TaoDeps {
  solve(problem: Problem, options: SolveOptions): Plan;
  bfd(problem: Problem, options: SolveOptions & { order: 'value' | 'tokens' }): Plan;
  evaluate(snapshot: Snapshot, predictor: SimPredictor, options: EvaluateOptions): Problem;
  createPredictor(options: PredictorOptions): SimPredictor;
  /** `assignments` after the solver's value-preserving spreading tie-break (src/solve/ties.ts). */
  spread(problem: Problem, assignments: readonly Assignment[], options: SolveOptions): Assignment[];
}

/**
 * Applies the solver's spreading tie-break to a plan made outside the solver (BFD, greedy), so that
 * every decision rule the simulator compares breaks load ties the same way.
 */
function spread(problem: Problem, assignments: readonly Assignment[], options: SolveOptions): Assignment[] {
  if (assignments.length === 0) return [];
  const packed = packProblem(validateProblem(problem), resolveSolveOptions(options));
  const keptSession = new Map<number, number>();
  packed.sessionIndex.forEach((i, j) => keptSession.set(i, j));
  const keptNode = new Map<number, number>();
  packed.nodeIndex.forEach((b, k) => keptNode.set(b, k));
  const sessionAt = new Map(problem.sessions.map((s, i) => [s.id, i] as const));
  const nodeAt = new Map(problem.nodes.map((n, b) => [n.id, b] as const));
  const choice = new Int32Array(packed.sessionIndex.length).fill(-1);
  for (const a of assignments) {
    const j = keptSession.get(sessionAt.get(a.session)!);
    const k = keptNode.get(nodeAt.get(a.node)!);
    // A session that fits with its exact weight but not at the quantum is outside the quantized frame:
    // the tie-break cannot account for it, so the plan stays as it is.
    if (j === undefined || k === undefined || packed.candidate[j * packed.nodeIndex.length + k] !== 1)
      return [...assignments];
    choice[j] = k;
  }
  spreadTies(packed, choice);
  const out: Assignment[] = [];
  // Plan order is kept: the simulator applies admissions in the order the rule made them.
  for (const a of assignments) {
    const j = keptSession.get(sessionAt.get(a.session)!)!;
    out.push({ session: a.session, node: problem.nodes[packed.nodeIndex[choice[j]!]!]!.id });
  }
  return out;
}

let loaded: Promise<TaoDeps> | undefined;

/** Loads the solver (WASM) once per process and binds the evaluation functions. */
export function loadTaoDeps(): Promise<TaoDeps> {
  loaded ??= loadSolver().then((solver) => ({
    solve: (problem, options) => solver.solve(problem, options),
    bfd: (problem, options) => bfd(problem, options),
    evaluate: (snapshot, predictor, options) => evaluate(snapshot, predictor, options),
    createPredictor: (options) => new ReadinessPredictor(options),
    spread,
  }));
  return loaded;
}
