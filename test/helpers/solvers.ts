import { afterAll, beforeAll } from 'vitest';
import { loadSolver, type Solver } from '../../src/solve/solver.js';
import type { SolvePath } from '../../src/types.js';

/** The `path` option's values. */
export const PATH_OPTIONS = ['auto', 'dense', 'frontier'] as const;

/** The paths each `path` option may report on a problem with something to decide. */
export const EXACT_PATHS: Record<(typeof PATH_OPTIONS)[number], readonly SolvePath[]> = {
  auto: ['best-nodes', 'bound', 'dense', 'frontier'],
  dense: ['dense'],
  frontier: ['bound', 'frontier'],
};

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
