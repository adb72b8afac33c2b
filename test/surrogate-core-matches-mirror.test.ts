/**
 * The surrogate knapsack's core DP in WebAssembly (assembly/surrogate-core.ts) against its TypeScript mirror
 * (src/solve/dp/surrogate-core/mirror.ts): on every instance the same answer (value, weight, the same set in the same
 * order), the same states generated and the same swap-bound cuts, also when the kernel pauses after a few
 * merge steps and resumes, when its lists and history grow and move, when bounds pass 2^53, and when
 * pairing and the cardinality ceiling end it early; both against enumeration where it is small, and
 * against the DP over capacities where it is not. The halting check runs inside a layer (every `pollSteps` merge steps) on both.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { knapsack, KnapsackScratch, type KnapsackAnswer } from './helpers/internals.js';
import { METER_CHECK_WORK, MkpHalt, WorkMeter } from './helpers/internals.js';
import type { CoreDpKernel } from './helpers/internals.js';
import { capacityKnapsack, enumerateKnapsack } from './oracles/knapsack.js';
import { useKernels } from './helpers/kernels.js';

const kernels = useKernels();

/** A meter that never stops. */
const unbounded = (): WorkMeter =>
  new WorkMeter(
    Number.POSITIVE_INFINITY,
    () => undefined,
    () => 'budget',
  );

/** Items in efficiency order (exact, by cross products; ties by index), as the search passes them. */
function efficiencyOrder(w: readonly number[], p: readonly number[]): Int32Array {
  const ids = w.map((_, i) => i);
  ids.sort((a, b) => {
    const d = BigInt(p[b]!) * BigInt(w[a]!) - BigInt(p[a]!) * BigInt(w[b]!);
    return d > 0n ? 1 : d < 0n ? -1 : a - b;
  });
  return Int32Array.from(ids);
}

interface Run {
  /** The answer, its set copied out of the scratch. */
  readonly answer: { readonly value: number; readonly weight: number; readonly chosen: number[] } | null;
  readonly states: number;
  readonly swapCuts: number;
  readonly ceilingStops: number;
}

function run(
  kernel: CoreDpKernel | null,
  w: readonly number[],
  p: readonly number[],
  cap: number,
  threshold: number,
  pollSteps?: number,
): Run {
  const scratch = new KnapsackScratch();
  scratch.kernel = kernel;
  if (pollSteps !== undefined) scratch.pollSteps = pollSteps;
  const counters = { knapsacks: 0, states: 0, ceilingStops: 0 };
  const order = efficiencyOrder(w, p);
  const found: KnapsackAnswer | null = knapsack(
    order,
    order.length,
    p,
    w,
    cap,
    threshold,
    unbounded(),
    scratch,
    counters,
  );
  const answer =
    found === null
      ? null
      : { value: found.value, weight: found.weight, chosen: Array.from(found.chosen.subarray(0, found.count)) };
  return { answer, states: counters.states, swapCuts: scratch.swapCuts, ceilingStops: counters.ceilingStops };
}

/** Between `min` and `max` sessions of 2,000 to `most` tokens, each ready or not. */
const sessionRows = (most: number, min: number, max: number) =>
  fc.array(fc.record({ tokens: fc.integer({ min: 2000, max: most }), ready: fc.boolean() }), {
    minLength: min,
    maxLength: max,
  });

/** Sessions of `tokens` weighing tokens + reserve in quanta (rounded up), worth their tokens plus a ready bonus above every token sum. */
function sessionItems(
  rows: readonly { tokens: number; ready: boolean }[],
  quantum: number,
  reserve: number,
): { w: number[]; p: number[] } {
  const bonus = rows.reduce((a, x) => a + x.tokens, 0) + 1;
  return {
    w: rows.map((x) => Math.ceil((x.tokens + reserve) / quantum)),
    p: rows.map((x) => x.tokens + (x.ready ? bonus : 0)),
  };
}

