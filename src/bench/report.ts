/**
 * The benchmark's JSON report: its schema (versioned), and the helpers that write it and make a baseline
 * of it. Every time is in milliseconds. `schemaVersion` changes whenever a field changes meaning or goes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { readTextFile } from '../input.js';
import type { MachineInfo } from './machine.js';
import type { SkippedRunner } from './runners.js';
import type { PaperRow, SettingName } from './settings.js';
import type { Summary } from './stats.js';
import type { ValidationCounts } from './validation.js';

export const REPORT_SCHEMA_VERSION = 2;

/** What was measured: two reports compare only when this matches (see check.ts). */
export interface Workload {
  settings: SettingName[];
  /** The window of the simulator runs the corpora were recorded from (`steady-state`, `warm-up`). */
  window: string;
  seed: number;
  /** Problems per setting. */
  count: number;
  runners: string[];
  solveOptions: { quantum: number; stateBudget: number; deadlineMs: number | null };
  highsSample: number;
  /** Per setting: sha256 of the corpus lines and the simulator fingerprint it was recorded with. */
  corpora: Partial<Record<SettingName, { hash: string; fingerprint: string }>>;
}

/** Shape of the problems of one setting. */
export interface CorpusShape {
  nodes: Summary;
  sessions: Summary;
  /** Dense DP states per layer as the WASM solver reported them (0 for trivial problems). */
  states: Summary;
}

/** The oracles' own agreement on one setting. */
export interface OracleReport {
  /** Problems the reference solved optimally (those it is the oracle of). */
  referenceOptimal: number;
  /** Problems the reference fell back on (no reference oracle there). */
  referenceFallback: number;
  /** Subsample problems HiGHS proved optimal. */
  highsSolved: number;
  /** Subsample problems where HiGHS gave no proven optimum, with why. */
  highsFailed: { index: number; reason: string }[];
  /** Subsample problems where the reference (optimal) and HiGHS disagree. */
  disagreements: { index: number; reason: string }[];
}

export interface RunnerReport {
  runner: string;
  description: string;
  /** Problems validated (the whole corpus, or the HiGHS subsample). */
  problems: number;
  validation: ValidationCounts;
  /** Fallback plans, percent of validated problems. */
  fallbackPct: number;
  /** Fallback reasons and how often. */
  fallbackReasons: Record<string, number>;
  /** SolvePath of the plans and how often. */
  paths: Record<string, number>;
  /** Units of DP work per solve (Plan.stats.work). */
  cells: { median: number; p95: number; max: number };
  /** Timed solves (samples) and their summary. */
  time: Summary;
  /**
   * This runner's time over the reference's in the interleaved pass (each problem solved by both back to
   * back; per problem the fastest of `pairedRepeats` rounds). `median`: the median per-problem ratio over
   * the DP-heavy problems (>= 65536 cells, where the kernel is the cost) when there are at least 10 of
   * them (`over: 'dp-heavy'`), else over all problems (`over: 'all'`); this is the gated number. `sum`:
   * Σ runner / Σ reference over all problems, informative (one large problem can dominate it).
   * Null for the reference itself and HiGHS.
   */
  ratioToReference: { median: number; over: 'dp-heavy' | 'all'; problems: number; sum: number } | null;
  /** Raw timed samples in run order and the corpus index each solved. Dropped from baselines. */
  samplesMs?: number[];
  sampleProblems?: number[];
}

export interface SettingReport {
  setting: SettingName;
  model: string;
  nodes: number;
  workers: number;
  /** The paper's Table 9 row, null where the paper has none (GLM). */
  paper: PaperRow | null;
  corpus: { hash: string; origin: 'pinned' | 'cache' | 'generated'; file: string; generateMs: number };
  shape: CorpusShape;
  oracle: OracleReport;
  runners: Record<string, RunnerReport>;
}

/** One way the run misses the project's goal. */
export interface GoalMiss {
  setting: SettingName;
  metric: 'wasm P95' | 'pool P95' | 'fallback' | 'exactness';
  target: number;
  measured: number;
  /** Human summary: by how much, and the shapes of the problems behind it. */
  detail: string;
}

export interface GoalReport {
  targets: { inThreadP95Ms: number; poolP95Ms: number; fallbackPct: number; exact: true };
  met: boolean;
  misses: GoalMiss[];
}

export interface BenchReport {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  kind: 'tao-bench-report';
  createdAt: string;
  /** The command line that produced the report. */
  command: string;
  package: { name: string; version: string };
  wasm: { path: string; sha256: string | null };
  machine: MachineInfo;
  /** `gcBetweenRuns`: garbage was collected before each timed run (node --expose-gc). */
  timing: {
    timer: string;
    unit: 'ms';
    warmupIterations: number;
    cycles: number;
    pairedRepeats: number;
    gcBetweenRuns: boolean;
  };
  workload: Workload;
  settings: SettingReport[];
  skipped: SkippedRunner[];
  goal: GoalReport;
  elapsedSec: number;
}

/** A copy without raw samples: what `--write-baseline` commits. */
export function withoutSamples(report: BenchReport): BenchReport {
  return {
    ...report,
    settings: report.settings.map((s) => ({
      ...s,
      runners: Object.fromEntries(
        Object.entries(s.runners).map(([k, r]) => {
          const { samplesMs: _s, sampleProblems: _p, ...rest } = r;
          return [k, rest];
        }),
      ),
    })),
  };
}

/** JSON with NaN/Infinity written as null (JSON has neither), two-space indented. */
export function reportToJson(report: BenchReport): string {
  return (
    JSON.stringify(report, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2) + '\n'
  );
}

export async function writeReport(file: string, report: BenchReport): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, reportToJson(report));
}

/** Reads a report (a baseline), checking its kind and schema version by name. */
export async function readReport(file: string, what = 'baseline'): Promise<BenchReport> {
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (err) {
    throw new InvalidValueError(`${what}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new InvalidTypeError(`${what} ${file} is not JSON`);
  }
  const r = data as Partial<BenchReport> | null;
  if (r === null || typeof r !== 'object' || r.kind !== 'tao-bench-report') {
    throw new InvalidTypeError(`${what} ${file} is not a tao bench report (kind must be "tao-bench-report")`);
  }
  if (r.schemaVersion !== REPORT_SCHEMA_VERSION) {
    throw new InvalidValueError(
      `${what} ${file}: schemaVersion ${String(r.schemaVersion)}, this tao reads ${REPORT_SCHEMA_VERSION}`,
    );
  }
  return r as BenchReport;
}
