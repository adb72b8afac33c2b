/**
 * The project's goal, checked on a report: in-thread P95 <= 0.5 ms and pool P95 <= 1 ms at every setting,
 * DP fallback <= 0.5%, every non-fallback solve exact. A miss says by how much and which problem shapes
 * (nodes, sessions, DP cells) the slow solves have, from the raw samples.
 */
import { GOAL } from './options.js';
import type { GoalMiss, GoalReport, RunnerReport, SettingReport } from './report.js';
import type { SettingName } from './settings.js';
import { summarize } from './stats.js';

/** The size of one corpus problem as the WASM solver saw it. */
export interface ProblemShape {
  nodes: number;
  sessions: number;
  /** DP cells the solve visited, or for a fallback the cells the DP would have needed. */
  cells: number;
  states: number;
  /** The WASM solver fell back to BFD on it. */
  fallback: boolean;
}

const fmtMs = (x: number): string => (x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));

export function fmtCount(x: number): string {
  if (!Number.isFinite(x)) return '-';
  if (x >= 1e6) return `${(x / 1e6).toFixed(x >= 1e7 ? 0 : 1)}M`;
  if (x >= 1e4) return `${Math.round(x / 1e3)}k`;
  return String(Math.round(x));
}

/** Which problems the samples over `targetMs` came from, summarized. */
export function slowShapes(r: RunnerReport, targetMs: number, shapes: readonly ProblemShape[]): string {
  const samples = r.samplesMs ?? [];
  const idx = r.sampleProblems ?? [];
  const over: ProblemShape[] = [];
  const under: ProblemShape[] = [];
  const worst: { ms: number; i: number }[] = [];
  samples.forEach((ms, k) => {
    const i = idx[k] as number;
    const s = shapes[i];
    if (s === undefined) return;
    (ms > targetMs ? over : under).push(s);
    worst.push({ ms, i });
  });
  if (samples.length === 0) return 'no samples';
  const med = (xs: ProblemShape[], f: (s: ProblemShape) => number): string => fmtCount(summarize(xs.map(f)).p50);
  worst.sort((a, b) => b.ms - a.ms);
  const top = worst.slice(0, 3).map(({ ms, i }) => {
    const s = shapes[i] as ProblemShape;
    return `#${i} ${fmtMs(ms)} ms (${s.nodes} nodes, ${s.sessions} sessions, ${fmtCount(s.cells)} work)`;
  });
  const share = ((100 * over.length) / samples.length).toFixed(1);
  return (
    `${over.length} of ${samples.length} solves (${share}%) over ${targetMs} ms: median ${med(over, (s) => s.sessions)} sessions, ` +
    `${med(over, (s) => s.cells)} work (under: ${med(under, (s) => s.sessions)} sessions, ${med(under, (s) => s.cells)} work); ` +
    `slowest ${top.join(', ')}`
  );
}

function p95Miss(
  setting: SettingName,
  metric: GoalMiss['metric'],
  r: RunnerReport | undefined,
  target: number,
  shapes: readonly ProblemShape[],
): GoalMiss | null {
  if (r === undefined || !(r.time.p95 > target)) return null;
  const by = `${fmtMs(r.time.p95)} ms vs ${target} ms (+${fmtMs(r.time.p95 - target)} ms, ${(r.time.p95 / target).toFixed(1)}x)`;
  return { setting, metric, target, measured: r.time.p95, detail: `${by}; ${slowShapes(r, target, shapes)}` };
}

/** Checks the goal on every setting; `shapes` gives each setting's per-problem shapes. */
export function assessGoal(
  settings: readonly SettingReport[],
  shapes: ReadonlyMap<SettingName, readonly ProblemShape[]>,
): GoalReport {
  const misses: GoalMiss[] = [];
  for (const s of settings) {
    const sh = shapes.get(s.setting) ?? [];
    const wasm = s.runners.wasm;
    const pool = s.runners.pool;
    const m1 = p95Miss(s.setting, 'wasm P95', wasm, GOAL.inThreadP95Ms, sh);
    if (m1 !== null) misses.push(m1);
    const m2 = p95Miss(s.setting, 'pool P95', pool, GOAL.poolP95Ms, sh);
    if (m2 !== null) misses.push(m2);
    if (wasm !== undefined && wasm.fallbackPct > GOAL.fallbackPct) {
      const reasons = Object.entries(wasm.fallbackReasons)
        .map(([k, v]) => `${v}x ${k}`)
        .join('; ');
      const fb = sh.filter((x) => x.fallback);
      const med = (f: (x: ProblemShape) => number): string => fmtCount(summarize(fb.map(f)).p50);
      const where =
        fb.length > 0
          ? `; fallback problems: median ${med((x) => x.sessions)} sessions, ${med((x) => x.states)} states, ${med((x) => x.cells)} work needed`
          : '';
      misses.push({
        setting: s.setting,
        metric: 'fallback',
        target: GOAL.fallbackPct,
        measured: wasm.fallbackPct,
        detail: `${wasm.fallbackPct.toFixed(2)}% vs ${GOAL.fallbackPct}% (+${(wasm.fallbackPct - GOAL.fallbackPct).toFixed(2)} points): ${reasons}${where}`,
      });
    }
    for (const r of Object.values(s.runners)) {
      if (r.validation.mismatch > 0) {
        misses.push({
          setting: s.setting,
          metric: 'exactness',
          target: 0,
          measured: r.validation.mismatch,
          detail: `${r.runner}: ${r.validation.mismatch} mismatches, first: ${r.validation.mismatches[0]?.reason ?? '?'}`,
        });
      }
    }
  }
  return { targets: { ...GOAL, exact: true }, met: misses.length === 0, misses };
}
