/**
 * The regression gate: compares a fresh report with a committed baseline. It refuses to compare different
 * workloads (exit 2), and flags a regression (exit 1) on what survives a noisy shared machine: the in-run
 * WASM/reference time ratio per setting, exactness, fallback rates, and generous absolute P95 bounds.
 * Each message names the setting, the runner, the metric and by how much.
 */
import type { GateThresholds } from './options.js';
import type { BenchReport, RunnerReport, SettingReport } from './report.js';

export interface CheckResult {
  /** 0 pass, 1 regression, 2 workloads differ (nothing compared). */
  code: 0 | 1 | 2;
  /** Why, one finding per line (regressions or refusals first, then informational lines). */
  lines: string[];
}

/** Runners that may be absent from either report without changing the workload (optional dependency). */
const OPTIONAL_RUNNERS = new Set(['highs']);

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Workload differences that make the two reports incomparable; empty when they compare. */
export function workloadDifferences(baseline: BenchReport, current: BenchReport): string[] {
  const b = baseline.workload;
  const c = current.workload;
  const out: string[] = [];
  if (!same(b.settings, c.settings))
    out.push(`settings differ: baseline [${b.settings.join(', ')}], this run [${c.settings.join(', ')}]`);
  if (b.window !== c.window) out.push(`corpus window differs: baseline ${b.window}, this run ${c.window}`);
  if (b.count !== c.count) out.push(`problem count differs: baseline ${b.count}, this run ${c.count}`);
  if (b.seed !== c.seed) out.push(`seed differs: baseline ${b.seed}, this run ${c.seed}`);
  if (!same(b.solveOptions, c.solveOptions))
    out.push(
      `solve options differ: baseline ${JSON.stringify(b.solveOptions)}, this run ${JSON.stringify(c.solveOptions)}`,
    );
  const req = (xs: readonly string[]): string[] => xs.filter((x) => !OPTIONAL_RUNNERS.has(x)).sort();
  if (!same(req(b.runners), req(c.runners)))
    out.push(`runners differ: baseline [${b.runners.join(', ')}], this run [${c.runners.join(', ')}]`);
  for (const s of b.settings) {
    const hb = b.corpora[s]?.hash;
    const hc = c.corpora[s]?.hash;
    if (hc !== undefined && hb !== hc) {
      const where = current.settings.find((x) => x.setting === s)?.corpus;
      const why =
        where?.origin === 'pinned'
          ? `read from ${where.file}`
          : 'recorded by the simulator: no pinned corpus was found (--corpus-dir), or the simulator changed';
      out.push(`corpus of ${s} differs: baseline ${hb?.slice(0, 12) ?? 'none'}, this run ${hc.slice(0, 12)} (${why})`);
    }
  }
  return out;
}

const num = (x: number | null | undefined): number => (typeof x === 'number' ? x : NaN);
const fmt = (x: number, d = 3): string => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

/** The gated ratio: WASM over reference, paired median (see RunnerReport.ratioToReference). */
function ratio(s: SettingReport): number {
  return num(s.runners.wasm?.ratioToReference?.median);
}

/** Compares `current` with `baseline` under `t`. */
export function compareReports(baseline: BenchReport, current: BenchReport, t: GateThresholds): CheckResult {
  const refusals = workloadDifferences(baseline, current);
  if (refusals.length > 0) {
    return {
      code: 2,
      lines: ['bench check: refusing to compare different workloads:', ...refusals.map((r) => `  ${r}`)],
    };
  }
  const bad: string[] = [];
  const info: string[] = [];
  const base = new Map(baseline.settings.map((s) => [s.setting, s]));
  for (const cur of current.settings) {
    const b = base.get(cur.setting);
    if (b === undefined) continue;
    const name = cur.setting;

    // Exactness: counts, not times.
    for (const r of Object.values(cur.runners) as RunnerReport[]) {
      if (r.validation.mismatch > t.maxMismatches) {
        bad.push(
          `${name} ${r.runner}: exactness: ${r.validation.mismatch} mismatches (limit ${t.maxMismatches}); first: ${r.validation.mismatches[0]?.reason ?? '?'}`,
        );
      }
    }
    for (const d of cur.oracle.disagreements)
      bad.push(`${name} reference: exactness: problem #${d.index} disagrees with HiGHS: ${d.reason}`);

    // In-run speed ratio.
    const rc = ratio(cur);
    const rb = ratio(b);
    if (Number.isFinite(rc) && Number.isFinite(rb) && rb > 0) {
      const growth = rc / rb;
      const over = cur.runners.wasm?.ratioToReference?.over === 'dp-heavy' ? ' (DP-heavy problems)' : '';
      const line = `${name} wasm: wasm/reference time ratio${over} ${fmt(rc)} vs baseline ${fmt(rb)} (${growth.toFixed(2)}x, limit ${t.maxRatioGrowth}x)`;
      (growth > t.maxRatioGrowth ? bad : info).push(line);
    } else if (Number.isFinite(rb) && !Number.isFinite(rc)) {
      bad.push(`${name} wasm: wasm/reference time ratio missing in this run (baseline ${fmt(rb)})`);
    }

    // Fallback rates and absolute tails.
    for (const [runner, r] of Object.entries(cur.runners) as [string, RunnerReport][]) {
      const rb2 = b.runners[runner];
      if (rb2 !== undefined) {
        const inc = r.fallbackPct - rb2.fallbackPct;
        if (inc > t.maxFallbackIncreasePct) {
          bad.push(
            `${name} ${runner}: fallback rate ${r.fallbackPct.toFixed(2)}% vs baseline ${rb2.fallbackPct.toFixed(2)}% (+${inc.toFixed(2)} points, limit +${t.maxFallbackIncreasePct})`,
          );
        }
      }
      const bound = (t.p95BoundMs as Partial<Record<string, number>>)[runner];
      const p95 = num(r.time.p95);
      if (bound !== undefined && p95 > bound) {
        bad.push(
          `${name} ${runner}: P95 ${fmt(p95)} ms exceeds the bound ${bound} ms (+${fmt(p95 - bound)} ms, ${(p95 / bound).toFixed(1)}x)`,
        );
      } else if (rb2 !== undefined && Number.isFinite(p95)) {
        info.push(
          `${name} ${runner}: P95 ${fmt(p95)} ms (baseline ${fmt(num(rb2.time.p95))} ms)${bound !== undefined ? `, bound ${bound} ms` : ''}`,
        );
      }
    }
  }
  if (bad.length > 0)
    return {
      code: 1,
      lines: [
        `bench check: ${bad.length} regression${bad.length === 1 ? '' : 's'}:`,
        ...bad.map((l) => `  ${l}`),
        ...info.map((l) => `  (ok) ${l}`),
      ],
    };
  return { code: 0, lines: ['bench check: no regression', ...info.map((l) => `  ${l}`)] };
}
