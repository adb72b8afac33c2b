import { describe, expect, it } from 'vitest';
import {
  DEEPSEEK_CALIBRATION,
  FAMILY_CALIBRATIONS,
  GLM_CALIBRATION,
  QWEN_CALIBRATION,
  sweLiteProfileName,
  SETTINGS,
  WORKLOAD_PROFILES,
} from './helpers/internals.js';

describe('calibration constants come from one place', () => {
  it.each(FAMILY_CALIBRATIONS.flatMap((f) => f.workerCounts.map((w) => [`${f.prefix}-${w}`, f] as const)))(
    '%s takes its engine, capacity and workload from calibration.ts',
    (name, f) => {
      const s = SETTINGS[name]!;
      expect(s.engine).toBe(f.engine);
      expect(s.nodes).toHaveLength(f.nodeCount);
      for (const n of s.nodes) expect(n.capacity).toBe(f.capacity.capacity);
      expect(s.workload).toBe(WORKLOAD_PROFILES[sweLiteProfileName(f)]);
      expect(s.workload.output).toMatchObject({ kind: 'lognormal', median: f.outputMedian });
    },
  );

  it('the nine paper settings are exactly the calibrated ones', () => {
    expect(Object.keys(SETTINGS)).toEqual([
      'ds-16',
      'ds-32',
      'ds-64',
      'qwen-96',
      'qwen-128',
      'qwen-160',
      'glm-96',
      'glm-128',
      'glm-160',
    ]);
  });

  it('Qwen and GLM capacities are the hardware arithmetic (recomputed here from the public configs)', () => {
    // Qwen3-32B: 64 layers x 8 KV heads x 128 x K,V x 2 bytes; 2 x 80 GB x 0.9 less 65.5 GB weights, 6 GB reserved.
    expect(QWEN_CALIBRATION.capacity.kvBytesPerToken).toBe(262_144);
    expect(QWEN_CALIBRATION.capacity.capacity).toBe(Math.floor((144e9 - 65.5e9 - 6e9) / 262_144 / 1000) * 1000);
    // GLM-4.6 architecture: 92 layers; 8 x 80 GB x 0.9 less 355 GB FP8 weights, 16 GB reserved.
    expect(GLM_CALIBRATION.capacity.kvBytesPerToken).toBe(376_832);
    expect(GLM_CALIBRATION.capacity.capacity).toBe(Math.floor((576e9 - 355e9 - 16e9) / 376_832 / 1000) * 1000);
    expect(QWEN_CALIBRATION.capacity.capacity).toBeGreaterThan(250_000);
    expect(GLM_CALIBRATION.capacity.capacity).toBeGreaterThan(500_000);
    // DeepSeek's KV layout is not public: its capacity is fitted and says so.
    expect(DEEPSEEK_CALIBRATION.capacity.kvBytesPerToken).toBeNull();
    expect(DEEPSEEK_CALIBRATION.capacity.derived).toBeNull();
  });

  it('the fitted constants are pinned (docs/results/paper.md was generated with them: regenerate it when they change)', () => {
    const fitted = FAMILY_CALIBRATIONS.map((f) => ({
      family: f.prefix,
      capacity: f.capacity.capacity,
      reported: f.capacity.reported,
      stepBase: f.engine.stepBase,
      stepPerSeq: f.engine.stepPerSeq,
      stepPerKToken: f.engine.stepPerKToken,
      prefillPerKToken: f.engine.prefillPerKToken,
      requestOverhead: f.engine.requestOverhead,
      outputMedian: f.outputMedian,
    }));
    expect(fitted).toEqual([
      {
        family: 'ds',
        capacity: 697_000,
        reported: 168_000,
        stepBase: 0.00545,
        stepPerSeq: 0.000128,
        stepPerKToken: 0.00002,
        prefillPerKToken: 0.00287,
        requestOverhead: 0.152,
        outputMedian: 182,
      },
      {
        family: 'qwen',
        capacity: 276_000,
        reported: 276_000,
        stepBase: 0.0121,
        stepPerSeq: 0.000075,
        stepPerKToken: 0.00004,
        prefillPerKToken: 0.0198,
        requestOverhead: 0.053,
        outputMedian: 282,
      },
      {
        family: 'glm',
        capacity: 544_000,
        reported: 544_000,
        stepBase: 0.0074,
        stepPerSeq: 0.00041,
        stepPerKToken: 0.000015,
        prefillPerKToken: 0.0293,
        requestOverhead: 0.066,
        outputMedian: 183,
      },
    ]);
  });
});
