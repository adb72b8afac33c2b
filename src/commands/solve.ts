/**
 * `tao solve [file]`: reads a Problem as JSON (from `file`, or stdin without one), solves it in-thread and
 * prints the Plan as JSON. Exit codes: 0 solved (optimal or a labelled fallback), 2 invalid usage or
 * input, with one line on stderr naming the flag or the field.
 */
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { MAX_INPUT_BYTES, MAX_STATE_BUDGET } from '../limits.js';
import { defaultSolveOptions, type SolveOptions } from '../solve/options.js';
import { loadSolver } from '../solve/solver.js';
import { intFlag, parseFlags, positiveNumberFlag } from './cli-args.js';
import { readTextFile, readTextStream } from '../input.js';

const HELP = `usage: tao solve [file] [options]

Reads a Problem (JSON, at most ${MAX_INPUT_BYTES} bytes) from file, or from stdin when no file is given,
and prints the Plan (JSON).

options:
  --quantum N      capacity quantum in tokens (default ${defaultSolveOptions.quantum})
  --state-budget N most units of DP work before the heuristic fallback (default ${defaultSolveOptions.stateBudget}, at most ${MAX_STATE_BUDGET});
                   --budget N is its old name, still accepted
  --deadline MS    wall-clock bound in milliseconds before the heuristic fallback (default: ${Number.isFinite(defaultSolveOptions.deadlineMs) ? defaultSolveOptions.deadlineMs : 'none'})
  --compact        print the Plan on one line
  -h, --help       this help`;

const FLAGS = {
  quantum: { type: 'string' },
  'state-budget': { type: 'string' },
  deadline: { type: 'string' },
  compact: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface Parsed {
  file?: string;
  options: SolveOptions;
  compact: boolean;
  help: boolean;
}

function parse(args: readonly string[]): Parsed {
  const { values, positionals } = parseFlags(args, FLAGS, true, { budget: 'state-budget' });
  if (positionals.length > 1) {
    throw new InvalidValueError(`expected at most one input file (got "${positionals[0]}" and "${positionals[1]}")`);
  }
  const options: SolveOptions = {};
  if (values.quantum !== undefined) options.quantum = intFlag('--quantum', values.quantum);
  if (values['state-budget'] !== undefined)
    options.stateBudget = intFlag('--state-budget', values['state-budget'], 1, MAX_STATE_BUDGET);
  if (values.deadline !== undefined)
    options.deadlineMs = positiveNumberFlag('--deadline', values.deadline, 'milliseconds');
  return {
    ...(positionals[0] === undefined ? {} : { file: positionals[0] }),
    options,
    compact: values.compact === true,
    help: values.help === true,
  };
}

export async function run(args: string[]): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(args);
  } catch (err) {
    if (!(err instanceof InvalidTypeError || err instanceof InvalidValueError)) throw err;
    process.stderr.write(`tao solve: ${err.message}\n`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(HELP + '\n');
    return 0;
  }

  const source = parsed.file === undefined || parsed.file === '-' ? 'stdin' : parsed.file;
  let text: string;
  try {
    text = source === 'stdin' ? await readTextStream(process.stdin) : await readTextFile(source);
  } catch (err) {
    if (!(err instanceof InvalidValueError)) throw err;
    process.stderr.write(`tao solve: ${err.message}\n`);
    return 2;
  }
  let problem: unknown;
  try {
    problem = JSON.parse(text);
  } catch (err) {
    const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
    process.stderr.write(`tao solve: ${source} is not valid JSON: ${detail}\n`);
    return 2;
  }

  const solver = await loadSolver();
  try {
    // Invalid problems throw InvalidTypeError/InvalidValueError naming the field; the CLI prints it, exit 2.
    const plan = solver.solve(problem as Parameters<typeof solver.solve>[0], parsed.options);
    process.stdout.write(JSON.stringify(plan, null, parsed.compact ? undefined : 2) + '\n');
    return 0;
  } finally {
    solver.close();
  }
}
