/**
 * `tao paper`: runs the nine calibrated paper settings under the five policies of the paper's Tables 1-2
 * (and TAO's other readings, `tao-ready`, `tao-tick` and `tao-sticky`) and prints, per cell and metric, the simulated value, the paper's value and
 * their ratio, the Kendall tau of the policies' order, the best policy of each side, and a one-line verdict
 * against the calibration goal; then the same against the SWE-verified and Terminal-Bench columns, which
 * nothing was fitted on, and TAO's ablations at ds-32 against its Table 4. The runs go to worker threads (`--jobs`). Optionally writes the report as JSON, the table as Markdown and a plot.
 * Exit codes: 0 done, 2 invalid flags (one line on stderr naming the flag).
 */
import { writeFileSync } from 'node:fs';
import { PACKAGE_VERSION } from '../version.js';
import { InvalidValueError } from '../errors.js';
import { intFlag, parseFlags, seedsFlag } from './cli-args.js';
import { MAX_JOBS } from '../sim/run-limits.js';
import { jobsFlag } from './sim-flags.js';
import { checkWritable } from './outputs.js';
import { ProgressBar } from '../progress.js';
import { loadTaoDeps } from '../sim/deps.js';
import { comparePaper, PAPER_SETTINGS, paperRuns, runPaperRuns } from '../sim/paper.js';
import { paperRatioSvg } from '../sim/paper-svg.js';
import { formatPaperMarkdown, formatPaperText } from '../sim/paper-table.js';

/** Seeds of a default run: 9 settings x 7 policies x 2 seeds, and 3 Terminal-Bench settings x 7 x 2. */
export const DEFAULT_PAPER_SEEDS = 2;

const HELP = `usage: tao paper [options]

Runs the nine calibrated settings (${PAPER_SETTINGS.join(', ')}) under Dynamo, vLLM RR,
vLLM CA, ThunderAgent and TAO (and TAO's other readings, tao-ready, tao-tick, tao-sticky) and compares each cell with
the paper's Tables 1-2 (SWE-Lite): simulated value, paper value, ratio, Kendall tau and best policy per
(cell, metric). Then, as checks nothing was fitted on, the same runs against the SWE-verified columns and
the DeepSeek settings with the claude-code profile against the Terminal-Bench columns, and (with ds-32)
TAO's six ablation configurations against the paper's Table 4.

options:
  --seeds N|a,b,...     seeds 1..N, or a list (default ${DEFAULT_PAPER_SEEDS})
  --tasks N             tasks per run (default: the settings' 300; fewer for a quick look)
  --settings a,b,...    a subset of the settings (default all nine)
  --jobs N              worker threads for the runs, 1 to ${MAX_JOBS} (default: one per core); results do not depend on it
  --json FILE           write the report as JSON
  --markdown FILE       write the comparison as Markdown (docs/results/paper.md is generated this way)
  --svg FILE            write the ratios simulated / paper as SVG
  --progress            show a progress bar on stderr even when it is not a terminal
  -h, --help            this help`;

const FLAGS = {
  seeds: { type: 'string' },
  tasks: { type: 'string' },
  settings: { type: 'string' },
  jobs: { type: 'string' },
  json: { type: 'string' },
  markdown: { type: 'string' },
  svg: { type: 'string' },
  progress: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function settingsFlag(text: string): string[] {
  const names = text.split(',').map((s) => s.trim());
  for (const n of names) {
    if (!PAPER_SETTINGS.includes(n))
      throw new InvalidValueError(`--settings must be a list of ${PAPER_SETTINGS.join(', ')} (got "${n}")`);
  }
  return names;
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseFlags(args, FLAGS);
  if (values.help === true) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  const seeds =
    values.seeds === undefined
      ? Array.from({ length: DEFAULT_PAPER_SEEDS }, (_, i) => i + 1)
      : seedsFlag('--seeds', values.seeds);
  const tasks = values.tasks === undefined ? null : intFlag('--tasks', values.tasks);
  const settings = values.settings === undefined ? PAPER_SETTINGS : settingsFlag(values.settings);
  const jobs = jobsFlag(values.jobs);
  for (const flag of ['json', 'markdown', 'svg'] as const) {
    const file = values[flag];
    if (file !== undefined) checkWritable(`--${flag}`, file);
  }
  const specs = paperRuns(seeds, settings);
  const bar = new ProgressBar(
    specs.length,
    'paper',
    process.stderr,
    process.stderr.isTTY === true || values.progress === true,
  );
  let runs: Awaited<ReturnType<typeof runPaperRuns>>;
  try {
    runs = await runPaperRuns(specs, {
      deps: await loadTaoDeps(),
      jobs,
      ...(tasks === null ? {} : { tasks }),
      onRun: (r) => bar.tick(1, `${r.setting} ${r.policy}`),
    });
  } finally {
    bar.finish();
  }
  const report = comparePaper(runs, seeds, tasks);
  process.stdout.write(formatPaperText(report) + '\n');
  const command = ['tao paper', ...args.filter((a) => a !== '--progress')].join(' ');
  if (values.json !== undefined)
    writeFileSync(values.json, JSON.stringify({ packageVersion: PACKAGE_VERSION, ...report }, null, 1) + '\n');
  if (values.markdown !== undefined) writeFileSync(values.markdown, formatPaperMarkdown(report, command) + '\n');
  if (values.svg !== undefined)
    writeFileSync(values.svg, paperRatioSvg(report, 'simulated / paper (Tables 1-2, SWE-Lite)'));
  return 0;
}
