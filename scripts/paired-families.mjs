#!/usr/bin/env node
// Compares two builds of the package on benchmark family groups, side by side in one process: every
// instance is solved by the baseline build and by this one alternately, `--runs` times each, and an
// instance's time is the fastest of its runs in the solving thread's CPU time (the thread clock of
// src/bench/thread-clock.ts, as the paired gate reads it), so the machine's scheduling
// noise is removed from both alike. Prints per group: P50 / P95 / max CPU ms, fallbacks and paths per
// build, and how many plans are lexicographically better or worse than the baseline's (and how many
// differ while both are `optimal`, which would be a bug); with --gaps also P99 and, per build, the
// largest proven gap of its fallback plans (Plan.bound less Plan.value on the ready and tokens levels, as
// a share of the bound; the credit level is listed when it is not closed).
// The baseline is another checkout of the package with its own `npm run build` (or its dist/ and build/).
// Usage: node scripts/paired-families.mjs BASELINE_DIR GROUPS [--count N] [--runs R] [--seed S] [--markdown FILE]
//   GROUPS: comma-separated family/group keys, e.g. spread-credit/4n,large/8n (run `npm run build` first)
//   --markdown FILE also writes the comparison as a Markdown table (with the command line, date and load).
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FAMILIES } from '../dist/bench/families/index.js';
import { threadCpuMs } from '../dist/bench/thread-clock.js';
import { loadSolver } from '../dist/index.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    count: { type: 'string', default: '100' },
    runs: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
    markdown: { type: 'string' },
    gaps: { type: 'boolean', default: false },
  },
});
const [baseDir, keys] = positionals;
if (baseDir === undefined || keys === undefined)
  throw new Error('usage: paired-families.mjs BASELINE_DIR GROUPS [--count N] [--runs R] [--seed S]');
const count = Number(values.count);
const runs = Number(values.runs);
const seed = Number(values.seed);
for (const [name, x] of [
  ['--count', count],
  ['--runs', runs],
  ['--seed', seed],
]) {
  if (!Number.isInteger(x) || x < (name === '--seed' ? 0 : 1))
    throw new Error(`${name} must be a ${name === '--seed' ? 'non-negative' : 'positive'} integer`);
}

const baseline = await (await import(pathToFileURL(resolve(baseDir, 'dist/index.js')).href)).loadSolver();
const current = await loadSolver();
const builds = { baseline, current };

function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
}
const gaps = values.gaps;
const ms = (t) =>
  gaps
    ? `${quantile(t, 0.5).toFixed(2)} / ${quantile(t, 0.95).toFixed(2)} / ${quantile(t, 0.99).toFixed(2)} / ${quantile(t, 1).toFixed(2)}`
    : `${quantile(t, 0.5).toFixed(3)} / ${quantile(t, 0.95).toFixed(3)} / ${quantile(t, 1).toFixed(3)}`;
/** The largest proven gap of a build's fallback plans per level, as text ('-' without fallbacks). */
const share = (bound, value) => (bound === 0 ? 0 : (100 * (bound - value)) / bound);
function gapText(g) {
  if (g.count === 0) return '-';
  const credit = g.credit > 0 ? `credit ${g.credit.toFixed(2)}%, ` : '';
  return `${credit}ready ${g.ready.toFixed(1)}%, tokens ${g.tokens.toFixed(2)}%`;
}
/** Paths and their counts, the most frequent first. */
const pathsText = (counts) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([path, n]) => `${path} ${n}`)
    .join(', ');
const startedAt = new Date();
const loadAtStart = loadavg()[0];
const rows = [];
const cmp = (a, b) => a.credit - b.credit || a.ready - b.ready || a.tokens - b.tokens;