describe('core DP: WebAssembly kernel and TypeScript mirror', () => {
  it('take the same steps to the same answer on small instances, which equals enumeration (release and debug builds, paused every few steps, values up to 2^48)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            w: fc.integer({ min: 1, max: 40 }),
            p: fc.integer({ min: 1, max: 60 }),
            tokens: fc.integer({ min: 1, max: 400 }),
            ready: fc.boolean(),
            huge: fc.integer({ min: 2 ** 45, max: 2 ** 48 }),
          }),
          { minLength: 1, maxLength: 14 },
        ),
        fc.constantFrom('free', 'p=w', 'sessions', 'near 2^48'),
        fc.double({ min: 0.2, max: 1.1, noNaN: true }),
        fc.integer({ min: -1, max: 2 }),
        fc.integer({ min: 1, max: 9 }),
        (raw, profile, rho, thresholdMode, pollSteps) => {
          // Values near 2^48 take the bounds past 2^53, rounded outward.
          const { w, p } =
            profile === 'sessions'
              ? sessionItems(raw, 4, 16)
              : {
                  w: raw.map((x) => (profile === 'near 2^48' ? x.w * 25_000 : x.w)),
                  p: raw.map((x) => (profile === 'p=w' ? x.w : profile === 'near 2^48' ? x.huge : x.p)),
                };
          const cap = Math.floor(w.reduce((a, x) => a + x, 0) * rho);
          const best = enumerateKnapsack(w, p, cap).value;
          const threshold =
            thresholdMode < 0 ? -1 : thresholdMode === 0 ? best - 1 : thresholdMode === 1 ? best : best - 3;
          const mirror = run(null, w, p, cap, threshold);
          expect(run(kernels.release.surrogateCore, w, p, cap, threshold)).toEqual(mirror);
          expect(run(kernels.debug.surrogateCore, w, p, cap, threshold, pollSteps)).toEqual(mirror);
          expect(run(kernels.release.surrogateCore, w, p, cap, threshold, pollSteps)).toEqual(mirror);
          if (best <= threshold) expect(mirror.answer).toBeNull();
          else expect(mirror.answer!.value).toBe(best);
        },
      ),
      { numRuns: 800, seed: 31 },
    );
  });

  it('take the same steps on near-fitting pools of 40-120 sessions, where lists of thousands of states grow and move', () => {
    let most = 0;
    let cuts = 0;
    fc.assert(
      fc.property(
        sessionRows(60_000, 40, 120),
        fc.double({ min: 1.02, max: 1.3, noNaN: true }),
        fc.constantFrom(1, 16),
        (rows, rho, quantum) => {
          const { w, p } = sessionItems(rows, quantum, 512);
          const cap = Math.floor(w.reduce((a, x) => a + x, 0) / rho);
          const mirror = run(null, w, p, cap, -1);
          expect(run(kernels.release.surrogateCore, w, p, cap, -1)).toEqual(mirror);
          expect(run(kernels.release.surrogateCore, w, p, cap, -1, 1000)).toEqual(mirror);
          const answer = mirror.answer!;
          expect(answer.chosen.reduce((a, i) => a + w[i]!, 0)).toBe(answer.weight);
          expect(answer.weight).toBeLessThanOrEqual(cap);
          expect(answer.chosen.reduce((a, i) => a + p[i]!, 0)).toBe(answer.value);
          most = Math.max(most, mirror.states);
          cuts += mirror.swapCuts;
        },
      ),
      { numRuns: 40, seed: 32 },
    );
    // Lists past the kernel's first capacities (256 states, 1024 history entries) were reached, and the swap bound cut.
    expect(most).toBeGreaterThan(20_000);
    expect(cuts).toBeGreaterThan(0);
  });

  it("take the same steps on pools of 600-900 sessions, past the mirror's first 256 positions of lightest weights", () => {
    fc.assert(
      fc.property(sessionRows(60_000, 600, 900), (rows) => {
        const { w, p } = sessionItems(rows, 16, 512);
        const cap = Math.floor(w.reduce((a, x) => a + x, 0) / 1.1);
        expect(run(kernels.release.surrogateCore, w, p, cap, -1)).toEqual(run(null, w, p, cap, -1));
      }),
      { numRuns: 3, seed: 33 },
    );
  });

  it('the scratch of lightest weights grows to what a run asks, doubling, and not while it has room', () => {
    const scratch = new KnapsackScratch();
    const first = scratch.light;
    scratch.lightest(first.length);
    expect(scratch.light).toBe(first);
    scratch.lightest(first.length + 1);
    expect(scratch.light.length).toBe(2 * first.length);
    scratch.lightest(10 * first.length);
    expect(scratch.light.length).toBe(10 * first.length);
  });
});

describe('core DP: pairing and the ceiling', () => {
  it('take the same steps on 40-120 strongly correlated, subset-sum and inversely correlated items, and find the optimum of the DP over capacities; pairs and ceilings end most strongly correlated runs', () => {
    let stops = 0;
    let strong = 0;
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 10, max: 1000 }), { minLength: 40, maxLength: 120 }),
        fc.constantFrom('strong', 'p=w', 'inverse'),
        fc.double({ min: 0.2, max: 0.8, noNaN: true }),
        fc.integer({ min: -1, max: 2 }),
        (w, profile, rho, thresholdMode) => {
          const p = w.map((x) => (profile === 'strong' ? x + 100 : profile === 'p=w' ? x : Math.max(1, x - 100)));
          const cap = Math.floor(w.reduce((a, x) => a + x, 0) * rho);
          const best = capacityKnapsack(w, p, cap);
          const threshold =
            thresholdMode < 0 ? -1 : thresholdMode === 0 ? best - 1 : thresholdMode === 1 ? best : best - 3;
          const mirror = run(null, w, p, cap, threshold);
          expect(run(kernels.release.surrogateCore, w, p, cap, threshold)).toEqual(mirror);
          expect(run(kernels.release.surrogateCore, w, p, cap, threshold, 97)).toEqual(mirror);
          if (best <= threshold) expect(mirror.answer).toBeNull();
          else {
            const { value, weight, chosen } = mirror.answer!;
            expect(value).toBe(best);
            expect(new Set(chosen).size).toBe(chosen.length);
            expect(chosen.reduce((a, i) => a + w[i]!, 0)).toBe(weight);
            expect(weight).toBeLessThanOrEqual(cap);
            expect(chosen.reduce((a, i) => a + p[i]!, 0)).toBe(value);
          }
          if (profile === 'strong') {
            strong++;
            stops += mirror.ceilingStops;
          }
        },
      ),
      { numRuns: 150, seed: 35 },
    );
    expect(stops).toBeGreaterThan(strong / 2);
  });
});

