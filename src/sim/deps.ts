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
import type { Snapshot } from '../evaluate/snapshot.js';
import type { Plan, Problem } from '../types.js';

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
}

let loaded: Promise<TaoDeps> | undefined;

/** Loads the solver (WASM) once per process and binds the evaluation functions. */
export function loadTaoDeps(): Promise<TaoDeps> {
  loaded ??= loadSolver().then((solver) => ({
    solve: (problem, options) => solver.solve(problem, options),
    bfd: (problem, options) => bfd(problem, options),
    evaluate: (snapshot, predictor, options) => evaluate(snapshot, predictor, options),
    createPredictor: (options) => new ReadinessPredictor(options),
  }));
  return loaded;
}
