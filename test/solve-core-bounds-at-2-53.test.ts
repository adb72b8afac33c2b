/**
 * The surrogate knapsack's core DP where its exact integer bounds meet 2^53, the edge of exact f64
 * arithmetic (src/solve/dp/surrogate-core/mirror.ts): ceilRatio and floorRatio take the outward-rounded path
 * from a product of exactly 2^53 on, and the swap bound is not used where one of its products reaches 2^53.
 * The TypeScript mirror takes the same steps as the WebAssembly kernel there, and both find the optimum.
 */
import { describe, expect, it } from 'vitest';
import { ceilRatio, floorRatio, knapsack, KnapsackScratch, type CoreDpKernel } from './helpers/internals.js';
import { useKernels } from './helpers/kernels.js';
import { meterWithin } from './helpers/meter.js';
import { enumerateKnapsack } from './oracles/knapsack.js';

const kernels = useKernels();

/** The core DP on items given in efficiency order, by the mirror (kernel null) or a kernel: its answer and its steps. */
function solveCore(kernel: CoreDpKernel | null, w: number[], p: number[], cap: number, threshold: number) {
  const scratch = new KnapsackScratch();
  scratch.kernel = kernel;
  const counters = { knapsacks: 0, states: 0, ceilingStops: 0 };
  const order = Int32Array.from(w.keys());
  const found = knapsack(order, w.length, p, w, cap, threshold, meterWithin(), scratch, counters);
  return {
    value: found === null ? null : found.value,
    states: counters.states,
    swapCuts: scratch.swapCuts,
    ceilingStops: counters.ceilingStops,
  };
}

/** The mirror's run, after checking that both kernels take the same steps to the same answer. */
function sameOnAll(w: number[], p: number[], cap: number, threshold: number) {
  const mirror = solveCore(null, w, p, cap, threshold);
  expect(solveCore(kernels.release.surrogateCore, w, p, cap, threshold)).toEqual(mirror);
  expect(solveCore(kernels.debug.surrogateCore, w, p, cap, threshold)).toEqual(mirror);
  return mirror;
}

describe('the core DP where its bounds meet 2^53', () => {
  it('ceilRatio and floorRatio still bracket the quotient when the product is exactly 2^53 (BigInt)', () => {
    const num = 2n ** 53n;
    for (let w = 2; w <= 1000; w++) {
      const floor = num / BigInt(w);
      const ceil = floor * BigInt(w) === num ? floor : floor + 1n;
      // 2^52 * 2: the product is 2^53 itself, past which a product of the quotient and w rounds.
      expect(BigInt(floorRatio(2 ** 52, 2, w)) <= floor, `floor, w ${w}`).toBe(true);
      expect(BigInt(ceilRatio(2 ** 52, 2, w)) >= ceil, `ceil, w ${w}`).toBe(true);
    }
  });

  it('a state whose room times the next profit is exactly 2^53 is kept by the rounded ceiling, as in the kernel', () => {
    // Efficiency order 0, 1, 2; the break solution is {0} with room 8,192, and 8,192 * 2^40 = 2^53. The
    // greedy completion of the break solution less item 0 is item 1 alone, so the DP starts from one below
    // its value; the break state's gap to that is ceil(2^53 / 3) exactly, and only the outward-rounded
    // ceiling (above it) keeps the break state for a second layer.
    const w = [1, 8193, 3];
    const p = [997_600_248_419_668, 4_000_000_000_000_000, 2 ** 40];
    expect(p[1]! - 1 - p[0]!).toBe(Number((2n ** 53n + 2n) / 3n)); // ceil(2^53 / 3)
    const run = sameOnAll(w, p, 8193, -1);
    expect(run.value).toBe(enumerateKnapsack(w, p, 8193).value);
    expect(run.value).toBe(p[1]);
  });

  it('the swap bound cuts nothing where one of its products passes 2^53, as in the kernel', () => {
    // Equal weights 2^20; item 0's profit times the next item's weight is 2^53 + 2^45, item 2's profit
    // times item 0's weight 2^53 - 2^20. The moved state {0, 1} is over the capacity by 2^17; its swap
    // bound would not beat the threshold (its Dantzig bound does), but the swap term is not exact here.
    const W = 2 ** 20;
    const w = [W, W, W];
    const p = [2 ** 33 + 2 ** 25, 2 ** 33 + 2 ** 24, 2 ** 33 - 1];
    const cap = 2 * W - 2 ** 17;
    const threshold = 2 ** 34 - 2 ** 30 + 2 ** 25;
    const run = sameOnAll(w, p, cap, threshold);
    expect(run.swapCuts).toBe(0);
    expect(enumerateKnapsack(w, p, cap).value).toBeLessThanOrEqual(threshold);
    expect(run.value).toBeNull();
  });
});
