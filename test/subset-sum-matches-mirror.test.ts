/**
 * The subset sums' bitset fold in WebAssembly (assembly/subset-sum.ts) against its TypeScript mirror
 * (src/solve/dp/subset-sum/setup.ts): on every item set the same sum, the same subset in the same order and the
 * same work counted, through the windows (where the fold leaves the greedy items out) and without them;
 * the sum equals the boolean DP over capacities and the subset weighs exactly that. Under a work budget
 * and a halting check both stop at the same item with the same work and the same checks asked. The
 * multiple-knapsack search with the kernel reaches the same outcome, counters and work as with the mirrors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mkpProblem } from './helpers/internals.js';
import { nearFittingProblem } from './helpers/internals.js';
import { METER_CHECK_WORK, MkpHalt, WorkMeter } from './helpers/internals.js';
import { searchMultipleKnapsack } from './helpers/internals.js';
import {
  maxSubsetSum,
  SUBSET_SUM_KERNEL_MAX_BYTES,
  SUBSET_SUM_MAX_CAPACITY,
  SUBSET_SUM_WINDOW,
  SubsetSumScratch,
  WINDOW_GROWTH,
  type SubsetSum,
} from './helpers/internals.js';
import { nodeIndependentValues } from './helpers/internals.js';
import { prepare } from './helpers/internals.js';
import type { MkpKernels, SubsetSumKernel } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import { useKernels } from './helpers/kernels.js';

const kernels = useKernels();

/** The largest subset sum of `w` within `cap`, by the boolean DP over capacities 0..min(cap, total). */
function reachableMax(w: readonly number[], cap: number): number {
  const top = Math.min(
    cap,
    w.reduce((a, x) => a + x, 0),
  );
  const reach = new Uint8Array(top + 1);
  reach[0] = 1;
  for (const x of w) for (let s = top; s >= x; s--) if (reach[s - x] === 1) reach[s] = 1;
  let s = top;
  while (reach[s] === 0) s--;
  return s;
}

interface Outcome {
  readonly answer: SubsetSum | null;
  readonly halt: string | null;
  readonly work: number;
  readonly asked: number;
}

/** maxSubsetSum over the items at `ids` (into `w`), by the kernel or the mirror (null), under `budget` with a halting check that says stop after `stopAfter` calls. */
function run(
  kernel: SubsetSumKernel | null,
  ids: Int32Array,
  w: readonly number[],
  cap: number,
  budget = Number.POSITIVE_INFINITY,
  stopAfter = Number.POSITIVE_INFINITY,
): Outcome {
  let asked = 0;
  const meter = new WorkMeter(
    budget,
    () => (++asked > stopAfter ? 'stopped' : undefined),
    (work) => `budget after ${work}`,
  );
  const scratch = new SubsetSumScratch();
  scratch.kernel = kernel;
  // Every fold in the kernel, however many bytes its rows take (the default sends the largest to TypeScript).
  scratch.kernelMaxBytes = Number.POSITIVE_INFINITY;
  const answer = maxSubsetSum(ids, ids.length, w, cap, meter, scratch);
  const halt = meter.halt;
  if (halt !== null) expect(halt).toBeInstanceOf(MkpHalt);
  return { answer: halt === null ? answer : null, halt: halt?.reason ?? null, work: meter.work, asked };
}

