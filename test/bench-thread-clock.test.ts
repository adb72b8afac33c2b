/**
 * The benchmark's per-thread clock counts the calling thread's own CPU time, not the wall clock and not the
 * other threads of the process, and the timed run records it beside each sample.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { openThreadClock } from './helpers/internals.js';
import { timeSolves } from './helpers/internals.js';
import type { Plan, Problem } from './helpers/internals.js';

const clock = openThreadClock();
const cpuMs = (): number => (clock as NonNullable<typeof clock>).read({ cpuNs: 0, waitNs: 0 }).cpuNs / 1e6;
const processCpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

describe.skipIf(clock === null)('thread clock (Linux)', () => {
  it('does not advance while the thread sleeps', () => {
    const c0 = cpuMs();
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    expect(cpuMs() - c0).toBeLessThan(25);
  });

  it('does not count what another thread of the process burns meanwhile', async () => {
    // The worker spins until the process has used 40 ms more CPU than when it started, then answers.
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');\n` +
        `const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };\n` +
        `const start = cpu();\n` +
        `while (cpu() - start < 40) {}\n` +
        `parentPort.postMessage('done');\n`,
      { eval: true },
    );
    const p0 = processCpuMs();
    const c0 = cpuMs();
    await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const thread = cpuMs() - c0;
    const whole = processCpuMs() - p0;
    await worker.terminate();
    expect(whole).toBeGreaterThanOrEqual(40);
    expect(thread).toBeLessThan(whole / 2);
  });

  it('is exact between scheduler ticks: a short busy loop reads as more than nothing', () => {
    // Without the update the kernel does on getrusage, a running thread's time moves in 4 ms ticks and
    // most readings 0.2 ms apart would differ by exactly 0.
    let nonzero = 0;
    for (let k = 0; k < 20; k++) {
      const c0 = cpuMs();
      const t0 = performance.now();
      while (performance.now() - t0 < 0.2) {}
      if (cpuMs() - c0 > 0) nonzero++;
    }
    expect(nonzero).toBeGreaterThanOrEqual(15);
  });
});

describe('timed run records', () => {
  const problems: Problem[] = [0, 1, 2].map((k) => ({ nodes: [{ id: `n${k}`, capacity: 1 }], sessions: [] }));
  const plan = (k: number): Plan => ({
    status: 'optimal',
    assignments: [],
    value: { credit: k, ready: 0, tokens: 0 },
    bound: { credit: k, ready: 0, tokens: 0 },
    quantum: 1,
    stats: { path: 'trivial', work: 0, cells: 0, states: 0, micros: 0 },
  });

  it('a synchronous run: CPU time beside every sample, run-queue wait where a thread clock exists', async () => {
    const t = await timeSolves('sync', problems, (p) => plan(problems.indexOf(p)), {
      iterations: 7,
      warmupIterations: 3,
      async: false,
    });
    expect(t.cpuMs).toHaveLength(7);
    expect(t.cpuClock).toBe(clock === null ? 'process' : 'thread');
    if (clock !== null) {
      expect(t.waitMs).toHaveLength(7);
      expect(t.otherThreadsCpuMs).toBeGreaterThanOrEqual(0);
    } else {
      expect(t.waitMs).toBeNull();
    }
    for (const c of t.cpuMs ?? []) expect(c).toBeGreaterThanOrEqual(0);
  });

  it('an asynchronous run: no CPU time (the work is on another thread), and each timed plan inspected once, in order', async () => {
    const seen: [number, number][] = [];
    const t = await timeSolves('async', problems, async (p) => plan(problems.indexOf(p)), {
      iterations: 4,
      warmupIterations: 2,
      async: true,
      inspect: (pl, sample) => seen.push([sample, pl.value.credit]),
    });
    expect(t.cpuMs).toBeNull();
    expect(t.waitMs).toBeNull();
    // Warm-up solved problems 0 and 1; the timed run solves 2, 0, 1, 2.
    expect(seen).toEqual([
      [0, 2],
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
    expect(t.problemIndex).toEqual([2, 0, 1, 2]);
  });
});
