/**
 * `tao bench`: the benchmark harness (src/bench). Exit codes: 0 done (or the gate passed), 1 a runner
 * gave a wrong answer or the gate found a regression, 2 invalid usage or incomparable workloads.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { intFlag, parseFlags, positiveNumberFlag } from './cli-args.js';
import { InvalidValueError } from '../errors.js';
import { resolveSolveOptions } from '../solve/options.js';
import { compareReports } from '../bench/check.js';
import {
  defaultBenchOptions,
  defaultGateThresholds,
  quickBenchOptions,
  type BenchOptions,
  type GateThresholds,
} from '../bench/options.js';
import { readReport, withoutSamples, writeReport, type BenchReport } from '../bench/report.js';
import { runBench } from '../bench/run.js';
import { createRunners, isRunnerName, RUNNER_NAMES, solveWithReference, type RunnerName } from '../bench/runners.js';
import { parseSettings, type SettingName } from '../bench/settings.js';
import { simulatorSource } from '../bench/sim-source.js';
import { renderSvg } from '../bench/svg.js';
import { formatComparisonMarkdown, formatGoal, formatMarkdown, formatNotes, formatPreamble, formatTable } from '../bench/table.js';

const HELP = `usage: tao bench [options]

Validates, then times, the solver runners on simulator-recorded corpora of the paper's nine settings, prints
a table beside the paper's Table 9, and optionally writes a JSON report and an SVG plot.

workload:
  --settings LIST        comma-separated settings, or "all" (default: all)
                         ds-16 ds-32 ds-64 qwen-96 qwen-128 qwen-160 glm-96 glm-128 glm-160
  --count N              problems per setting (default ${defaultBenchOptions.count}; --quick: ${quickBenchOptions.count})
  --seed N               simulator seed (default ${defaultBenchOptions.seed})
  --runners LIST         comma-separated, from ${RUNNER_NAMES.join(', ')} (default: all)
  --highs-sample N       problems per setting solved by HiGHS (default ${defaultBenchOptions.highsSample}; --quick: ${quickBenchOptions.highsSample})
  --quantum N            solve option quantum (default ${defaultBenchOptions.solve.quantum})
  --state-budget N       solve option stateBudget (default ${defaultBenchOptions.solve.stateBudget})
  --warmup N             untimed solves per runner and setting (default ${defaultBenchOptions.warmupIterations}; --quick: ${quickBenchOptions.warmupIterations})
  --cycles N             timed passes through each corpus (default ${defaultBenchOptions.cycles})
  --paired-repeats N     rounds of the interleaved validation pass behind the ratio to the reference
                         (default ${defaultBenchOptions.pairedRepeats})
  --quick                the short workload of the regression gate
  --cache-dir DIR        corpus cache (default ${defaultBenchOptions.cacheDir})
  --corpus-dir DIR       use pinned corpora from DIR when present (read-only; repeatable)
  --regenerate           record every corpus again (ignores the cache and pinned corpora)
  --save-corpora DIR     also write the corpora used as pinned corpora (gzip) into DIR

output:
  --json FILE            write the full report (raw samples included)
  --svg FILE             write the P95-vs-workers plot
  --markdown FILE        write the ours-vs-paper table and the full table as Markdown
  --write-baseline FILE  write the report without raw samples, as a gate baseline

gate:
  --check BASELINE       compare with a baseline report; exit 1 on regression, 2 if the workloads differ.
                         Unset workload options default to the baseline's.
  --max-ratio-growth X   WASM/reference time ratio may grow X-fold (default ${defaultGateThresholds.maxRatioGrowth})
  --max-fallback-increase P
                         fallback rate may rise P percentage points (default ${defaultGateThresholds.maxFallbackIncreasePct})
  --max-mismatches N     wrong answers allowed per runner and setting (default ${defaultGateThresholds.maxMismatches})
  --p95-bound R=MS,...   absolute P95 bounds per runner (default ${Object.entries(defaultGateThresholds.p95BoundMs).map(([k, v]) => `${k}=${v}`).join(',')})
`;

function int(value: string | undefined, flag: string, min: number): number | undefined {
  return value === undefined ? undefined : intFlag(flag, value, min);
}

function positive(value: string | undefined, flag: string): number | undefined {
  return value === undefined ? undefined : positiveNumberFlag(flag, value);
}

function parseRunners(list: string, flag: string): RunnerName[] {
  const parts = list.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (parts.length === 0) throw new InvalidValueError(`${flag} must name at least one runner`);
  for (const p of parts) {
    if (!isRunnerName(p)) throw new InvalidValueError(`${flag}: unknown runner "${p}" (known: ${RUNNER_NAMES.join(', ')})`);
  }
  return RUNNER_NAMES.filter((r) => parts.includes(r));
}

function parseBounds(list: string, flag: string): GateThresholds['p95BoundMs'] {
  const out: GateThresholds['p95BoundMs'] = {};
  for (const part of list.split(',').filter((s) => s.trim().length > 0)) {
    const [name, ms] = part.split('=').map((s) => s.trim());
    if (name === undefined || !isRunnerName(name)) throw new InvalidValueError(`${flag}: unknown runner "${name ?? ''}" in "${part}"`);
    const x = positive(ms, `${flag} ${name}`);
    if (x === undefined) throw new InvalidValueError(`${flag}: "${part}" must be RUNNER=MS`);
    out[name] = x;
  }
  return out;
}

async function writeText(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

const SPEC = {
  settings: { type: 'string' },
  count: { type: 'string' },
  seed: { type: 'string' },
  runners: { type: 'string' },
  'highs-sample': { type: 'string' },
  quantum: { type: 'string' },
  'state-budget': { type: 'string' },
  warmup: { type: 'string' },
  cycles: { type: 'string' },
  'paired-repeats': { type: 'string' },
  quick: { type: 'boolean' },
  'cache-dir': { type: 'string' },
  'corpus-dir': { type: 'string', multiple: true },
  regenerate: { type: 'boolean' },
  'save-corpora': { type: 'string' },
  json: { type: 'string' },
  svg: { type: 'string' },
  markdown: { type: 'string' },
  'write-baseline': { type: 'string' },
  check: { type: 'string' },
  'max-ratio-growth': { type: 'string' },
  'max-fallback-increase': { type: 'string' },
  'max-mismatches': { type: 'string' },
  'p95-bound': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function run(args: string[]): Promise<number> {
  const { values: v } = parseFlags(args, SPEC);
  if (v.help === true) {
    process.stdout.write(HELP);
    return 0;
  }

  const baseline: BenchReport | undefined = v.check !== undefined ? await readReport(v.check) : undefined;
  const bw = baseline?.workload;
  const quick = v.quick === true ? quickBenchOptions : {};
  const pick = <T>(explicit: T | undefined, fromBaseline: T | undefined, fromQuick: T | undefined, dflt: T): T =>
    explicit ?? fromBaseline ?? fromQuick ?? dflt;

  const settings: SettingName[] = pick(
    v.settings !== undefined ? parseSettings(v.settings, '--settings') : undefined,
    bw?.settings,
    quick.settings,
    defaultBenchOptions.settings,
  );
  const solve = resolveSolveOptions({
    quantum: pick(int(v.quantum, '--quantum', 1), bw?.solveOptions.quantum, undefined, defaultBenchOptions.solve.quantum),
    stateBudget: pick(int(v['state-budget'], '--state-budget', 1), bw?.solveOptions.stateBudget, undefined, defaultBenchOptions.solve.stateBudget),
  });
  const runnerNames = pick(
    v.runners !== undefined ? parseRunners(v.runners, '--runners') : undefined,
    bw?.runners.filter(isRunnerName),
    undefined,
    defaultBenchOptions.runners,
  );
  const options: BenchOptions = {
    settings,
    count: pick(int(v.count, '--count', 1), bw?.count, quick.count, defaultBenchOptions.count),
    seed: pick(int(v.seed, '--seed', 0), bw?.seed, quick.seed, defaultBenchOptions.seed),
    runners: runnerNames,
    highsSample: pick(int(v['highs-sample'], '--highs-sample', 0), bw?.highsSample, quick.highsSample, defaultBenchOptions.highsSample),
    highsTimeLimitSec: defaultBenchOptions.highsTimeLimitSec,
    warmupIterations: pick(int(v.warmup, '--warmup', 0), baseline?.timing.warmupIterations, quick.warmupIterations, defaultBenchOptions.warmupIterations),
    cycles: pick(int(v.cycles, '--cycles', 1), baseline?.timing.cycles, quick.cycles, defaultBenchOptions.cycles),
    pairedRepeats: pick(int(v['paired-repeats'], '--paired-repeats', 1), baseline?.timing.pairedRepeats, quick.pairedRepeats, defaultBenchOptions.pairedRepeats),
    solve,
    cacheDir: v['cache-dir'] ?? defaultBenchOptions.cacheDir,
    corpusDirs: v['corpus-dir'] ?? defaultBenchOptions.corpusDirs,
    regenerate: v.regenerate === true,
    saveCorporaDir: v['save-corpora'] ?? null,
  };
  const thresholds: GateThresholds = {
    maxRatioGrowth: positive(v['max-ratio-growth'], '--max-ratio-growth') ?? defaultGateThresholds.maxRatioGrowth,
    maxFallbackIncreasePct: positive(v['max-fallback-increase'], '--max-fallback-increase') ?? defaultGateThresholds.maxFallbackIncreasePct,
    maxMismatches: int(v['max-mismatches'], '--max-mismatches', 0) ?? defaultGateThresholds.maxMismatches,
    p95BoundMs: v['p95-bound'] !== undefined ? parseBounds(v['p95-bound'], '--p95-bound') : { ...defaultGateThresholds.p95BoundMs },
  };

  const log = (line: string): void => {
    process.stderr.write(line + '\n');
  };
  const { runners, skipped } = await createRunners(options.runners, options.solve, options.highsTimeLimitSec);
  const report = await runBench(options, {
    runners,
    skipped,
    source: simulatorSource(),
    log,
    referenceOracle: (p) => solveWithReference(p, options.solve),
    command: ['tao', 'bench', ...args].join(' '),
  });

  const out = process.stdout;
  out.write(`${formatPreamble(report)}\n\n${formatTable(report)}\n\n`);
  const notes = formatNotes(report);
  if (notes.length > 0) out.write(notes + '\n');
  out.write(`${formatGoal(report)}\n(${report.elapsedSec} s)\n`);
  if (v.json !== undefined) {
    await writeReport(v.json, report);
    log(`report: ${v.json}`);
  }
  if (v.svg !== undefined) {
    await writeText(v.svg, renderSvg(report));
    log(`plot: ${v.svg}`);
  }
  if (v.markdown !== undefined) {
    await writeText(v.markdown, `${formatComparisonMarkdown(report)}\n\n${formatMarkdown(report)}\n`);
    log(`markdown: ${v.markdown}`);
  }
  if (v['write-baseline'] !== undefined) {
    await writeReport(v['write-baseline'], withoutSamples(report));
    log(`baseline: ${v['write-baseline']}`);
  }

  const wrong = report.settings.flatMap((s) => [
    ...Object.values(s.runners).flatMap((r) => (r !== undefined && r.validation.mismatch > 0 ? [`${s.setting} ${r.runner}: ${r.validation.mismatch} wrong answers`] : [])),
    ...(s.oracle.disagreements.length > 0 ? [`${s.setting}: reference and HiGHS disagree on ${s.oracle.disagreements.length} problems`] : []),
  ]);
  if (baseline !== undefined && v.check !== undefined) {
    const result = compareReports(baseline, report, thresholds);
    out.write(result.lines.join('\n') + '\n');
    return result.code;
  }
  if (wrong.length > 0) {
    process.stderr.write(`tao bench: wrong answers:\n${wrong.map((w) => `  ${w}`).join('\n')}\n`);
    return 1;
  }
  return 0;
}
