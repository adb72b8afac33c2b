import { describe, expect, it } from 'vitest';
import { createPolicy } from './helpers/internals.js';
import { runOnce } from './helpers/internals.js';
import { parseSetting } from './helpers/internals.js';

/**
 * Retention comes from LRU eviction, not from a curve: the same workload on the same node keeps a paused
 * session's prefix for less time when more sessions compete for the KV blocks.
 */
describe('prefix retention falls with load', () => {
  it('the fraction still cached after 5-15 s idle drops as workers are added to one node', () => {
    const retention = (workers: number) => {
      const setting = parseSetting({
        name: `one-${workers}`,
        extends: 'glm-96',
        workers,
        tasks: 2 * workers,
        nodes: [{ id: 'n', capacity: 400_000 }],
        workload: 'decode-heavy',
      });
      const r = runOnce(setting, createPolicy('round-robin', { setting }), 1, { duration: 900 });
      const bins = r.metrics.retention.filter((b) => b.from >= 5 && b.from < 15);
      const count = bins.reduce((a, b) => a + b.count, 0);
      const mean = bins.reduce((a, b) => a + b.mean * b.count, 0) / count;
      return { mean, count, evicted: r.metrics.tokens.evictedBlocks };
    };
    const light = retention(8);
    const heavy = retention(64);
    expect(light.count).toBeGreaterThan(20);
    expect(heavy.count).toBeGreaterThan(20);
    expect(light.mean).toBeGreaterThan(0.9);
    expect(heavy.mean).toBeLessThan(light.mean - 0.3);
    expect(heavy.evicted).toBeGreaterThan(light.evicted);
  });
});
