/**
 * An independent oracle: the lexicographic multiple-knapsack solved as three MILPs with HiGHS (a
 * devDependency, loaded dynamically so the package runs without it). Stage 1 maximizes total credit;
 * stage 2 maximizes readiness with credit held at its optimum; stage 3 maximizes tokens with both held.
 * Capacities are quantized exactly as the DP does (weights rounded up, capacities down to the quantum),
 * so the optimum is the DP's optimum, not the unquantized one.
 */
import type { Assignment, Plan, PlanValue, Problem } from '../types.js';

/**
 * The part of highs' one-shot API used here, declared locally so the published typings do not depend on
 * a devDependency.
 */
export interface LegacyHighs {
  solve(
    lp: string,
    options?: Readonly<Record<string, string | number | boolean>>,
  ): { Status: string; Columns: Record<string, { Primal?: number } | undefined> };
}

/** The loaded HiGHS solver, or why it is unavailable. */
export type HighsLoad = { ok: true; highs: LegacyHighs } | { ok: false; reason: string };

/** Imports and instantiates HiGHS; a missing package is a reason, not an error. */
export async function loadHighs(): Promise<HighsLoad> {
  let mod: unknown;
  try {
    mod = await import('highs');
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return { ok: false, reason: `the "highs" package is not installed (it is a devDependency): ${why}` };
  }
  // Under NodeNext the CommonJS default export is typed as a namespace: take the callable once, here.
  const loader = ((mod as any).default ?? mod) as (options?: object) => Promise<LegacyHighs>;
  return { ok: true, highs: await loader() };
}

/**
 * Per-stage HiGHS options: proven optimality (the objectives are integers, so an absolute gap below 1 is
 * a proof; no relative gap), silent, bounded time.
 */
function stageOptions(timeLimitSec: number): Readonly<Record<string, string | number | boolean>> {
  return { mip_rel_gap: 0, mip_abs_gap: 0.5, output_flag: false, time_limit: timeLimitSec };
}

interface Pair {
  session: number;
  node: number;
  name: string;
}

/** LP-format terms, wrapped so no line grows long (continuation lines start with a sign). */
function terms(coef: readonly number[], pairs: readonly Pair[]): string {
  const parts: string[] = [];
  for (let k = 0; k < pairs.length; k++) {
    const c = coef[k] as number;
    if (c !== 0) parts.push(`+ ${c} ${(pairs[k] as Pair).name}`);
  }
  // An objective or row with no nonzero term still needs one: a zero coefficient keeps the LP valid.
  if (parts.length === 0 && pairs.length > 0) parts.push(`+ 0 ${(pairs[0] as Pair).name}`);
  const lines: string[] = [];
  for (let k = 0; k < parts.length; k += 8) lines.push('  ' + parts.slice(k, k + 8).join(' '));
  return lines.join('\n');
}

/** What one oracle solve found. */
export type HighsAnswer = { ok: true; plan: Plan } | { ok: false; reason: string };

/**
 * Solves `problem` at `quantum`. Returns an `optimal` Plan (its stats report no DP cells; `path` says
 * `reference` because SolvePath has no member for an external oracle) or the reason HiGHS gave no proven
 * optimum (time limit, error).
 */
export function solveWithHighs(highs: LegacyHighs, problem: Problem, quantum: number, timeLimitSec = 30): HighsAnswer {
  const t0 = performance.now();
  const nodes = problem.nodes;
  const caps = nodes.map((n) => Math.floor(n.capacity / quantum));
  const pairs: Pair[] = [];
  const credit: number[] = [];
  const ready: number[] = [];
  const tokens: number[] = [];
  const wq: number[] = [];
  problem.sessions.forEach((s, i) => {
    const w = Math.ceil(s.weight / quantum);
    nodes.forEach((n, b) => {
      if (s.eligible !== undefined && !s.eligible.includes(n.id)) return;
      if (w > (caps[b] as number)) return;
      pairs.push({ session: i, node: b, name: `x${i}_${b}` });
      credit.push(s.credit?.[n.id] ?? 0);
      ready.push(s.ready ? 1 : 0);
      tokens.push(s.tokens);
      wq.push(w);
    });
  });
  const empty = (): Plan => ({
    status: 'optimal',
    assignments: [],
    value: { credit: 0, ready: 0, tokens: 0 },
    bound: { credit: 0, ready: 0, tokens: 0 },
    quantum,
    stats: { path: 'reference', work: 0, cells: 0, states: 0, micros: Math.round((performance.now() - t0) * 1000) },
  });
  if (pairs.length === 0) return { ok: true, plan: empty() };

  const rows: string[] = [];
  problem.sessions.forEach((_, i) => {
    const own = pairs.map((p) => (p.session === i ? 1 : 0));
    if (own.some((c) => c !== 0)) rows.push(` s${i}:\n${terms(own, pairs)}\n  <= 1`);
  });
  nodes.forEach((_, b) => {
    const use = pairs.map((p, k) => (p.node === b ? (wq[k] as number) : 0));
    if (use.some((c) => c !== 0)) rows.push(` c${b}:\n${terms(use, pairs)}\n  <= ${caps[b] as number}`);
  });
  const binaries = pairs.map((p) => ` ${p.name}`).join('\n');
  const held: string[] = [];
  let x: number[] = [];
  const stages: [string, number[]][] = [
    ['credit', credit],
    ['ready', ready],
    ['tokens', tokens],
  ];
  for (const [name, coef] of stages) {
    const lp = `Maximize\n obj:\n${terms(coef, pairs)}\nSubject To\n${[...rows, ...held].join('\n')}\nBinary\n${binaries}\nEnd\n`;
    let sol: ReturnType<LegacyHighs['solve']>;
    try {
      sol = highs.solve(lp, stageOptions(timeLimitSec));
    } catch (err) {
      return { ok: false, reason: `HiGHS stage ${name} threw: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (sol.Status !== 'Optimal') return { ok: false, reason: `HiGHS stage ${name}: ${sol.Status}` };
    x = pairs.map((p) => Math.round(sol.Columns[p.name]?.Primal ?? 0));
    const reached = coef.reduce((acc, c, k) => acc + c * (x[k] as number), 0);
    // Integer objective: hold the stage's optimum exactly for the next stages.
    held.push(` h_${name}:\n${terms(coef, pairs)}\n  >= ${reached}`);
  }
  const assignments: Assignment[] = [];
  const value: PlanValue = { credit: 0, ready: 0, tokens: 0 };
  pairs.forEach((p, k) => {
    if (x[k] !== 1) return;
    const s = problem.sessions[p.session];
    const n = nodes[p.node];
    if (s === undefined || n === undefined) return;
    assignments.push({ session: s.id, node: n.id });
    value.credit += credit[k] as number;
    value.ready += ready[k] as number;
    value.tokens += tokens[k] as number;
  });
  const plan = empty();
  plan.assignments = assignments;
  plan.value = value;
  // HiGHS proved each stage optimal: the plan's value is the optimum.
  plan.bound = { ...value };
  plan.stats.micros = Math.round((performance.now() - t0) * 1000);
  return { ok: true, plan };
}
