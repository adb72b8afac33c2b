#!/usr/bin/env node
// Per-request latency of the sidecar (`tao serve`, one request at a time over pipes) beside the same work
// in-process, measured side by side in one run, on scheduling ticks of the sizes schedulers have: seeded
// snapshots of 2-4 nodes and 30, 60 and 100 waiting sessions (cached prefixes, running and finished tool
// calls). Per size: the sidecar's overhead over the in-process work (median and P95 of per-request
// differences, measured back to back) for a `tick` from Node and from the Python client; the round trips
// of a `tick`, of `evaluate` then `solve`, of `solve` and of `hello`; and the floor any JSON-lines sidecar
// pays here: a bare Node echo of the same request line over the same kind of pipe (no JSON, no work),
// plus JSON.parse and JSON.stringify of the request and the response (timed in-process on the same texts).
// With `--baseline-cli PATH`, a second sidecar (e.g. an earlier build's dist/cli.js) is timed in the same
// loop, so before and after are compared under the same load; `--baseline-python-src DIR` names the Python
// client timed against it (an earlier clients/python/src; by default this checkout's). Writes the Markdown to stdout or
// `--markdown FILE`, every summary to `--json FILE`.
// Usage: node scripts/sidecar-latency.mjs [--ticks N] [--rounds N] [--sessions 30,60,100] [--baseline-cli PATH [--baseline-python-src DIR]]
//        [--markdown FILE] [--json FILE]   (after `npm run build`; run it at a high priority, e.g. `nice -n -10`)
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
    sessions: { type: 'string' },
    'baseline-cli': { type: 'string' },
    'baseline-python-src': { type: 'string' },
    markdown: { type: 'string' },
    json: { type: 'string' },
  },
});
const TICKS = Number(values.ticks ?? 1000);
const ROUNDS = Number(values.rounds ?? 2);
const SIZES = (values.sessions ?? '30,60,100').split(',').map(Number);
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const baselineCli = values['baseline-cli'];
const pythonSrc = fileURLToPath(new URL('../clients/python/src/', import.meta.url));
/** The Python client timed against the baseline sidecar (by default this checkout's). */
const baselinePythonSrc = values['baseline-python-src'] ?? pythonSrc;
const loadAtStart = loadavg()[0];

/** Completed calls fed to both predictors first: bash returns in about a second, pytest in ten. */
const CALLS = Array.from({ length: 40 }, (_, k) => ({
  name: k % 2 === 0 ? 'bash' : 'pytest',
  startedAt: k * 20,
  returnedAt: k * 20 + (k % 2 === 0 ? 0.4 + (k % 5) * 0.2 : 8 + (k % 4)),
}));

