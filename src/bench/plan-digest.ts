/**
 * Digests of the plans a solver returns on the pinned corpora, so that two builds (or a build and the
 * digests pinned in bench/plan-digests.json) can be compared for identical plans and work: per corpus, one
 * sha256 over every plan at default options and at quantum 1 (status, value, assignments, path), and one
 * over the same solves' reasons and statistics (the work counters; `micros` left out). Used by
 * `scripts/plan-digest.mjs` and by the test that checks the pinned digests.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { SolveOptions } from '../solve/options.js';
import type { Plan, Problem } from '../types.js';

/** The pinned corpora's folders, relative to the package root. */
export const PINNED_CORPUS_DIRS = ['bench/corpus', 'bench/corpus/warm-up', 'bench/corpus/families'] as const;

/** Where the pinned digests are kept, relative to the package root. */
export const PINNED_DIGESTS_FILE = 'bench/plan-digests.json';

/** The options every problem is solved at: the defaults and quantum 1. */
const OPTIONS: readonly SolveOptions[] = [{}, { quantum: 1 }];

export interface CorpusDigest {
  /** The corpus file, relative to the package root. */
  readonly corpus: string;
  readonly problems: number;
  /** sha256 prefix over the plans (status, value, assignments, path). */
  readonly plans: string;
  /** sha256 prefix over the reasons and statistics (without `micros`). */
  readonly work: string;
}

/** The digests of every `.jsonl.gz` corpus (header line first) in `dirs` under `root`, in name order. */
export function corpusDigests(
  solve: (problem: Problem, options: SolveOptions) => Plan,
  root: string,
  dirs: readonly string[] = PINNED_CORPUS_DIRS,
): CorpusDigest[] {
  const out: CorpusDigest[] = [];
  for (const dir of dirs) {
    const names = readdirSync(join(root, dir))
      .filter((f) => f.endsWith('.jsonl.gz'))
      .sort();
    for (const name of names) {
      const lines = gunzipSync(readFileSync(join(root, dir, name)))
        .toString('utf8')
        .split('\n')
        .filter(Boolean)
        .slice(1);
      const plans = createHash('sha256');
      const work = createHash('sha256');
      for (const line of lines) {
        const problem = JSON.parse(line) as Problem;
        for (const options of OPTIONS) {
          const plan = solve(problem, options);
          const { micros: _, ...stats } = plan.stats;
          plans.update(JSON.stringify([plan.status, plan.value, plan.assignments, plan.stats.path]));
          work.update(JSON.stringify([plan.status, plan.reason ?? null, stats]));
        }
      }
      out.push({
        corpus: `${dir}/${name}`,
        problems: lines.length,
        plans: plans.digest('hex').slice(0, 16),
        work: work.digest('hex').slice(0, 16),
      });
    }
  }
  return out;
}
