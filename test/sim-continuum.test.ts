import { beforeAll, describe, expect, it } from 'vitest';
import {
  continuumTtl,
  createContinuum,
  createPolicy,
  defaultContinuumParams,
  loadTaoDeps,
  parseSetting,
  Simulation,
  type AdmittedSession,
  type NodeView,
  type PooledSession,
  type SchedulerView,
  type TaoDeps,
} from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

const SETTING = parseSetting({ name: 'cont', extends: 'ds-16', workers: 8, tasks: 16 });

/** U(tau) straight from its definition: F(tau) * B - share * E[min(T, tau)] over the samples. */
function utility(samples: number[], tau: number, benefit: number, share: number): number {
  const n = samples.length;
  const f = samples.filter((t) => t <= tau).length / n;
  const held = samples.reduce((a, t) => a + Math.min(t, tau), 0) / n;
  return f * benefit - share * held;
}

/** The best tau on a dense grid that contains every sample (the oracle): ties to the smaller. */
function bruteTtl(samples: number[], benefit: number, share: number): number {
  const grid = new Set<number>([0, ...samples]);
  const top = Math.max(...samples) * 1.5;
  for (let k = 0; k <= 3000; k++) grid.add((top * k) / 3000);
  let best = 0;
  let bestU = 0;
  for (const tau of [...grid].sort((a, b) => a - b)) {
    const u = utility(samples, tau, benefit, share);
    if (u > bestU + 1e-12) {
      bestU = u;
      best = tau;
    }
  }
  return best;
}

const base = {
  weight: 10_000,
  capacity: 100_000,
  prefillRate: 10_000,
  queueing: 0,
  overallMean: Number.NaN,
  minSamples: 8,
  coldStartMultiple: 3,
};

describe('Continuum: the time-to-live of a pin', () => {
  it('with no duration seen yet it does not pin', () => {
    expect(continuumTtl({ ...base, samples: [] })).toBe(0);
  });

  it('at cold start (an exponential of the mean) it pins for 3 means iff the benefit exceeds w m / C', () => {
    // B = 10k / 10k = 1 s; w / C = 0.1: pins iff m < 10 s.
    expect(continuumTtl({ ...base, samples: [1], overallMean: 2 })).toBe(6);
    expect(continuumTtl({ ...base, samples: [1], overallMean: 12 })).toBe(0);
    // The queueing term raises the benefit: 1 + 0.5 = 1.5 s > 0.1 * 12.
    expect(continuumTtl({ ...base, queueing: 0.5, samples: [1], overallMean: 12 })).toBe(36);
  });

  it('a bimodal tool is pinned to its short mode only', () => {
    const samples = [...Array(10).fill(0.5), ...Array(10).fill(100)];
    // U(0.5) = 0.5 * 1 - 0.1 * (0.25 + 0.25) = 0.45; U(100) = 1 - 0.1 * 50.25 < 0.
    expect(continuumTtl({ ...base, samples })).toBe(0.5);
  });

  it('a tool longer than the re-prefill is worth is not pinned', () => {
    expect(continuumTtl({ ...base, samples: Array(10).fill(20) })).toBe(0);
  });

  it('is the maximiser of F(tau) B - (w / C) E[min(T, tau)] on every random sample set (a dense-grid oracle)', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 200; trial++) {
      const n = 8 + Math.floor(rand() * 30);
      const samples = Array.from({ length: n }, () => Math.round(Math.exp(rand() * 6 - 3) * 100) / 100);
      const weight = 1000 + Math.floor(rand() * 30_000);
      const capacity = 50_000 + Math.floor(rand() * 500_000);
      const prefillRate = 5000 + rand() * 100_000;
      const queueing = rand() < 0.5 ? 0 : rand() * 2;
      const ttl = continuumTtl({ ...base, weight, capacity, prefillRate, queueing, samples });
      const benefit = weight / prefillRate + queueing;
      expect(ttl).toBeCloseTo(bruteTtl(samples, benefit, weight / capacity), 9);
    }
  });
});

function nodeView(index: number, capacity: number, held: number): NodeView {
  return { index, id: `n${index}`, capacity, held, running: 0, queued: 0, activeTokens: 0, prefillBacklog: 0 };
}

function pooled(index: number, tokens: number, pending: boolean, step = 1): PooledSession {
  return {
    index,
    id: `t${index}`,
    tokens,
    step,
    pooledAt: 0,
    pooledTokens: tokens,
    tool: pending ? undefined : { name: 'bash', startedAt: 0 },
    pending,
    issuedAt: pending ? 0 : Number.NaN,
    observations: [],
  };
}

