/**
 * The benchmark run: per setting, load the corpus, solve it with every runner (interleaved, see
 * pairedPass), validate each plan against the oracles, then time each runner with tinybench; finally assess
 * the goal. Runners are set up once for the whole run.
 */
import type { Plan, Problem } from '../types.js';
import type { Corpus, CorpusSource } from './corpus.js';
import { loadCorpus, savePinned } from './corpus.js';
import { assessGoal, type ProblemShape } from './goal.js';
import { machineInfo, wasmBuildHash } from './machine.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../version.js';
import type { BenchOptions } from './options.js';
import {
  REPORT_SCHEMA_VERSION,
  type BenchReport,
  type OracleReport,
  type RunnerReport,
  type SettingReport,
} from './report.js';
import type { Runner, SkippedRunner } from './runners.js';
import { PAPER_TABLE9, settingInfo, type SettingName } from './settings.js';
import { quantileSorted, sortedCopy } from '../stats.js';
import { summarize } from './stats.js';
import { hrtimeNow } from 'tinybench';
import { collectGarbage, timeSolves } from './timing.js';
import {
  checkPlan,
  emptyCounts,
  formatValue,
  judge,
  sameValue,
  tally,
  type OracleValue,
  type ValidationCounts,
} from './validation.js';

/** What the run needs from outside: the runners (already constructed), the corpus source, a log. */
export interface BenchDeps {
  runners: Runner[];
  skipped: SkippedRunner[];
  source: CorpusSource;
  log: (line: string) => void;
  /** Solves the oracle for a problem when the reference runner is not among `runners`. */
  referenceOracle: (problem: Problem) => Plan;
  /** The command line, recorded in the report. */
  command: string;
  /** Called when one runner has been validated and timed on one setting (settings x runners steps). */
  onStep?: (what: string) => void;
}

/** `k` indices spread evenly over `[0, n)`, deterministic. */
export function subsampleIndices(n: number, k: number): number[] {
  const m = Math.min(n, Math.max(0, k));
  const out: number[] = [];
  for (let j = 0; j < m; j++) out.push(Math.floor(((j + 0.5) * n) / m));
  return out;
}

export interface Solved {
  plans: (Plan | null)[];
  /** Corpus indices the runner answered (did not throw on). */
  answered: number[];
  errors: Map<number, string>;
  async: boolean;
  /** Per corpus index: the least of the paired-pass solve times (ms), NaN where not solved. */
  minMs: Float64Array;
}

function newSolved(n: number): Solved {
  return {
    plans: new Array<Plan | null>(n).fill(null),
    answered: [],
    errors: new Map(),
    async: false,
    minMs: new Float64Array(n).fill(NaN),
  };
}

/**
 * The validation pass, interleaved: for each problem, every runner solves it in turn (the order rotating
 * with the problem, so no runner always goes first), `repeats` times over the corpus. The first round's
 * plans are what is validated; every round's times feed per-problem minima, from which the in-run ratio
 * to the reference is computed. Solving the same problem back to back makes machine load (and its drift
 * over the run) cancel in that ratio, and the minimum drops preempted solves.
 */
async function pairedPass(
  runners: readonly Runner[],
  problems: readonly Problem[],
  repeats: number,
): Promise<Map<string, Solved>> {
  const n = problems.length;
  const out = new Map(runners.map((r) => [r.name, newSolved(n)]));
  const k = runners.length;
  for (let round = 0; round < repeats; round++) {
    for (let i = 0; i < n; i++) {
      const problem = problems[i] as Problem;
      for (let j = 0; j < k; j++) {
        const runner = runners[(i + j) % k] as Runner;
        const s = out.get(runner.name) as Solved;
        if (round > 0 && s.errors.has(i)) continue;
        const t0 = hrtimeNow();
        try {
          let plan = runner.solve(problem);
          if (plan instanceof Promise) {
            s.async = true;
            plan = await plan;
          }
          const ms = hrtimeNow() - t0;
          const prev = s.minMs[i] as number;
          s.minMs[i] = Number.isNaN(prev) ? ms : Math.min(prev, ms);
          if (round === 0) {
            s.plans[i] = plan;
            s.answered.push(i);
          }
        } catch (err) {
          if (round === 0) s.errors.set(i, err instanceof Error ? err.message : String(err));
        }
      }
    }
  }
  return out;
}

