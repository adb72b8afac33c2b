/**
 * What the DPs' adapters refuse before a kernel runs, each with a RangeError that names what was wrong:
 * inputs of the wrong length, a state count past the ABI, and every argument a kernel's reserve or begin
 * call rejects (checked on the real module, whose entry points answer -1 for them). Also the dense
 * mirror's memory figure and its refusal of a state count past 2^53, and the frontier mirror's keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bigKeys,
  capHalt,
  CoreStatus,
  DenseWasm,
  denseMirror,
  denseWasm,
  DpStatus,
  FrontierMirror,
  FrontierWasm,
  frontierInput,
  frontierSetup,
  frontierWasm,
  heuristicPlan,
  maxSubsetSum,
  randomTickProblem,
  SubsetSumScratch,
  SubsetSumStatus,
  SubsetSumWasm,
  SurrogateCoreWasm,
  WorkMeter,
  KNAPSACK_MAX_HISTORY,
  KNAPSACK_MAX_STATES,
  prepare,
  WasmKernels,
} from './helpers/internals.js';
import type { Problem, TaoInstance } from './helpers/internals.js';

let kernels: WasmKernels;
beforeAll(async () => {
  kernels = await WasmKernels.create();
});
afterAll(() => kernels.close());

describe('the dense adapter', () => {
  it('refuses keys that are not one per session and node, naming both counts', () => {
    const start = () => kernels.dense.start({ radix: [3, 3], weight: [1], keys: new BigInt64Array(1) });
    expect(start).toThrow(new RangeError('keys has 1 entries, expected 2'));
  });

  it('refuses a state count past 2^31 - 1', () => {
    const start = () => kernels.dense.start({ radix: [65_536, 65_536], weight: [1], keys: new BigInt64Array(2) });
    expect(start).toThrow(new RangeError('4294967296 states do not fit the ABI'));
  });

  it('takes 2^31 - 1 states, and answers memory for them without growing the module (past MEMORY_CAP_BYTES)', () => {
    const before = kernels.instance.memoryBytes();
    expect(kernels.dense.start({ radix: [0x7fff_ffff], weight: [1], keys: new BigInt64Array(1) })).toBe(
      DpStatus.memory,
    );
    // 2^27 states of one session: 1.125 GiB, past the cap, within what the module could grow to.
    expect(kernels.dense.start({ radix: [1 << 14, 1 << 13], weight: [1], keys: new BigInt64Array(2) })).toBe(
      DpStatus.memory,
    );
    expect(kernels.instance.memoryBytes()).toBe(before);
  });

  it('reports the kernel rejecting a problem without sessions', () => {
    const start = () => kernels.dense.start({ radix: [2], weight: [], keys: new BigInt64Array(0) });
    expect(start).toThrow(new RangeError('denseReserve(0, 1, 2) rejected its arguments'));
  });

  it('reports the kernel finding radixes below 1, whose product the adapter took for the state count', () => {
    const start = () => kernels.dense.start({ radix: [-1, -1], weight: [1], keys: new BigInt64Array(2) });
    expect(start).toThrow(new RangeError('denseBegin() found radix inconsistent with states'));
  });
});

describe('the frontier adapter', () => {
  const input = (n: number, m: number, over: Record<string, unknown> = {}) => ({
    qweight: new Array<number>(n).fill(1),
    key: new BigInt64Array(n * m),
    capacity: new Array<number>(m).fill(4),
    order: Int32Array.from({ length: n }, (_, j) => j),
    slotNode: Int32Array.from({ length: m }, (_, b) => b),
    classStart: Int32Array.from({ length: m }, (_, b) => b),
    incumbent: new Int32Array(n).fill(-1),
    tailStart: n,
    creditScale: 1n,
    creditGrid: 1,
    ...over,
  });

  it('refuses keys that are not one per session and node, naming both counts', () => {
    expect(() => kernels.frontier.start(input(1, 2, { key: new BigInt64Array(1) }))).toThrow(
      new RangeError('key has 1 entries, expected 2'),
    );
  });

  it('refuses an order or an incumbent that is not one entry per session', () => {
    const message = new RangeError('order and incumbent need one entry per session');
    expect(() => kernels.frontier.start(input(2, 2, { order: new Int32Array(1) }))).toThrow(message);
    expect(() => kernels.frontier.start(input(2, 2, { incumbent: new Int32Array(3) }))).toThrow(message);
  });

  it('refuses slot nodes or class starts that are not one entry per node', () => {
    const message = new RangeError('slotNode and classStart need one entry per node');
    expect(() => kernels.frontier.start(input(2, 2, { slotNode: new Int32Array(1) }))).toThrow(message);
    expect(() => kernels.frontier.start(input(2, 2, { classStart: new Int32Array(3) }))).toThrow(message);
  });

  it('reports the kernel rejecting a problem without sessions', () => {
    expect(() => kernels.frontier.start(input(0, 2))).toThrow(
      new RangeError('frontierReserve(0, 2) rejected its arguments'),
    );
  });

  it('reports the kernel rejecting a tail that starts past the last session', () => {
    expect(() => kernels.frontier.start(input(1, 2, { tailStart: 2 }))).toThrow(
      new RangeError('frontierBegin rejected tailStart 2 for 1 sessions'),
    );
  });
});

describe('the subset sums adapter', () => {
  it('refuses more items than its weight region holds', () => {
    const k = kernels.instance.fixed().subsetWeight.length + 1;
    const items = Array.from({ length: k }, (_, x) => x);
    const start = () => kernels.subsetSum.start({ items, k, w: new Array<number>(k).fill(1), cap: 10, skipped: null });
    expect(start).toThrow(new RangeError(`${k} items do not fit the subset sums' weight region`));
  });

  it('takes as many items as its weight region holds, exactly', () => {
    const k = kernels.instance.fixed().subsetWeight.length;
    const items = Array.from({ length: k }, (_, x) => x);
    // Weights of 1 within a capacity of 10: ten of them fill it.
    kernels.subsetSum.start({ items, k, w: new Array<number>(k).fill(1), cap: 10, skipped: null });
    let status = kernels.subsetSum.step(Number.POSITIVE_INFINITY);
    while (status === SubsetSumStatus.pending) status = kernels.subsetSum.step(Number.POSITIVE_INFINITY);
    expect(status).toBe(SubsetSumStatus.done);
    expect(kernels.subsetSum.finish().sum).toBe(10);
  });

  it('reports the kernel rejecting a capacity below 1 at the first step', () => {
    kernels.subsetSum.start({ items: [0], k: 1, w: [5], cap: 0, skipped: null });
    expect(() => kernels.subsetSum.step(1000)).toThrow(new RangeError('subsetBegin(1, 0) rejected its arguments'));
  });
});

describe('the surrogate core adapter', () => {
  const start = { b: 0, cap: 10, bw: 0, bv: 0, z: 0, ceiling: 10, bestH: -1, bestW: 0 };

  it('reports the kernel rejecting a core without items', () => {
    const run = () => kernels.surrogateCore.start({ items: [], k: 0, p: [], w: [], start, pollSteps: 64 });
    expect(run).toThrow(new RangeError('coreReserve(0) rejected its argument'));
  });

  it('reports the kernel rejecting a break item past the core, naming it', () => {
    const run = () =>
      kernels.surrogateCore.start({ items: [0], k: 1, p: [3], w: [4], start: { ...start, b: 1 }, pollSteps: 64 });
    expect(run).toThrow(new RangeError('coreBegin rejected its arguments (break item 1)'));
  });

  it("names both of the core DP's caps in its memory halt, which is not a budget halt", () => {
    const halt = capHalt();
    expect(halt.reason).toBe(
      `memory cap exceeded: the surrogate knapsack would hold more than ${KNAPSACK_MAX_STATES} states or ${KNAPSACK_MAX_HISTORY} history entries`,
    );
    expect(halt.atBudget).toBe(false);
  });
});

describe('a reserve the module cannot grow its memory for', () => {
  /** An instance whose every call answers `answer` (a reserve's 0: memory could not grow), and whose layout is empty. */
  const answering = (answer: number): TaoInstance =>
    ({
      call: () => answer,
      live: () => ({ denseLayoutEnd: () => 0 }),
    }) as unknown as TaoInstance;

  it('is answered memory by every adapter, not an error', () => {
    expect(new DenseWasm(answering(0)).start({ radix: [3], weight: [1], keys: new BigInt64Array(1) })).toBe(
      DpStatus.memory,
    );
    const frontier = {
      qweight: [1],
      key: new BigInt64Array(1),
      capacity: [4],
      order: Int32Array.of(0),
      slotNode: Int32Array.of(0),
      classStart: Int32Array.of(0),
      incumbent: Int32Array.of(-1),
      tailStart: 1,
      creditScale: 1n,
      creditGrid: 1,
    };
    expect(new FrontierWasm(answering(0)).start(frontier)).toBe(DpStatus.memory);
    const start = { b: 0, cap: 10, bw: 0, bv: 0, z: 0, ceiling: 10, bestH: -1, bestW: 0 };
    expect(new SurrogateCoreWasm(answering(0)).start({ items: [0], k: 1, p: [3], w: [4], start, pollSteps: 64 })).toBe(
      CoreStatus.memory,
    );
  });
});

