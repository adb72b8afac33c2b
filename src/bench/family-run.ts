/**
 * The per-family benchmark (`tao bench --families`): for every group of the chosen families, generate its
 * problems, describe what they look like, solve each once in-thread and judge the plan against an
 * independent oracle (brute force when small, HiGHS on a sample within a time limit per stage), then time
 * the in-thread solver and the worker pool, each after untimed passes through the group's problems (see
 * timing.ts: the timed run starts once the JIT compiler has gone quiet). The in-thread run records, per
 * solve, the wall clock beside the solving thread's CPU time and run-queue wait; the pool run records the
 * round trip beside the worker's own time. Every group is reported separately, beside its goal.
 */
import { availableParallelism, loadavg } from 'node:os';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../version.js';
import { createSolverPool, workerMicrosOf } from '../pool/pool.js';
import { resolveSolveOptions, type ResolvedSolveOptions } from '../solve/options.js';
import { loadSolver } from '../solve/solver.js';
import type { Plan, PlanValue, Problem } from '../types.js';
import { bruteForceValue } from './brute-force.js';
import { familyGroups, groupKey, type FamilyGroup } from './families/index.js';
import { loadHighs, solveWithHighs } from './highs.js';
import { goalForGroup, type FamilyGoal } from './options.js';
import { subsampleIndices } from './run.js';
import { summarize, type Summary } from './stats.js';
import { timeSolves } from './timing.js';
import { checkPlan, sameValue } from './validation.js';

export interface FamilyRunOptions {
  families: string[];
  seed: number;
  /** Problems per group of the tick-shaped and simulator families. */
  count: number;
  /** Problems per multiple-knapsack group (each goes to HiGHS, which is slow there). */
  mkpCount: number;
  /** Problems per big-cluster group (burst, big-steady: up to 64 x 4096, a solve can take 100 ms and more). */
  bigCount: number;
  /** Problems per group solved by HiGHS (evenly spaced). */
  highsSample: number;
  /** Time limit of one HiGHS stage, seconds; a problem it does not finish has no HiGHS value. */
  highsTimeLimitSec: number;
  /** Timed passes through each group's problems. */
  cycles: number;
  /**
   * Untimed passes through each group's problems before each timed run (in-thread, then pool), after the
   * validation pass. Measured on the stress families: the JIT compiler is still busy during the second and
   * third pass over a family new to the process and goes quiet by the fourth or fifth.
   */
  warmupPasses: number;
  /** Also time the worker pool. */
  pool: boolean;
  stateBudget: number;
}

export const defaultFamilyRunOptions: Readonly<Omit<FamilyRunOptions, 'families' | 'stateBudget'>> = Object.freeze({
  seed: 1,
  count: 100,
  mkpCount: 20,
  bigCount: 20,
  highsSample: 5,
  highsTimeLimitSec: 2,
  cycles: 1,
  warmupPasses: 5,
  pool: true,
});

/** What a group's inputs look like (medians over its problems unless said otherwise). */
export interface GroupShape {
  sessions: Summary;
  /** Room of a node in sessions of its pool's mean weight, P50 and P90 over every node of every problem. */
  roomSessionsP50: number;
  roomSessionsP90: number;
  /** Total weight over total room, P50. */
  demandOverRoomP50: number;
  /** Share of problems where every session fits in the total room (demand <= room). */
  allFitPct: number;
  /** Sessions with positive credit on some node, share of all sessions. */
  creditedPct: number;
}

export interface GroupReport {
  key: string;
  family: string;
  group: string;
  nodes: number;
  quantum: number;
  problems: number;
  shape: GroupShape;
  /** Wall clock of one in-thread solve. */
  inThread: Summary;
  /**
   * CPU time of the same solves, by `cpuClock`: the solving thread's own ('thread'), or the whole process's
   * where the platform has no thread clock ('process'). What load on the machine does not inflate.
   */
  inThreadCpu: Summary;
  cpuClock: 'thread' | 'process';
  /** Run-queue wait of the same solves (runnable, no core free): how much of the wall clock was preemption. */
  inThreadWait: Summary | null;
  /** CPU the process's other threads (JIT compiler, GC helpers) used during the in-thread timed run, ms. */
  otherThreadsCpuMs: number | null;
  /** Round trip of one pool solve, end to end from the caller. */
  pool: Summary | null;
  /** Of the same pool solves, the time the worker spent on each (the rest is the round trip's overhead). */
  poolWorker: Summary | null;
  fallbackPct: number;
  /**
   * Of the fallback plans (null when none), the proven gap per value level: (bound - value) / bound in
   * percent (0 where the bound is 0), the share of the optimum the plan may miss at most.
   */
  fallbackGap: Record<keyof PlanValue, Summary> | null;
  /** Oracle checks: problems with a value from brute force or HiGHS, and how the solver's plans compare. */
  exactness: {
    checked: number;
    equal: number;
    byBrute: number;
    byHighs: number;
    highsUnfinished: number;
    wrong: string[];
  };
  paths: Record<string, number>;
  goal: FamilyGoal | null;
}

