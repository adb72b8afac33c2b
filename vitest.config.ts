import { defineConfig } from 'vitest/config';

/**
 * The oracle tier: the cross-checks against independent oracles (HiGHS, brute force, the TypeScript mirrors
 * of the kernels, property runs at scale) and the long end-to-end runs (the simulator on worker threads and
 * over whole settings, the sidecar's processes and sockets, the CLI under fuzzing and `tao bench` / `tao paper`
 * spawned whole, the package install). `npm run test:fast` runs
 * every other file, for the edit loop; `npm test` runs both tiers.
 */
export const ORACLE_TIER = [
  'test/solver-matches-highs.test.ts',
  'test/solver-matches-brute-force.test.ts',
  'test/solver-metamorphic.test.ts',
  'test/frontier-matches-mirror.test.ts',
  'test/dense-matches-mirror.test.ts',
  'test/multiple-knapsack-matches-highs.test.ts',
  'test/mkp-search-stops-at-proven-ceiling.test.ts',
  'test/mkp-frontier-after-search.test.ts',
  'test/credit-branch.test.ts',
  'test/credit-level.test.ts',
  'test/subset-sum-matches-mirror.test.ts',
  'test/surrogate-core-matches-mirror.test.ts',
  'test/solver-fallbacks.test.ts',
  'test/solver-large-shapes.test.ts',
  'test/package-install.test.ts',
  'test/planner-stress.test.ts',
  'test/cli-fuzz.test.ts',
  'test/cli-hostile-input.test.ts',
  'test/sim-cli.test.ts',
  'test/sim-determinism.test.ts',
  'test/sim-paired-and-report.test.ts',
  'test/sim-tasks-complete-once.test.ts',
  'test/sim-tool-share-calibration.test.ts',
  'test/sim-parallel.test.ts',
  'test/plan-bound.test.ts',
  'test/serve-lifecycle.test.ts',
  'test/serve-sidecar.test.ts',
  'test/serve-input-limits.test.ts',
  'test/assignment.test.ts',
  'test/sim-paper.test.ts',
  'test/sim-tao-bounded.test.ts',
  'test/progress-bar.test.ts',
];

/** Files that mock a module: each needs a module graph of its own, which the fast tier's shared one is not. */
export const ISOLATED = ['test/solve-frontier-memory-estimate.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      // The fast tier shares one module graph per worker (isolate: false): the test barrel and the compiled
      // WebAssembly are loaded once per worker instead of once per file. Its files restore what they mock; a
      // file that mocks a module runs in the isolated project.
      {
        extends: true,
        test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: [...ORACLE_TIER, ...ISOLATED], isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      { extends: true, test: { name: 'oracle', include: ORACLE_TIER } },
    ],
  },
});