describe('the exports each adapter calls', () => {
  /** The solver's instance behind a recorder of the export name each call is labelled with (a trap's message names it). */
  function traced(): { instance: TaoInstance; ops: string[] } {
    const real = kernels.instance;
    const ops: string[] = [];
    const instance = {
      call: <T>(op: string, fn: (x: ReturnType<TaoInstance['live']>) => T): T => {
        ops.push(op);
        return real.call(op, fn);
      },
      live: () => real.live(),
      fixed: () => real.fixed(),
      whole: () => real.whole(),
      at: (entry: Parameters<TaoInstance['at']>[0]) => real.at(entry),
      keys: (count: number) => real.keys(count),
      result: (n: number) => real.result(n),
    } as unknown as TaoInstance;
    return { instance, ops };
  }
  const distinct = (ops: string[]) => [...new Set(ops)];

  it('the dense adapter: reserve, begin, step, finish', () => {
    const { instance, ops } = traced();
    const dense = new DenseWasm(instance);
    expect(dense.start({ radix: [4, 4], weight: [1, 2], keys: BigInt64Array.of(5n, 6n, 7n, 8n) })).toBe(
      DpStatus.paused,
    );
    expect(dense.step(1e9)).toBe(DpStatus.done);
    dense.finish();
    expect(ops).toEqual(['denseReserve', 'denseBegin', 'denseStep', 'denseFinish']);
  });

  it('the frontier adapter: reserve, begin, steps, counters, finish', () => {
    const { instance, ops } = traced();
    const frontier = new FrontierWasm(instance);
    const problem = randomTickProblem(3, { nodes: 2, sessions: 10, capacity: 60_000, cachedRate: 0.5 });
    const { packed } = prepare(problem, {});
    const incumbent = heuristicPlan(packed);
    let status = frontier.start(frontierInput(packed, frontierSetup(packed, incumbent), incumbent));
    expect(status).toBe(DpStatus.paused);
    while (status === DpStatus.paused) status = frontier.step(1e9);
    expect(status).toBe(DpStatus.done);
    frontier.counters();
    frontier.finish();
    expect(distinct(ops)).toEqual([
      'frontierReserve',
      'frontierBegin',
      'frontierStep',
      'frontierCounters',
      'frontierFinish',
    ]);
  });

  it('the surrogate core adapter: reserve, begin, steps, and the ceiling when asked', () => {
    const { instance, ops } = traced();
    const core = new SurrogateCoreWasm(instance);
    // Four items of one efficiency within 12: the break solution holds two (weight 10, value 19).
    const start = { b: 2, cap: 12, bw: 10, bv: 19, z: 19, ceiling: 22, bestH: -1, bestW: 10 };
    let status = core.start({ items: [0, 1, 2, 3], k: 4, p: [10, 9, 8, 7], w: [5, 5, 5, 5], start, pollSteps: 64 });
    for (let i = 0; i < 100 && status !== CoreStatus.done; i++) {
      if (status === CoreStatus.memory) throw new Error('memory');
      if (status === CoreStatus.ceiling) core.lowerCeiling(22);
      status = core.step(1e9);
    }
    expect(status).toBe(CoreStatus.done);
    core.lowerCeiling(22);
    expect(distinct(ops).slice(0, 3)).toEqual(['coreReserve', 'coreBegin', 'coreStep']);
    expect(ops.at(-1)).toBe('coreCeiling');
  });

  it('the subset sums adapter: begin, then steps', () => {
    const { instance, ops } = traced();
    const subsets = new SubsetSumWasm(instance);
    subsets.start({ items: [0, 1, 2, 3], k: 4, w: [700, 900, 1100, 300], cap: 2000, skipped: null });
    // An allowance of one unit leaves the first item's words pending after the begin call.
    let status = subsets.step(1);
    expect(status).toBe(SubsetSumStatus.pending);
    while (status === SubsetSumStatus.pending) status = subsets.step(1e9);
    expect(status).toBe(SubsetSumStatus.done);
    expect(subsets.finish().sum).toBe(2000);
    expect(distinct(ops)).toEqual(['subsetBegin', 'subsetStep']);
  });

  it("the surrogate core adapter answers memory when the kernel's begin cannot grow it", () => {
    const answers: Record<string, number> = { coreReserve: 1, coreBegin: 0 };
    const instance = {
      call: (op: string) => answers[op],
      whole: () => ({ f64: new Float64Array(64), i32: new Int32Array(64) }),
      at: () => 0,
    } as unknown as TaoInstance;
    const start = { b: 0, cap: 10, bw: 0, bv: 0, z: 0, ceiling: 10, bestH: -1, bestW: 0 };
    expect(new SurrogateCoreWasm(instance).start({ items: [0], k: 1, p: [3], w: [4], start, pollSteps: 64 })).toBe(
      CoreStatus.memory,
    );
  });
});

