// Where the TTFT tail of a pool scheduler waits. Runs POLICY on a setting and, for a TAO-family policy,
// follows every issued request through the pool (one request: a session and its waitingSince) at each
// decision: not yet starved, starved and fitting alone on some residual capacity, or starved and fitting
// nowhere. Prints the run's metrics (TTFT split into scheduler wait, engine queue and prefill) and, for
// the 1% longest pool waits, how that wait divides between the three states and their weight.
//   node scripts/bounded-ttft.mjs SETTING|FILE.json WORKLOAD|- SEEDS POLICY ['{"knob": value}']
// e.g. node scripts/bounded-ttft.mjs docs/data/tool-heavy.json - 1 tao-bounded '{"waitReserve": false}'
// Knobs are `tao-bounded`'s ("Infinity" for Infinity). Needs `npm run build`.
import {
  defaultTaoParams,
  loadSettingFile,
  loadTaoDeps,
  namedSetting,
  simulate,
  WORKLOAD_PROFILES,
} from '../dist/sim/index.js';

const [where, workload, seedText, policy, knobs] = process.argv.slice(2);
if (policy === undefined)
  throw new Error('usage: node scripts/bounded-ttft.mjs SETTING|FILE.json WORKLOAD|- SEEDS POLICY [KNOBS]');
let setting = where.endsWith('.json') ? await loadSettingFile(where) : namedSetting(where);
if (workload !== '-') setting = { ...setting, workload: WORKLOAD_PROFILES[workload] };
const taoBounded = JSON.parse(knobs ?? '{}', (k, v) => (v === 'Infinity' ? Number.POSITIVE_INFINITY : v));
const q = defaultTaoParams.quantum;
const base = await loadTaoDeps();
const requests = new Map();
const deps = {
  ...base,
  evaluate(snapshot, predictor, options) {
    const t = snapshot.time;
    for (const s of snapshot.sessions) {
      const since = s.waitingSince ?? s.tool?.returnedAt;
      if (since === undefined) continue;
      const key = `${s.id}@${since}`;
      const weight = s.tokens + (s.reserve ?? defaultTaoParams.reserve);
      let r = requests.get(key);
      if (r === undefined) {
        r = { since, weight, last: since, state: 'waiting', waiting: 0, starvedFits: 0, starvedNowhere: 0 };
        requests.set(key, r);
      }
      r[r.state] += t - r.last;
      r.last = t;
      const starved = t - since >= (options.waitThreshold ?? Number.POSITIVE_INFINITY);
      const fits = snapshot.nodes.some((n) => Math.ceil(weight / q) <= Math.floor(n.capacity / q));
      r.state = !starved ? 'waiting' : fits ? 'starvedFits' : 'starvedNowhere';
    }
    return base.evaluate(snapshot, predictor, options);
  },
};
const report = await simulate({
  setting,
  seeds: seedText.split(',').map(Number),
  policies: [policy],
  taoBounded,
  deps,
});
const m = report.summary[0].metrics;
const f = (k, d = 1) => m[k].mean.toFixed(d);
console.log(
  `${setting.name} ${setting.workload.name} ${policy} ${JSON.stringify(knobs === undefined ? {} : JSON.parse(knobs))} seeds ${seedText}`,
);
console.log(
  `latency ${f('latencyMean', 0)} s, P95 ${f('latencyP95', 0)} s, steady decode ${f('decodeThroughputSteady', 0)} tok/s, cache hit ${(m.cacheHitRate.mean * 100).toFixed(1)}%, preemptions ${f('preemptions', 0)}`,
);
console.log(
  `TTFT mean ${f('ttftMean', 2)} s = scheduler wait ${f('schedulerWaitMean', 2)} + engine queue ${f('engineQueueMean', 2)} + prefill ${f('prefillMean', 2)}; P99 ${f('ttftP99')} s, max ${f('ttftMax')} s`,
);
if (requests.size > 0) {
  const all = [...requests.values()].map((r) => ({ ...r, wait: r.last - r.since })).sort((a, b) => b.wait - a.wait);
  const tail = all.slice(0, Math.max(1, Math.floor(all.length / 100)));
  const avg = (xs, g) => xs.reduce((a, x) => a + g(x), 0) / xs.length;
  const median = (xs) => xs.map((x) => x.weight).sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `pool waits of ${all.length} requests: median ${all[Math.floor(all.length / 2)].wait.toFixed(1)} s, 1% longest ${avg(tail, (x) => x.wait).toFixed(1)} s = ` +
      `not starved ${avg(tail, (x) => x.waiting).toFixed(1)} + starved, fits ${avg(tail, (x) => x.starvedFits).toFixed(1)} + starved, fits nowhere ${avg(tail, (x) => x.starvedNowhere).toFixed(1)}; ` +
      `median weight ${median(tail)} (all: ${median(all)})`,
  );
}
