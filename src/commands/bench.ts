/**
 * `tao bench`: the benchmark harness (src/bench). Exit codes: 0 the goal is met (PASS, the last line says
 * so) or the gate passed; 1 the goal is missed (FAIL), a runner gave a wrong answer or the gate found a
 * regression; 2 invalid usage or incomparable workloads.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { intFlag, parseFlags, positiveNumberFlag } from './cli-args.js';
import { InvalidValueError } from '../errors.js';
import { checkWritable } from './outputs.js';
import { resolveSolveOptions } from '../solve/options.js';
import { compareReports } from '../bench/check.js';
import {
  defaultBenchOptions,
  defaultGateThresholds,
  GOAL,
  PAIRED_GATE,
  quickBenchOptions,
  type BenchOptions,
  type GateThresholds,
} from '../bench/options.js';
import { readReport, withoutSamples, writeReport, type BenchReport } from '../bench/report.js';
import { runBench } from '../bench/run.js';
import { createRunners, isRunnerName, RUNNER_NAMES, solveWithReference, type RunnerName } from '../bench/runners.js';
import { parseSettings, type SettingName } from '../bench/settings.js';
import { simulatorSource } from '../bench/sim-source.js';
import { STEADY_STATE } from '../bench/families/steady-state.js';
import { renderSvg } from '../bench/svg.js';
import { ProgressBar } from '../progress.js';
import { briefWrongAnswers, formatHardestFamilies, runBriefFamilies } from './bench-hardest.js';
import { FAMILIES, FAMILY_NAMES, familyGroups, groupKey } from '../bench/families/index.js';
import {
  currentWasmSha256,
  loadBaselineSolver,
  readBaselineBuild,
  writeBaselineBuild,
} from '../bench/baseline-build.js';
import { pinFamilyCorpus, readFamilyCorpora } from '../bench/family-corpus.js';
import { judgePaired, measurePaired } from '../bench/paired.js';
import { loadSolver } from '../solve/solver.js';
import {
  defaultFamilyRunOptions,
  FAMILY_REPORT_SCHEMA_VERSION,
  runFamilies,
  type FamilyReport,
} from '../bench/family-run.js';
import { formatFamilyMarkdown, goalMisses, updateDoc } from '../bench/family-table.js';
import {
  formatComparisonMarkdown,
  formatGoal,
  formatLegend,
  formatMarkdown,
  formatNotes,
  formatOracles,
  formatPreamble,
  formatTable,
  formatVerdict,
} from '../bench/table.js';

const HELP = `usage: tao bench [options]

Validates, then times, the solver runners on steady-state ticks of the paper's nine settings (recorded from
the simulator after ${STEADY_STATE.warmUpSec} s of warm-up, ${STEADY_STATE.seeds} seeds), prints a table beside the paper's Table 9, and
optionally writes a JSON report and an SVG plot. The warm-up ticks are the family "warm-up" (--families).
It says first which oracles check the plans and where corpora are cached; the table comes with a legend,
then the hardest families of a brief in-thread pass (not with --check or --quick); the last line is the
verdict: PASS (exit 0) when every setting meets the goal (in-thread P95 <= ${GOAL.inThreadP95Ms} ms, pool P95 <= ${GOAL.poolP95Ms} ms,
fallback <= ${GOAL.fallbackPct}%, every plan exact, and no wrong plan in the brief pass), else FAIL (exit 1).

workload:
  --settings LIST        comma-separated settings, or "all" (default: all)
                         ds-16 ds-32 ds-64 qwen-96 qwen-128 qwen-160 glm-96 glm-128 glm-160
  --count N              problems per setting (default ${defaultBenchOptions.count}; --quick: ${quickBenchOptions.count})
  --seed N               first simulator seed (default ${defaultBenchOptions.seed}; seeds N to N+${STEADY_STATE.seeds - 1})
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
  --progress             show a progress bar on stderr even when it is not a terminal (on a terminal: always)

families (instead of the nine settings' corpora):
  --families LIST        comma-separated families, or "all":
                         ${FAMILY_NAMES.join(' ')}
                         Generates each family's groups (seeded), checks the plans against brute force and
                         HiGHS, times the solver in-thread and through the pool, prints one Markdown table
                         per family (--count: problems per group, default ${defaultFamilyRunOptions.count}; --highs-sample
                         default ${defaultFamilyRunOptions.highsSample}; --cycles default ${defaultFamilyRunOptions.cycles})
  --mkp-count N          problems per multiple-knapsack group (default ${defaultFamilyRunOptions.mkpCount})
  --big-count N          problems per big-cluster group, burst and big-steady (default ${defaultFamilyRunOptions.bigCount})
  --no-pool              with --families: time the in-thread solver only
  --warmup-passes N      untimed passes through each group's problems before its in-thread and its pool
                         timing (default ${defaultFamilyRunOptions.warmupPasses}); the timed run then waits until the process is quiet
  --doc FILE             replace the generated block of FILE (e.g. docs/results/performance.md) with the tables
  --from-report FILE     with --families: render the tables from a saved --json report instead of measuring

paired gate (the baseline build and this build alternately, in one process):
  --paired FILE          compare with the baseline build FILE (e.g. ${PAIRED_GATE.build}) on the
                         pinned corpora of --corpus-dir (required: ${PAIRED_GATE.corpusDir} in the source
                         repository; the npm package does not ship them); exit 1
                         when a group is certainly slower than --max-slowdown, falls back more, or
                         disagrees. --paired-repeats sets the timed rounds (default ${PAIRED_GATE.rounds})
  --max-slowdown X       lower 95% bound of a group's time ratio allowed (default ${PAIRED_GATE.maxSlowdown})
  --pin-paired FILE      snapshot this build into FILE and pin the gate's corpora (seed ${PAIRED_GATE.seed}) into
                         --corpus-dir: ${Object.entries(PAIRED_GATE.groups)
                           .map(([g, n]) => `${g} (${n})`)
                           .join(', ')}
  --paired-big           with --pin-paired: also pin the big-cluster groups ${Object.entries(PAIRED_GATE.bigGroups)
    .map(([g, n]) => `${g} (${n})`)
    .join(', ')}

gate:
  --check BASELINE       compare with a baseline report; exit 1 on regression, 2 if the workloads differ.
                         Unset workload options default to the baseline's.
  --max-ratio-growth X   WASM/reference time ratio may grow X-fold (default ${defaultGateThresholds.maxRatioGrowth})
  --max-fallback-increase P
                         fallback rate may rise P percentage points (default ${defaultGateThresholds.maxFallbackIncreasePct})
  --max-mismatches N     wrong answers allowed per runner and setting (default ${defaultGateThresholds.maxMismatches})
  --p95-bound R=MS,...   absolute P95 bounds per runner (default ${Object.entries(defaultGateThresholds.p95BoundMs)
    .map(([k, v]) => `${k}=${v}`)
    .join(',')})
`;

function int(value: string | undefined, flag: string, min: number): number | undefined {
  return value === undefined ? undefined : intFlag(flag, value, min);
}

function positive(value: string | undefined, flag: string): number | undefined {
  return value === undefined ? undefined : positiveNumberFlag(flag, value);
}

function parseRunners(list: string, flag: string): RunnerName[] {
  const parts = list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (parts.length === 0) throw new InvalidValueError(`${flag} must name at least one runner`);
  for (const p of parts) {
    if (!isRunnerName(p))
      throw new InvalidValueError(`${flag}: unknown runner "${p}" (known: ${RUNNER_NAMES.join(', ')})`);
  }
  return RUNNER_NAMES.filter((r) => parts.includes(r));
}

function parseBounds(list: string, flag: string): GateThresholds['p95BoundMs'] {
  const out: GateThresholds['p95BoundMs'] = {};
  for (const part of list.split(',').filter((s) => s.trim().length > 0)) {
    const [name, ms] = part.split('=').map((s) => s.trim());
    if (name === undefined || !isRunnerName(name))
      throw new InvalidValueError(`${flag}: unknown runner "${name ?? ''}" in "${part}"`);
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
  families: { type: 'string' },
  'mkp-count': { type: 'string' },
  'big-count': { type: 'string' },
  'no-pool': { type: 'boolean' },
  'warmup-passes': { type: 'string' },
  doc: { type: 'string' },
  'from-report': { type: 'string' },
  paired: { type: 'string' },
  'pin-paired': { type: 'string' },
  'paired-big': { type: 'boolean' },
  'max-slowdown': { type: 'string' },
  progress: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseFamilies(list: string, flag: string): string[] {
  if (list.trim() === 'all') return [...FAMILY_NAMES];
  const parts = list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (parts.length === 0) throw new InvalidValueError(`${flag} must name at least one family`);
  for (const p of parts) {
    if (!FAMILY_NAMES.includes(p))
      throw new InvalidValueError(`${flag}: unknown family "${p}" (known: ${FAMILY_NAMES.join(', ')})`);
  }
  return FAMILY_NAMES.filter((f) => parts.includes(f));
}

type Values = ReturnType<typeof parseFlags<typeof SPEC>>['values'];

/** A saved `--families --json` report, refused when an older or newer schema wrote it. */
async function readFamilyReport(file: string): Promise<FamilyReport> {
  const r = JSON.parse(await readFile(file, 'utf8')) as Partial<FamilyReport>;
  if (r.kind !== 'tao-bench-families' || r.schemaVersion !== FAMILY_REPORT_SCHEMA_VERSION) {
    throw new InvalidValueError(
      `--from-report ${file}: kind ${String(r.kind)}, schemaVersion ${String(r.schemaVersion)}; this tao reads tao-bench-families ${FAMILY_REPORT_SCHEMA_VERSION}`,
    );
  }
  return r as FamilyReport;
}

