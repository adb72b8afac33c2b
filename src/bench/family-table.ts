/**
 * Markdown of a family report: the headline (per paper setting, the hardest family at its node count; then
 * 8 and 16 nodes and the multiple-knapsack classes), then every group with what its inputs look like. The
 * block sits between two markers in a document and is replaced whole on every run (`--doc`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { FamilyReport, GroupReport } from './family-run.js';
import { MKP_CLASSES } from './families/mkp.js';
import type { FamilyGoal } from './options.js';
import { SETTING_NAMES, settingInfo } from './settings.js';

export const DOC_BEGIN = '<!-- tao bench --families: generated, do not edit by hand -->';
export const DOC_END = '<!-- end of generated tables -->';

/** Families measured against a paper setting by node count (the stress families of 1-4 nodes). */
const TICK_FAMILIES = ['single-credit', 'spread-credit', 'near-fitting'];

const ms = (x: number | undefined): string =>
  x === undefined || !Number.isFinite(x) ? '-' : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3);
const pc = (x: number): string => (x === 0 ? '0%' : x < 1 ? `${x.toFixed(2)}%` : `${x.toFixed(1)}%`);

/** The goal's misses, e.g. `P95 3.1 > 0.5 ms`; empty when met (or when there is no goal). */
export function goalMisses(g: GroupReport, goal: FamilyGoal | null = g.goal): string[] {
  if (goal === null) return [];
  const out: string[] = [];
  if (goal.inThreadP95Ms !== undefined && !(g.inThread.p95 <= goal.inThreadP95Ms))
    out.push(`P95 ${ms(g.inThread.p95)} > ${goal.inThreadP95Ms} ms`);
  if (goal.poolP95Ms !== undefined && g.pool !== null && !(g.pool.p95 <= goal.poolP95Ms))
    out.push(`pool P95 ${ms(g.pool.p95)} > ${goal.poolP95Ms} ms`);
  if (goal.fallbackPct !== undefined && g.fallbackPct > goal.fallbackPct)
    out.push(`fallback ${pc(g.fallbackPct)} > ${goal.fallbackPct}%`);
  if (goal.provenPct !== undefined && !(100 - g.fallbackPct >= goal.provenPct))
    out.push(`proven optimal ${pc(100 - g.fallbackPct)} < ${goal.provenPct}%`);
  if (g.exactness.wrong.length > 0) out.push(`${g.exactness.wrong.length} wrong answers`);
  return out;
}

function goalText(goal: FamilyGoal | null): string {
  if (goal === null) return 'measured';
  const parts: string[] = [];
  if (goal.inThreadP95Ms !== undefined) parts.push(`P95 <= ${goal.inThreadP95Ms} ms`);
  if (goal.poolP95Ms !== undefined) parts.push(`pool <= ${goal.poolP95Ms} ms`);
  if (goal.fallbackPct !== undefined) parts.push(`fallback <= ${goal.fallbackPct}%`);
  if (goal.provenPct !== undefined) parts.push(`proven optimal >= ${goal.provenPct}%`);
  return parts.join(', ');
}

function verdict(g: GroupReport): string {
  if (g.goal === null) return '-';
  const m = goalMisses(g);
  return m.length === 0 ? 'met' : `missed: ${m.join('; ')}`;
}

function exactCell(g: GroupReport): string {
  const e = g.exactness;
  if (e.checked === 0) return e.highsUnfinished > 0 ? `- (HiGHS unfinished ${e.highsUnfinished})` : '-';
  const by = [e.byBrute > 0 ? `${e.byBrute} brute` : '', e.byHighs > 0 ? `${e.byHighs} HiGHS` : '']
    .filter((x) => x !== '')
    .join(' + ');
  const miss = e.highsUnfinished > 0 ? `; HiGHS unfinished ${e.highsUnfinished}` : '';
  return `${e.equal}/${e.checked} (${by}${miss})`;
}

