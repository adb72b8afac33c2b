#!/usr/bin/env node
// Per-request latency of the sidecar (`tao serve`, one request at a time over pipes) beside the same work
// in-process, measured side by side in one run, on scheduling ticks of the sizes schedulers have: seeded
// snapshots of 2-4 nodes and 30-100 waiting sessions (cached prefixes, running and finished tool calls).
// Rows: a `tick` (evaluate + solve in one request) against in-process evaluate + solve; the same as two
// requests (`evaluate`, then `solve` of the Problem it returned); `solve` alone against in-process solve;
// `hello` (the transport alone); and, with python3, the Python client's `tick()` and `solve()`. Beside them,
// what the sidecar does with a line besides the work: JSON.parse of the request and JSON.stringify of the
// response, timed in-process on the same lines. Writes the Markdown table to stdout or `--markdown FILE`,
// every summary to `--json FILE`.
// Usage: node scripts/sidecar-latency.mjs [--ticks N] [--rounds N] [--markdown FILE] [--json FILE]   (after `npm run build`)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { evaluate, loadSolver, ReadinessPredictor } from '../dist/index.js';

const { values } = parseArgs({
  options: {
    ticks: { type: 'string' },
    rounds: { type: 'string' },
    markdown: { type: 'string' },
    json: { type: 'string' },
  },
});
const TICKS = Number(values.ticks ?? 1000);
const ROUNDS = Number(values.rounds ?? 3);
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const pythonSrc = fileURLToPath(new URL('../clients/python/src/', import.meta.url));
const loadAtStart = loadavg()[0];

/** Completed calls fed to both predictors first: bash returns in about a second, pytest in ten. */
const CALLS = Array.from({ length: 40 }, (_, k) => ({
  name: k % 2 === 0 ? 'bash' : 'pytest',
  startedAt: k * 20,
  returnedAt: k * 20 + (k % 2 === 0 ? 0.4 + (k % 5) * 0.2 : 8 + (k % 4)),
}));

/** Seeded snapshots: 2-4 nodes, 30-100 sessions, a third with a running tool, most with a cached prefix. */
function snapshots(n, seed) {
  let x = seed >>> 0;
  const r = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return Array.from({ length: n }, () => {
    const time = 1000;
    const m = 2 + Math.floor(r() * 3);
    const nodes = Array.from({ length: m }, (_, b) => ({
      id: `node${b}`,
      capacity: 16 * Math.floor(2500 + r() * 2500),
    }));
    const sessions = Array.from({ length: 30 + Math.floor(r() * 71) }, (_, i) => {
      const s = { id: `P${100 + i}`, tokens: 500 + Math.floor(r() * 9000) };
      if (r() < 0.75)
        s.cache = [
          { node: `node${Math.floor(r() * m)}`, tokens: Math.floor(r() * s.tokens), observedAt: time - r() * 30 },
        ];
      const u = r();
      if (u < 0.35) s.tool = { name: r() < 0.5 ? 'bash' : 'pytest', startedAt: time - r() * 3 };
      else if (u < 0.6) s.tool = { name: 'bash', startedAt: time - 5, returnedAt: time - r() * 4 };
      return s;
    });
    return { time, nodes, sessions };
  });
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
function summary(ms) {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, median: quantile(s, 0.5), p95: quantile(s, 0.95), p99: quantile(s, 0.99) };
}
/** Median of the per-request differences (sidecar minus in-process, measured back to back). */
function pairedMedian(a, b) {
  return summary(a.map((x, i) => x - b[i])).median;
}

