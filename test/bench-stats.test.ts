import { describe, expect, it } from 'vitest';
import { summarize } from './helpers/internals.js';
import { quantileSorted } from './helpers/internals.js';
import { HEAVY_CELLS, pairedRatio, type Solved } from './helpers/internals.js';
import { timeSolves } from './helpers/internals.js';
import type { Plan, Problem } from './helpers/internals.js';

describe('bench stats', () => {
  it('interpolates percentiles between order statistics (hand-computed)', () => {
    // Sorted: 1..10. h = 9p: P50 -> 4.5 -> 5 + 0.5 * 1; P95 -> 8.55 -> 9 + 0.55; P99 -> 8.91 -> 9 + 0.91.
    const s = summarize([7, 3, 10, 1, 9, 2, 8, 4, 6, 5]);
    expect(s.n).toBe(10);
    expect(s.mean).toBe(5.5);
    expect(s.min).toBe(1);
    expect(s.max).toBe(10);
    expect(s.p50).toBeCloseTo(5.5, 12);
    expect(s.p95).toBeCloseTo(9.55, 12);
    expect(s.p99).toBeCloseTo(9.91, 12);
  });

  it('handles a skewed tail: one slow sample of 20 moves P95, not P50', () => {
    // 19 samples of 0.1 and one of 5: sorted index h = 19p. P50 = 0.1; P95: h = 18.05 -> 0.1 + 0.05 * 4.9.
    const s = summarize([...Array.from({ length: 19 }, () => 0.1), 5]);
    expect(s.p50).toBeCloseTo(0.1, 12);
    expect(s.p95).toBeCloseTo(0.1 + 0.05 * 4.9, 12);
    expect(s.p99).toBeCloseTo(0.1 + 0.81 * 4.9, 12);
    expect(s.mean).toBeCloseTo((19 * 0.1 + 5) / 20, 12);
  });

  it('gives the single value for one sample and NaN for none', () => {
    expect(summarize([2.5])).toEqual({ n: 1, mean: 2.5, min: 2.5, p50: 2.5, p95: 2.5, p99: 2.5, max: 2.5 });
    const e = summarize([]);
    expect(e.n).toBe(0);
    expect(e.p95).toBeNaN();
  });

  it('sorts numerically, not as strings', () => {
    expect(quantileSorted(Float64Array.from([2, 10, 9]).sort(), 1)).toBe(10);
    expect(summarize([10, 9, 100, 2]).max).toBe(100);
  });

  it('rejects a quantile outside [0, 1]', () => {
    expect(() => quantileSorted([1, 2], 1.5)).toThrow(RangeError);
  });
});

describe('bench timing', () => {
  const problems: Problem[] = [0, 1, 2].map((k) => ({ nodes: [{ id: `n${k}`, capacity: 1 }], sessions: [] }));
  const plan = (): Plan => ({
    status: 'optimal',
    assignments: [],
    value: { credit: 0, ready: 0, tokens: 0 },
    bound: { credit: 0, ready: 0, tokens: 0 },
    quantum: 1,
    stats: { path: 'trivial', work: 0, cells: 0, states: 0, micros: 0 },
  });

  it('times one solve per iteration, cycling through the corpus after the warm-up, with no extra calls', async () => {
    const calls: number[] = [];
    const t = await timeSolves(
      'cycle',
      problems,
      (p) => {
        calls.push(problems.indexOf(p));
        return plan();
      },
      { iterations: 5, warmupIterations: 2, async: false },
    );
    expect(calls).toEqual([0, 1, 2, 0, 1, 2, 0]);
    expect(t.problemIndex).toEqual([2, 0, 1, 2, 0]);
    expect(t.samplesMs).toHaveLength(5);
    for (const ms of t.samplesMs) expect(ms).toBeGreaterThanOrEqual(0);
  });

  it('awaits an async runner inside the timed window', async () => {
    const t = await timeSolves(
      'async',
      problems,
      async () => {
        await new Promise((r) => setTimeout(r, 5));
        return plan();
      },
      { iterations: 3, warmupIterations: 0, async: true },
    );
    expect(t.samplesMs).toHaveLength(3);
    for (const ms of t.samplesMs) expect(ms).toBeGreaterThanOrEqual(4);
  });
});

describe('paired ratio to the reference', () => {
  const solved = (ms: number[]): Solved => ({
    plans: [],
    answered: [],
    errors: new Map(),
    async: false,
    minMs: Float64Array.from(ms),
  });

  it('is the median per-problem ratio over DP-heavy problems when there are ten, unmoved by one outlier', () => {
    // 12 heavy problems at ratio 0.1 (one outlier at 5.0), 20 light ones at ratio 0.9.
    const ref = [...Array.from({ length: 12 }, () => 10), ...Array.from({ length: 20 }, () => 0.01)];
    const wasm = [50, ...Array.from({ length: 11 }, () => 1), ...Array.from({ length: 20 }, () => 0.009)];
    const cells = [...Array.from({ length: 12 }, () => HEAVY_CELLS), ...Array.from({ length: 20 }, () => 100)];
    const r = pairedRatio(solved(wasm), solved(ref), cells);
    expect(r?.over).toBe('dp-heavy');
    expect(r?.problems).toBe(12);
    expect(r?.median).toBeCloseTo(0.1, 12);
    // The sum is dominated by the one outlier: Σ wasm / Σ ref = (50 + 11 + 0.18) / (120 + 0.2).
    expect(r?.sum).toBeCloseTo(61.18 / 120.2, 12);
  });

  it('falls back to all problems with fewer than ten heavy ones, and skips unsolved problems', () => {
    const r = pairedRatio(solved([1, 2, NaN, 3]), solved([2, 2, 5, 2]), [0, 0, 0, 0]);
    expect(r).toEqual({ median: 1, over: 'all', problems: 3, sum: 6 / 6 });
  });
});
