#!/usr/bin/env node
// Per-request latency of solves through the sidecar (`tao serve`, one request at a time over pipes)
// beside in-process solves (`solver.solve`) of the same problems, measured in one run: the pinned corpora
// (every problem of every setting, `--rounds` times). With python3 on PATH, also the round trip the
// Python example client sees. Prints a Markdown table; `--json FILE` writes every summary.
// Usage: node scripts/sidecar-latency.mjs [--corpus-dir DIR] [--rounds N] [--json FILE]   (after `npm run build`)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { loadSolver } from '../dist/index.js';

const { values } = parseArgs({
  options: { 'corpus-dir': { type: 'string' }, rounds: { type: 'string' }, json: { type: 'string' } },
});
const dir = values['corpus-dir'] ?? fileURLToPath(new URL('../bench/corpus/', import.meta.url));
const rounds = Number(values.rounds ?? 3);
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const pythonClient = fileURLToPath(new URL('../examples/python/', import.meta.url));

/** setting name -> problems */
const corpora = readdirSync(dir)
  .filter((f) => f.endsWith('.jsonl.gz'))
  .sort()
  .map((f) => ({
    setting: f.replace(/-seed.*$/, ''),
    problems: gunzipSync(readFileSync(join(dir, f))).toString('utf8').split('\n').filter(Boolean).slice(1).map((l) => JSON.parse(l)),
  }));

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
function summary(ms) {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, median: quantile(s, 0.5), p95: quantile(s, 0.95), p99: quantile(s, 0.99), max: s[s.length - 1] };
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

const solver = await loadSolver();
const sidecar = startSidecar();
// Warm-up: every problem once on both sides (JIT, WASM memory growth to its working size).
for (const { problems } of corpora) {
  for (const p of problems) {
    solver.solve(p);
    await sidecar.request({ op: 'solve', problem: p });
  }
}

/** Problems at least this large also form the `hard` row: the contended ticks. */
const HARD_SESSIONS = 32;
const rows = [];
const all = { inProcess: [], sidecar: [], sidecarSolve: [] };
const hard = { inProcess: [], sidecar: [], sidecarSolve: [], sessions: [], nodes: new Set() };
for (const { setting, problems } of corpora) {
  const inProcess = [];
  const through = [];
  const solveInSidecar = [];
  for (let r = 0; r < rounds; r++) {
    for (const p of problems) {
      const t0 = performance.now();
      const plan = solver.solve(p);
      inProcess.push(performance.now() - t0);
      const { response, ms } = await sidecar.request({ op: 'solve', problem: p });
      through.push(ms);
      solveInSidecar.push(response.plan.stats.micros / 1000);
      if (response.plan.value.credit !== plan.value.credit || response.plan.value.tokens !== plan.value.tokens) {
        throw new Error(`${setting}: the sidecar and the library disagree`);
      }
      if (p.sessions.length >= HARD_SESSIONS) {
        hard.inProcess.push(inProcess.at(-1));
        hard.sidecar.push(ms);
        hard.sidecarSolve.push(response.plan.stats.micros / 1000);
        if (r === 0) hard.sessions.push(p.sessions.length);
        hard.nodes.add(p.nodes.length);
      }
    }
  }
  const sessions = problems.map((p) => p.sessions.length).sort((a, b) => a - b);
  rows.push({
    setting,
    nodes: problems[0].nodes.length,
    sessionsMedian: quantile(sessions, 0.5),
    sessionsMax: sessions[sessions.length - 1],
    requestBytesMedian: quantile(problems.map((p) => JSON.stringify(p).length).sort((a, b) => a - b), 0.5),
    inProcess: summary(inProcess),
    sidecar: summary(through),
    sidecarSolve: summary(solveInSidecar),
  });
  all.inProcess.push(...inProcess);
  all.sidecar.push(...through);
  all.sidecarSolve.push(...solveInSidecar);
}
const hello = [];
for (let k = 0; k < 2000; k++) hello.push((await sidecar.request({ op: 'hello' })).ms);
await sidecar.close();
solver.close();