describe('the subset sums kernel', () => {
  it('leaves out an item heavier than the capacity whatever its weight, up to 2^32 - 1 (not wrapped to a negative i32)', () => {
    const scratch = new SubsetSumScratch();
    scratch.kernel = kernels.subsetSum;
    const meter = new WorkMeter(
      Number.POSITIVE_INFINITY,
      () => undefined,
      () => 'budget',
    );
    const w = [2 ** 32 - 1, 2 ** 31 + 5, 7, 9, 11];
    const items = Int32Array.of(0, 1, 2, 3, 4);
    const s = maxSubsetSum(items, 5, w, 20, meter, scratch)!;
    expect(s.sum).toBe(20);
    expect(s.chosen.map((x) => w[x]).sort((a, b) => a! - b!)).toEqual([9, 11]);
  });
});

describe('the mirrors', () => {
  const sessions = (count: number, tokens: number) =>
    Array.from({ length: count }, (_, i) => ({ id: `s${i}`, weight: tokens + 1, tokens, ready: i % 2 === 0 }));
  /** Two nodes of `a` and `b` quanta and `count` sessions of 3 quanta, packed at quantum 1. */
  const twoNodes = (a: number, b: number, count: number) =>
    prepare(
      {
        nodes: [
          { id: 'a', capacity: a },
          { id: 'b', capacity: b },
        ],
        sessions: sessions(count, 2),
      },
      { quantum: 1 },
    ).packed;

  it('the dense mirror asks for three 8-byte planes and one choice byte per session and state, and answers only after the last session', () => {
    const packed = twoNodes(7, 5, 3);
    // States: (7 + 1) x (5 + 1) over the two nodes; three kept sessions.
    expect(packed.states).toBe(48);
    expect(denseMirror(packed).bytes).toBe(48 * 24 + 3 * 48);
    // Its answer is read only after every session is folded.
    const run = denseMirror(packed);
    run.start();
    expect(() => run.finish()).toThrow(new RangeError('dense mirror finished after 0 of 3 sessions'));
  });

  it('the dense mirror steps as the kernel does: whole sessions, as many as the quota pays for, at least one', () => {
    const packed = twoNodes(9, 6, 7);
    const S = packed.states;
    const mirror = denseMirror(packed);
    const kernel = denseWasm(kernels.dense, packed);
    expect(mirror.start()).toBe(DpStatus.paused);
    expect(kernel.start()).toBe(DpStatus.paused);
    const seen: [number, number, DpStatus][] = [];
    for (const quota of [0, S - 1, S, 2.5 * S, 3 * S, Number.POSITIVE_INFINITY]) {
      const status = mirror.step(quota);
      expect(kernel.step(quota)).toBe(status);
      expect(mirror.counters()).toEqual(kernel.counters());
      seen.push([mirror.counters().layers, mirror.counters().work, status]);
    }
    const { paused, done } = DpStatus;
    expect(seen).toEqual([
      [1, S, paused],
      [2, 2 * S, paused],
      [3, 3 * S, paused],
      [5, 5 * S, paused],
      [7, 7 * S, done],
      [7, 7 * S, done],
    ]);
  });

  it('only the TypeScript frontier asks for bounded steps without a deadline (it checks its memory between them)', () => {
    const problem = randomTickProblem(3, { nodes: 2, sessions: 10, capacity: 60_000, cachedRate: 0.5 });
    const { packed } = prepare(problem, {});
    const setup = frontierSetup(packed, heuristicPlan(packed));
    expect(new FrontierMirror(packed, setup).boundedSteps).toBe(true);
    expect(frontierWasm(kernels.frontier, packed, setup, heuristicPlan(packed)).boundedSteps).toBe(false);
    expect(denseMirror(packed).boundedSteps).toBe(false);
    expect(denseWasm(kernels.dense, packed).boundedSteps).toBe(false);
  });

  it('the dense mirror refuses a state count past 2^53 when it starts', () => {
    const problem: Problem = {
      nodes: Array.from({ length: 4 }, (_, b) => ({ id: `n${b}`, capacity: 1 << 20 })),
      sessions: sessions(4, 1 << 19),
    };
    const { packed } = prepare(problem, { quantum: 1 });
    expect(Number.isSafeInteger(packed.states)).toBe(false);
    expect(() => denseMirror(packed).start()).toThrow(
      new RangeError(`dense-wide DP cannot hold ${packed.states} states`),
    );
  });

  it('the frontier mirror answers its value and plan only after its run finished', () => {
    const problem = randomTickProblem(3, { nodes: 2, sessions: 10, capacity: 60_000, cachedRate: 0.5 });
    const { packed } = prepare(problem, {});
    const run = new FrontierMirror(packed, frontierSetup(packed, heuristicPlan(packed)));
    expect(run.start()).toBe(DpStatus.paused);
    expect(() => run.value()).toThrow(new Error('frontier mirror: value() before the run finished'));
    expect(() => run.finish()).toThrow(new Error('frontier mirror: finish() before the run finished'));
  });

  it('the frontier mirror reads the packed keys themselves when they fit an i64', () => {
    const problem: Problem = { nodes: [{ id: 'a', capacity: 9 }], sessions: sessions(3, 2) };
    const { packed } = prepare(problem, { quantum: 1 });
    expect(packed.keyFits).toBe(true);
    expect(bigKeys(packed)).toBe(packed.key);
  });
});