/** `--families`: the per-family report; exit 1 when a plan is wrong (the goal is reported, not enforced). */
async function runFamilyBench(v: Values, args: string[]): Promise<number> {
  const d = defaultFamilyRunOptions;
  if (v.warmup !== undefined)
    throw new InvalidValueError(
      '--warmup counts solves of the settings benchmark; with --families use --warmup-passes',
    );
  const saved = v['from-report'];
  const report: FamilyReport =
    saved !== undefined
      ? await readFamilyReport(saved)
      : await runFamilies(
          {
            families: parseFamilies(v.families as string, '--families'),
            seed: int(v.seed, '--seed', 0) ?? d.seed,
            count: int(v.count, '--count', 1) ?? d.count,
            mkpCount: int(v['mkp-count'], '--mkp-count', 1) ?? d.mkpCount,
            bigCount: int(v['big-count'], '--big-count', 1) ?? d.bigCount,
            highsSample: int(v['highs-sample'], '--highs-sample', 0) ?? d.highsSample,
            highsTimeLimitSec: d.highsTimeLimitSec,
            cycles: int(v.cycles, '--cycles', 1) ?? d.cycles,
            warmupPasses: int(v['warmup-passes'], '--warmup-passes', 0) ?? d.warmupPasses,
            pool: v['no-pool'] !== true,
            stateBudget: int(v['state-budget'], '--state-budget', 1) ?? defaultBenchOptions.solve.stateBudget,
          },
          ['tao', 'bench', ...args].join(' '),
          { log: (line) => process.stderr.write(line + '\n') },
        );
  const block = formatFamilyMarkdown(report, new Map(FAMILIES.map((f) => [f.name, f.description])));
  process.stdout.write(block + '\n');
  if (v.doc !== undefined) {
    await updateDoc(v.doc, block);
    process.stderr.write(`doc: ${v.doc}\n`);
  }
  if (v.json !== undefined) await writeText(v.json, JSON.stringify(report, null, 2) + '\n');
  const wrong = report.groups.filter((g) => g.exactness.wrong.length > 0);
  for (const g of wrong)
    process.stderr.write(`tao bench: ${g.key}: wrong answers: ${g.exactness.wrong.slice(0, 3).join('; ')}\n`);
  const missed = report.groups.filter((g) => goalMisses(g).length > 0).length;
  process.stderr.write(
    `goal: ${report.groups.length - missed} of ${report.groups.length} groups meet theirs (${report.elapsedSec} s)\n`,
  );
  return wrong.length > 0 ? 1 : 0;
}