/** A sidecar process with a request/response round trip timed on this side. */
function startSidecar() {
  const child = spawn(process.execPath, [cli, 'serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buffer = '';
  let waiting;
  child.stdout.setEncoding('utf8').on('data', (t) => {
    buffer += t;
    const nl = buffer.indexOf('\n');
    if (nl !== -1 && waiting) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const w = waiting;
      waiting = undefined;
      w(line);
    }
  });
  let id = 0;
  return {
    async request(body) {
      const t0 = performance.now();
      const line = await new Promise((resolve) => {
        waiting = resolve;
        child.stdin.write(JSON.stringify({ id: ++id, ...body }) + '\n');
      });
      const response = JSON.parse(line);
      const ms = performance.now() - t0;
      if (!response.ok) throw new Error(`sidecar error: ${line}`);
      return { response, ms };
    },
    async close() {
      await this.request({ op: 'shutdown' });
      await new Promise((r) => child.on('close', r));
    },
  };
}

const snaps = snapshots(TICKS, 20261201);
const solver = await loadSolver();
const predictor = new ReadinessPredictor();
for (const c of CALLS) predictor.observe(c);
const problems = snaps.map((s) => evaluate(s, predictor));
const sidecar = startSidecar();
await sidecar.request({ op: 'observe', calls: CALLS });
// Warm-up: every tick once on both sides (JIT, WASM memory growth to its working size).
for (let i = 0; i < TICKS; i++) {
  solver.solve(evaluate(snaps[i], predictor));
  await sidecar.request({ op: 'tick', snapshot: snaps[i] });
  await sidecar.request({ op: 'solve', problem: problems[i] });
}

const t = { inTick: [], tick: [], twoTrips: [], inSolve: [], solve: [], hello: [], parse: [], stringify: [] };
for (let r = 0; r < ROUNDS; r++) {
  for (let i = 0; i < TICKS; i++) {
    let t0 = performance.now();
    const plan = solver.solve(evaluate(snaps[i], predictor));
    t.inTick.push(performance.now() - t0);
    const tick = await sidecar.request({ op: 'tick', snapshot: snaps[i] });
    t.tick.push(tick.ms);
    if (
      tick.response.plan.value.credit !== plan.value.credit ||
      tick.response.plan.value.tokens !== plan.value.tokens
    ) {
      throw new Error(`tick ${i}: the sidecar and the library disagree`);
    }
    const ev = await sidecar.request({ op: 'evaluate', snapshot: snaps[i] });
    const so = await sidecar.request({ op: 'solve', problem: ev.response.problem });
    t.twoTrips.push(ev.ms + so.ms);
    t0 = performance.now();
    solver.solve(problems[i]);
    t.inSolve.push(performance.now() - t0);
    t.solve.push((await sidecar.request({ op: 'solve', problem: problems[i] })).ms);
    t.hello.push((await sidecar.request({ op: 'hello' })).ms);
    // What the sidecar does with the line besides the work, timed here on the same texts.
    const line = JSON.stringify({ id: i, op: 'tick', snapshot: snaps[i] });
    t0 = performance.now();
    JSON.parse(line);
    t.parse.push(performance.now() - t0);
    t0 = performance.now();
    JSON.stringify({ id: i, op: 'tick', ok: true, ...tick.response });
    t.stringify.push(performance.now() - t0);
  }
}
await sidecar.close();
solver.close();

// The Python client's view: the same ticks and problems, timed with perf_counter around each call.
let python = null;
if (spawnSync('python3', ['--version']).status === 0) {
  const tmp = mkdtempSync(join(tmpdir(), 'tao-latency-'));
  const file = join(tmp, 'ticks.json');
  writeFileSync(file, JSON.stringify({ calls: CALLS, snapshots: snaps, problems }));
  const script = `
import json, sys, time
sys.path.insert(0, sys.argv[1])
from tao_client import TaoClient
data = json.load(open(sys.argv[2]))
out = {"tick": [], "solve": []}
with TaoClient([sys.argv[3], sys.argv[4]]) as tao:
    tao.observe(data["calls"])
    for s, p in zip(data["snapshots"], data["problems"]): tao.tick(s); tao.solve(p)
    for _ in range(int(sys.argv[5])):
        for s, p in zip(data["snapshots"], data["problems"]):
            t0 = time.perf_counter(); tao.tick(s); out["tick"].append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter(); tao.solve(p); out["solve"].append((time.perf_counter() - t0) * 1000)
print(json.dumps(out))`;
  const r = spawnSync('python3', ['-c', script, pythonSrc, file, process.execPath, cli, String(ROUNDS)], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  rmSync(tmp, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`python client failed: ${r.stderr}`);
  const raw = JSON.parse(r.stdout);
  python = {
    tick: summary(raw.tick),
    solve: summary(raw.solve),
    tickOverhead: pairedMedian(raw.tick, t.inTick),
    solveOverhead: pairedMedian(raw.solve, t.inSolve),
  };
}

const S = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, summary(v)]));
const f = (x) => x.toFixed(3);
const ratio = (a, b) => `x${(a / b).toFixed(2)}`;
const sizes = snaps.map((s) => s.sessions.length).sort((a, b) => a - b);
const bytes = snaps.map((s) => JSON.stringify({ id: 1, op: 'tick', snapshot: s }).length).sort((a, b) => a - b);
const row = (what, client, s, base) =>
  `| ${what} | ${client} | ${f(s.median)} / ${f(s.p95)} | ${base ? `${f(base.median)} / ${f(base.p95)}` : ''} | ${base ? ratio(s.median, base.median) : ''} |`;
