import { beforeAll, describe, expect, it } from 'vitest';
import { loadTaoDeps, type TaoDeps } from './helpers/internals.js';
import { createPolicy } from './helpers/internals.js';
import { runOnce } from './helpers/internals.js';
import { parseSetting } from './helpers/internals.js';
import { SETTINGS } from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

/**
 * The paper's operating point: tools take 85-95% of a session's time (93.1% in its traces). Measured
 * under a router (cache-aware), where queueing for the engine is the only other time in a session, at the
 * built-in settings. At qwen-160 and glm-160 the band is missed (about 0.78-0.81: their engines are
 * prefill- and decode-bound at 160 workers, see docs/simulator.md), so they are not asserted here.
 */
describe('tool share at the default settings', () => {
  it.each(['ds-16', 'ds-32', 'ds-64', 'qwen-96', 'glm-96'])('%s: tools take 85 to 95 percent of session time under cache-aware routing', (name) => {
    const setting = SETTINGS[name]!;
    const r = runOnce(setting, createPolicy('cache-aware', { setting, deps }), 1, { tasks: 150 }, { sampleEvery: 0 });
    expect(r.metrics.toolShare).toBeGreaterThanOrEqual(0.85);
    expect(r.metrics.toolShare).toBeLessThanOrEqual(0.95);
    expect(r.metrics.diagnostics.toolShare).toBe(r.metrics.toolShare);
  });

  it('the decode-heavy profile stays model-dominated (tools well under half of session time)', () => {
    const setting = { ...SETTINGS['ds-16']!, workload: parseSetting({ name: 'x', extends: 'ds-16', workload: 'decode-heavy' }).workload };
    const r = runOnce(setting, createPolicy('cache-aware', { setting, deps }), 1, { tasks: 60 }, { sampleEvery: 0 });
    expect(r.metrics.toolShare).toBeLessThan(0.5);
  });

  it('claude-code: tools take 85-95% of session time under cache-aware routing on nodes that fit its contexts', () => {
    const setting = parseSetting({
      name: 'cc-32',
      extends: 'ds-32',
      tasks: 40,
      nodes: [
        { id: 'a', capacity: 1_000_000 },
        { id: 'b', capacity: 1_000_000 },
      ],
      workload: 'claude-code',
    });
    const r = runOnce(setting, createPolicy('cache-aware', { setting, deps }), 1, { tasks: 40 }, { sampleEvery: 0 });
    expect(r.metrics.toolShare).toBeGreaterThanOrEqual(0.85);
    expect(r.metrics.toolShare).toBeLessThanOrEqual(0.95);
  });
});
