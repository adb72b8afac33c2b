/**
 * The solvers the benchmark times, behind one interface. Each runner is set up once per benchmark run,
 * validated on the whole corpus, then timed. Every runner solves with the same resolved SolveOptions, so
 * their optimal values are comparable.
 */
import { bfd } from '../solve/bfd.js';
import type { ResolvedSolveOptions } from '../solve/options.js';
import { createSolverPool } from '../pool/pool.js';
import { solveFrontierReference } from '../solve/dp/frontier/mirror.js';
import { loadSolver } from '../solve/solver.js';
import type { Plan, Problem } from '../types.js';
import { loadHighs, solveWithHighs, type LegacyHighs } from './highs.js';

/** One way of solving a Problem. */
export interface Runner {
  /** Unique in a run; the report's key. The harness knows RUNNER_NAMES; tests may add others. */
  readonly name: string;
  /** What the runner measures, for the report. */
  readonly description: string;
  /** Acquires what the solves need (a WASM instance, worker threads). Called once, before any solve. */
  setup(): Promise<void>;
  /** Solves one problem; a Promise is awaited inside the timed window (end to end). */
  solve(problem: Problem): Plan | Promise<Plan>;
  /** Releases what `setup` acquired. */
  teardown(): Promise<void>;
}

/** Runners the harness knows by name. */
export const RUNNER_NAMES = ['wasm', 'pool', 'reference', 'bfd', 'highs'] as const;
export type RunnerName = (typeof RUNNER_NAMES)[number];

export function isRunnerName(x: string): x is RunnerName {
  return (RUNNER_NAMES as readonly string[]).includes(x);
}

/** A runner that cannot run here, and why. */
export interface SkippedRunner {
  name: string;
  reason: string;
}

function notSetUp(name: string): Error {
  return new Error(`runner ${name}: solve() called before setup()`);
}

/** In-thread WASM DP: `loadSolver()` then the synchronous `solver.solve`. */
export function wasmRunner(options: ResolvedSolveOptions): Runner {
  let solver: Awaited<ReturnType<typeof loadSolver>> | undefined;
  return {
    name: 'wasm',
    description: 'in-thread WASM DP (solver.solve)',
    async setup() {
      solver = await loadSolver();
    },
    solve(problem) {
      if (solver === undefined) throw notSetUp('wasm');
      return solver.solve(problem, options);
    },
    async teardown() {
      solver?.close();
      solver = undefined;
    },
  };
}

/** The worker pool, timed end to end from the caller's side: post, solve off-thread, await the plan. */
export function poolRunner(options: ResolvedSolveOptions): Runner {
  let pool: ReturnType<typeof createSolverPool> | undefined;
  return {
    name: 'pool',
    description: 'WASM DP in the worker pool, awaited end to end (pool.solve)',
    async setup() {
      pool = createSolverPool();
      // Warm: workers hold an instantiated solver before the first timed solve (a cold start is ~40 ms).
      await pool.ready();
    },
    solve(problem) {
      if (pool === undefined) return Promise.reject(notSetUp('pool'));
      return pool.solve(problem, options);
    },
    async teardown() {
      await pool?.close();
      pool = undefined;
    },
  };
}

/**
 * The TypeScript mirror of the solver's exact path (`solveFrontierReference`: the same closed-form checks,
 * incumbent and frontier DP, on BigInt keys): exact on every problem whatever its grid, so it is the
 * oracle of every WASM plan, and the WASM/reference ratio compares the same algorithm in two languages.
 * Being the same algorithm, it checks the implementation; HiGHS, on its subsample, checks the method.
 */
export function solveWithReference(problem: Problem, options: ResolvedSolveOptions): Plan {
  // Bounded like the solver (its state budget), so a corpus tick past the budget ends as a labelled
  // fallback, not an unbounded exact search; the harness trusts only the reference's optimal plans.
  return solveFrontierReference(problem, options, options.stateBudget);
}

/** The TypeScript reference as a runner (see solveWithReference). */
export function referenceRunner(options: ResolvedSolveOptions): Runner {
  return {
    name: 'reference',
    description: 'TypeScript twin of the exact path (solveFrontierReference)',
    async setup() {},
    solve: (problem) => solveWithReference(problem, options),
    async teardown() {},
  };
}

/** Best-fit decreasing alone: the fallback and the ThunderAgent placement. */
export function bfdRunner(options: ResolvedSolveOptions): Runner {
  return {
    name: 'bfd',
    description: 'best-fit decreasing (bfd)',
    async setup() {},
    solve: (problem) => bfd(problem, options),
    async teardown() {},
  };
}

/**
 * HiGHS lexicographic MILP (three stages), on a subsample: it is slow. Throws when HiGHS proves no
 * optimum within its time limit (the harness then has no HiGHS oracle value for that problem).
 */
export function highsRunner(options: ResolvedSolveOptions, highs: LegacyHighs, timeLimitSec: number): Runner {
  return {
    name: 'highs',
    description: 'HiGHS 3-stage lexicographic MILP at the same quantum, on a subsample',
    async setup() {},
    solve(problem) {
      const answer = solveWithHighs(highs, problem, options.quantum, timeLimitSec);
      if (!answer.ok) throw new Error(answer.reason);
      return answer.plan;
    },
    async teardown() {},
  };
}

/**
 * Builds the named runners. HiGHS, a devDependency, is skipped with the reason when it cannot be loaded;
 * every other runner is required.
 */
export async function createRunners(
  names: readonly RunnerName[],
  options: ResolvedSolveOptions,
  highsTimeLimitSec: number,
): Promise<{ runners: Runner[]; skipped: SkippedRunner[] }> {
  const runners: Runner[] = [];
  const skipped: SkippedRunner[] = [];
  for (const name of names) {
    switch (name) {
      case 'wasm':
        runners.push(wasmRunner(options));
        break;
      case 'pool':
        runners.push(poolRunner(options));
        break;
      case 'reference':
        runners.push(referenceRunner(options));
        break;
      case 'bfd':
        runners.push(bfdRunner(options));
        break;
      case 'highs': {
        const h = await loadHighs();
        if (h.ok) runners.push(highsRunner(options, h.highs, highsTimeLimitSec));
        else skipped.push({ name, reason: h.reason });
        break;
      }
    }
  }
  return { runners, skipped };
}
