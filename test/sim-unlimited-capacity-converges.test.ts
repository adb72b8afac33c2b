import { beforeAll, describe, expect, it } from 'vitest';
import { loadTaoDeps, type TaoDeps } from './helpers/internals.js';
import { createPolicy } from './helpers/internals.js';
import { POLICY_NAMES, type PolicyName } from './helpers/internals.js';
import { runOnce } from './helpers/internals.js';
import { parseSetting } from './helpers/internals.js';
import type { RunResult } from './helpers/internals.js';
import { generateTask } from './helpers/internals.js';

/**
 * One node whose capacity dwarfs the demand: admission never has to refuse anyone and there is no
 * placement choice, so every policy runs the same requests with the same cache hits. What can still differ
 * is *when* a request is admitted: event-driven routers admit at once; a policy with scheduling period P
 * admits at its next tick, at most P after the request is issued. So, per task, latency exceeds the
 * routers' by at most turns * P, and the mean by at most mean(turns) * P. Shifted admissions also change
 * which requests share decode steps; 2% of the latency bounds that (observed: below 1%).
 */
const SETTING = parseSetting({
  name: 'unlimited',
  extends: 'glm-96',
  workers: 16,
  tasks: 48,
  nodes: [{ id: 'solo', capacity: 1_000_000_000 }],
});
const SEED = 2;

let deps: TaoDeps;
const results = new Map<PolicyName, RunResult>();
let meanTurns = 0;

beforeAll(async () => {
  deps = await loadTaoDeps();
  for (const name of POLICY_NAMES) {
    results.set(
      name,
      runOnce(SETTING, createPolicy(name, { setting: SETTING, deps }), SEED, { tasks: 48 }, { checkInvariants: true }),
    );
  }
  let turns = 0;
  for (let i = 0; i < 48; i++) turns += generateTask(SETTING.workload, SEED, i).turns;
  meanTurns = turns / 48;
});

describe('with unlimited capacity all policies converge', () => {
  it('every policy completes the same tasks with the same tokens and cache hits', () => {
    const ref = results.get('round-robin')!;
    for (const [name, r] of results) {
      expect(
        [...r.completedTasks].sort((a, b) => a - b),
        name,
      ).toEqual([...ref.completedTasks].sort((a, b) => a - b));
      expect(r.metrics.tokens, name).toEqual({ ...ref.metrics.tokens, evictedBlocks: 0 });
      expect(r.metrics.requests, name).toBe(ref.metrics.requests);
    }
    expect(ref.metrics.tokens.evictedBlocks).toBe(0);
  });

  it('event-driven routers are identical on one node', () => {
    const ref = results.get('round-robin')!;
    expect(results.get('cache-aware')!.metrics).toEqual(ref.metrics);
    expect(results.get('dynamo')!.metrics).toEqual(ref.metrics);
    expect(ref.metrics.schedulerWaitMean).toBe(0);
  });

  it.each(POLICY_NAMES)('%s: mean latency within mean(turns) x period (+2%) of immediate admission', (name) => {
    const ref = results.get('round-robin')!.metrics.latencyMean;
    const r = results.get(name)!;
    const period = createPolicy(name, { setting: SETTING, deps }).period;
    const reactive = ['round-robin', 'cache-aware', 'dynamo'].includes(name);
    const bound = reactive ? 0 : meanTurns * period;
    expect(r.metrics.latencyMean).toBeGreaterThanOrEqual(ref * 0.98);
    expect(r.metrics.latencyMean).toBeLessThanOrEqual(ref * 1.02 + bound);
    // Each request waited at most one period for admission.
    expect(r.metrics.schedulerWaitMean).toBeLessThanOrEqual(period);
  });
});
