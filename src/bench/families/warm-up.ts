/**
 * Family `warm-up`: the first non-trivial Problems of a simulator run per paper setting (what the
 * benchmark measured before it measured steady state): pools of 2-4 sessions, nearly everything fits. Read
 * from the pinned corpora (`<setting>-seed<seed>-n200.jsonl.gz` in bench/corpus/warm-up) when present,
 * else recorded. Kept as one labelled family so its numbers stay comparable with earlier reports; it is
 * never a setting's headline.
 */
import { loadCorpus } from '../corpus.js';
import { simulatorSource } from '../sim-source.js';
import { settingGroups, type Family } from './family.js';

/** Where the pinned warm-up corpora live and where recorded ones are cached. */
export const WARM_UP = Object.freeze({
  corpusDir: 'bench/corpus/warm-up',
  cacheDir: '.bench-cache',
  pinnedCount: 200,
} as const);

export const warmUpFamily: Family = {
  name: 'warm-up',
  description: 'the first non-trivial simulator ticks of a run (pinned corpora): pools of 2-4 sessions',
  // The pinned corpora hold WARM_UP.pinnedCount problems: read them whole and take the first `count`.
  groups: settingGroups('warm-up', async (setting, seed, count) => {
    const n = Math.max(count, WARM_UP.pinnedCount);
    const corpus = await loadCorpus(simulatorSource('warm-up'), setting, {
      seed,
      count: n,
      cacheDir: WARM_UP.cacheDir,
      readDirs: [WARM_UP.corpusDir],
    });
    return corpus.problems.slice(0, count);
  }),
};