for (const key of keys.split(',')) {
  const [familyName, groupName] = key.split('/');
  const group = FAMILIES.find((f) => f.name === familyName)?.groups.find((g) => g.name === groupName);
  if (group === undefined) throw new Error(`unknown group ${key}`);
  const problems = await group.generate(seed, count);
  const options = { quantum: group.quantum };
  const times = { baseline: [], current: [] };
  const fallbacks = { baseline: 0, current: 0 };
  const paths = { baseline: {}, current: {} };
  const gap = {
    baseline: { count: 0, credit: 0, ready: 0, tokens: 0 },
    current: { count: 0, credit: 0, ready: 0, tokens: 0 },
  };
  let better = 0;
  let worse = 0;
  let disagree = 0;
  for (const p of problems) for (const s of Object.values(builds)) s.solve(p, options);
  for (const p of problems) {
    const best = { baseline: Infinity, current: Infinity };
    const plans = {};
    for (let r = 0; r < runs; r++) {
      for (const k of Object.keys(builds)) {
        const t0 = threadCpuMs();
        plans[k] = builds[k].solve(p, options);
        best[k] = Math.min(best[k], threadCpuMs() - t0);
      }
    }
    for (const k of Object.keys(builds)) {
      times[k].push(best[k]);
      if (plans[k].status !== 'optimal') {
        fallbacks[k]++;
        const { bound, value } = plans[k];
        const g = gap[k];
        g.count++;
        g.credit = Math.max(g.credit, share(bound.credit, value.credit));
        g.ready = Math.max(g.ready, share(bound.ready, value.ready));
        g.tokens = Math.max(g.tokens, share(bound.tokens, value.tokens));
      }
      const { path, creditLevel } = plans[k].stats;
      const shown =
        path === 'credit-split' && creditLevel?.remainderPath !== undefined
          ? `credit-split/${creditLevel.remainderPath}`
          : path;
      paths[k][shown] = (paths[k][shown] ?? 0) + 1;
    }
    const d = cmp(plans.current.value, plans.baseline.value);
    if (d > 0) better++;
    if (d < 0) worse++;
    if (d !== 0 && plans.current.status === 'optimal' && plans.baseline.status === 'optimal') disagree++;
  }
  for (const k of Object.keys(builds)) {
    console.log(
      `${key} ${k}: CPU ${gaps ? 'P50 / P95 / P99 / max' : 'P50 / P95 / max'} ${ms(times[k])} ms; fallback ${fallbacks[k]}/${problems.length}; ${pathsText(paths[k])}`,
    );
  }
  console.log(
    `${key}: plans better than the baseline's ${better}, worse ${worse}, different while both optimal ${disagree}`,
  );
  rows.push(
    gaps
      ? `| ${key} | ${problems.length} | ${ms(times.baseline)} | ${fallbacks.baseline} | ${gapText(gap.baseline)} | ${ms(times.current)} | ${fallbacks.current} | ${gapText(gap.current)} | ${pathsText(paths.current)} | ${better} / ${worse} / ${disagree} |`
      : `| ${key} | ${problems.length} | ${ms(times.baseline)} | ${fallbacks.baseline} | ${ms(times.current)} | ${fallbacks.current} | ${pathsText(paths.current)} | ${better} / ${worse} / ${disagree} |`,
  );
}
if (values.markdown !== undefined) {
  const command = `node scripts/paired-families.mjs ${process.argv.slice(2).join(' ')}`;
  const header = [
    `Generated by \`${command}\` on ${startedAt.toISOString().slice(0, 10)}: seed ${seed}, the fastest of ${runs} alternated runs per problem and build, the solving thread's CPU time; load average at the start ${loadAtStart.toFixed(1)}.`,
    '',
    ...(gaps
      ? [
          '| group | problems | before CPU P50 / P95 / P99 / max ms | before fallbacks | before largest fallback gap | after CPU P50 / P95 / P99 / max ms | after fallbacks | after largest fallback gap | after paths | plans better / worse / differing while both optimal |',
          '|---|---|---|---|---|---|---|---|---|---|',
        ]
      : [
          '| group | problems | before CPU P50 / P95 / max ms | before fallbacks | after CPU P50 / P95 / max ms | after fallbacks | after paths | plans better / worse / differing while both optimal |',
          '|---|---|---|---|---|---|---|---|',
        ]),
  ];
  writeFileSync(values.markdown, [...header, ...rows, ''].join('\n'));
}
baseline.close();
current.close();
