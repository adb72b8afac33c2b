import { beforeAll, describe, expect, it } from 'vitest';
import { loadTaoDeps, type TaoDeps } from './helpers/internals.js';
import { createPolicy } from './helpers/internals.js';
import { POLICY_NAMES } from './helpers/internals.js';
import { runOnce, simulate } from './helpers/internals.js';
import { parseSetting } from './helpers/internals.js';
import { generateTask, SWE_BENCH_PROFILE } from './helpers/internals.js';

const SETTING = parseSetting({ name: 'det', extends: 'ds-64', workers: 32, tasks: 50 });

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

describe('the same seed gives the same result', () => {
  it.each(POLICY_NAMES)('%s: two runs with one seed are identical, another seed differs', (name) => {
    const run = (seed: number) => runOnce(SETTING, createPolicy(name, { setting: SETTING, deps }), seed, { tasks: 50 });
    const a = run(21);
    const b = run(21);
    expect(b).toEqual(a);
    expect(run(22).metrics.latencyMean).not.toBe(a.metrics.latencyMean);
  });

  it('a task is the same whoever schedules it: it depends on (profile, seed, index) only', () => {
    const t = generateTask(SWE_BENCH_PROFILE, 9, 17);
    expect(generateTask(SWE_BENCH_PROFILE, 9, 17)).toEqual(t);
    expect(generateTask(SWE_BENCH_PROFILE, 9, 18)).not.toEqual(t);
    expect(generateTask(SWE_BENCH_PROFILE, 10, 17)).not.toEqual(t);
  });

  it('simulate() reports the same summary twice', async () => {
    const opts = {
      setting: SETTING,
      policies: ['tao', 'cache-aware'] as const,
      seeds: [1, 2],
      mode: { tasks: 40 },
      deps,
    };
    const a = await simulate(opts);
    const b = await simulate(opts);
    expect(b.summary).toEqual(a.summary);
    expect(b.runs).toEqual(a.runs);
  });
});