/** The paired gate's corpus directory: given, never defaulted (the pinned corpora live in the repository). */
function pairedCorpusDir(v: Values, flag: string): string {
  const dir = v['corpus-dir']?.[0];
  if (dir !== undefined) return dir;
  throw new InvalidValueError(
    `${flag} needs --corpus-dir DIR, the pinned family corpora (${PAIRED_GATE.corpusDir} in the source repository; the npm package does not ship them)`,
  );
}

/** `--pin-paired`: snapshot this build and pin the gate's corpora. */
async function pinPaired(buildFile: string, dir: string, big: boolean): Promise<number> {
  const snap = await writeBaselineBuild(buildFile);
  process.stderr.write(
    `baseline build: ${buildFile} (${Object.keys(snap.files).length} files, wasm ${snap.wasmSha256.slice(0, 12)})\n`,
  );
  const all = familyGroups(FAMILY_NAMES);
  for (const [key, count] of Object.entries({ ...PAIRED_GATE.groups, ...(big ? PAIRED_GATE.bigGroups : {}) })) {
    const g = all.find((x) => groupKey(x) === key);
    if (g === undefined) throw new InvalidValueError(`paired gate group "${key}" is not a family group`);
    process.stderr.write(`corpus: ${await pinFamilyCorpus(g, PAIRED_GATE.seed, count, dir)}\n`);
  }
  return 0;
}

