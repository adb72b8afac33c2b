/**
 * The hardest benchmark families, as the default `tao bench` (and so `npm start`) shows them: a brief
 * pass over the generated families (src/bench/families), a few problems per group, in-thread only, each
 * plan checked by brute force where the group is small; then one line per family, hardest first, naming
 * its hardest group. The settings' own ticks are the table above (the steady-state family), and the
 * big-cluster families (a solve up to 64 x 4096 can take 100 ms and more) stay with `--families`, so the
 * pass keeps the default run near a minute.
 */
import { defaultFamilyRunOptions, runFamilies, type FamilyReport, type GroupReport } from '../bench/family-run.js';

/** The families of the brief pass. */
export const BRIEF_FAMILIES: readonly string[] = Object.freeze([
  'single-credit',
  'spread-credit',
  'near-fitting',
  'large',
  'mkp',
]);

/** Problems per group of the brief pass (multiple-knapsack groups: BRIEF_MKP_COUNT). */
export const BRIEF_COUNT = 10;
export const BRIEF_MKP_COUNT = 3;

/** The brief pass: in-thread, no HiGHS, one untimed pass before the timed one. */
export function runBriefFamilies(seed: number, stateBudget: number, command: string): Promise<FamilyReport> {
  return runFamilies(
    {
      families: [...BRIEF_FAMILIES],
      seed,
      count: BRIEF_COUNT,
      mkpCount: BRIEF_MKP_COUNT,
      bigCount: 1,
      highsSample: 0,
      highsTimeLimitSec: defaultFamilyRunOptions.highsTimeLimitSec,
      cycles: 1,
      warmupPasses: 1,
      pool: false,
      stateBudget,
    },
    command,
    { log: () => {} },
  );
}

/** Most fallbacks first, then the highest P95 of the solving thread's CPU time (which load does not inflate). */
function harder(a: GroupReport, b: GroupReport): number {
  return b.fallbackPct - a.fallbackPct || b.inThreadCpu.p95 - a.inThreadCpu.p95;
}

const ms = (x: number): string => x.toFixed(2);

/** The `count` hardest families of a report, each by its hardest group; empty for an empty report. */
export function formatHardestFamilies(report: FamilyReport, count = 3): string {
  const worst = new Map<string, GroupReport>();
  for (const g of report.groups) {
    const w = worst.get(g.family);
    if (w === undefined || harder(g, w) < 0) worst.set(g.family, g);
  }
  const ranked = [...worst.values()].sort(harder).slice(0, count);
  if (ranked.length === 0) return '';
  const lines = ranked.map((g) => {
    const e = g.exactness;
    const exact =
      e.checked === 0 ? 'admissible (too large for brute force)' : `${e.equal}/${e.checked} exact by brute force`;
    return `  ${g.family}: hardest group ${g.key}, ${g.problems} problems, CPU P95 ${ms(g.inThreadCpu.p95)} ms (wall P95 ${ms(g.inThread.p95)} ms), fallback ${g.fallbackPct.toFixed(1)}%, ${exact}`;
  });
  const groups = report.groups.length;
  return [
    `hardest families (a brief in-thread pass: ${groups} groups of ${BRIEF_FAMILIES.join(', ')}, ${BRIEF_COUNT} problems per group, ${BRIEF_MKP_COUNT} per mkp group, ${report.elapsedSec} s; the full tables: tao bench --families all):`,
    ...lines,
  ].join('\n');
}

/** The brief pass's wrong answers, as the verdict counts them. */
export function briefWrongAnswers(report: FamilyReport): string[] {
  return report.groups.flatMap((g) =>
    g.exactness.wrong.length > 0 ? [`${g.key}: ${g.exactness.wrong.length} wrong answers`] : [],
  );
}
