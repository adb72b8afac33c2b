import { afterAll, beforeAll } from 'vitest';
import { loadSolver, type Solver } from './internals.js';
import type { SolvePath } from './internals.js';
import { WasmKernels } from './internals.js';
import { STAGES } from './internals.js';

/** The `path` option's values. */
export const PATH_OPTIONS = ['auto', 'dense', 'frontier'] as const;

/** The paths each `path` option may report on a problem with something to decide (read from the stage lists). */
export const EXACT_PATHS: Record<(typeof PATH_OPTIONS)[number], readonly SolvePath[]> = {
  auto: exactPaths('auto'),
  dense: exactPaths('dense'),
  frontier: exactPaths('frontier'),
};

function exactPaths(option: (typeof PATH_OPTIONS)[number]): SolvePath[] {
  return [...new Set(STAGES[option].flatMap((s) => s.paths).filter((p) => p !== 'trivial'))];
}

/** Loads a release and a debug solver for the enclosing test file and closes them after it. */
export function useSolvers(): { release(): Solver; debug(): Solver } {
  let release: Solver | undefined;
  let debug: Solver | undefined;
  beforeAll(async () => {
    release = await loadSolver();
    debug = await loadSolver({ build: 'debug' });
  });
  afterAll(() => {
    release?.close();
    debug?.close();
  });
  const live = (s: Solver | undefined): Solver => {
    if (s === undefined) throw new Error('useSolvers: solvers are loaded in beforeAll');
    return s;
  };
  return { release: () => live(release), debug: () => live(debug) };
}

/** Loads a release solver and a release set of kernels (for engine-level runs) for the enclosing test file. */
export function useSolverAndKernel(): { solver(): Solver; kernel(): WasmKernels } {
  let solver: Solver | undefined;
  let kernel: WasmKernels | undefined;
  beforeAll(async () => {
    solver = await loadSolver();
    kernel = await WasmKernels.create('release');
  });
  afterAll(() => {
    solver?.close();
    kernel?.close();
  });
  const live = <T>(x: T | undefined): T => {
    if (x === undefined) throw new Error('useSolverAndKernel: loaded in beforeAll');
    return x;
  };
  return { solver: () => live(solver), kernel: () => live(kernel) };
}
