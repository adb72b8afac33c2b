/**
 * `tao solve [file]`: reads a Problem as JSON (from `file`, or stdin without one), solves it in-thread and
 * prints the Plan as JSON. Exit codes: 0 solved (optimal or a labelled fallback), 2 invalid usage or
 * input, with one line on stderr naming the flag or the field.
 */
import { readFile } from 'node:fs/promises';
import { MAX_STATE_BUDGET } from '../limits.js';
import type { SolveOptions } from '../solve/options.js';
import { loadSolver } from '../solve/solver.js';

const HELP = `usage: tao solve [file] [options]

Reads a Problem (JSON) from file, or from stdin when no file is given, and prints the Plan (JSON).

options:
  --quantum N      capacity quantum in tokens (default 1024)
  --budget N       state budget: most DP cells before the BFD fallback (default 4194304, at most ${MAX_STATE_BUDGET})
  --deadline MS    wall-clock bound in milliseconds before the BFD fallback (default: none)
  --compact        print the Plan on one line
  -h, --help       this help`;

/** A usage error: printed as one line, exit 2. */
class UsageError extends Error {}

interface Parsed {
  file?: string;
  options: SolveOptions;
  compact: boolean;
  help: boolean;
}

function integerFlag(flag: string, text: string, max: number): number {
  const x = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(x) || x < 1 || x > max) {
    throw new UsageError(`${flag} must be an integer from 1 to ${max} (got "${text}")`);
  }
  return x;
}

function parse(args: readonly string[]): Parsed {
  const out: Parsed = { options: {}, compact: false, help: false };
  for (let k = 0; k < args.length; k++) {
    const arg = args[k]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (eq > 0) return arg.slice(eq + 1);
      const next = args[++k];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '-h':
      case '--help':
        out.help = true;
        break;
      case '--compact':
        out.compact = true;
        break;
      case '--quantum':
        out.options.quantum = integerFlag('--quantum', value(), Number.MAX_SAFE_INTEGER);
        break;
      case '--budget':
        out.options.stateBudget = integerFlag('--budget', value(), MAX_STATE_BUDGET);
        break;
      case '--deadline': {
        const text = value();
        const ms = Number(text);
        if (text.trim() === '' || !Number.isFinite(ms) || ms <= 0) {
          throw new UsageError(`--deadline must be a positive number of milliseconds (got "${text}")`);
        }
        out.options.deadlineMs = ms;
        break;
      }
      default:
        if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option "${arg}"`);
        if (out.file !== undefined) throw new UsageError(`expected at most one input file (got "${out.file}" and "${arg}")`);
        out.file = arg;
    }
  }
  return out;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export async function run(args: string[]): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(args);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
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
    text = source === 'stdin' ? await readStdin() : await readFile(source, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
    process.stderr.write(`tao solve: cannot read ${source}: ${code}\n`);
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