const pct = (k: number, n: number): number => (n === 0 ? 0 : (100 * k) / n);

export function describeProblems(problems: readonly Problem[]): GroupShape {
  const rooms: number[] = [];
  const ratios: number[] = [];
  let allFit = 0;
  let credited = 0;
  let sessions = 0;
  for (const p of problems) {
    const demand = p.sessions.reduce((a, s) => a + s.weight, 0);
    const room = p.nodes.reduce((a, n) => a + n.capacity, 0);
    const mean = demand / Math.max(1, p.sessions.length);
    for (const n of p.nodes) rooms.push(n.capacity / mean);
    ratios.push(room > 0 ? demand / room : Infinity);
    if (demand <= room) allFit++;
    sessions += p.sessions.length;
    credited += p.sessions.filter((s) => Object.values(s.credit ?? {}).some((c) => c > 0)).length;
  }
  const r = summarize(rooms);
  const s = Float64Array.from(rooms).sort();
  return {
    sessions: summarize(problems.map((p) => p.sessions.length)),
    roomSessionsP50: r.p50,
    roomSessionsP90: s.length === 0 ? NaN : (s[Math.min(s.length - 1, Math.floor(0.9 * (s.length - 1)))] as number),
    demandOverRoomP50: summarize(ratios).p50,
    allFitPct: pct(allFit, problems.length),
    creditedPct: pct(credited, sessions),
  };
}

export interface FamilyRunDeps {
  log: (line: string) => void;
}

type Solver = Awaited<ReturnType<typeof loadSolver>>;
type Highs = Extract<Awaited<ReturnType<typeof loadHighs>>, { ok: true }>['highs'];