/** The hardest group: most fallbacks, then the highest CPU-time P95 (which load does not inflate). */
function hardest(groups: readonly GroupReport[]): GroupReport | undefined {
  return [...groups].sort((a, b) => b.fallbackPct - a.fallbackPct || b.inThreadCpu.p95 - a.inThreadCpu.p95)[0];
}

function headline(r: FamilyReport): string[] {
  const rows: string[] = [
    '| setting | hardest family | in-thread P50 / P95 / P99 ms | in-thread CPU P95 ms | pool P95 ms | fallback | exact (checked) | goal | verdict |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  const row = (label: string, g: GroupReport): string =>
    `| ${label} | ${g.key} | ${ms(g.inThread.p50)} / ${ms(g.inThread.p95)} / ${ms(g.inThread.p99)} | ${ms(g.inThreadCpu.p95)} | ${ms(g.pool?.p95)} | ${pc(g.fallbackPct)} | ${exactCell(g)} | ${goalText(g.goal)} | ${verdict(g)} |`;
  for (const s of SETTING_NAMES) {
    const nodes = settingInfo(s).nodes;
    const cands = r.groups.filter(
      (g) => (g.family === 'steady-state' && g.group === s) || (TICK_FAMILIES.includes(g.family) && g.nodes === nodes),
    );
    const h = hardest(cands);
    if (h !== undefined) rows.push(row(`${s} (${nodes} node${nodes > 1 ? 's' : ''})`, h));
  }
  for (const m of [8, 16]) {
    const h = hardest(r.groups.filter((g) => g.family === 'large' && g.nodes === m));
    if (h !== undefined) rows.push(row(`${m} nodes`, h));
  }
  for (const cls of MKP_CLASSES) {
    const gs = r.groups.filter((g) => g.family === 'mkp' && g.group.startsWith(`${cls}-`));
    if (gs.length === 0) continue;
    const checked = gs.reduce((a, g) => a + g.exactness.checked, 0);
    const equal = gs.reduce((a, g) => a + g.exactness.equal, 0);
    const h = hardest(gs) as GroupReport;
    const fb = gs.reduce((a, g) => a + (g.fallbackPct * g.problems) / 100, 0);
    const n = gs.reduce((a, g) => a + g.problems, 0);
    const ok = gs.every((g) => goalMisses(g).length === 0);
    rows.push(
      `| mkp ${cls} (all sizes) | ${h.key} (hardest) | ${ms(h.inThread.p50)} / ${ms(h.inThread.p95)} / ${ms(h.inThread.p99)} | ${ms(h.inThreadCpu.p95)} | ${ms(h.pool?.p95)} | ${pc((100 * fb) / Math.max(1, n))} | ${equal}/${checked} | ${goalText(h.goal)} | ${ok ? 'met' : 'missed'} |`,
    );
  }
  return rows;
}

function groupTable(groups: readonly GroupReport[]): string[] {
  const rows = [
    '| group | problems | sessions P50 (min-max) | room per node, sessions P50 / P90 | demand / room P50 | all fit | credited | in-thread P50 / P95 / P99 ms | CPU P50 / P95 ms | run-queue wait P95 ms | pool P50 / P95 (worker P95) ms | fallback | proven gap of fallbacks, P50 / max % (credit; ready; tokens) | exact (checked) | paths | goal |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const g of groups) {
    const sh = g.shape;
    const paths = Object.entries(g.paths)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${Math.round((100 * v) / g.problems)}%`)
      .join(', ');
    rows.push(
      `| ${g.key} | ${g.problems} | ${sh.sessions.p50} (${sh.sessions.min}-${sh.sessions.max}) | ${sh.roomSessionsP50.toFixed(1)} / ${sh.roomSessionsP90.toFixed(1)} | ${sh.demandOverRoomP50.toFixed(2)} | ${pc(sh.allFitPct)} | ${pc(sh.creditedPct)} | ` +
        `${ms(g.inThread.p50)} / ${ms(g.inThread.p95)} / ${ms(g.inThread.p99)} | ${ms(g.inThreadCpu.p50)} / ${ms(g.inThreadCpu.p95)} | ${ms(g.inThreadWait?.p95)} | ${poolCell(g)} | ${pc(g.fallbackPct)} | ${gapCell(g)} | ${exactCell(g)} | ${paths} | ${verdict(g)} |`,
    );
  }
  return rows;
}

function cpuClockText(r: FamilyReport): string {
  return r.groups.every((g) => g.cpuClock === 'thread')
    ? "the solving thread's CPU time"
    : "the process's CPU time (no thread clock here)";
}

/** The most CPU the process's other threads (JIT compiler, GC helpers) used during one group's in-thread timed run. */
function otherThreadsText(r: FamilyReport): string {
  const measured = r.groups.filter((g) => g.otherThreadsCpuMs !== null);
  if (measured.length === 0) return '';
  const top = measured.reduce((a, b) => ((b.otherThreadsCpuMs as number) > (a.otherThreadsCpuMs as number) ? b : a));
  return `other threads of the process used at most ${ms(top.otherThreadsCpuMs as number)} ms of CPU during a group's in-thread timed run (${top.key}); `;
}

/** The proven gap of the fallback plans per level, P50 / max percent; '-' without fallbacks. */
function gapCell(g: GroupReport): string {
  const f = g.fallbackGap;
  if (f === null) return '-';
  const one = (s: { p50: number; max: number }): string => `${s.p50.toFixed(1)} / ${s.max.toFixed(1)}`;
  return `${one(f.credit)}; ${one(f.ready)}; ${one(f.tokens)}`;
}

/** The pool cell: round trip P50 / P95, and the worker's own P95. */
function poolCell(g: GroupReport): string {
  if (g.pool === null) return '-';
  const worker = g.poolWorker !== null && g.poolWorker.n > 0 ? ` (${ms(g.poolWorker.p95)})` : '';
  return `${ms(g.pool.p50)} / ${ms(g.pool.p95)}${worker}`;
}

/** The generated block (markers included). */
export function formatFamilyMarkdown(r: FamilyReport, descriptions: ReadonlyMap<string, string>): string {
  const o = r.options;
  const out: string[] = [
    DOC_BEGIN,
    '',
    `Generated by \`${r.command}\` on ${r.createdAt.slice(0, 10)} (${r.elapsedSec} s). Seed ${o.seed}; ${o.count} problems per group (multiple-knapsack groups: ${o.mkpCount}; big-cluster groups: ${o.bigCount}); ` +
      `after ${o.warmupPasses} untimed pass${o.warmupPasses === 1 ? '' : 'es'} per group and a wait until the process is quiet, timed ${o.cycles}x in-thread (per solve: wall clock, and ${cpuClockText(r)}) and ${o.cycles}x through the pool (round trip; the worker's own time in parentheses); ` +
      `${otherThreadsText(r)}load average at the start ${r.loadAverage.toFixed(1)} on ${r.cpus} cores; oracle: brute force where small, ${r.highs} on ${o.highsSample} problems per group.`,
  ];
  // The headline has rows only for the families measured against a paper setting, 8 or 16 nodes, or mkp.
  const head = headline(r);
  if (head.length > 2) out.push('', '### Headline: the hardest family per setting', '', ...head);
  const families = [...new Set(r.groups.map((g) => g.family))];
  for (const f of families) {
    out.push('', `### ${f}`, '', descriptions.get(f) ?? '', '', ...groupTable(r.groups.filter((g) => g.family === f)));
  }
  out.push('', DOC_END);
  return out.join('\n');
}

/** Replaces the generated block of `file` (or appends one); creates the file when absent. */
export async function updateDoc(file: string, block: string): Promise<void> {
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const a = text.indexOf(DOC_BEGIN);
  const b = text.indexOf(DOC_END);
  const next =
    a >= 0 && b > a
      ? text.slice(0, a) + block + text.slice(b + DOC_END.length)
      : `${text}${text.length > 0 && !text.endsWith('\n\n') ? '\n' : ''}${block}\n`;
  await writeFile(file, next);
}