/** HiGHS on its subsample, one solve each (it is both a runner and an oracle there). */
async function highsPass(runner: Runner, problems: readonly Problem[], indices: readonly number[]): Promise<Solved> {
  const s = newSolved(problems.length);
  for (const i of indices) {
    const t0 = hrtimeNow();
    try {
      s.plans[i] = await runner.solve(problems[i] as Problem);
      s.minMs[i] = hrtimeNow() - t0;
      s.answered.push(i);
    } catch (err) {
      s.errors.set(i, err instanceof Error ? err.message : String(err));
    }
  }
  return s;
}

/** DP cells from which the kernel, not validation and packing, is most of a solve (~65 us at 1 ns/cell). */
export const HEAVY_CELLS = 2 ** 16;
/** Fewest heavy problems for the ratio to be taken over them alone. */
const MIN_HEAVY = 10;

/**
 * `a`'s time over `b`'s in the paired pass. `median`: median over problems of the per-problem ratio of
 * fastest rounds, over the problems with at least HEAVY_CELLS DP cells when there are MIN_HEAVY of them
 * (so a slower kernel shows at its full factor), else over all; robust to any one problem. `sum`: Σ a / Σ b
 * over all problems, informative only (one large problem can dominate it).
 */
export function pairedRatio(
  a: Solved,
  b: Solved,
  cells: ArrayLike<number>,
): NonNullable<RunnerReport['ratioToReference']> | null {
  let sa = 0;
  let sb = 0;
  const all: number[] = [];
  const heavy: number[] = [];
  for (let i = 0; i < a.minMs.length; i++) {
    const x = a.minMs[i] as number;
    const y = b.minMs[i] as number;
    if (Number.isNaN(x) || Number.isNaN(y) || y <= 0) continue;
    sa += x;
    sb += y;
    all.push(x / y);
    if ((cells[i] ?? 0) >= HEAVY_CELLS) heavy.push(x / y);
  }
  if (all.length === 0 || sb <= 0) return null;
  const useHeavy = heavy.length >= MIN_HEAVY;
  const over = useHeavy ? heavy : all;
  return { median: summarize(over).p50, over: useHeavy ? 'dp-heavy' : 'all', problems: over.length, sum: sa / sb };
}