/** `--paired`: the paired gate (src/bench/paired.ts). */
async function runPaired(v: Values, buildFile: string): Promise<number> {
  const t0 = performance.now();
  const dir = pairedCorpusDir(v, '--paired');
  const snapshot = await readBaselineBuild(buildFile);
  const corpora = await readFamilyCorpora(dir);
  if (corpora.length === 0)
    throw new InvalidValueError(`--corpus-dir holds no pinned family corpus ('tao bench --pin-paired' writes them)`);
  const rounds = int(v['paired-repeats'], '--paired-repeats', 1) ?? PAIRED_GATE.rounds;
  const maxSlowdown = positive(v['max-slowdown'], '--max-slowdown') ?? PAIRED_GATE.maxSlowdown;
  const baseline = await loadBaselineSolver(snapshot, v['cache-dir'] ?? defaultBenchOptions.cacheDir);
  const current = await loadSolver();
  const results = [];
  try {
    for (const c of corpora) {
      const options = { quantum: c.header.quantum };
      results.push(
        measurePaired(
          { name: c.header.group, problems: c.problems, options },
          (p, o) => baseline.solve(p, o),
          (p, o) => current.solve(p, o),
          rounds,
        ),
      );
    }
  } finally {
    baseline.close();
    current.close();
  }
  const same = (await currentWasmSha256()) === snapshot.wasmSha256 ? ' (the same WASM as the baseline)' : '';
  const verdict = judgePaired(results, { maxSlowdown, maxFallbackIncreasePct: PAIRED_GATE.maxFallbackIncreasePct });
  process.stdout.write(
    `paired check against ${buildFile}, built ${snapshot.createdAt.slice(0, 10)}${same}; ${rounds} rounds (${((performance.now() - t0) / 1000).toFixed(1)} s)\n${verdict.lines.join('\n')}\n`,
  );
  return verdict.code;
}

