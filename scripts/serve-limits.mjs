#!/usr/bin/env node
// Measures what hostile lines and clients cost `tao serve` at its default limits: for each case a fresh
// sidecar (`node dist/cli.js serve`) gets the input, and the script records the time until the answer and
// the sidecar's peak resident memory (VmHWM, Linux /proc). Writes a markdown table of medians over
// `--runs` runs to `--out` (default docs/results/serve-limits.md) and prints it.
// Usage: node scripts/serve-limits.mjs [--runs N] [--out FILE]   (run `npm run build` first; Linux)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ReadinessPredictor } from '../dist/index.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, out: { type: 'string', default: 'docs/results/serve-limits.md' } },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const LINE_CAP = 16 * 1024 * 1024;

function peakMb(pid) {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m[1]) / 1024;
}

/** A sidecar with a line reader on `stream` (its stdout, or a socket connection). */
function lines(stream) {
  let partial = '';
  const queue = [];
  let waiting;
  stream.setEncoding('utf8');
  stream.on('data', (t) => {
    const parts = (partial + t).split('\n');
    partial = parts.pop();
    for (const p of parts) waiting ? (waiting(p), (waiting = undefined)) : queue.push(p);
  });
  return () => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((r) => (waiting = r)));
}

function sidecar(args = []) {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (t) => (stderr += t));
  const exited = new Promise((r) => child.on('close', r));
  return { child, next: lines(child.stdout), stderr: () => stderr, exited };
}

async function stdioCase(build) {
  const s = sidecar();
  s.child.stdin.write('{"id":0,"op":"hello"}\n');
  await s.next();
  const lines = build();
  const t = performance.now();
  for (const l of lines) s.child.stdin.write(l);
  let last;
  for (let k = 0; k < lines.length; k++) last = await s.next();
  const ms = performance.now() - t;
  const mb = peakMb(s.child.pid);
  s.child.stdin.end('{"id":"bye","op":"shutdown"}\n');
  await s.exited;
  return { ms, mb, answer: JSON.parse(last) };
}

const req = (o) => JSON.stringify(o) + '\n';
const bigPredictor = () => {
  const p = new ReadinessPredictor({ globalWindow: 65_536, window: 4096, maxTools: 256 });
  for (let k = 0; k < 65_536; k++) p.observe({ name: `t${k % 16}`, startedAt: k, returnedAt: k + 1 + (k % 7) });
  return p.toJSON();
};

const cases = [
  ['idle sidecar (hello)', () => [req({ id: 1, op: 'hello' })]],
  [
    '16 MiB line of nested `[` (refused: depth)',
    () => ['{"id":1,"op":"solve","problem":' + '['.repeat(LINE_CAP - 40) + '\n'],
  ],
  [
    '16 MiB line of `[{},{},...]` (refused: containers)',
    () => ['{"id":1,"op":"observe","calls":[' + '{},'.repeat(Math.floor((LINE_CAP - 40) / 3)) + '{}]}\n'],
  ],
  [
    '16 MiB line of `[0,0,...]` (parsed, refused by the validator)',
    () => ['{"id":1,"op":"observe","calls":[' + '0,'.repeat(Math.floor((LINE_CAP - 40) / 2)) + '0]}\n'],
  ],
  [
    'observe, 280,000 valid calls in one 15.7 MiB line',
    () => [
      req({
        id: 1,
        op: 'observe',
        calls: Array.from({ length: 280_000 }, (_, k) => ({ name: 'bash', startedAt: k, returnedAt: k + 0.5 })),
      }),
    ],
  ],
  [
    'observe, 40,000 calls after loading globalWindow 65,536 / window 4096',
    () => [
      req({ id: 0, op: 'predictor.load', predictor: bigPredictor() }),
      req({
        id: 1,
        op: 'observe',
        calls: Array.from({ length: 40_000 }, (_, k) => ({ name: `t${k % 16}`, startedAt: k, returnedAt: k + 2 })),
      }),
    ],
  ],
];

async function socketCase() {
  // 24 clients each sending 15 MiB of one unfinished line; the default caps hold 16 connections and 64 MiB.
  const dir = mkdtempSync(join(tmpdir(), 'tao-limits-'));
  const path = join(dir, 's.sock');
  const s = sidecar(['--socket', path]);
  while (!s.stderr().includes('listening')) await new Promise((r) => setTimeout(r, 20));
  const t = performance.now();
  const refused = { connections: 0, input: 0 };
  const chunk = 'x'.repeat(1 << 20);
  const clients = await Promise.all(
    Array.from(
      { length: 24 },
      () =>
        new Promise((resolve) => {
          const c = connect(path, () => {
            c.write('{"id":1,"op":"hello","pad":"');
            for (let k = 0; k < 15; k++) c.write(chunk);
            resolve(c);
          });
          c.setEncoding('utf8');
          c.on('data', (t) => {
            if (t.includes('too many connections')) refused.connections++;
            if (t.includes('unanswered input')) refused.input++;
          });
          c.on('error', () => {});
        }),
    ),
  );
  await new Promise((r) => setTimeout(r, 6000));
  const ms = performance.now() - t;
  const mb = peakMb(s.child.pid);
  for (const c of clients) c.destroy();
  s.child.kill('SIGTERM');
  await s.exited;
  rmSync(dir, { recursive: true, force: true });
  return { ms, mb, answer: { refused } };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (const [name, build] of cases) {
  const ms = [];
  const mb = [];
  let answer;
  for (let r = 0; r < runs; r++) {
    const got = await stdioCase(build);
    ms.push(got.ms);
    mb.push(got.mb);
    answer = got.answer;
  }
  const outcome = answer.ok ? 'ok' : answer.error.message.slice(0, 70);
  rows.push(`| ${name} | ${median(ms).toFixed(0)} | ${median(mb).toFixed(0)} | ${outcome} |`);
}
{
  const ms = [];
  const mb = [];
  let answer;
  for (let r = 0; r < runs; r++) {
    const got = await socketCase();
    ms.push(got.ms);
    mb.push(got.mb);
    answer = got.answer;
  }
  rows.push(
    `| 24 socket clients at once, each sending 15 MiB of one unfinished line (6 s) | - | ${median(mb).toFixed(0)} | ${answer.refused.connections} refused: too many connections; ${answer.refused.input} refused: input held past 64 MiB |`,
  );
}

const text = `<!-- generated by scripts/serve-limits.mjs; do not edit by hand -->
# \`tao serve\` at its limits: time and peak memory per hostile input

Median of ${runs} runs, each on a fresh sidecar at the default limits (16 MiB lines, 16 connections,
64 MiB of input held across connections). Time from writing the input to its answer; peak is the
sidecar's resident memory high-water mark (VmHWM), which includes the ~60 MB of an idle sidecar.
Load average at the end: ${loadavg()
  .map((x) => x.toFixed(1))
  .join(' / ')} (2 cores, shared).

| input | time ms | peak MB | answer |
|---|---:|---:|---|
${rows.join('\n')}
`;
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, text);
process.stdout.write(text);
