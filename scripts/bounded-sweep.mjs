// Sweeps the `tao-bounded` knobs on a held-out setting and seed set, beside the baselines, one JSON line per
// configuration (resumes: configurations already in OUT are skipped). Under `swe-bench` (no --workload):
// hold horizon x wait threshold, then event-driven admission at small horizons, all without the
// reservation; under every profile: hold horizon x wait threshold x reservation, with event admission;
// under another profile, the wait threshold up to Infinity.
//   node scripts/bounded-sweep.mjs SETTING SEEDS OUT.jsonl [--workload W]
// e.g. node scripts/bounded-sweep.mjs ds-32 11,12,13 docs/data/sim/bounded-sweep.ds-32.jsonl
//      node scripts/bounded-sweep.mjs ds-32 11,12,13 docs/data/sim/bounded-sweep.ds-32.decode-heavy.jsonl --workload decode-heavy
// Needs `npm run build`.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { namedSetting, simulate, WORKLOAD_PROFILES } from '../dist/sim/index.js';

const [settingName, seedText, out, ...rest] = process.argv.slice(2);
if (out === undefined) throw new Error('usage: node scripts/bounded-sweep.mjs SETTING SEEDS OUT.jsonl [--workload W]');
const seeds = seedText.split(',').map(Number);
const wi = rest.indexOf('--workload');
let setting = namedSetting(settingName);
if (wi >= 0) setting = { ...setting, workload: WORKLOAD_PROFILES[rest[wi + 1]] };
// (holdHorizon, waitThreshold, eventAdmission, waitReserve).
const INF = Number.POSITIVE_INFINITY;
const FIRST = [
  ...[0, 2, 10, 30, INF].map((h) => [h, 60, false, false]),
  ...[0, 10].flatMap((h) => [20, 180, INF].map((w) => [h, w, false, false])),
  [0, 60, true, false],
  [10, 60, true, false],
];
const RESERVE = [2, 30].flatMap((h) => [20, 60].flatMap((w) => [false, true].map((r) => [h, w, true, r])));
// Under another profile, also the wait threshold up to Infinity at the preset: what keeping the paper's
// TAO advantage costs in the TTFT tail.
const FRONTIER = [
  [2, 180, true, true],
  [2, 600, true, true],
  [2, INF, true, true],
  [30, INF, true, true],
];
const CONFIGS = [...(wi >= 0 ? [] : FIRST), ...RESERVE, ...(wi >= 0 ? FRONTIER : [])];
const METRICS = ['latencyMean', 'latencyP95', 'ttftP99', 'decodeThroughputSteady'];
const means = (report) =>
  Object.fromEntries(
    report.summary.map((s) => [s.policy, Object.fromEntries(METRICS.map((m) => [m, s.metrics[m].mean]))]),
  );
const line = (o) =>
  appendFileSync(out, JSON.stringify(o, (k, v) => (v === Number.POSITIVE_INFINITY ? 'Infinity' : v)) + '\n');
const done = new Set(
  existsSync(out)
    ? readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .map((o) => `${o.holdHorizon}/${o.waitThreshold}/${o.eventAdmission}/${o.waitReserve ?? false}`)
    : [],
);
if (!done.has('undefined/undefined/undefined/false')) {
  const base = await simulate({
    setting,
    seeds,
    policies: ['thunderagent', 'cache-aware', 'dynamo', 'round-robin', 'tao', 'tao-sticky'],
  });
  line({ setting: settingName, workload: setting.workload.name, seeds, kind: 'baselines', metrics: means(base) });
}
const text = (x) => (x === INF ? 'Infinity' : x);
for (const [holdHorizon, waitThreshold, eventAdmission, waitReserve] of CONFIGS) {
  if (done.has(`${text(holdHorizon)}/${text(waitThreshold)}/${eventAdmission}/${waitReserve}`)) continue;
  const r = await simulate({
    setting,
    seeds,
    policies: ['tao-bounded'],
    taoBounded: { holdHorizon, waitThreshold, eventAdmission, waitReserve },
  });
  line({
    setting: settingName,
    workload: setting.workload.name,
    seeds,
    kind: 'tao-bounded',
    holdHorizon,
    waitThreshold,
    eventAdmission,
    waitReserve,
    metrics: means(r)['tao-bounded'],
  });
}
