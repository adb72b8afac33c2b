/**
 * The TypeScript frontier (src/solve/dp/frontier/mirror.ts) stops with status memory at the first step whose
 * memory estimate passes MEMORY_CAP_BYTES: 16 bytes a kept history entry, plus 8 bytes a slot and 96 bytes
 * overhead for each state of two layers as large as the largest so far. The cap is 1 GiB, far past a test's
 * reach, so this file lowers it to 40,000 bytes.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  DpStatus,
  FrontierMirror,
  frontierSetup,
  heuristicPlan,
  nodesKept,
  prepare,
  sessionsKept,
} from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';

const { CAP } = vi.hoisted(() => ({ CAP: 40_000 }));
vi.mock('../src/limits.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../src/limits.js')>()),
  MEMORY_CAP_BYTES: CAP,
}));

// Two nodes of 20 and 17 quanta and 40 sessions of 1-9 quanta, tokens and readiness mixed, no credit: run to
// its end the frontier keeps 2,346 history entries and layers of up to 145 states (an estimate of about
// 70,000 bytes), so it passes 40,000 bytes on the way.
const problem: Problem = {
  nodes: [
    { id: 'n0', capacity: 20 },
    { id: 'n1', capacity: 17 },
  ],
  sessions: Array.from({ length: 40 }, (_, i) => ({
    id: `s${i}`,
    weight: 1 + ((i * 5) % 9),
    tokens: (i * 37) % 101,
    ready: i % 3 !== 1,
  })),
};

describe('the TypeScript frontier under its memory cap', () => {
  it('stops with status memory at the first step whose estimate passes the cap, and steps on before it', () => {
    const { packed } = prepare(problem, { quantum: 1 });
    expect(sessionsKept(packed)).toBe(40);
    const m = nodesKept(packed);
    const run = new FrontierMirror(packed, frontierSetup(packed, heuristicPlan(packed)));
    let status = run.start();
    let steps = 0;
    while (status === DpStatus.paused) {
      const { kept, maxLayer } = run.counters();
      const estimate = kept * 16 + 2 * maxLayer * (8 * m + 96);
      status = run.step(5);
      expect(status === DpStatus.memory).toBe(estimate > CAP);
      steps++;
    }
    expect(status).toBe(DpStatus.memory);
    expect(steps).toBeGreaterThan(20);
  });
});