function countBy(values: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

function cellsSummary(plans: readonly Plan[]): RunnerReport['cells'] {
  const s = sortedCopy(plans.map((p) => p.stats.work));
  return {
    median: quantileSorted(s, 0.5),
    p95: quantileSorted(s, 0.95),
    max: s.length > 0 ? (s[s.length - 1] as number) : NaN,
  };
}

async function runSetting(
  setting: SettingName,
  corpus: Corpus,
  options: BenchOptions,
  deps: BenchDeps,
): Promise<{ report: SettingReport; shapes: ProblemShape[] }> {
  const { problems } = corpus;
  const n = problems.length;
  const all = problems.map((_, i) => i);
  const highsIdx = subsampleIndices(n, options.highsSample);
  const byName = new Map(deps.runners.map((r) => [r.name, r]));

  const paired = deps.runners.filter((r) => r.name !== 'highs');
  const solved = await pairedPass(paired, problems, options.pairedRepeats);
  const highs = byName.get('highs');
  if (highs !== undefined) solved.set('highs', await highsPass(highs, problems, highsIdx));
  const refPlans: (Plan | null)[] = solved.get('reference')?.plans ?? problems.map((p) => deps.referenceOracle(p));
  // An oracle plan is only trusted when it is itself admissible (a formulation bug must not pass as truth).
  const trusted = (i: number, plan: Plan | null | undefined): plan is Plan =>
    plan != null && plan.status === 'optimal' && checkPlan(problems[i] as Problem, plan) === null;
  const oracleFor = (i: number, self: string): OracleValue[] => {
    const out: OracleValue[] = [];
    const r = refPlans[i];
    if (self !== 'reference' && trusted(i, r)) out.push({ source: 'reference', value: r.value });
    const h = solved.get('highs')?.plans[i];
    if (self !== 'highs' && trusted(i, h)) out.push({ source: 'highs', value: h.value });
    return out;
  };

  const oracle: OracleReport = {
    referenceOptimal: refPlans.filter((p) => p?.status === 'optimal').length,
    referenceFallback: refPlans.filter((p) => p?.status === 'fallback').length,
    highsSolved: 0,
    highsFailed: [],
    disagreements: [],
  };
  const hs = solved.get('highs');
  if (hs !== undefined) {
    for (const i of highsIdx) {
      const h = hs.plans[i];
      const r = refPlans[i];
      if (!trusted(i, h)) {
        const plan: Plan | null | undefined = hs.plans[i];
        const why =
          plan == null
            ? (hs.errors.get(i) ?? 'no answer')
            : `inadmissible plan: ${checkPlan(problems[i] as Problem, plan) ?? `status ${plan.status}`}`;
        oracle.highsFailed.push({ index: i, reason: why });
        continue;
      }
      oracle.highsSolved++;
      if (trusted(i, r) && !sameValue(r.value, h.value)) {
        oracle.disagreements.push({
          index: i,
          reason: `reference ${formatValue(r.value)}, highs ${formatValue(h.value)}`,
        });
      }
    }
  }

  const reports: Record<string, RunnerReport> = {};
  // A fixed timing order, whatever order --runners listed them in, so two runs time in the same conditions.
  const timedFirst = ['wasm', 'reference', 'pool', 'bfd', 'highs'];
  const rank = (x: string): number => (timedFirst.includes(x) ? timedFirst.indexOf(x) : timedFirst.length);
  const order = deps.runners.map((r) => r.name).sort((a, b) => rank(a) - rank(b));
  for (const name of order) {
    const runner = byName.get(name) as Runner;
    const indices = name === 'highs' ? highsIdx : all;
    const s = solved.get(name) as Solved;
    const counts: ValidationCounts = emptyCounts();
    const plans: Plan[] = [];
    for (const i of indices) {
      const plan = s.plans[i];
      if (plan == null) {
        // A runner that throws (HiGHS hitting its time limit excepted, which is an oracle gap) is wrong.
        if (name === 'highs') continue;
        tally(counts, i, { verdict: 'mismatch', reason: `threw: ${s.errors.get(i) ?? 'unknown error'}` }, false);
        continue;
      }
      plans.push(plan);
      const oracles = oracleFor(i, name);
      tally(
        counts,
        i,
        judge(problems[i] as Problem, plan, oracles),
        oracles.some((o) => o.source === 'highs'),
      );
    }
    const timedIdx = s.answered;
    const timedProblems = timedIdx.map((i) => problems[i] as Problem);
    const iterations = timedProblems.length * (name === 'highs' ? 1 : options.cycles);
    const warmup =
      name === 'highs' ? Math.min(1, timedProblems.length) : Math.min(options.warmupIterations, iterations);
    deps.log(
      `  ${setting} ${name}: validated ${indices.length} (${counts.exact} exact, ${counts.mismatch} mismatch, ${counts.fallback} fallback), timing ${iterations}...`,
    );
    const t = await timeSolves(`${setting}/${name}`, timedProblems, (p) => runner.solve(p), {
      iterations,
      warmupIterations: warmup,
      async: s.async,
    });
    const fallbacks = plans.filter((p) => p.status === 'fallback');
    reports[name] = {
      runner: name,
      description: runner.description,
      problems: indices.length,
      validation: counts,
      fallbackPct: plans.length === 0 ? 0 : (100 * fallbacks.length) / plans.length,
      // Reasons carry per-problem numbers; their head ("state budget exceeded") is the category.
      fallbackReasons: countBy(fallbacks.map((p) => (p.reason ?? 'unspecified').split(':')[0] as string)),
      paths: countBy(plans.map((p) => p.stats.path)),
      cells: cellsSummary(plans),
      time: summarize(t.samplesMs),
      ratioToReference: null,
      samplesMs: t.samplesMs,
      sampleProblems: t.problemIndex.map((k) => timedIdx[k] as number),
    };
    deps.onStep?.(`${setting} ${name}`);
  }
  const ref = solved.get('reference');
  const cells = refPlans.map((p) => p?.stats.work ?? 0);
  for (const r of Object.values(reports)) {
    const own = solved.get(r.runner);
    if (ref === undefined || own === undefined || r.runner === 'reference' || r.runner === 'highs') continue;
    r.ratioToReference = pairedRatio(own, ref, cells);
  }

  // Shape from the WASM solver's own stats where present (states), else from the problems alone.
  const info = settingInfo(setting);
  const wasmPlans = solved.get('wasm')?.plans ?? [];
  const shapes: ProblemShape[] = problems.map((p, i) => {
    const plan = wasmPlans[i];
    if (plan == null)
      return { nodes: p.nodes.length, sessions: p.sessions.length, cells: NaN, states: NaN, fallback: false };
    const st = plan.stats;
    // A fallback ran no DP (cells 0): describe it by the cells the DP would have needed.
    const cells = plan.status === 'fallback' ? st.states * (st.sessionsKept ?? p.sessions.length) : st.work;
    return {
      nodes: p.nodes.length,
      sessions: p.sessions.length,
      cells,
      states: st.states,
      fallback: plan.status === 'fallback',
    };
  });
  const report: SettingReport = {
    setting,
    model: info.model,
    nodes: info.nodes,
    workers: info.workers,
    paper: PAPER_TABLE9[setting],
    corpus: { hash: corpus.hash, origin: corpus.origin, file: corpus.file, generateMs: Math.round(corpus.generateMs) },
    shape: {
      nodes: summarize(problems.map((p) => p.nodes.length)),
      sessions: summarize(problems.map((p) => p.sessions.length)),
      states: summarize(wasmPlans.filter((p): p is Plan => p != null).map((p) => p.stats.states)),
    },
    oracle,
    runners: reports,
  };
  return { report, shapes };
}

/** Runs the whole benchmark. Runners are set up here and always torn down. */
export async function runBench(options: BenchOptions, deps: BenchDeps): Promise<BenchReport> {
  const t0 = performance.now();
  const createdAt = new Date().toISOString();
  const machine = machineInfo();
  const settings: SettingReport[] = [];
  const shapes = new Map<SettingName, ProblemShape[]>();
  const corpora: BenchReport['workload']['corpora'] = {};
  const ready: Runner[] = [];
  try {
    for (const r of deps.runners) {
      await r.setup();
      ready.push(r);
    }
    for (const setting of options.settings) {
      const corpus = await loadCorpus(
        deps.source,
        setting,
        {
          seed: options.seed,
          count: options.count,
          cacheDir: options.cacheDir,
          readDirs: options.corpusDirs,
          regenerate: options.regenerate,
        },
        deps.log,
      );
      corpora[setting] = { hash: corpus.hash, fingerprint: corpus.fingerprint };
      if (options.saveCorporaDir !== null)
        deps.log(`corpus ${setting}: pinned copy ${await savePinned(corpus, options.saveCorporaDir)}`);
      deps.log(`${setting}: ${corpus.problems.length} problems (${corpus.origin}, ${corpus.hash.slice(0, 12)})`);
      const done = await runSetting(setting, corpus, options, deps);
      settings.push(done.report);
      shapes.set(setting, done.shapes);
    }
  } finally {
    for (const r of ready.reverse()) await r.teardown();
  }
  const report: BenchReport = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'tao-bench-report',
    createdAt,
    command: deps.command,
    package: { name: PACKAGE_NAME, version: PACKAGE_VERSION },
    wasm: await wasmBuildHash(),
    machine,
    timing: {
      timer: 'process.hrtime.bigint via tinybench hrtimeNow',
      unit: 'ms',
      warmupIterations: options.warmupIterations,
      cycles: options.cycles,
      pairedRepeats: options.pairedRepeats,
      gcBetweenRuns: collectGarbage(),
    },
    workload: {
      settings: [...options.settings],
      window: deps.source.window,
      seed: options.seed,
      count: options.count,
      runners: deps.runners.map((r) => r.name),
      solveOptions: {
        quantum: options.solve.quantum,
        stateBudget: options.solve.stateBudget,
        deadlineMs: Number.isFinite(options.solve.deadlineMs) ? options.solve.deadlineMs : null,
      },
      highsSample: options.highsSample,
      corpora,
    },
    settings,
    skipped: deps.skipped,
    goal: assessGoal(settings, shapes),
    elapsedSec: 0,
  };
  report.elapsedSec = Math.round((performance.now() - t0) / 100) / 10;
  return report;
}
