import { beforeAll, describe, expect, it } from 'vitest';
import { loadTaoDeps, type TaoDeps } from './helpers/internals.js';
import { createPolicy } from './helpers/internals.js';
import { POLICY_NAMES, type Admission, type Policy } from './helpers/internals.js';
import { runOnce } from './helpers/internals.js';
import { parseSetting } from './helpers/internals.js';
import { Simulation } from './helpers/internals.js';

// Contended on purpose: 40 workers of the decode-heavy profile want ~290k tokens on 2 x 140k.
const TIGHT = parseSetting({
  name: 'tight',
  extends: 'ds-64',
  workers: 40,
  tasks: 80,
  nodes: [
    { id: 'a', capacity: 140_000 },
    { id: 'b', capacity: 140_000 },
  ],
  workload: 'decode-heavy',
});

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

describe('every task completes exactly once', () => {
  it.each(POLICY_NAMES)('%s: each of the tasks completes once, with all its requests', (name) => {
    const result = runOnce(
      TIGHT,
      createPolicy(name, { setting: TIGHT, deps }),
      11,
      { tasks: 80 },
      { checkInvariants: true },
    );
    expect(result.metrics.tasksCompleted).toBe(80);
    expect([...result.completedTasks].sort((a, b) => a - b)).toEqual(Array.from({ length: 80 }, (_, i) => i));
    // Contention is real: someone waited for admission.
    expect(result.metrics.schedulerWaitMean).toBeGreaterThan(0);
  });

  it('in a run cut at a duration, no task completes twice and none beyond those started', () => {
    const result = runOnce(
      TIGHT,
      createPolicy('tao', { setting: TIGHT, deps }),
      3,
      { duration: 400 },
      { checkInvariants: true },
    );
    expect(new Set(result.completedTasks).size).toBe(result.completedTasks.length);
    expect(result.metrics.makespan).toBeNull();
    expect(result.simulatedTime).toBe(400);
    expect(result.completedTasks.length).toBeGreaterThan(40);
  });
});

describe('no node ever exceeds its capacity', () => {
  it('the invariant check rejects a policy that admits beyond a node capacity', () => {
    const greedyAll: Policy = {
      name: 'round-robin',
      lifecycle: 'interrupt',
      period: 1,
      reactive: false,
      stats: { solverCalls: 0, solverFallbacks: 0 },
      schedule: (view) => view.pool.map((s): Admission => ({ session: s.index, node: 0, weight: s.tokens })),
      toolReturned: () => {},
    };
    const sim = new Simulation(
      { setting: TIGHT, seed: 1, mode: { tasks: 80 }, sampleEvery: 0, checkInvariants: true },
      greedyAll,
    );
    expect(() => sim.run()).toThrow(/beyond its capacity/);
  });

  it('held weights and KV blocks stay within capacity at every event, for every policy (checked by the run)', () => {
    for (const name of POLICY_NAMES) {
      const sim = new Simulation(
        { setting: TIGHT, seed: 5, mode: { tasks: 60 }, sampleEvery: 0, checkInvariants: true },
        createPolicy(name, { setting: TIGHT, deps }),
      );
      let maxHeld = 0;
      let maxBlocks = 0;
      while (!sim.finished) {
        sim.runUntil(sim.time + 0.5);
        for (const n of sim.nodes) {
          // What sessions seated during their tool grew by when it returned is beyond what was admitted.
          let grown = 0;
          for (const s of sim.sessions) if (s !== undefined && s.node === n.index) grown += s.grown;
          maxHeld = Math.max(maxHeld, (n.held - grown) / n.capacity);
          maxBlocks = Math.max(maxBlocks, (n.blocks.pinned + n.blocks.cached) / n.blocks.totalBlocks);
        }
      }
      // Sticky sessions hold their growing context, so only interrupt lifecycles' admissions are bounded by
      // capacity.
      if (createPolicy(name, { setting: TIGHT, deps }).lifecycle === 'interrupt')
        expect(maxHeld, name).toBeLessThanOrEqual(1);
      expect(maxBlocks, name).toBeLessThanOrEqual(1);
      // The capacity was actually used, or the check above would prove nothing.
      expect(maxHeld, name).toBeGreaterThan(0.7);
      for (const n of sim.nodes) expect(n.blocks.pinned, `${name} ${n.id}`).toBe(0);
    }
  });
});
