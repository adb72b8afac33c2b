#!/usr/bin/env node
// Per-request latency of the sidecar (`tao serve`, one request at a time over pipes) beside the same work
// in-process, measured side by side in one run, on chains of scheduling ticks of the sizes schedulers have:
// seeded snapshots of 2-4 nodes and 30, 60 and 100 waiting sessions (cached prefixes, running and finished
// tool calls), each tick 0.2 s after the previous one with what a pool changes by in that time (sessions
// admitted and arriving, tool calls returning, every node's free capacity).
//
// Per size and per mode, the sidecar's overhead over the in-process `evaluate` + `solve` (median and P95
// of per-request differences, measured back to back) from Node and from the Python client, beside the
// floor of the same mode: a bare Node process echoing the same line over the same kind of pipe (two pipe
// writes and two process wake-ups, no JSON, no work). The modes:
//   full             a `tick` carrying the whole snapshot (protocol 1, the default);
//   delta            a `tick` carrying a `delta` against the connection's last snapshot (protocol 2);
//   delta+wake       the same, to a sidecar started with `--busy-poll-us P`, the client announcing each tick
//                    by a blank line (`wake()`) before it builds it (here: before the in-process work it is
//                    paired with; in Python, 0.2 ms before), so that the sidecar polls when the tick comes;
//   delta+wake+poll  the same, with the client also polling for its response for up to P us (`busy_poll=`).
// Then the overhead broken into its parts, each timed in-process on the same lines (stdin split and nesting,
// JSON.parse, the sidecar's handling beyond parsing and the work, response stringify, the client's encoding
// and decoding), the solve's own slowdown in the sidecar, and the CPU time the polls cost.
// Writes the Markdown to stdout or `--markdown FILE`, every summary to `--json FILE`.
// Usage: node scripts/sidecar-latency.mjs [--ticks N] [--rounds N] [--sessions 30,60,100] [--busy-poll-us P]
//        [--markdown FILE] [--json FILE]   (after `npm run build`; run it at a high priority, e.g. `nice -n -10`)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { evaluate, loadSolver, ReadinessPredictor } from '../dist/index.js';
import { Dispatcher } from '../dist/serve/dispatcher.js';
import { applyDelta, ConnectionState } from '../dist/serve/delta.js';
import { LineSplitter } from '../dist/serve/lines.js';

const { values } = parseArgs({
  options: {
    ticks: { type: 'string' },
    rounds: { type: 'string' },
    sessions: { type: 'string' },
    'busy-poll-us': { type: 'string' },
    markdown: { type: 'string' },
    json: { type: 'string' },
  },
});
const TICKS = Number(values.ticks ?? 1000);
const ROUNDS = Number(values.rounds ?? 2);
const SIZES = (values.sessions ?? '30,60,100').split(',').map(Number);
const POLL_US = Number(values['busy-poll-us'] ?? 1000);
/** Seconds between two ticks of a chain, and what a waiting session does in that time. */
const TICK_SECONDS = 0.2;
const P_ADMITTED = 0.02; // a waiting session is admitted (leaves the pool): 10 s of wait on average
const P_RETURNS = 0.06; // a running tool call returns: 3.3 s on average
/** Scheduler work between `wake()` and the tick in the Python runs, in seconds. */
const PY_WAKE_LEAD = 0.0002;
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const pythonSrc = fileURLToPath(new URL('../clients/python/src/', import.meta.url));
const loadAtStart = loadavg()[0];
const MODES = ['full', 'delta', 'delta+wake', 'delta+wake+poll'];
/** Whether a mode announces its tick with a blank line (to a sidecar polling after it), and whether its client polls. */
const wakes = (m) => m.includes('wake');
const clientPolls = (m) => m.endsWith('+poll');

/** Completed calls fed to both predictors first: bash returns in about a second, pytest in ten. */
const CALLS = Array.from({ length: 40 }, (_, k) => ({
  name: k % 2 === 0 ? 'bash' : 'pytest',
  startedAt: k * 20,
  returnedAt: k * 20 + (k % 2 === 0 ? 0.4 + (k % 5) * 0.2 : 8 + (k % 4)),
}));

/**
 * A seeded chain of `n` ticks of `size` waiting sessions on 2-4 nodes: each snapshot whole, and the delta
 * from the one before (sessions changed in place, arrivals appended, as the sidecar applies a delta).
 */
