/**
 * `tao demo`: solves the bundled examples (src/commands/examples.ts) with the DP and with BFD, prints each plan on
 * one line, and times repeated in-thread solves (median and P95).
 */
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { bfd } from '../solve/bfd.js';
import { intFlag, parseFlags } from './cli-args.js';
import { demoExamples } from './examples.js';
import { loadSolver } from '../solve/solver.js';
import { quantileSorted, sortedCopy } from '../stats.js';
import type { Plan } from '../types.js';

/** Timed solves per example when no --repeat is given. */
export const DEFAULT_REPEAT = 200;

const HELP = `usage: tao demo [--repeat N]

Solves the bundled examples (the paper's appendix H snapshots, reconstructed, and random ticks) with the
exact DP and with best-fit decreasing, prints each plan, and times N repeated solves (default ${DEFAULT_REPEAT}).`;

function formatValue(plan: Plan): string {
  const v = plan.value;
  const b = plan.bound;
  // A fallback's proven bound on the optimum, level by level (an optimal plan's is its value).
  const bound = plan.status === 'optimal' ? '' : ` <= bound (credit ${b.credit}, ready ${b.ready}, tokens ${b.tokens})`;
  return `(credit ${v.credit}, ready ${v.ready}, tokens ${v.tokens})${bound}`;
}

function formatPlan(label: string, plan: Plan): string {
  const how = plan.stats.heuristic === undefined ? plan.stats.path : `${plan.stats.path} (${plan.stats.heuristic})`;
  const head = `  ${label.padEnd(4)} ${plan.status.padEnd(8)} ${how.padEnd(10)} ${formatValue(plan)} ${plan.assignments.length} admitted`;
  const reason = plan.reason === undefined ? '' : `\n       reason: ${plan.reason}`;
  const list = plan.assignments.map((a) => `${a.session}->${a.node}`).join(' ');
  return `${head}${reason}\n       ${list.length > 0 ? list : '(none)'}`;
}

const FLAGS = {
  repeat: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function run(args: string[]): Promise<number> {
  let repeat = DEFAULT_REPEAT;
  try {
    const { values } = parseFlags(args, FLAGS);
    if (values.help === true) {
      process.stdout.write(HELP + '\n');
      return 0;
    }
    if (values.repeat !== undefined) repeat = intFlag('--repeat', values.repeat, 1, 1_000_000);
  } catch (err) {
    if (!(err instanceof InvalidTypeError || err instanceof InvalidValueError)) throw err;
    process.stderr.write(`tao demo: ${err.message}\n`);
    return 2;
  }

  const solver = await loadSolver();
  try {
    for (const ex of demoExamples()) {
      const options = { quantum: ex.quantum };
      const plan = solver.solve(ex.problem, options);
      const greedy = bfd(ex.problem, options);
      const times: number[] = [];
      for (let r = 0; r < repeat; r++) {
        const t0 = performance.now();
        solver.solve(ex.problem, options);
        times.push((performance.now() - t0) * 1000);
      }
      const sorted = sortedCopy(times);
      const { nodes, sessions } = ex.problem;
      process.stdout.write(
        `${ex.name}: ${ex.description}\n` +
          `  ${nodes.length} nodes, ${sessions.length} sessions, quantum ${ex.quantum}, ` +
          `${plan.stats.states} states, ${plan.stats.work} units of work\n` +
          `${formatPlan('dp', plan)}\n${formatPlan('bfd', greedy)}\n` +
          `  solve time: median ${quantileSorted(sorted, 0.5).toFixed(1)} us, p95 ${quantileSorted(sorted, 0.95).toFixed(1)} us ` +
          `over ${repeat} solves\n\n`,
      );
    }
  } finally {
    solver.close();
  }
  return 0;
}