// The Python client's view: the same problems, one round, timed with perf_counter around tao.solve().
let python = null;
if (spawnSync('python3', ['--version']).status === 0) {
  const tmp = mkdtempSync(join(tmpdir(), 'tao-latency-'));
  const file = join(tmp, 'problems.jsonl');
  writeFileSync(file, corpora.flatMap((c) => c.problems.map((p) => JSON.stringify(p))).join('\n') + '\n');
  const script = `
import json, sys, time
sys.path.insert(0, sys.argv[1])
from tao_client import TaoSidecar
problems = [json.loads(l) for l in open(sys.argv[2])]
with TaoSidecar([sys.argv[3], sys.argv[4], "serve"]) as tao:
    for p in problems: tao.solve(p)
    out = []
    for p in problems:
        t0 = time.perf_counter(); tao.solve(p); out.append((time.perf_counter() - t0) * 1000)
print(json.dumps(out))`;
  const r = spawnSync('python3', ['-c', script, pythonClient, file, process.execPath, cli], { encoding: 'utf8', maxBuffer: 1 << 26 });
  rmSync(tmp, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`python client failed: ${r.stderr}`);
  python = summary(JSON.parse(r.stdout));
}

const f = (x) => (x < 1 ? x.toFixed(3) : x.toFixed(2));
const lines = [
  `| setting | nodes | sessions (median / max) | in-process median / P95 (ms) | sidecar round trip median / P95 (ms) | solve inside the sidecar median / P95 (ms) | overhead median (ms) |`,
  `|---|---|---|---|---|---|---|`,
];
for (const r of rows) {
  lines.push(
    `| ${r.setting} | ${r.nodes} | ${r.sessionsMedian} / ${r.sessionsMax} | ${f(r.inProcess.median)} / ${f(r.inProcess.p95)} | ${f(r.sidecar.median)} / ${f(r.sidecar.p95)} | ${f(r.sidecarSolve.median)} / ${f(r.sidecarSolve.p95)} | ${f(r.sidecar.median - r.inProcess.median)} |`,
  );
}
const tot = { inProcess: summary(all.inProcess), sidecar: summary(all.sidecar), sidecarSolve: summary(all.sidecarSolve) };
const hardRow = { inProcess: summary(hard.inProcess), sidecar: summary(hard.sidecar), sidecarSolve: summary(hard.sidecarSolve) };
hard.sessions.sort((a, b) => a - b);
lines.push(
  `| **hard** (>= ${HARD_SESSIONS} sessions, ${hard.sessions.length} problems) | ${[...hard.nodes].sort().join(', ')} | ${quantile(hard.sessions, 0.5)} / ${hard.sessions.at(-1)} | ${f(hardRow.inProcess.median)} / ${f(hardRow.inProcess.p95)} | ${f(hardRow.sidecar.median)} / ${f(hardRow.sidecar.p95)} | ${f(hardRow.sidecarSolve.median)} / ${f(hardRow.sidecarSolve.p95)} | ${f(hardRow.sidecar.median - hardRow.inProcess.median)} |`,
);
lines.push(
  `| **all** | | | ${f(tot.inProcess.median)} / ${f(tot.inProcess.p95)} | ${f(tot.sidecar.median)} / ${f(tot.sidecar.p95)} | ${f(tot.sidecarSolve.median)} / ${f(tot.sidecarSolve.p95)} | ${f(tot.sidecar.median - tot.inProcess.median)} |`,
);
const helloS = summary(hello);
console.log(lines.join('\n'));
console.log(`\n${tot.sidecar.n} solves per column (${corpora.length} settings x ${corpora[0]?.problems.length} problems x ${rounds} rounds); ` +
  `\`hello\` round trip (transport alone) median ${f(helloS.median)} ms, P95 ${f(helloS.p95)} ms` +
  (python ? `; Python client (examples/python/tao_client.py), ${python.n} solves: median ${f(python.median)} ms, P95 ${f(python.p95)} ms` : '; python3 not found: no Python column') +
  `.\nMachine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load average (1 min) ${loadavg()[0].toFixed(1)} at the end.`);
if (values.json) writeFileSync(values.json, JSON.stringify({ rounds, rows, hard: { sessions: hard.sessions, ...hardRow }, total: tot, hello: helloS, python }, null, 2) + '\n');