/** Ids 0..n-1 in a shuffled order (the search passes arbitrary id lists). */
function shuffledIds(n: number, seed: number): Int32Array {
  const ids = Int32Array.from({ length: n }, (_, i) => i);
  let s = seed >>> 0 || 1;
  for (let i = n - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids;
}

const window = SUBSET_SUM_WINDOW * WINDOW_GROWTH;

/**
 * The release kernel, recording the capacity of every fold it starts (the windows' rooms, then the whole
 * room), and a fresh scratch that runs its folds in it.
 */
function recordingStarts(): { kernel: SubsetSumKernel; rooms: number[]; scratch: SubsetSumScratch } {
  const rooms: number[] = [];
  const kernel = new Proxy(kernels.release.subsetSum, {
    get(target, name) {
      const v: unknown = Reflect.get(target, name, target);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (name === 'start') rooms.push((args[0] as { cap: number }).cap);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const scratch = new SubsetSumScratch();
  scratch.kernel = kernel;
  return { kernel, rooms, scratch };
}

/** A meter without a budget whose halting check says stop from its `stopAt`-th call on. */
const stoppingMeter = (stopAt = Number.POSITIVE_INFINITY) => {
  let asked = 0;
  return new WorkMeter(
    Number.POSITIVE_INFINITY,
    () => (++asked >= stopAt ? 'stopped' : undefined),
    () => 'budget',
  );
};

describe('subset sums: WebAssembly kernel and TypeScript mirror', () => {
  it('find the same sum and subset with the same work on 1-150 items of weight 1..2000 within capacities 1..2^21, equal to the DP over capacities', () => {
    let windowed = 0;
    let folded = 0;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 2000 }), { minLength: 1, maxLength: 150, size: 'max' }),
        fc.oneof(fc.integer({ min: 1, max: SUBSET_SUM_MAX_CAPACITY }), fc.double({ min: 0.05, max: 1, noNaN: true })),
        fc.integer(),
        (w, capOrShare, seed) => {
          const total = w.reduce((a, x) => a + x, 0);
          const cap = Number.isInteger(capOrShare) ? capOrShare : Math.max(1, Math.floor(total * capOrShare));
          const ids = shuffledIds(w.length, seed);
          const mirror = run(null, ids, w, cap);
          expect(run(kernels.release.subsetSum, ids, w, cap)).toEqual(mirror);
          expect(run(kernels.debug.subsetSum, ids, w, cap)).toEqual(mirror);
          const { sum, chosen } = mirror.answer!;
          expect(sum).toBe(reachableMax(w, cap));
          expect(new Set(chosen).size).toBe(chosen.length);
          expect(chosen.reduce((a, x) => a + w[ids[x]!]!, 0)).toBe(sum);
          if (total > cap) {
            folded++;
            if (cap >= window) windowed++;
          }
        },
      ),
      { numRuns: 400, seed: 41 },
    );
    // Both the windows (whose folds leave the greedy items out) and plain folds were reached.
    expect(windowed).toBeGreaterThan(20);
    expect(folded - windowed).toBeGreaterThan(100);
  });

  it('find the same subset on items that fill the capacity in many ways (equal and repeated weights, capacities at word edges)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(1, 2, 31, 32, 33, 63, 64, 65, 96, 127, 128, 1000), {
          minLength: 1,
          maxLength: 120,
          size: 'max',
        }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom(-1, 0, 1),
        (w, words, edge) => {
          const cap = Math.max(1, words * 32 + edge);
          const ids = Int32Array.from(w, (_, i) => i);
          const mirror = run(null, ids, w, cap);
          expect(run(kernels.release.subsetSum, ids, w, cap)).toEqual(mirror);
          expect(mirror.answer!.sum).toBe(reachableMax(w, cap));
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });

  it('stop at the same item under a work budget or a halting check, with the same work counted and the same checks asked', () => {
    let halted = 0;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 2000 }), { minLength: 20, maxLength: 150, size: 'max' }),
        fc.double({ min: 0.1, max: 0.9, noNaN: true }),
        fc.double({ min: 0, max: 1.2, noNaN: true }),
        fc.integer({ min: 0, max: 6 }),
        (w, share, budgetShare, stopAfter) => {
          const cap = Math.max(1, Math.floor(w.reduce((a, x) => a + x, 0) * share));
          const ids = Int32Array.from(w, (_, i) => i);
          const whole = run(null, ids, w, cap).work;
          const budget = Math.floor(whole * budgetShare);
          const mirror = run(null, ids, w, cap, budget);
          expect(run(kernels.release.subsetSum, ids, w, cap, budget)).toEqual(mirror);
          const stopped = run(null, ids, w, cap, Number.POSITIVE_INFINITY, stopAfter);
          expect(run(kernels.release.subsetSum, ids, w, cap, Number.POSITIVE_INFINITY, stopAfter)).toEqual(stopped);
          expect(mirror.work).toBeLessThanOrEqual(budget);
          if (mirror.halt !== null) halted++;
          if (stopped.halt !== null) halted++;
        },
      ),
      { numRuns: 150, seed: 43 },
    );
    expect(halted).toBeGreaterThan(50);
  });
});

