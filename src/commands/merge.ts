/**
 * `tao merge`: joins the shard files of one `tao simulate --shard` or `tao sweep --shard` command (every
 * shard I/N, each once) into the report the unsharded command would have made, bit for bit: prints its
 * tables and writes its --json and --svg files.
 * Exit codes: 0 done, 2 invalid flags or shard files (one line on stderr naming the file and field).
 */
import { InvalidValueError } from '../errors.js';
import { readTextFile } from '../input.js';
import { parseFlags } from './cli-args.js';
import { checkWritable } from './outputs.js';
import { assembleReport, type SimulationHeader } from '../sim/run.js';
import { MAX_SHARD_BYTES, mergeShards } from '../sim/shard.js';
import { assembleSweep, type SweepHeader } from '../sim/sweep.js';
import { outputSimulate } from './simulate.js';
import { outputSweep } from './sweep.js';

const HELP = `usage: tao merge SHARD.json... [options]

Joins the shard files written by 'tao simulate --shard I/N --json FILE' or 'tao sweep --shard I/N --json
FILE' (all N of them, in any order) and prints the report of the whole command, as if it had run in one
piece; the files are refused if they are not the N shards of one command.

options:
  --json FILE           write the merged report as JSON (the same file the unsharded command writes)
  --svg FILE|PREFIX     write the command's SVG (simulate: running requests; sweep: PREFIX.<metric>.svg)
  -h, --help            this help`;

const FLAGS = {
  json: { type: 'string' },
  svg: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, FLAGS, true);
  if (values.help === true) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  if (positionals.length === 0)
    throw new InvalidValueError('tao merge needs the shard files (e.g. tao merge part*.json)');
  if (values.json !== undefined) checkWritable('--json', values.json);
  const files = [];
  for (const name of positionals) files.push({ name, text: await readTextFile(name, MAX_SHARD_BYTES) });
  const merged = mergeShards(files);
  if (merged.command === 'simulate') {
    if (values.svg !== undefined) checkWritable('--svg', values.svg);
    outputSimulate(assembleReport(merged.header as SimulationHeader, merged.results), {
      json: values.json,
      svg: values.svg,
    });
  } else if (merged.command === 'sweep') {
    const header = merged.header as SweepHeader & { description: string };
    outputSweep(assembleSweep(header, merged.results), header.description, { json: values.json, svg: values.svg });
  } else {
    throw new InvalidValueError(
      `${positionals[0]}: command must be "simulate" or "sweep" (got ${JSON.stringify(merged.command)})`,
    );
  }
  return 0;
}