export async function run(args: string[]): Promise<number> {
  const { values: v } = parseFlags(args, SPEC);
  if (v.help === true) {
    process.stdout.write(HELP);
    return 0;
  }

  if (v.families !== undefined) return runFamilyBench(v, args);
  if (v['warmup-passes'] !== undefined)
    throw new InvalidValueError(
      '--warmup-passes applies to --families; the settings benchmark counts warm-up solves with --warmup',
    );
  if (v['pin-paired'] !== undefined)
    return pinPaired(v['pin-paired'], pairedCorpusDir(v, '--pin-paired'), v['paired-big'] === true);
  if (v.paired !== undefined) return runPaired(v, v.paired);

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
    quantum: pick(
      int(v.quantum, '--quantum', 1),
      bw?.solveOptions.quantum,
      undefined,
      defaultBenchOptions.solve.quantum,
    ),
    stateBudget: pick(
      int(v['state-budget'], '--state-budget', 1),
      bw?.solveOptions.stateBudget,
      undefined,
      defaultBenchOptions.solve.stateBudget,
    ),
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
    highsSample: pick(
      int(v['highs-sample'], '--highs-sample', 0),
      bw?.highsSample,
      quick.highsSample,
      defaultBenchOptions.highsSample,
    ),
    highsTimeLimitSec: defaultBenchOptions.highsTimeLimitSec,
    warmupIterations: pick(
      int(v.warmup, '--warmup', 0),
      baseline?.timing.warmupIterations,
      quick.warmupIterations,
      defaultBenchOptions.warmupIterations,
    ),
    cycles: pick(int(v.cycles, '--cycles', 1), baseline?.timing.cycles, quick.cycles, defaultBenchOptions.cycles),
    pairedRepeats: pick(
      int(v['paired-repeats'], '--paired-repeats', 1),
      baseline?.timing.pairedRepeats,
      quick.pairedRepeats,
      defaultBenchOptions.pairedRepeats,
    ),
    solve,
    cacheDir: v['cache-dir'] ?? defaultBenchOptions.cacheDir,
    corpusDirs: v['corpus-dir'] ?? defaultBenchOptions.corpusDirs,
    regenerate: v.regenerate === true,
    saveCorporaDir: v['save-corpora'] ?? null,
  };
  const thresholds: GateThresholds = {
    maxRatioGrowth: positive(v['max-ratio-growth'], '--max-ratio-growth') ?? defaultGateThresholds.maxRatioGrowth,
    maxFallbackIncreasePct:
      positive(v['max-fallback-increase'], '--max-fallback-increase') ?? defaultGateThresholds.maxFallbackIncreasePct,
    maxMismatches: int(v['max-mismatches'], '--max-mismatches', 0) ?? defaultGateThresholds.maxMismatches,
    p95BoundMs:
      v['p95-bound'] !== undefined
        ? parseBounds(v['p95-bound'], '--p95-bound')
        : { ...defaultGateThresholds.p95BoundMs },
  };

  for (const flag of ['json', 'svg', 'markdown', 'write-baseline'] as const) {
    const file = v[flag];
    if (file !== undefined) checkWritable(`--${flag}`, file, true);
  }

  const { runners, skipped } = await createRunners(options.runners, options.solve, options.highsTimeLimitSec);
  // Said before the run, not after it: which oracles check the plans, and where corpora are kept.
  process.stdout.write(
    `${formatOracles(
      runners.map((r) => r.name),
      skipped,
      options.highsSample,
    )}\n`,
  );
  process.stdout.write(
    `corpus cache: ${options.cacheDir}${v['cache-dir'] === undefined ? ' (the OS cache directory; --cache-dir sets another)' : ''}\n\n`,
  );
  const bar = new ProgressBar(
    options.settings.length * runners.length,
    'bench',
    process.stderr,
    process.stderr.isTTY === true || v.progress === true,
  );
  const log = (line: string): void => bar.log(line);
  let report: BenchReport;
  try {
    report = await runBench(options, {
      runners,
      skipped,
      source: simulatorSource(),
      log,
      referenceOracle: (p) => solveWithReference(p, options.solve),
      command: ['tao', 'bench', ...args].join(' '),
      onStep: (what) => bar.tick(1, what),
    });
  } finally {
    bar.finish();
  }

  const out = process.stdout;
  out.write(`${formatPreamble(report)}\n\n${formatLegend(report)}\n\n${formatTable(report)}\n\n`);
  const notes = formatNotes(report);
  if (notes.length > 0) out.write(notes + '\n');
  // The hardest families, briefly (not in the gate's runs, --check and --quick, whose time is its budget).
  const families =
    v.check === undefined && v.quick !== true
      ? await runBriefFamilies(options.seed, options.solve.stateBudget, ['tao', 'bench', ...args].join(' '))
      : undefined;
  if (families !== undefined) {
    const hardest = formatHardestFamilies(families);
    if (hardest !== '') out.write(hardest + '\n');
  }
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
    ...Object.values(s.runners).flatMap((r) =>
      r !== undefined && r.validation.mismatch > 0
        ? [`${s.setting} ${r.runner}: ${r.validation.mismatch} wrong answers`]
        : [],
    ),
    ...(s.oracle.disagreements.length > 0
      ? [`${s.setting}: reference and HiGHS disagree on ${s.oracle.disagreements.length} problems`]
      : []),
  ]);
  if (families !== undefined) wrong.push(...briefWrongAnswers(families));
  if (baseline !== undefined && v.check !== undefined) {
    const result = compareReports(baseline, report, thresholds);
    out.write(result.lines.join('\n') + '\n');
    return result.code;
  }
  if (wrong.length > 0) process.stderr.write(`tao bench: wrong answers:\n${wrong.map((w) => `  ${w}`).join('\n')}\n`);
  // The last line says PASS or FAIL against the goal, and the exit code says the same.
  const verdict = formatVerdict(report, wrong);
  out.write(verdict + '\n');
  return verdict.startsWith('PASS') ? 0 : 1;
}