async function runGroup(
  g: FamilyGroup,
  o: FamilyRunOptions,
  solver: Solver,
  pool: ReturnType<typeof createSolverPool> | null,
  highs: Highs | null,
  log: (line: string) => void,
): Promise<GroupReport> {
  const key = groupKey(g);
  const count = g.family === 'mkp' ? o.mkpCount : g.big === true ? o.bigCount : o.count;
  const problems = await g.generate(o.seed, count);
  const options: ResolvedSolveOptions = resolveSolveOptions({ quantum: g.quantum, stateBudget: o.stateBudget });
  const plans: Plan[] = problems.map((p) => solver.solve(p, options));
  const exactness: GroupReport['exactness'] = {
    checked: 0,
    equal: 0,
    byBrute: 0,
    byHighs: 0,
    highsUnfinished: 0,
    wrong: [],
  };
  const sample = new Set(subsampleIndices(problems.length, o.highsSample));
  problems.forEach((p, i) => {
    const plan = plans[i] as Plan;
    const bad = checkPlan(p, plan);
    if (bad !== null) exactness.wrong.push(`#${i}: inadmissible plan: ${bad}`);
    let oracle: PlanValue | null = bruteForceValue(p, g.quantum);
    if (oracle !== null) exactness.byBrute++;
    else if (highs !== null && g.highs !== false && sample.has(i)) {
      const h = solveWithHighs(highs, p, g.quantum, o.highsTimeLimitSec);
      if (h.ok) {
        oracle = h.plan.value;
        exactness.byHighs++;
      } else exactness.highsUnfinished++;
    }
    if (oracle === null) return;
    exactness.checked++;
    if (sameValue(plan.value, oracle)) exactness.equal++;
    else if (plan.status === 'optimal')
      exactness.wrong.push(`#${i}: optimal plan worth ${JSON.stringify(plan.value)}, oracle ${JSON.stringify(oracle)}`);
  });
  const iterations = problems.length * o.cycles;
  const warmupIterations = problems.length * o.warmupPasses;
  const inThread = await timeSolves(`${key}/wasm`, problems, (p) => solver.solve(p, options), {
    iterations,
    warmupIterations,
    async: false,
  });
  const workerMs: number[] = [];
  const pooled =
    pool === null
      ? null
      : await timeSolves(`${key}/pool`, problems, (p) => pool.solve(p, options), {
          iterations,
          warmupIterations,
          async: true,
          inspect: (plan) => {
            const micros = workerMicrosOf(plan);
            if (micros !== undefined) workerMs.push(micros / 1000);
          },
        });
  const fallbacks = plans.filter((p) => p.status === 'fallback');
  const gap = (level: keyof PlanValue): Summary =>
    summarize(
      fallbacks.map((p) => (p.bound[level] === 0 ? 0 : (100 * (p.bound[level] - p.value[level])) / p.bound[level])),
    );
  const paths: Record<string, number> = {};
  for (const p of plans) paths[p.stats.path] = (paths[p.stats.path] ?? 0) + 1;
  const report: GroupReport = {
    key,
    family: g.family,
    group: g.name,
    nodes: g.nodes,
    quantum: g.quantum,
    problems: problems.length,
    shape: describeProblems(problems),
    inThread: summarize(inThread.samplesMs),
    inThreadCpu: summarize(inThread.cpuMs ?? []),
    cpuClock: inThread.cpuClock ?? 'process',
    inThreadWait: inThread.waitMs === null ? null : summarize(inThread.waitMs),
    otherThreadsCpuMs: inThread.otherThreadsCpuMs,
    pool: pooled === null ? null : summarize(pooled.samplesMs),
    poolWorker: pooled === null ? null : summarize(workerMs),
    fallbackPct: pct(fallbacks.length, plans.length),
    fallbackGap: fallbacks.length === 0 ? null : { credit: gap('credit'), ready: gap('ready'), tokens: gap('tokens') },
    exactness,
    paths,
    goal: goalForGroup(g.family, g.name, g.nodes),
  };
  log(
    `${key}: ${problems.length} problems, in-thread P95 ${report.inThread.p95.toFixed(3)} ms, fallback ${report.fallbackPct.toFixed(1)}%, ` +
      `exact ${exactness.equal}/${exactness.checked}${exactness.wrong.length > 0 ? `, ${exactness.wrong.length} WRONG` : ''}`,
  );
  return report;
}

/** Changes whenever a field of the family report changes meaning or goes. */
export const FAMILY_REPORT_SCHEMA_VERSION = 3;

export interface FamilyReport {
  schemaVersion: typeof FAMILY_REPORT_SCHEMA_VERSION;
  kind: 'tao-bench-families';
  package: { name: string; version: string };
  createdAt: string;
  command: string;
  options: FamilyRunOptions;
  highs: string;
  /** One-minute load average when the run started, and the machine's logical cores. */
  loadAverage: number;
  cpus: number;
  groups: GroupReport[];
  elapsedSec: number;
}

/** Runs every group of `o.families`. The solver and the pool are set up once and always torn down. */
export async function runFamilies(o: FamilyRunOptions, command: string, deps: FamilyRunDeps): Promise<FamilyReport> {
  const t0 = performance.now();
  const createdAt = new Date().toISOString();
  const loadAverage = loadavg()[0] ?? NaN;
  const h = await loadHighs();
  const solver = await loadSolver();
  const pool = o.pool ? createSolverPool() : null;
  const groups: GroupReport[] = [];
  try {
    if (pool !== null) await pool.ready();
    for (const g of familyGroups(o.families))
      groups.push(await runGroup(g, o, solver, pool, h.ok ? h.highs : null, deps.log));
  } finally {
    solver.close();
    await pool?.close();
  }
  return {
    schemaVersion: FAMILY_REPORT_SCHEMA_VERSION,
    kind: 'tao-bench-families',
    package: { name: PACKAGE_NAME, version: PACKAGE_VERSION },
    createdAt,
    command,
    options: o,
    loadAverage,
    cpus: availableParallelism(),
    highs: h.ok ? `HiGHS, ${o.highsTimeLimitSec} s per stage` : `HiGHS unavailable: ${h.reason}`,
    groups,
    elapsedSec: Math.round((performance.now() - t0) / 100) / 10,
  };
}
