// The vitest configuration of mutation runs (stryker.config.json, `vitest.configFile`): the project's own
// (vitest.config.ts, both tiers), with the order of test files changed. Each mutant runs only the tests that
// reach it (per-test coverage) and stops at the first failure (bail), so the order decides how long a killed
// mutant takes. Vitest's own order runs the longest file first; here a file that failed in the previous run
// (it killed the previous mutant, often a neighbour of this one) runs first, then the others from the
// shortest to the longest full run (the longest each file has taken in this process, the dry run included).
// The same tests run for every mutant; a survivor still runs all of them.
import { fileURLToPath } from 'node:url';
import { BaseSequencer } from 'vitest/node';
import { mergeConfig } from 'vitest/config';
import base from '../vitest.config.ts';

/** The longest run seen per file (`project:path`, as vitest's results cache keys it), in milliseconds. */
const longest = new Map();

class CheapestFirst extends BaseSequencer {
  async sort(files) {
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const key = (spec) =>
      `${spec.project.name}:${spec.moduleId.startsWith(root) ? spec.moduleId.slice(root.length + 1) : spec.moduleId}`;
    const state = new Map(files.map((f) => [f, cache.getFileTestResults(key(f))]));
    for (const [f, s] of state) {
      if (s !== undefined) longest.set(key(f), Math.max(longest.get(key(f)) ?? 0, s.duration));
    }
    return [...files].sort((a, b) => {
      // Projects run one after the other, and an isolated project's files first (as BaseSequencer has it).
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      const failedA = state.get(a)?.failed === true;
      const failedB = state.get(b)?.failed === true;
      if (failedA !== failedB) return failedA ? -1 : 1;
      return (longest.get(key(a)) ?? 0) - (longest.get(key(b)) ?? 0);
    });
  }
}

export default mergeConfig(base, {
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: { sequence: { sequencer: CheapestFirst } },
});