describe('core DP: the work budget', () => {
  it('stops the kernel and the mirror before the same layer, with the same work counted and the same halting checks asked', () => {
    fc.assert(
      fc.property(
        sessionRows(40_000, 30, 80),
        fc.double({ min: 1.02, max: 1.3, noNaN: true }),
        fc.double({ min: 0, max: 1.2, noNaN: true }),
        (rows, rho, share) => {
          const { w, p } = sessionItems(rows, 16, 512);
          const cap = Math.floor(w.reduce((a, x) => a + x, 0) / rho);
          const total = run(null, w, p, cap, -1).states;
          const budget = Math.floor(total * share);
          const outcome = (kernel: CoreDpKernel | null) => {
            let asked = 0;
            const meter = new WorkMeter(
              budget,
              () => (asked++, undefined),
              (work) => `budget after ${work}`,
            );
            const scratch = new KnapsackScratch();
            scratch.kernel = kernel;
            const counters = { knapsacks: 0, states: 0, ceilingStops: 0 };
            const order = efficiencyOrder(w, p);
            knapsack(order, order.length, p, w, cap, -1, meter, scratch, counters);
            return { halt: meter.halt, work: meter.work, states: counters.states, asked };
          };
          const mirror = outcome(null);
          expect(outcome(kernels.release.surrogateCore)).toEqual(mirror);
          expect(mirror.halt === null).toBe(budget >= total);
          expect(mirror.work).toBeLessThanOrEqual(budget);
        },
      ),
      { numRuns: 60, seed: 34 },
    );
  });
});

describe('core DP: the halting check inside a layer', () => {
  // 60 items with distinct weights and values a weight less a reserve: layers of hundreds of states, the
  // first ones long before the meter's own check (every METER_CHECK_WORK units) runs.
  const w = Array.from({ length: 60 }, (_, i) => 300 + ((i * 7919) % 997));
  const p = w.map((x, i) => 16 * x - 512 - (i % 13));
  const cap = Math.floor(w.reduce((a, x) => a + x, 0) * 0.55);

  for (const name of ['TypeScript', 'WebAssembly'] as const) {
    it(`${name}: a check that says stop ends the DP within a layer, before the next one is paid for`, () => {
      const kernel = name === 'WebAssembly' ? kernels.release.surrogateCore : null;
      const total = run(kernel, w, p, cap, -1).states;
      let asked = 0;
      let paidWhenAsked = -1;
      const meter = new WorkMeter(
        Number.POSITIVE_INFINITY,
        () => {
          asked++;
          paidWhenAsked = meter.work;
          return 'deadline';
        },
        () => 'budget',
      );
      const scratch = new KnapsackScratch();
      scratch.kernel = kernel;
      scratch.pollSteps = 64;
      const order = efficiencyOrder(w, p);
      expect(
        knapsack(order, order.length, p, w, cap, -1, meter, scratch, { knapsacks: 0, states: 0, ceilingStops: 0 }),
      ).toBeNull();
      expect(meter.halt).toBeInstanceOf(MkpHalt);
      expect(asked).toBe(1);
      // Asked inside a layer of more than 64 states, before the meter's own check was due, and stopped there.
      expect(paidWhenAsked).toBeGreaterThan(64);
      expect(paidWhenAsked).toBeLessThan(METER_CHECK_WORK);
      expect(paidWhenAsked).toBeLessThan(total);
    });

    it(`${name}: a check that never says stop is asked about once per pollSteps merge steps`, () => {
      const kernel = name === 'WebAssembly' ? kernels.release.surrogateCore : null;
      let asked = 0;
      const meter = new WorkMeter(
        Number.POSITIVE_INFINITY,
        () => (asked++, undefined),
        () => 'budget',
      );
      const scratch = new KnapsackScratch();
      scratch.kernel = kernel;
      scratch.pollSteps = 50;
      const order = efficiencyOrder(w, p);
      const counters = { knapsacks: 0, states: 0, ceilingStops: 0 };
      knapsack(order, order.length, p, w, cap, -1, meter, scratch, counters);
      // Every merge step is one state paid for; a layer of L steps asks floor((L - 1) / 50) times, and
      // there are at most 60 layers (one per item); the meter's own check adds one per METER_CHECK_WORK units.
      expect(asked).toBeGreaterThanOrEqual(Math.floor(counters.states / 50) - 60);
      expect(asked).toBeLessThanOrEqual(
        Math.floor(counters.states / 50) + Math.ceil(counters.states / METER_CHECK_WORK),
      );
    });
  }
});
