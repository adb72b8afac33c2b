/**
 * Known-answer cases (test/cases/*.json): problems whose optimal value was computed by hand (each file
 * carries its derivation). WASM and debug WASM on every path (`auto`, `dense`, `frontier`) and the TS
 * reference must all reach it; where the file gives the BFD value, `bfd()` must reach exactly that too
 * (the cases where greedy falls short).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bfd } from './helpers/internals.js';
import type { SolveOptions } from './helpers/internals.js';
import { solveReference } from './helpers/internals.js';
import { EXACT_PATHS, useSolvers } from './helpers/solvers.js';
import type { PlanValue, Problem, SolvePath } from './helpers/internals.js';
import { expectFeasible } from './helpers/plan-checks.js';

interface CaseRun {
  options: SolveOptions;
  value: PlanValue;
  bfdValue?: PlanValue;
  admitted?: number;
  path?: SolvePath;
}
interface CaseFile {
  description: string;
  derivation: string[];
  problem: Problem;
  runs: CaseRun[];
}

const dir = new URL('./cases/', import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

const solvers = useSolvers();

it('finds the case files', () => {
  expect(files.length).toBeGreaterThanOrEqual(8);
});

for (const file of files) {
  const c = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as CaseFile;
  describe(file, () => {
    c.runs.forEach((run, k) => {
      it(`run ${k} (${JSON.stringify(run.options)})`, () => {
        for (const s of [solvers.release(), solvers.debug()]) {
          for (const path of ['auto', 'dense', 'frontier'] as const) {
            const plan = s.solve(c.problem, { ...run.options, path });
            expect(plan.status).toBe('optimal');
            expect(plan.value).toEqual(run.value);
            expectFeasible(c.problem, plan);
            if (run.admitted !== undefined) expect(plan.assignments).toHaveLength(run.admitted);
            expect(plan.stats.path).toSatisfy((p: SolvePath) =>
              run.path !== undefined ? p === run.path : EXACT_PATHS[path].includes(p),
            );
          }
        }
        const ref = solveReference(c.problem, run.options);
        expect(ref.value).toEqual(run.value);
        if (run.bfdValue !== undefined) {
          const greedy = bfd(c.problem, run.options);
          expect(greedy.value).toEqual(run.bfdValue);
          expectFeasible(c.problem, greedy);
        }
      });
    });
  });
}
