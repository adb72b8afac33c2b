/**
 * The subset sums (src/solve/dp/subset-sum/setup.ts) at their two size limits, each met exactly: a capacity
 * of SUBSET_SUM_MAX_CAPACITY is still folded (only larger ones are declined), and a fold whose rows take
 * exactly SUBSET_SUM_KERNEL_MAX_BYTES still runs in the kernel (only larger ones go to TypeScript).
 */
import { describe, expect, it, vi } from 'vitest';
import {
  maxSubsetSum,
  SUBSET_SUM_KERNEL_MAX_BYTES,
  SUBSET_SUM_MAX_CAPACITY,
  SubsetSumScratch,
} from './helpers/internals.js';
import { useReleaseKernels } from './helpers/kernels.js';
import { meterWithin } from './helpers/meter.js';

const kernels = useReleaseKernels();

describe('subset sums at their limits', () => {
  it('fold a capacity of exactly SUBSET_SUM_MAX_CAPACITY quanta', () => {
    const cap = SUBSET_SUM_MAX_CAPACITY;
    // Both items do not fit together; the heavier fills the capacity exactly.
    const answer = maxSubsetSum(Int32Array.of(0, 1), 2, [cap, 5], cap, meterWithin(), new SubsetSumScratch());
    expect(answer).toEqual({ sum: cap, chosen: [0] });
  });

  it('run a fold whose rows take exactly SUBSET_SUM_KERNEL_MAX_BYTES in the kernel', () => {
    // 128 items and rows of 32,768 words (capacities 1,048,544 to 1,048,575) take 2^24 bytes.
    const k = 128;
    const words = SUBSET_SUM_KERNEL_MAX_BYTES / 4 / k;
    expect(Number.isInteger(words)).toBe(true);
    const cap = (words - 1) * 32 + 1;
    // Even weights against an odd capacity: no subset fills a room exactly (every window's room is odd
    // too), so the windows miss and the whole capacity is folded.
    const w = Array.from({ length: k }, (_, i) => 2 * (500 + ((i * 7919) % 30_000)));
    const scratch = new SubsetSumScratch();
    scratch.kernel = kernels.release.subsetSum;
    const start = vi.spyOn(kernels.release.subsetSum, 'start');
    try {
      const answer = maxSubsetSum(Int32Array.from(w.keys()), k, w, cap, meterWithin(), scratch);
      expect(answer!.sum).toBe(cap - 1);
      expect(answer!.chosen.reduce((a, x) => a + w[x]!, 0)).toBe(cap - 1);
      expect(start.mock.calls.map(([input]) => input.cap)).toContain(cap);
    } finally {
      start.mockRestore();
    }
  });
});