function chain(n, seed, size) {
  let x = seed >>> 0;
  const r = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  let time = 1000;
  const m = 2 + Math.floor(r() * 3);
  const nodesAt = () =>
    Array.from({ length: m }, (_, b) => ({ id: `node${b}`, capacity: 16 * Math.floor(2500 + r() * 2500) }));
  let next = 100;
  const session = (arriving) => {
    const s = { id: `P${next++}`, tokens: 500 + Math.floor(r() * 9000) };
    if (arriving) {
      // Back from the engine: its prefix is cached where it ran, and it has started a tool call.
      s.cache = [{ node: `node${Math.floor(r() * m)}`, tokens: s.tokens, observedAt: time }];
      s.tool = { name: r() < 0.5 ? 'bash' : 'pytest', startedAt: time - r() * TICK_SECONDS };
      return s;
    }
    if (r() < 0.75)
      s.cache = [
        { node: `node${Math.floor(r() * m)}`, tokens: Math.floor(r() * s.tokens), observedAt: time - r() * 30 },
      ];
    const u = r();
    if (u < 0.35) s.tool = { name: r() < 0.5 ? 'bash' : 'pytest', startedAt: time - r() * 3 };
    else if (u < 0.6) s.tool = { name: 'bash', startedAt: time - 5, returnedAt: time - r() * 4 };
    return s;
  };
  let snap = { time, nodes: nodesAt(), sessions: Array.from({ length: size }, () => session(false)) };
  const out = [{ snapshot: snap, delta: undefined, changed: 0 }];
  for (let k = 1; k < n; k++) {
    time = Math.round((time + TICK_SECONDS) * 1000) / 1000;
    const nodes = nodesAt();
    const remove = [];
    const changed = [];
    const kept = [];
    for (const s of snap.sessions) {
      if (r() < P_ADMITTED) {
        remove.push(s.id);
        continue;
      }
      if (s.tool !== undefined && s.tool.returnedAt === undefined && r() < P_RETURNS) {
        const t = { ...s, tool: { ...s.tool, returnedAt: time - r() * TICK_SECONDS } };
        changed.push(t);
        kept.push(t);
      } else kept.push(s);
    }
    const added = remove.map(() => session(true));
    snap = { time, nodes, sessions: [...kept, ...added] };
    const delta = { time, nodes };
    if (changed.length + added.length > 0) delta.sessions = [...changed, ...added];
    if (remove.length > 0) delta.remove = remove;
    out.push({ snapshot: snap, delta, changed: changed.length + added.length + remove.length });
  }
  return out;
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

/** CPU time (user + system) a process has used, in ms (Linux /proc). */
function cpuMs(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * A child process answering lines over pipes, with a request/response round trip timed on this side.
 * With `pollMs`, the wait for the response polls the loop (setImmediate) for up to that long first.
 */
function startChild(args, pollMs = 0) {
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
        if (pollMs > 0) {
          const until = performance.now() + pollMs;
          const poll = () => {
            if (waiting !== undefined && performance.now() < until) setImmediate(poll);
          };
          setImmediate(poll);
        }
      });
    },
    /** A blank line: answered by nothing, it starts a polling sidecar's poll. */
    wake() {
      child.stdin.write('\n');
    },
  };
}