describe('subset sums: where they run', () => {
  it('folds whose rows could pass SUBSET_SUM_KERNEL_MAX_BYTES run in TypeScript, the others in the kernel, with the same answer', () => {
    const { kernel, rooms } = recordingStarts();
    // 120 even weights against odd capacities: no subset fills a room exactly (every window's room is odd
    // too), so the windows miss and the whole room is folded.
    const w = Array.from({ length: 120 }, (_, i) => 2 * (500 + ((i * 7919) % 30_000)));
    const ids = Int32Array.from(w.keys());
    const rowsOf = (cap: number) => w.length * ((cap >>> 5) + 1) * 4;
    // The last word count whose rows stay within the limit (34,951 words of room at 120 items).
    const edge = Math.floor(SUBSET_SUM_KERNEL_MAX_BYTES / (4 * w.length)) - 1;
    const caps = [(1 << 16) + 123, edge * 32 + 1, (edge + 1) * 32 + 1, (1 << 21) - 5];
    // Folds on each side of the limit, two of them one word of room apart.
    expect(caps.map((cap) => rowsOf(cap) <= SUBSET_SUM_KERNEL_MAX_BYTES)).toEqual([true, true, false, false]);
    for (const cap of caps) {
      const scratch = new SubsetSumScratch();
      scratch.kernel = kernel;
      expect(maxSubsetSum(ids, ids.length, w, cap, stoppingMeter(), scratch)).toEqual(run(null, ids, w, cap).answer);
      expect(rooms.includes(cap)).toBe(rowsOf(cap) <= SUBSET_SUM_KERNEL_MAX_BYTES);
    }
  });

  // The greedy part takes the heavy item (the room it leaves is at least a window) and no other (each would
  // leave less): the room left is exactly cap / WINDOW_GROWTH, tried, and filled exactly by the rest.
  it.each([
    { at: 'a capacity of 20,000', w: [2500, 15_000, 2500, 2500], cap: 20_000, chosen: [1, 2, 0] },
    // The least capacity with a window: the room is the window itself.
    {
      at: 'the least capacity with a window',
      w: [2048, 12_288, 2048, 100],
      cap: SUBSET_SUM_WINDOW * WINDOW_GROWTH,
      chosen: [1, 2, 0],
    },
  ])(
    'tries a window whose room is exactly 1 / WINDOW_GROWTH of the capacity, at $at, and fills the capacity from it',
    ({ w, cap, chosen }) => {
      expect(cap - w[1]!).toBe(cap / WINDOW_GROWTH);
      const { rooms, scratch } = recordingStarts();
      const ids = Int32Array.from(w.keys());
      expect(maxSubsetSum(ids, ids.length, w, cap, stoppingMeter(), scratch)).toEqual({ sum: cap, chosen });
      expect(rooms).toEqual([cap / WINDOW_GROWTH]);
    },
  );

  it("starts no other fold once the halting check stops a window's fold", () => {
    // One heavy odd item and 200 light even ones: the greedy part takes the heavy one and a few light ones,
    // and the first window's fold (an odd room past 4,096 quanta, 129 words or more, over the other light
    // items, which cannot fill it) spends more than METER_CHECK_WORK: the check is asked inside it, and stops it.
    const w = [12_001, ...Array.from({ length: 200 }, (_, i) => 2 * (40 + ((i * 37) % 30)))];
    const ids = Int32Array.from(w.keys());
    for (const cap of [16_500, 17_000]) {
      const { rooms, scratch } = recordingStarts();
      const meter = stoppingMeter(1);
      expect(maxSubsetSum(ids, ids.length, w, cap, meter, scratch)).toBeNull();
      expect(meter.halt?.reason).toBe('stopped');
      expect(rooms).toHaveLength(1);
      expect(meter.work).toBeGreaterThanOrEqual(METER_CHECK_WORK);
      expect(rooms[0]).toBeLessThan(cap / WINDOW_GROWTH);
    }
  });
});

describe('subset sums in the multiple-knapsack search', () => {
  /** The search's outcome and work on `problem`, with the kernel or the mirrors (null), under `budget`. */
  function search(kernel: MkpKernels | null, problem: Problem, quantum: number, budget: number) {
    const { packed } = prepare(problem, { quantum });
    const values = nodeIndependentValues(packed)!;
    const meter = new WorkMeter(
      budget,
      () => undefined,
      (work) => `budget after ${work}`,
    );
    const out = searchMultipleKnapsack(packed, values, meter, kernel ?? undefined);
    return { out, work: meter.work };
  }

  it('reaches the same outcome, counters and work with the kernel as with the mirrors on 100 x 10 strongly and weakly correlated and subset-sum instances and near-fitting pools, also when the budget stops it', () => {
    const cases: { problem: Problem; quantum: number }[] = [];
    for (const [gi, cls] of (['strong', 'weak', 'subset-sum'] as const).entries()) {
      for (let i = 0; i < 4; i++) cases.push({ problem: mkpProblem(1, 10 + gi, cls, 100, 10, i), quantum: 1 });
    }
    for (const m of [2, 4])
      for (let i = 0; i < 4; i++) cases.push({ problem: nearFittingProblem(1, m, m, i), quantum: 16 });
    let tightened = 0;
    let stopped = 0;
    // The release kernel, counting the folds it starts (so the search is seen to hand them to it).
    const { kernel: countedFolds, rooms: started } = recordingStarts();
    const counted: MkpKernels = { surrogateCore: kernels.release.surrogateCore, subsetSum: countedFolds };
    for (const { problem, quantum } of cases) {
      const mirror = search(null, problem, quantum, 1 << 22);
      expect(search(counted, problem, quantum, 1 << 22)).toEqual(mirror);
      tightened += mirror.out.counters.tightened;
      for (const share of [0.3, 0.7]) {
        const budget = Math.floor(mirror.work * share);
        const cut = search(null, problem, quantum, budget);
        expect(search(kernels.release, problem, quantum, budget)).toEqual(cut);
        if (!cut.out.optimal) stopped++;
      }
    }
    // The tightening's subset sums ran, and the budget stopped searches inside them or around them.
    expect(tightened).toBeGreaterThan(0);
    expect(stopped).toBeGreaterThan(10);
    expect(started.length).toBeGreaterThan(1000);
  });
});