const lines = [
  `| request | client | sidecar round trip median / P95 (ms) | in-process median / P95 (ms) | ratio of medians |`,
  `|---|---|---|---|---|`,
  row('`tick` (evaluate + solve)', 'Node', S.tick, S.inTick),
  row('`evaluate`, then `solve` (two round trips)', 'Node', S.twoTrips, S.inTick),
  row('`solve`', 'Node', S.solve, S.inSolve),
  row('`hello` (transport alone)', 'Node', S.hello),
];
if (python) {
  lines.push(
    row('`tick()`', 'Python `TaoClient`', python.tick, S.inTick),
    row('`solve()`', 'Python `TaoClient`', python.solve, S.inSolve),
  );
}
const overhead = [
  `Sidecar overhead over the in-process work (median of per-request differences, measured back to back): ` +
    `\`tick\` ${f(pairedMedian(t.tick, t.inTick))} ms, \`solve\` ${f(pairedMedian(t.solve, t.inSolve))} ms, ` +
    `two round trips ${f(pairedMedian(t.twoTrips, t.inTick))} ms` +
    (python ? `; from Python \`tick()\` ${f(python.tickOverhead)} ms, \`solve()\` ${f(python.solveOverhead)} ms` : '') +
    `. Of this, inside the sidecar: JSON.parse of the request line ${f(S.parse.median)} ms median (P95 ${f(S.parse.p95)}), ` +
    `JSON.stringify of the response ${f(S.stringify.median)} ms (P95 ${f(S.stringify.p95)}); the rest is the pipe and ` +
    `the two processes waking up (the \`hello\` row) and the client's own encoding and decoding.`,
];
const text = [
  `<!-- generated by scripts/sidecar-latency.mjs: do not edit by hand -->`,
  `${TICKS} seeded ticks of 2-4 nodes and ${sizes[0]}-${sizes.at(-1)} waiting sessions (median ${quantile(sizes, 0.5)}; ` +
    `request lines ${bytes[0]}-${bytes.at(-1)} bytes, median ${quantile(bytes, 0.5)}), ${ROUNDS} rounds, default options, one request at a time over pipes.`,
  '',
  ...lines,
  '',
  ...overhead,
  '',
  `Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; load average (1 min) ` +
    `${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end: the P95 columns carry the machine's scheduling noise.`,
].join('\n');
if (values.markdown) writeFileSync(values.markdown, text + '\n');
else console.log(text);
if (values.json)
  writeFileSync(values.json, JSON.stringify({ ticks: TICKS, rounds: ROUNDS, summaries: S, python }, null, 2) + '\n');