/** Seeded snapshots: 2-4 nodes, `size` sessions, a third with a running tool, most with a cached prefix. */
function snapshots(n, seed, size) {
  let x = seed >>> 0;
  const r = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return Array.from({ length: n }, () => {
    const time = 1000;
    const m = 2 + Math.floor(r() * 3);
    const nodes = Array.from({ length: m }, (_, b) => ({
      id: `node${b}`,
      capacity: 16 * Math.floor(2500 + r() * 2500),
    }));
    const sessions = Array.from({ length: size }, (_, i) => {
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
/** Per-request differences (round trip minus the in-process work measured just before it). */
function paired(a, b) {
  return summary(a.map((x, i) => x - b[i % b.length]));
}

/** A child process answering lines over pipes, with a request/response round trip timed on this side. */
function startChild(args) {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
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
  return {
    child,
    /** Writes `line` (newline included) and resolves with the line that answers it. */
    roundTrip(line) {
      return new Promise((resolve) => {
        waiting = resolve;
        child.stdin.write(line);
      });
    },
  };
}

/** A sidecar: a request is encoded, sent, answered and decoded within the time measured. */
function startSidecar(path) {
  const c = startChild([path, 'serve']);
  let id = 0;
  return {
    async request(body) {
      const t0 = performance.now();
      const line = await c.roundTrip(JSON.stringify({ id: ++id, ...body }) + '\n');
      const response = JSON.parse(line);
      const ms = performance.now() - t0;
      if (!response.ok) throw new Error(`sidecar error: ${line}`);
      return { response, ms };
    },
    async close() {
      await this.request({ op: 'shutdown' });
      await new Promise((r) => c.child.on('close', r));
    },
  };
}

/** The floor: a bare Node process writing back every line it reads, over the same kind of pipe. */
const ECHO = `let b = '';
process.stdin.setEncoding('utf8').on('data', (t) => {
  b += t;
  for (let nl = b.indexOf('\\n'); nl !== -1; nl = b.indexOf('\\n')) { process.stdout.write(b.slice(0, nl + 1)); b = b.slice(nl + 1); }
});`;
function startEcho() {
  const c = startChild(['-e', ECHO]);
  return {
    async time(line) {
      const t0 = performance.now();
      await c.roundTrip(line);
      return performance.now() - t0;
    },
    close() {
      c.child.stdin.end();
      return new Promise((r) => c.child.on('close', r));
    },
  };
}

/** The Python client's `tick()` and `solve()` on the same ticks, timed with perf_counter around each call. */
function pythonTimes(cliPath, snaps, problems, src = pythonSrc) {
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
  const r = spawnSync('python3', ['-c', script, src, file, process.execPath, cliPath, String(ROUNDS)], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  rmSync(tmp, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`python client failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}
const havePython = spawnSync('python3', ['--version']).status === 0;

const solver = await loadSolver();
const predictor = new ReadinessPredictor();
for (const c of CALLS) predictor.observe(c);

/** Every measurement at one size. */
async function measure(size, seed) {
  const snaps = snapshots(TICKS, seed, size);
  const problems = snaps.map((s) => evaluate(s, predictor));
  // The ticks paired with the baseline go to one sidecar and the other requests to another, so that the
  // two sidecars compared see the same requests.
  const sidecar = startSidecar(cli);
  const other = startSidecar(cli);
  const baseline = baselineCli ? startSidecar(baselineCli) : undefined;
  const echo = startEcho();
  const lines = snaps.map((s, i) => JSON.stringify({ id: i, op: 'tick', snapshot: s }) + '\n');
  for (const s of [sidecar, other, baseline]) await s?.request({ op: 'observe', calls: CALLS });
  // Warm-up: every tick once on every side (JIT, WASM memory growth to its working size).
  for (let i = 0; i < TICKS; i++) {
    solver.solve(evaluate(snaps[i], predictor));
    for (const s of [sidecar, baseline]) await s?.request({ op: 'tick', snapshot: snaps[i] });
    await other.request({ op: 'evaluate', snapshot: snaps[i] });
    await other.request({ op: 'solve', problem: problems[i] });
    await echo.time(lines[i]);
  }
  const t = {
    inTick: [],
    tick: [],
    baselineTick: [],
    solveSlower: [],
    echo: [],
    twoTrips: [],
    inSolve: [],
    solve: [],
    hello: [],
    parseRequest: [],
    stringifyRequest: [],
    parseResponse: [],
    stringifyResponse: [],
  };
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < TICKS; i++) {
      let t0;
      // Each tick right after the in-process work it is paired with; with a baseline, the two sidecars take
      // turns going first.
      const timeTick = async (s, into) => {
        const t0 = performance.now();
        const plan = solver.solve(evaluate(snaps[i], predictor));
        const ms = performance.now() - t0;
        const tick = await s.request({ op: 'tick', snapshot: snaps[i] });
        if (
          tick.response.plan.value.credit !== plan.value.credit ||
          tick.response.plan.value.tokens !== plan.value.tokens
        ) {
          throw new Error(`tick ${i}: the sidecar and the library disagree`);
        }
        into?.push(ms);
        return { tick, ms, solveMs: plan.stats.micros / 1000 };
      };
      const first = baseline && (r * TICKS + i) % 2 === 1 ? 'baseline' : 'sidecar';
      if (first === 'baseline') {
        const b = await timeTick(baseline);
        t.baselineTick.push(b.tick.ms - b.ms);
      }
      const { tick, solveMs } = await timeTick(sidecar, t.inTick);
      t.tick.push(tick.ms);
      // The solver's own time inside the sidecar beside the same solve in-process (`plan.stats.micros`).
      t.solveSlower.push(tick.response.plan.stats.micros / 1000 - solveMs);
      if (baseline && first === 'sidecar') {
        const b = await timeTick(baseline);
        t.baselineTick.push(b.tick.ms - b.ms);
      }
      solver.solve(evaluate(snaps[i], predictor));
      t.echo.push(await echo.time(lines[i]));
      const ev = await other.request({ op: 'evaluate', snapshot: snaps[i] });
      const so = await other.request({ op: 'solve', problem: ev.response.problem });
      t.twoTrips.push(ev.ms + so.ms);
      t0 = performance.now();
      solver.solve(problems[i]);
      t.inSolve.push(performance.now() - t0);
      t.solve.push((await other.request({ op: 'solve', problem: problems[i] })).ms);
      t.hello.push((await other.request({ op: 'hello' })).ms);
      // The JSON every JSON-lines sidecar handles, timed here on the same texts.
      const request = { id: i, op: 'tick', snapshot: snaps[i] };
      const response = { id: i, op: 'tick', ok: true, ...tick.response };
      t0 = performance.now();
      const requestText = JSON.stringify(request);
      t.stringifyRequest.push(performance.now() - t0);
      t0 = performance.now();
      JSON.parse(requestText);
      t.parseRequest.push(performance.now() - t0);
      t0 = performance.now();
      const responseText = JSON.stringify(response);
      t.stringifyResponse.push(performance.now() - t0);
      t0 = performance.now();
      JSON.parse(responseText);
      t.parseResponse.push(performance.now() - t0);
    }
  }
  await sidecar.close();
  await other.close();
  await baseline?.close();
  await echo.close();
  const S = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v.length > 0 ? summary(v) : null]));
  S.tickOverhead = paired(t.tick, t.inTick);
  S.baselineTickOverhead = baseline ? summary(t.baselineTick) : null;
  const jsonFloor = t.echo.map(
    (e, k) => e + t.parseRequest[k] + t.stringifyRequest[k] + t.parseResponse[k] + t.stringifyResponse[k],
  );
  S.jsonFloor = summary(jsonFloor);
  if (havePython) {
    // With a baseline, its Python run goes first (the load drifts; the Node columns are the interleaved ones).
    const basePy = baselineCli ? pythonTimes(baselineCli, snaps, problems, baselinePythonSrc) : undefined;
    const py = pythonTimes(cli, snaps, problems);
    S.pythonTick = summary(py.tick);
    S.pythonSolve = summary(py.solve);
    S.pythonTickOverhead = paired(py.tick, t.inTick);
    S.pythonSolveOverhead = paired(py.solve, t.inSolve);
    if (basePy) S.baselinePythonTickOverhead = paired(basePy.tick, t.inTick);
  }
  const bytes = lines.map((l) => l.length - 1).sort((a, b) => a - b);
  return { size, requestBytes: quantile(bytes, 0.5), S };
}

const results = [];
for (const [k, size] of SIZES.entries()) results.push(await measure(size, 20261201 + k));
solver.close();

const f = (x) => x.toFixed(3);
const mp = (s) => (s ? `${f(s.median)} / ${f(s.p95)}` : '');
const ratio = (a, b) => `x${(a / b).toFixed(2)}`;
const overheadHead = [
  `| sessions | request line (bytes, median) | in-process evaluate + solve | overhead of a \`tick\`, from Node | from Python \`TaoClient\` |` +
    (baselineCli ? ` baseline build, from Node | baseline build, from Python |` : '') +
    ` floor: bare echo of the line | floor: echo + the four JSON steps | the solve itself, sidecar minus in-process |`,
  `|---|---|---|---|---|` + (baselineCli ? `---|---|` : '') + `---|---|---|`,
];
const overheadRows = results.map(
  ({ size, requestBytes, S }) =>
    `| ${size} | ${requestBytes} | ${mp(S.inTick)} | ${mp(S.tickOverhead)} | ${mp(S.pythonTickOverhead)} |` +
    (baselineCli ? ` ${mp(S.baselineTickOverhead)} | ${mp(S.baselinePythonTickOverhead)} |` : '') +
    ` ${mp(S.echo)} | ${mp(S.jsonFloor)} | ${mp(S.solveSlower)} |`,
);
const tripHead = [
  `| sessions | request | client | sidecar round trip | in-process | ratio of medians |`,
  `|---|---|---|---|---|---|`,
];
const tripRows = results.flatMap(({ size, S }) => {
  const row = (what, client, s, base) =>
    `| ${size} | ${what} | ${client} | ${mp(s)} | ${base ? mp(base) : ''} | ${base ? ratio(s.median, base.median) : ''} |`;
  return [
    row('`tick` (evaluate + solve)', 'Node', S.tick, S.inTick),
    row('`evaluate`, then `solve`', 'Node', S.twoTrips, S.inTick),
    row('`solve`', 'Node', S.solve, S.inSolve),
    row('`hello` (transport alone)', 'Node', S.hello),
    ...(S.pythonTick
      ? [row('`tick()`', 'Python', S.pythonTick, S.inTick), row('`solve()`', 'Python', S.pythonSolve, S.inSolve)]
      : []),
  ];
});
const jsonRows = results.map(
  ({ size, S }) =>
    `| ${size} | ${mp(S.stringifyRequest)} | ${mp(S.parseRequest)} | ${mp(S.stringifyResponse)} | ${mp(S.parseResponse)} |`,
);
const text = [
  `<!-- generated by scripts/sidecar-latency.mjs: do not edit by hand -->`,
  `${TICKS} seeded ticks per size, 2-4 nodes, ${ROUNDS} rounds, default options, one request at a time over pipes; ` +
    `times in ms, median / P95. Overhead: the per-request difference between the round trip and the same ` +
    `\`evaluate\` + \`solve\` in-process, measured back to back (the client's encoding and decoding included).`,
  '',
  ...overheadHead,
  ...overheadRows,
  '',
  `The floor is what any JSON-lines sidecar pays on this machine: a bare Node process echoing the request ` +
    `line over the same kind of pipe (two pipe writes and two process wake-ups, no JSON, no work), plus ` +
    `JSON.stringify and JSON.parse of the request and of the response (timed in-process on the same texts, ` +
    `below). The last column is the solver's own time (\`plan.stats.micros\`) in the sidecar minus the same ` +
    `solve in-process: the part of the overhead that is the work itself running slower in a process that ` +
    `was asleep, not the transport.`,
  '',
  `| sessions | stringify request | parse request | stringify response | parse response |`,
  `|---|---|---|---|---|`,
  ...jsonRows,
  '',
  ...tripHead,
  ...tripRows,
  '',
  `Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; load average (1 min) ` +
    `${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end: the P95 columns carry the machine's scheduling noise.`,
].join('\n');
if (values.markdown) writeFileSync(values.markdown, text + '\n');
else console.log(text);
if (values.json) {
  writeFileSync(
    values.json,
    JSON.stringify({ ticks: TICKS, rounds: ROUNDS, baselineCli: baselineCli ?? null, results }, null, 2) + '\n',
  );
}