function view(
  time: number,
  nodes: NodeView[],
  pool: readonly PooledSession[],
  admitted: AdmittedSession[] = [],
): SchedulerView {
  return { time, nodes, pool, cachedTokens: () => 0, admitted };
}

describe('Continuum: program-level first come first served', () => {
  it('admits issued requests by program arrival, and the first that fits nowhere stops the pass', () => {
    const policy = createContinuum(SETTING);
    const r = defaultContinuumParams.reserve;
    // Program 2 (older) needs 8,000 + reserve; only 6,000 is free: program 5 fits but waits behind it.
    // Program 1's tool still runs: it has no request to admit.
    const v = view(
      1,
      [nodeView(0, 10_000, 4000)],
      [pooled(5, 1000, true), pooled(2, 8000, true), pooled(1, 500, false)],
    );
    expect(policy.schedule(v, 'event')).toEqual([]);
    const roomy = view(1, [nodeView(0, 20_000, 0)], v.pool);
    expect(policy.schedule(roomy, 'event')).toEqual([
      { session: 2, node: 0, weight: 8000 + r },
      { session: 5, node: 0, weight: 1000 + r },
    ]);
  });

  it('places a program on the node caching most of its context, else on the node with the most room', () => {
    const policy = createContinuum(SETTING);
    const nodes = [nodeView(0, 50_000, 30_000), nodeView(1, 50_000, 0)];
    const v: SchedulerView = {
      ...view(1, nodes, [pooled(3, 2000, true), pooled(4, 2000, true)]),
      cachedTokens: (s, n) => (s === 3 && n === 0 ? 1900 : 0),
    };
    expect(policy.schedule(v, 'event').map((a) => [a.session, a.node])).toEqual([
      [3, 0],
      [4, 1],
    ]);
  });
});

function acting(index: number, tokens: number, startedAt: number, node = 0): AdmittedSession {
  return {
    index,
    id: `t${index}`,
    node,
    tokens,
    held: tokens + defaultContinuumParams.reserve,
    acting: true,
    marked: false,
    tool: { name: 'edit', startedAt },
  };
}

describe('Continuum: pins expire', () => {
  it('a pin lasts its TTL: kept before startedAt + tau, released from then on', () => {
    const policy = createContinuum(SETTING);
    for (let k = 0; k < 8; k++) policy.toolReturned({ name: 'edit', startedAt: 0, returnedAt: 0.2 });
    const a = acting(1, 4000, 10);
    const nodes = [nodeView(0, 500_000, a.held)];
    expect(policy.rebalance!(view(10.1, nodes, [], [a]))).toEqual({ pause: [], mark: [] });
    expect(policy.rebalance!(view(10.2, nodes, [], [a]))).toEqual({ pause: [1], mark: [] });
  });

  it('a tool not worth pinning is released at the first check', () => {
    const policy = createContinuum(SETTING);
    for (let k = 0; k < 8; k++) policy.toolReturned({ name: 'edit', startedAt: 0, returnedAt: 600 });
    const a = acting(1, 4000, 10);
    expect(policy.rebalance!(view(10.05, [nodeView(0, 500_000, a.held)], [], [a]))).toEqual({
      pause: [1],
      mark: [],
    });
  });

  it('when the oldest waiting request fits nowhere, pins are dropped latest expiry first until it fits', () => {
    const policy = createContinuum(SETTING);
    // 10 ms tools: the re-prefill of 4,512 tokens at ds-16's rate is worth holding them that long.
    for (let k = 0; k < 8; k++) policy.toolReturned({ name: 'edit', startedAt: 0, returnedAt: 0.01 });
    // Both still pinned at 12 s (expiring at 12.005 and 12.008); the head needs 6,000 + reserve, 2,000 is free.
    const early = acting(1, 4000, 11.995);
    const late = acting(2, 4000, 11.998);
    const capacity = early.held + late.held + 2000;
    const nodes = [nodeView(0, capacity, early.held + late.held)];
    const v = view(12, nodes, [pooled(0, 6000, true)], [early, late]);
    // Unpinning the later-expiring pin (2) frees 4,512: 6,512 >= 6,512.
    expect(policy.rebalance!(v)).toEqual({ pause: [2], mark: [] });
  });

  it('runs a whole workload within its invariants, every task once', () => {
    const sim = new Simulation(
      { setting: SETTING, seed: 3, mode: { tasks: 16 }, sampleEvery: 0, checkInvariants: true },
      createPolicy('continuum', { setting: SETTING, deps }),
    );
    const r = sim.run();
    expect(r.metrics.tasksCompleted).toBe(16);
    expect(new Set(r.completedTasks).size).toBe(16);
  });
});
