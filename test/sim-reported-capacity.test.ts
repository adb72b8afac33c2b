/**
 * The capacity an engine reports (vLLM's num_gpu_blocks x block_size) can be below what its blocks hold (a
 * compressed KV layout): a scheduler in front of the engines (ThunderAgent, TAO) counts against the
 * reported one, a router's requests wait for the engine's own blocks.
 */
import { describe, expect, it } from 'vitest';
import {
  createPolicy,
  InvalidValueError,
  loadTaoDeps,
  parseSetting,
  reportedCapacityOf,
  runOnce,
  SETTINGS,
  type SimSetting,
} from './helpers/internals.js';

const deps = await loadTaoDeps();
const base = SETTINGS['ds-32']!;
const mode = { tasks: 60 };

function withReported(s: SimSetting, reported: number | undefined): SimSetting {
  return {
    ...s,
    nodes: s.nodes.map((n) =>
      reported === undefined ? { id: n.id, capacity: n.capacity } : { ...n, reportedCapacity: reported },
    ),
  };
}

describe('reported capacity', () => {
  it('the DeepSeek settings report less than their blocks hold; the others report what they hold', () => {
    for (const name of ['ds-16', 'ds-32', 'ds-64']) {
      const n = SETTINGS[name]!.nodes[0]!;
      expect(reportedCapacityOf(n)).toBeLessThan(n.capacity);
    }
    for (const name of ['qwen-96', 'glm-160']) {
      const n = SETTINGS[name]!.nodes[0]!;
      expect(reportedCapacityOf(n)).toBe(n.capacity);
    }
  });

  it('routers ignore it: the same run with and without a reported capacity', () => {
    for (const policy of ['round-robin', 'cache-aware', 'dynamo'] as const) {
      const a = runOnce(withReported(base, undefined), createPolicy(policy, { setting: base }), 1, mode);
      const b = runOnce(withReported(base, 60_000), createPolicy(policy, { setting: base }), 1, mode);
      expect(b.metrics).toEqual(a.metrics);
    }
  });

  it('ThunderAgent and TAO count against it: a small one makes programs wait, and TAO never holds more', () => {
    const full = withReported(base, undefined);
    const small = withReported(base, 60_000);
    const ta = runOnce(full, createPolicy('thunderagent', { setting: full }), 1, mode);
    const taSmall = runOnce(small, createPolicy('thunderagent', { setting: small }), 1, mode);
    expect(taSmall.metrics.schedulerWaitMean).toBeGreaterThan(ta.metrics.schedulerWaitMean + 1);
    // The invariant check throws if an interrupt-lifecycle policy holds more than its admission capacity.
    const tao = runOnce(small, createPolicy('tao', { setting: small, deps }), 1, mode, { checkInvariants: true });
    expect([...tao.completedTasks].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(tao.metrics.utilization).toBeLessThanOrEqual(1);
  });

  it('tao-engine-capacity counts against the blocks: tao where the two are equal, blind to a small report', () => {
    const full = withReported(base, undefined);
    const small = withReported(base, 60_000);
    const run = (setting: SimSetting, policy: 'tao' | 'tao-engine-capacity') =>
      runOnce(setting, createPolicy(policy, { setting, deps }), 1, mode, { checkInvariants: true }).metrics;
    const engine = run(full, 'tao-engine-capacity');
    expect(engine).toEqual(run(full, 'tao'));
    expect(run(small, 'tao-engine-capacity')).toEqual(engine);
    expect(run(small, 'tao')).not.toEqual(engine);
  });

  it('a setting file may give it per node, at most the node capacity', () => {
    const ok = parseSetting({
      name: 'x',
      extends: 'ds-16',
      nodes: [{ id: 'a', capacity: 200_000, reportedCapacity: 100_000 }],
    });
    expect(ok.nodes[0]).toEqual({ id: 'a', capacity: 200_000, reportedCapacity: 100_000 });
    expect(() =>
      parseSetting({ name: 'x', extends: 'ds-16', nodes: [{ id: 'a', capacity: 100_000, reportedCapacity: 200_000 }] }),
    ).toThrow(
      new InvalidValueError(
        'setting.nodes[0].reportedCapacity must be at most setting.nodes[0].capacity (100000), got 200000',
      ),
    );
    expect(() =>
      parseSetting({ name: 'x', extends: 'ds-16', nodes: [{ id: 'a', capacity: 100_000, reportedCapacity: 20_000 }] }),
    ).toThrow(/setting\.nodes\[0\]\.reportedCapacity must be at least/);
  });
});