/** A sidecar: a request is encoded, sent, answered and decoded within the time measured. */
function startSidecar(args, pollMs) {
  const c = startChild([cli, 'serve', ...args], pollMs);
  let id = 0;
  return {
    pid: c.child.pid,
    get lastId() {
      return id;
    },
    wake: () => c.wake(),
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

/** The floor: a bare Node process writing back every non-blank line it reads (polling like a sidecar when told). */
const echoSource = (pollMs) => `let b = '';
let until = 0, polling = false;
const poll = () => { if (performance.now() < until) setImmediate(poll); else polling = false; };
process.stdin.setEncoding('utf8').on('data', (t) => {
  b += t;
  for (let nl = b.indexOf('\\n'); nl !== -1; nl = b.indexOf('\\n')) {
    if (nl > 0) process.stdout.write(b.slice(0, nl + 1));
    b = b.slice(nl + 1);
  }
  if (${pollMs} > 0) { until = performance.now() + ${pollMs}; if (!polling) { polling = true; setImmediate(poll); } }
});`;
function startEcho(pollMs = 0, clientPollMs = pollMs) {
  const c = startChild(['-e', echoSource(pollMs)], clientPollMs);
  return {
    pid: c.child.pid,
    wake: () => c.wake(),
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

/**
 * The Python client on the same chain, one client per mode, the modes taking turns tick by tick; each call
 * timed with perf_counter, and the stages of the client's own work timed on the same requests.
 */
function pythonTimes(ticks) {
  const tmp = mkdtempSync(join(tmpdir(), 'tao-latency-'));
  const file = join(tmp, 'ticks.json');
  writeFileSync(
    file,
    JSON.stringify({
      calls: CALLS,
      snapshots: ticks.map((t) => t.snapshot),
      deltas: ticks.map((t) => t.delta ?? null),
    }),
  );
  const script = `
import json, sys, time
sys.path.insert(0, sys.argv[1])
from tao_client import TaoClient, protocol
data = json.load(open(sys.argv[2]))
tao, poll_us, rounds, lead = [sys.argv[3], sys.argv[4]], int(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
poll_args = ["--busy-poll-us", str(poll_us)]
modes = {
    "full": TaoClient(tao),
    "delta": TaoClient(tao),
    "delta+wake": TaoClient(tao, args=poll_args),
    "delta+wake+poll": TaoClient(tao, busy_poll=poll_us / 1e6, args=poll_args),
}
out = {m: [] for m in modes}
cpu = {m: 0.0 for m in modes}
stages = {"encode full": [], "encode delta": [], "apply changes": [], "decode response": []}
snaps, deltas = data["snapshots"], data["deltas"]
def changes(d):
    return {"sessions": d.get("sessions", ()), "remove": d.get("remove", ()), "nodes": d.get("nodes")}
for c in modes.values():
    c.observe(data["calls"])
    c.tick(snaps[0])
    for d in deltas[1:]: c.tick_changes(d["time"], **changes(d))
for _ in range(rounds):
    for c in modes.values(): c.tick(snaps[0])
    for i in range(1, len(snaps)):
        d = deltas[i]
        for m, c in modes.items():
            if m == "full":
                c0 = time.process_time(); t0 = time.perf_counter(); r = c.tick(snaps[i])
            else:
                if "wake" in m:
                    c.wake()
                    until = time.perf_counter() + lead
                    while time.perf_counter() < until: pass
                c0 = time.process_time(); t0 = time.perf_counter(); r = c.tick_changes(d["time"], **changes(d))
            out[m].append((time.perf_counter() - t0) * 1000)
            cpu[m] += time.process_time() - c0
            if "wake" in m: time.sleep(poll_us / 1e6 + 0.001)  # the sidecar's poll is over before the next request
        t0 = time.perf_counter(); protocol.encode("tick", i, {"snapshot": snaps[i]}); stages["encode full"].append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter(); f = protocol.changes(d["time"], *changes(d).values()); protocol.apply_changes(snaps[i - 1], f); stages["apply changes"].append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter(); protocol.encode("tick", i, {"delta": {"base": i - 1, **f}}); stages["encode delta"].append((time.perf_counter() - t0) * 1000)
        line = json.dumps({"id": i, "op": "tick", "ok": True, "plan": r.plan, "signatures": r.signatures}).encode()
        t0 = time.perf_counter(); protocol.decode(line, i, "tick"); stages["decode response"].append((time.perf_counter() - t0) * 1000)
for c in modes.values(): c.close()
print(json.dumps({"times": out, "cpu": cpu, "stages": stages}))`;
  const r = spawnSync(
    'python3',
    ['-c', script, pythonSrc, file, process.execPath, cli, String(POLL_US), String(ROUNDS), String(PY_WAKE_LEAD)],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  rmSync(tmp, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`python client failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}
const havePython = spawnSync('python3', ['--version']).status === 0;

const solver = await loadSolver();
const predictor = new ReadinessPredictor();
for (const c of CALLS) predictor.observe(c);
/** The sidecar's request path, in this process, for the stage timings. */
const dispatcher = new Dispatcher(solver, {
  maxLineBytes: 16 * 1024 * 1024,
  predictor: new ReadinessPredictor(),
  log: () => {},
});
for (const c of CALLS) dispatcher.predictor.observe(c);

/** Waits out a busy poll (so that it takes no core from the request measured next). */
const settle = () => new Promise((r) => setTimeout(r, POLL_US / 1000 + 1));
const timed = (f) => {
  const t0 = performance.now();
  const v = f();
  return [performance.now() - t0, v];
};

/** Every measurement at one size. */
async function measure(size, seed) {
  const ticks = chain(TICKS, seed, size);
  const pollMs = POLL_US / 1000;
  const polled = ['--busy-poll-us', String(POLL_US)];
  const sidecars = {
    full: startSidecar([]),
    delta: startSidecar([]),
    'delta+wake': startSidecar(polled),
    'delta+wake+poll': startSidecar(polled, pollMs),
  };
  const echoes = {
    full: startEcho(),
    delta: startEcho(),
    'delta+wake': startEcho(pollMs, 0),
    'delta+wake+poll': startEcho(pollMs, pollMs),
  };
  for (const s of Object.values(sidecars)) await s.request({ op: 'observe', calls: CALLS });
  /** Each mode's request for tick i: the whole snapshot, or the delta against the tick before. */
  const body = (mode, i) =>
    mode === 'full' || i === 0
      ? { op: 'tick', snapshot: ticks[i].snapshot }
      : { op: 'tick', delta: { base: sidecars[mode].lastId, ...ticks[i].delta } };
  const work = (i) => solver.solve(evaluate(ticks[i].snapshot, predictor));
  const t = Object.fromEntries(
    ['inTick', 'inTick delta+wake', 'inTick delta+wake+poll', 'fullLine', 'deltaLine', 'coldSlower']
      .map((k) => [k, []])
      .concat(
        MODES.flatMap((m) => [
          [`rt ${m}`, []],
          [`echo ${m}`, []],
          [`slower ${m}`, []],
        ]),
      ),
  );
  const stage = Object.fromEntries(
    ['stringify request', 'split and nesting', 'JSON.parse', 'stringify response', 'parse response']
      .flatMap((k) => [
        [`${k} full`, []],
        [`${k} delta`, []],
      ])
      .concat([['delta applied to its base delta', []]]),
  );
  const run = async (timing) => {
    const connFull = new ConnectionState();
    const connDelta = new ConnectionState();
    for (let i = 0; i < TICKS; i++) {
      const lineOf = {};
      for (const m of MODES) lineOf[m] = JSON.stringify({ id: sidecars[m].lastId + 1, ...body(m, i) }) + '\n';
      const [inMs, plan] = timed(() => work(i));
      for (const m of MODES) {
        const s = sidecars[m];
        let ms = inMs;
        if (wakes(m)) {
          // The tick announced before the work that builds it (the work paired with it, timed again).
          s.wake();
          ms = timed(() => work(i))[0];
          if (timing) t[`inTick ${m}`].push(ms);
        }
        const tick = await s.request(body(m, i));
        if (
          tick.response.plan.value.credit !== plan.value.credit ||
          tick.response.plan.value.tokens !== plan.value.tokens
        ) {
          throw new Error(`tick ${i} (${m}): the sidecar and the library disagree`);
        }
        // A polling peer keeps a core busy for its poll: the next request waits until it is over.
        if (wakes(m)) await settle();
        if (timing && i > 0) {
          t[`rt ${m}`].push(tick.ms - ms);
          t[`slower ${m}`].push(tick.response.plan.stats.micros / 1000 - plan.stats.micros / 1000);
        }
      }
      for (const m of MODES) {
        const e = echoes[m];
        const line = m === 'full' || i === 0 ? lineOf.full : lineOf.delta;
        if (wakes(m)) {
          e.wake();
          work(i);
        }
        const ms = await e.time(line);
        if (wakes(m)) await settle();
        if (timing && i > 0) t[`echo ${m}`].push(ms);
      }
      if (timing) t.inTick.push(inMs);
      // The same work in this process after it slept 1 ms, as a sidecar sleeps between two ticks.
      await new Promise((r) => setTimeout(r, 1));
      const coldMs = timed(() => work(i))[0];
      if (timing && i > 0) t.coldSlower.push(coldMs - inMs);
      // The stages, in this process on the same lines: the sidecar's path (split, parse, the dispatcher's
      // handling, the response's stringify) and the Node client's encoding and decoding.
      for (const [kind, conn] of [
        ['full', connFull],
        ['delta', connDelta],
      ]) {
        const request =
          kind === 'full' || i === 0
            ? { id: i, op: 'tick', snapshot: ticks[i].snapshot }
            : { id: i, op: 'tick', delta: { base: i - 1, ...ticks[i].delta } };
        const [sMs, text] = timed(() => JSON.stringify(request) + '\n');
        const buf = Buffer.from(text);
        const [splitMs, lines] = timed(() => new LineSplitter(16 * 1024 * 1024).push(buf));
        const [parseMs] = timed(() => JSON.parse(lines[0].text));
        const [applyMs] =
          kind === 'delta' && i > 0
            ? timed(() => applyDelta(request.delta, { id: i - 1, snapshot: ticks[i - 1].snapshot }))
            : [Number.NaN];
        const reply = dispatcher.handle(lines[0], conn);
        if (!reply.response.ok) throw new Error(`in-process ${kind} tick ${i}: ${JSON.stringify(reply.response)}`);
        const [rsMs, out] = timed(() => JSON.stringify(reply.response));
        const [rpMs] = timed(() => JSON.parse(out));
        if (timing && i > 0) {
          stage[`stringify request ${kind}`].push(sMs);
          stage[`split and nesting ${kind}`].push(splitMs);
          stage[`JSON.parse ${kind}`].push(parseMs);
          if (kind === 'delta') stage['delta applied to its base delta'].push(applyMs);
          stage[`stringify response ${kind}`].push(rsMs);
          stage[`parse response ${kind}`].push(rpMs);
          t[kind === 'full' ? 'fullLine' : 'deltaLine'].push(text.length - 1);
        }
      }
    }
  };
  // Warm-up: the whole chain once on every side (JIT, WASM memory growth to its working size).
  await run(false);
  const cpu0 = Object.fromEntries(MODES.map((m) => [m, cpuMs(sidecars[m].pid)]));
  const client0 = process.cpuUsage();
  for (let r = 0; r < ROUNDS; r++) await run(true);
  const clientCpu = process.cpuUsage(client0);
  const cpu = Object.fromEntries(MODES.map((m) => [m, (cpuMs(sidecars[m].pid) - cpu0[m]) / (ROUNDS * (TICKS - 1))]));
  for (const s of Object.values(sidecars)) await s.close();
  for (const e of Object.values(echoes)) await e.close();
  const S = {
    inTick: summary(t.inTick),
    coldSlower: summary(t.coldSlower),
    fullLine: summary(t.fullLine),
    deltaLine: summary(t.deltaLine),
    changed: summary(ticks.slice(1).map((k) => k.changed)),
    sidecarCpuMsPerTick: cpu,
    nodeClientCpuMsPerTick: (clientCpu.user + clientCpu.system) / 1000 / (ROUNDS * (TICKS - 1)),
    stages: Object.fromEntries(Object.entries(stage).map(([k, v]) => [k, summary(v)])),
  };
  for (const m of MODES) {
    S[`node ${m}`] = summary(t[`rt ${m}`]);
    S[`echo ${m}`] = summary(t[`echo ${m}`]);
    S[`slower ${m}`] = summary(t[`slower ${m}`]);
  }
  if (havePython) {
    const py = pythonTimes(ticks);
    const n = ROUNDS * (TICKS - 1);
    for (const m of MODES) {
      // Paired with the in-process work of the same tick in the Node loop.
      const base = (wakes(m) ? t[`inTick ${m}`] : t.inTick).filter((_, k) => k % TICKS !== 0);
      S[`python ${m}`] = paired(py.times[m], base);
      S[`python cpu ${m}`] = (py.cpu[m] * 1000) / n;
    }
    S.pythonStages = Object.fromEntries(Object.entries(py.stages).map(([k, v]) => [k, summary(v)]));
  }
  return { size, S };
}

const results = [];
for (const [k, size] of SIZES.entries()) results.push(await measure(size, 20261201 + k));
solver.close();

const f = (x) => x.toFixed(3);
const mp = (s) => (s ? `${f(s.median)} / ${f(s.p95)}` : '');
const overheadRows = results.flatMap(({ size, S }) =>
  MODES.map(
    (m) =>
      `| ${size} | ${m} | ${m === 'full' ? S.fullLine.median : S.deltaLine.median} | ${mp(S[`node ${m}`])} | ${mp(S[`python ${m}`])} | ${mp(S[`echo ${m}`])} | ${mp(S[`slower ${m}`])} |`,
  ),
);
const stageNames = [
  ['stringify request', 'Node client: JSON.stringify of the request'],
  ['split and nesting', 'sidecar: stdin split, UTF-8 decode, nesting count'],
  ['JSON.parse', 'sidecar: JSON.parse of the request'],
  ['delta applied to its base', 'sidecar: the delta checked and applied to its base'],
  ['stringify response', 'sidecar: JSON.stringify of the response'],
  ['parse response', 'Node client: JSON.parse of the response'],
];
const stageRows = results.flatMap(({ size, S }) => [
  ...stageNames.map(
    ([k, label]) => `| ${size} | ${label} | ${mp(S.stages[`${k} full`])} | ${mp(S.stages[`${k} delta`])} |`,
  ),
  ...(S.pythonStages
    ? [
        `| ${size} | Python client: encode the request | ${mp(S.pythonStages['encode full'])} | ${mp(S.pythonStages['encode delta'])} |`,
        `| ${size} | Python client: apply the changes to its copy of the snapshot |  | ${mp(S.pythonStages['apply changes'])} |`,
        `| ${size} | Python client: decode the response | ${mp(S.pythonStages['decode response'])} | ${mp(S.pythonStages['decode response'])} |`,
      ]
    : []),
]);
const cpuRows = results.flatMap(({ size, S }) =>
  MODES.map(
    (m) =>
      `| ${size} | ${m} | ${f(S.sidecarCpuMsPerTick[m])} | ${S[`python cpu ${m}`] === undefined ? '' : f(S[`python cpu ${m}`])} |`,
  ),
);
const text = [
  `<!-- generated by scripts/sidecar-latency.mjs: do not edit by hand -->`,
  `Chains of ${TICKS} seeded ticks per size, 2-4 nodes, one tick every ${TICK_SECONDS} s (per tick a waiting ` +
    `session is admitted with probability ${P_ADMITTED} and replaced by one arriving, a running tool call returns ` +
    `with probability ${P_RETURNS}, and every node's free capacity changes), ${ROUNDS} rounds, default options, one ` +
    `request at a time over pipes; times in ms, median / P95. Overhead: the per-request difference between the ` +
    `round trip and the same \`evaluate\` + \`solve\` in-process, measured back to back (the client's encoding and ` +
    `decoding included). Busy polls: ${POLL_US} µs on both sides.`,
  '',
  `| sessions | mode | request line (bytes, median) | overhead from Node | overhead from Python | floor: bare echo of the same line, same mode | the solve itself, sidecar minus in-process |`,
  `|---|---|---|---|---|---|---|`,
  ...overheadRows,
  '',
  `Sessions a delta names (changed, arrived or removed), median / P95 per tick: ` +
    results.map(({ size, S }) => `${S.changed.median} / ${S.changed.p95} at ${size}`).join(', ') +
    `. In-process \`evaluate\` + \`solve\`: ` +
    results.map(({ size, S }) => `${mp(S.inTick)} at ${size}`).join(', ') +
    `; the same work in this process right after a 1 ms sleep, minus the above (what the work loses in a ` +
    `process that was asleep, as a sidecar is between two ticks): ` +
    results.map(({ size, S }) => `${mp(S.coldSlower)} at ${size}`).join(', ') +
    '.',
  '',
  `The parts of the overhead, each timed in-process on the same lines (a whole snapshot, and a delta):`,
  '',
  `| sessions | stage | full | delta |`,
  `|---|---|---|---|`,
  ...stageRows,
  '',
  `CPU time per tick (ms): the sidecar's (user + system, /proc), and the Python client's (\`time.process_time\` ` +
    `around the call: its encoding, decoding and busy poll).`,
  '',
  `| sessions | mode | sidecar CPU per tick | Python client CPU per tick |`,
  `|---|---|---|---|`,
  ...cpuRows,
  '',
  `Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; load average (1 min) ` +
    `${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end: the P95 columns carry the machine's scheduling noise.`,
].join('\n');
if (values.markdown) writeFileSync(values.markdown, text + '\n');
else console.log(text);
if (values.json) {
  writeFileSync(
    values.json,
    JSON.stringify({ ticks: TICKS, rounds: ROUNDS, pollMicros: POLL_US, results }, null, 2) + '\n',
  );
}
