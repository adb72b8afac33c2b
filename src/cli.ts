#!/usr/bin/env node
/**
 * The `tao` command. Each subcommand lives in `src/commands/<name>.ts` and exports
 * `run(args: string[]): Promise<number>` returning the exit code. Exit codes: 0 success, 1 failure
 * (e.g. a benchmark regression), 2 invalid input or usage.
 */
import { handleStdoutErrors } from './commands/output.js';
import { InvalidTypeError, InvalidValueError } from './errors.js';
import { PACKAGE_VERSION } from './version.js';

type Command = { summary: string; load: () => Promise<{ run(args: string[]): Promise<number> }> };

const commands: Record<string, Command> = {
  solve: {
    summary: 'solve a Problem (JSON file or stdin) and print the Plan as JSON',
    load: () => import('./commands/solve.js'),
  },
  demo: {
    summary: 'solve the bundled example problems and print plans and timings',
    load: () => import('./commands/demo.js'),
  },
  bench: {
    summary: 'validate and time the solvers on simulator corpora of the paper settings; --check gates regressions',
    load: () => import('./commands/bench.js'),
  },
  'predict-report': {
    summary: 'replay completed tool calls (JSONL) through the readiness predictor and report its accuracy',
    load: () => import('./commands/predict-report.js'),
  },
  simulate: {
    summary: 'simulate agent workers on GPU nodes under a scheduling policy and report metrics over seeds',
    load: () => import('./commands/simulate.js'),
  },
  sweep: {
    summary: 'run a policy over a grid of h, H, delta, quantum and state budget and report metrics with CIs',
    load: () => import('./commands/sweep.js'),
  },
  merge: {
    summary: 'join the shard files of a simulate or sweep run with --shard I/N into its whole report',
    load: () => import('./commands/merge.js'),
  },
  paper: {
    summary: "run the calibrated paper settings and compare every cell with the paper's Tables 1-2",
    load: () => import('./commands/paper.js'),
  },
  serve: {
    summary: 'a long-running JSON-lines sidecar on stdio or a Unix socket: solve, evaluate, observe, predictor state',
    load: () => import('./commands/serve.js'),
  },
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  tao ${name.padEnd(15)} ${c.summary}`);
  return `usage: tao <command> [options]\n\ncommands:\n${lines.join('\n')}\n\n'tao <command> --help' for a command's options; 'tao --version' prints the version.`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${PACKAGE_VERSION}\n`);
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage() + '\n');
    return name === undefined ? 2 : 0;
  }
  const command = Object.prototype.hasOwnProperty.call(commands, name) ? commands[name] : undefined;
  if (command === undefined) {
    process.stderr.write(`tao: unknown command "${name}" ('tao --help' lists the commands)\n`);
    return 2;
  }
  prefix = `tao ${name}`;
  const mod = await command.load();
  return mod.run(rest);
}

/** What every error line starts with: the command that failed (`tao solve: ...`), or `tao` before one is known. */
let prefix = 'tao';

handleStdoutErrors(process.stdout);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // One line whatever failed: bad input exits 2; a failure of the system (a disk error...) exits 1.
    const message = err instanceof Error ? err.message : String(err);
    const line = message.split('\n', 1)[0];
    if (err instanceof InvalidTypeError || err instanceof InvalidValueError) {
      process.stderr.write(`${prefix}: ${line}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`${prefix}: ${err instanceof Error ? `${err.name}: ` : ''}${line}\n`);
      process.exitCode = 1;
    }
  },
);
