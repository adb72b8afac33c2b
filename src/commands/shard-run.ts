/** `--shard I/N` of `tao simulate` and `tao sweep`: run the shard's share of the runs and write its file. */
import { writeFileSync } from 'node:fs';
import { ProgressBar } from '../progress.js';
import type { RunDescription } from '../sim/parallel.js';
import { runShard, type ShardSpec, shardIndices } from '../sim/shard.js';
import type { RunResult } from '../sim/simulation.js';

export interface ShardCommand<H> {
  command: 'simulate' | 'sweep';
  plan: { readonly header: H; readonly runs: readonly RunDescription[] };
  shard: ShardSpec;
  /** The shard file (`--json`). */
  file: string;
  jobs: number;
  progress: boolean;
  /** The progress bar's label of a finished run. */
  label: (r: RunResult) => string;
}

/** Runs the shard, writes its file and says where; the exit code. */
export async function runShardCommand<H>(c: ShardCommand<H>): Promise<number> {
  const bar = new ProgressBar(shardIndices(c.plan.runs.length, c.shard).length, c.command, process.stderr, c.progress);
  try {
    const out = await runShard(c.command, c.plan, c.shard, { jobs: c.jobs, onRun: (r) => bar.tick(1, c.label(r)) });
    writeFileSync(c.file, out.text);
    process.stdout.write(
      `shard ${c.shard.index}/${c.shard.count}: ${out.runs} of ${c.plan.runs.length} runs written to ${c.file}; join the shards with tao merge\n`,
    );
  } finally {
    bar.finish();
  }
  return 0;
}
