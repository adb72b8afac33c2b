// Measures each built-in setting's flow and stock under cache-aware routing (seed 1, the setting's task
// count), at its capacity and with unlimited capacity, and prints a JSON line per setting.
//   node scripts/sim-flow-stock.mjs [workload] > flow.jsonl      (needs `npm run build`)
// flow  = time-average of the context tokens of sessions with a request in an engine (queued, prefill, decode)
// stock = time-average of the context tokens of all live sessions (what a sticky lifecycle holds)
import { loadTaoDeps, SETTING_NAMES, SETTINGS, WORKLOAD_PROFILES } from '../dist/sim/index.js';
// The simulator's machinery is not part of the package's exports: this measurement drives it directly.
import { createPolicy } from '../dist/sim/policies/index.js';
import { Simulation } from '../dist/sim/simulation.js';

const workload = process.argv[2] ?? 'swe-bench';
const deps = await loadTaoDeps();

function measure(setting) {
  const sim = new Simulation(
    { setting, seed: 1, mode: { tasks: setting.tasks }, sampleEvery: 0 },
    createPolicy('cache-aware', { setting, deps }),
  );
  let t = 0;
  let flow = 0;
  let stock = 0;
  let samples = 0;
  while (!sim.finished) {
    t += 1;
    sim.runUntil(t);
    for (const s of sim.sessions) {
      if (s === undefined) continue;
      stock += s.tokens;
      if (s.state === 'queued' || s.state === 'prefill' || s.state === 'decode') flow += s.tokens;
    }
    samples++;
  }
  const m = sim.result().metrics;
  return {
    flow: flow / samples,
    stock: stock / samples,
    toolShare: m.toolShare,
    latency: m.latencyMean,
    completionsPerSecond: m.diagnostics.completionsPerSecond,
    requestsPerSecond: m.requests / m.makespan,
    preemptions: m.preemptions,
    cacheHitRate: m.cacheHitRate,
  };
}

for (const name of SETTING_NAMES) {
  const base = { ...SETTINGS[name], workload: WORKLOAD_PROFILES[workload] };
  const capacity = base.nodes.reduce((a, n) => a + n.capacity, 0);
  const at = measure(base);
  const unlimited = measure({ ...base, nodes: base.nodes.map((n) => ({ ...n, capacity: 100_000_000 })) });
  console.log(JSON.stringify({ setting: name, workload, nodes: base.nodes.length, capacity, at, unlimited }));
}
