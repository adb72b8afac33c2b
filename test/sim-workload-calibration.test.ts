import { describe, expect, it } from 'vitest';
import { quantile } from './helpers/internals.js';
import {
  CLAUDE_CODE_PROFILE,
  DECODE_HEAVY_PROFILE,
  generateTask,
  SWE_BENCH_PROFILE,
  type WorkloadProfile,
} from './helpers/internals.js';

function measure(p: WorkloadProfile, n: number) {
  const buckets = [
    [0, 1],
    [2, 4],
    [5, 9],
    [10, 19],
    [20, Number.POSITIVE_INFINITY],
  ].map(([lo, hi]) => ({ lo: lo!, hi: hi!, sum: 0, n: 0 }));
  const turns: number[] = [];
  const outputs: number[] = [];
  const growth: number[] = [];
  let maxPrompt = 0;
  let subSecond = 0;
  let midRange = 0;
  let calls = 0;
  let sleeps = 0;
  let deadlines = 0;
  for (let i = 0; i < n; i++) {
    const t = generateTask(p, 1, i);
    turns.push(t.turns);
    let tokens = t.initialTokens;
    for (let j = 0; j < t.turns; j++) {
      maxPrompt = Math.max(maxPrompt, tokens);
      for (const b of buckets) if (j >= b.lo && j <= b.hi) (b.sum += tokens), b.n++;
      outputs.push(t.output[j]!);
      tokens += t.output[j]!;
      if (t.toolKind[j]! < 0) continue;
      calls++;
      const d = t.duration[j]!;
      if (d < 1) subSecond++;
      else if (d <= 30) midRange++;
      if (t.command[j]?.startsWith('sleep ') === true) sleeps++;
      if (!Number.isNaN(t.deadline[j]!)) deadlines++;
      if (t.compactTo[j]! >= 0) tokens = t.compactTo[j]!;
      else {
        growth.push(t.output[j]! + t.result[j]!);
        tokens += t.result[j]!;
      }
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    byTurn: buckets.map((b) => b.sum / b.n),
    turnsMedian: quantile(turns, 0.5),
    turnsMean: mean(turns),
    outputMedian: quantile(outputs, 0.5),
    outputMean: mean(outputs),
    growthMean: mean(growth),
    maxPrompt,
    subSecond: subSecond / calls,
    midRange: midRange / calls,
    sleeps,
    deadlines,
  };
}

describe('workload profiles are calibrated on WORKLOAD.md', () => {
  it('SWE-bench-like: small start, ~1-2k tokens per step, ~11 steps', () => {
    const m = measure(SWE_BENCH_PROFILE, 2000);
    expect(m.byTurn[0]).toBeLessThan(6000);
    expect(m.growthMean).toBeGreaterThan(1000);
    expect(m.growthMean).toBeLessThan(2000);
    expect(m.turnsMean).toBeGreaterThan(10);
    expect(m.turnsMean).toBeLessThan(12.5);
    expect(m.maxPrompt).toBeLessThanOrEqual(SWE_BENCH_PROFILE.contextLimit);
  });

  it('Claude-Code-like: mean prompt by turn within 15% of the cc-traces numbers, turns and outputs as measured', () => {
    const m = measure(CLAUDE_CODE_PROFILE, 1500);
    const traces = [26_800, 47_300, 57_400, 67_600, 90_500];
    m.byTurn.forEach((v, i) => expect(Math.abs(v / traces[i]! - 1), `bucket ${i}: ${v}`).toBeLessThan(0.15));
    expect(m.turnsMedian).toBeGreaterThan(56);
    expect(m.turnsMedian).toBeLessThan(72);
    expect(m.outputMedian).toBeGreaterThan(320);
    expect(m.outputMedian).toBeLessThan(380);
    expect(Math.abs(m.outputMean / 557 - 1)).toBeLessThan(0.08);
    expect(m.maxPrompt).toBeLessThanOrEqual(CLAUDE_CODE_PROFILE.contextLimit);
  });

  it.each([SWE_BENCH_PROFILE, CLAUDE_CODE_PROFILE, DECODE_HEAVY_PROFILE])(
    '$name: many sub-second tools, a body of longer calls, sleeps and deadlines present',
    (p) => {
      const m = measure(p, 600);
      expect(m.subSecond).toBeGreaterThan(0.3);
      expect(m.midRange).toBeGreaterThan(0.05);
      expect(m.subSecond + m.midRange).toBeLessThan(1);
      expect(m.sleeps).toBeGreaterThan(0);
      expect(m.deadlines).toBeGreaterThan(0);
    },
  );
});
