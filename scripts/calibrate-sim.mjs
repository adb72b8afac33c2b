// Fits the simulator's per-family constants (src/sim/calibration.ts) on the four baselines' SWE-Lite
// columns of the paper's Tables 1-2 (Dynamo, vLLM RR, vLLM CA, ThunderAgent). TAO's columns are never read.
//
//   npm run build:ts && node scripts/calibrate-sim.mjs [ds|qwen|glm ...] [--rounds N] [--seeds N] [--jobs N]
//
// Objective per family: the sum over its three settings and four baselines of
//   log(sim/paper latency)^2 + log(sim/paper decode)^2 + 0.25 * log(sim/paper mean TTFT)^2.
// Search: coordinate descent in log space from the current constants. Each round tries every parameter
// multiplied and divided by the round's step (x1.5, then x1.25, x1.1), keeps a move that lowers the
// objective, and sweeps again at the same step (at most three sweeps) while a move was kept. The parameters: the engine's stepBase, stepPerSeq, prefillPerKToken and
// requestOverhead, the model's output median, and, for DeepSeek only (its KV layout is not public), the
// node capacity and the capacity the engine reports (what ThunderAgent counts against). Prints the best constants per family as JSON, to be copied into calibration.ts.
import { FAMILY_CALIBRATIONS, sweLiteProfileName } from '../dist/sim/calibration.js';
import { simulate } from '../dist/sim/run.js';
import { sweLiteProfile } from '../dist/sim/workload.js';
import { paperCell } from '../dist/sim/paper-tables.js';

const PAPER_ROWS = {
  dynamo: 'dynamo',
  'round-robin': 'vllm_rr',
  'cache-aware': 'vllm_ca',
  thunderagent: 'thunderagent',
};

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const rounds = opt('--rounds', 3);
const seedCount = opt('--seeds', 1);
const jobs = opt('--jobs', 1);
const only = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));

function settingOf(f, workers, p) {
  return {
    name: `${f.prefix}-${workers}`,
    description: 'calibration candidate',
    workers,
    tasks: 300,
    nodes: Array.from({ length: f.nodeCount }, (_, i) => ({
      id: `n${i}`,
      capacity: Math.round(p.capacity),
      reportedCapacity: Math.min(Math.round(p.capacity), Math.round(p.reportedCapacity)),
    })),
    engine: {
      ...f.engine,
      stepBase: p.stepBase,
      stepPerSeq: p.stepPerSeq,
      prefillPerKToken: p.prefillPerKToken,
      requestOverhead: p.requestOverhead,
    },
    workload: sweLiteProfile(sweLiteProfileName(f), Math.round(p.outputMedian)),
  };
}

async function objective(f, p) {
  let sum = 0;
  for (const workers of f.workerCounts) {
    const report = await simulate({
      setting: settingOf(f, workers, p),
      policies: Object.keys(PAPER_ROWS),
      seeds: Array.from({ length: seedCount }, (_, i) => i + 1),
      sampleEvery: 0,
      jobs,
    });
    for (const s of report.summary) {
      const [lat, ttft, dec] = paperCell(f.prefix, 'SWE-Lite', PAPER_ROWS[s.policy], workers);
      const m = s.metrics;
      sum +=
        Math.log(m.latencyMean.mean / lat) ** 2 +
        Math.log(m.decodeThroughput.mean / dec) ** 2 +
        0.25 * Math.log(m.ttftMean.mean / ttft) ** 2;
    }
  }
  return sum;
}

for (const f of FAMILY_CALIBRATIONS) {
  if (only.length > 0 && !only.includes(f.prefix)) continue;
  const keys = [
    'stepBase',
    'stepPerSeq',
    'prefillPerKToken',
    'requestOverhead',
    'outputMedian',
    ...(f.prefix === 'ds' ? ['capacity', 'reportedCapacity'] : []),
  ];
  let p = {
    stepBase: f.engine.stepBase,
    stepPerSeq: f.engine.stepPerSeq,
    prefillPerKToken: f.engine.prefillPerKToken,
    requestOverhead: f.engine.requestOverhead,
    outputMedian: f.outputMedian,
    capacity: f.capacity.capacity,
    reportedCapacity: f.capacity.reported,
  };
  let best = await objective(f, p);
  console.error(`${f.prefix}: start ${best.toFixed(3)}`);
  for (const step of [1.5, 1.25, 1.1].slice(0, rounds)) {
    for (let sweep = 0, moved = true; moved && sweep < 3; sweep++) {
      moved = false;
      for (const k of keys) {
        for (const factor of [step, 1 / step]) {
          const q = { ...p, [k]: p[k] * factor };
          const v = await objective(f, q);
          if (v < best) {
            best = v;
            p = q;
            moved = true;
            console.error(`${f.prefix}: ${k} x${factor.toFixed(2)} -> ${best.toFixed(3)}`);
            break;
          }
        }
      }
    }
  }
  console.log(JSON.stringify({ family: f.prefix, objective: best, params: p }));
}
