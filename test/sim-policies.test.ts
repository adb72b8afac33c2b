import { beforeAll, describe, expect, it } from 'vitest';
import type { CacheObservation, ToolCall } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import { loadTaoDeps, type TaoDeps } from './helpers/internals.js';
import { createCacheAware, defaultCacheAwareParams } from './helpers/internals.js';
import { createDynamo } from './helpers/internals.js';
import { greedyByTriple } from './helpers/internals.js';
import { createRoundRobin } from './helpers/internals.js';
import { createTaoPolicy, defaultTaoParams } from './helpers/internals.js';
import { createThunderAgent, defaultThunderAgentParams } from './helpers/internals.js';
import type { NodeView, PooledSession, ProblemTick, SchedulerView } from './helpers/internals.js';

interface S {
  tokens: number;
  step?: number;
  pending?: boolean;
  pooledAt?: number;
  pooledTokens?: number;
  tool?: ToolCall;
  observations?: CacheObservation[];
  issuedAt?: number;
}

function view(
  nodes: { capacity: number; held?: number; running?: number; activeTokens?: number }[],
  pool: S[],
  time = 100,
  cached: number[][] = [],
): SchedulerView {
  const nv: NodeView[] = nodes.map((n, i) => ({
    index: i,
    id: `n${i}`,
    capacity: n.capacity,
    held: n.held ?? 0,
    running: n.running ?? 0,
    queued: 0,
    activeTokens: n.activeTokens ?? 0,
    prefillBacklog: 0,
  }));
  const pv: PooledSession[] = pool.map((s, i) => ({
    index: 10 + i,
    id: `t${10 + i}`,
    tokens: s.tokens,
    step: s.step ?? 1,
    pooledAt: s.pooledAt ?? time - 5,
    pooledTokens: s.pooledTokens ?? s.tokens,
    tool: s.tool,
    pending: s.pending ?? false,
    issuedAt: s.pending === true ? (s.issuedAt ?? time - 1 + i * 0.01) : Number.NaN,
    observations: s.observations ?? [],
  }));
  return {
    time,
    nodes: nv,
    pool: pv,
    cachedTokens: (session, node) => cached[session - 10]?.[node] ?? 0,
    admitted: [],
  };
}

describe('thunderagent', () => {
  it('selects by tier then ascending tokens with skips, and places largest first onto the node with most room', () => {
    const ta = createThunderAgent(defaultThunderAgentParams);
    const v = view(
      [
        { capacity: 20_000, held: 10_000 },
        { capacity: 20_000, held: 14_000 },
      ],
      [
        { tokens: 3000 }, // tool running: third tier
        { tokens: 9000, pending: true }, // issued: first tier
        { tokens: 2000, step: 0, pending: true }, // new: second tier
        { tokens: 5000, pending: true },
        { tokens: 20_000, pending: true }, // above the summed room: skipped, not a stop
      ],
    );
    // Summed room 16000: 5100 + 9100 = 14200 selected; 20100, then 2100 and 3100 no longer fit the sum.
    expect(ta.schedule(v, 'tick')).toEqual([
      { session: 11, node: 0, weight: 9100 },
      { session: 13, node: 1, weight: 5100 },
    ]);
    expect(ta.period).toBe(5);
  });

  it('ranks a program paused in its first tool with the new ones, and each tier by its tokens when paused', () => {
    const ta = createThunderAgent(defaultThunderAgentParams);
    // In its first tool (step_count 1): tier 1, ahead of a smaller program in a later tool (tier 2).
    const tiers = view(
      [{ capacity: 3200 }],
      [
        { tokens: 1000, step: 2 },
        { tokens: 3000, step: 1 },
      ],
    );
    expect(ta.schedule(tiers, 'tick')).toEqual([{ session: 11, node: 0, weight: 3100 }]);
    // Within a tier, the tokens when paused decide (3500 now, 2000 when paused, before 2500 now, 2400).
    const paused = view(
      [{ capacity: 4000 }],
      [
        { tokens: 3500, pending: true, pooledTokens: 2000 },
        { tokens: 2500, pending: true, pooledTokens: 2400 },
      ],
    );
    expect(ta.schedule(paused, 'tick')).toEqual([{ session: 10, node: 0, weight: 3600 }]);
  });

  it('admits new sessions at once onto the least held node only while nothing else waits', () => {
    const ta = createThunderAgent(defaultThunderAgentParams);
    const onlyNew = {
      ...view(
        [
          { capacity: 50_000, held: 30_000 },
          { capacity: 50_000, held: 10_000 },
        ],
        [{ tokens: 4000, step: 0, pending: true, pooledAt: 100 }],
      ),
      admitted: [
        { index: 1, id: 't1', node: 0, tokens: 29_900, held: 30_000, acting: true, marked: false },
        { index: 2, id: 't2', node: 1, tokens: 9900, held: 10_000, acting: false, marked: false },
      ],
    };
    expect(ta.schedule(onlyNew, 'event')).toEqual([{ session: 10, node: 1, weight: 4100 }]);
    const mixed = view(
      [{ capacity: 50_000 }],
      [
        { tokens: 1000, pending: true },
        { tokens: 4000, step: 0, pending: true },
      ],
    );
    expect(ta.schedule(mixed, 'event')).toEqual([]);
  });
});

describe('routers', () => {
  it('round-robin rotates nodes and a node admits only from its queue head (FCFS)', () => {
    const rr = createRoundRobin(2);
    const v = view(
      [{ capacity: 10_000 }, { capacity: 10_000 }],
      [
        { tokens: 12_000, pending: true, issuedAt: 1 },
        { tokens: 1000, pending: true, issuedAt: 2 },
        { tokens: 1000, pending: true, issuedAt: 3 },
        { tokens: 1000, pending: false },
      ],
    );
    // Node 0 gets sessions 10 and 12; its head (12000) does not fit, so 12 waits behind it.
    expect(rr.schedule(v, 'event')).toEqual([{ session: 11, node: 1, weight: 1000 }]);
  });

  it('cache-aware follows its record of routed prompts above the threshold, else the least loaded node', () => {
    const ca = createCacheAware(2, defaultCacheAwareParams);
    const first = view(
      [
        { capacity: 100_000, running: 3 },
        { capacity: 100_000, running: 1 },
      ],
      [{ tokens: 8000, pending: true }],
    );
    expect(ca.schedule(first, 'event')).toEqual([{ session: 10, node: 1, weight: 8000 }]);
    // Same session later, node 1 now busier: its 8000 of 9000 tokens were routed to node 1 (> 30%).
    const again = view(
      [
        { capacity: 100_000, running: 0 },
        { capacity: 100_000, running: 5 },
      ],
      [{ tokens: 9000, pending: true }],
    );
    expect(ca.schedule(again, 'event')).toEqual([{ session: 10, node: 1, weight: 9000 }]);
    // A context that grew far beyond what was routed (9000 of 32000 < 30%) goes to the least loaded node.
    const grown = view(
      [
        { capacity: 100_000, running: 0 },
        { capacity: 100_000, running: 5 },
      ],
      [{ tokens: 32_000, pending: true }],
    );
    expect(ca.schedule(grown, 'event')).toEqual([{ session: 10, node: 0, weight: 32_000 }]);
  });

  it('dynamo routes to the least overlap-discounted prefill plus decode load', () => {
    const dy = createDynamo(2, { overlapWeight: 1, blockSize: 16 });
    // Node 1 holds 6400 cached tokens of the prompt (400 blocks) but 8000 more active tokens (500 blocks).
    const v = view(
      [
        { capacity: 100_000, activeTokens: 0 },
        { capacity: 100_000, activeTokens: 8000 },
      ],
      [{ tokens: 8000, pending: true }],
      100,
      [[0, 6400]],
    );
    // cost n0 = 500 + (0 + 500) = 1000; n1 = (500 - 400) + (500 + 500) = 1100.
    expect(dy.schedule(v, 'event')).toEqual([{ session: 10, node: 0, weight: 8000 }]);
    const v2 = view(
      [
        { capacity: 100_000, activeTokens: 0 },
        { capacity: 100_000, activeTokens: 1600 },
      ],
      [{ tokens: 8000, pending: true }],
      100,
      [[0, 6400]],
    );
    // n1 = 100 + (100 + 500) = 700 < 1000.
    expect(createDynamo(2, { overlapWeight: 1, blockSize: 16 }).schedule(v2, 'event')).toEqual([
      { session: 10, node: 1, weight: 8000 },
    ]);
  });
});

describe('greedy by triple', () => {
  it('takes pairs by (credit, ready, tokens) descending and skips what does not fit', () => {
    const problem: Problem = {
      nodes: [
        { id: 'a', capacity: 10_000 },
        { id: 'b', capacity: 6000 },
      ],
      sessions: [
        { id: 's1', weight: 5000, tokens: 4500, ready: true },
        { id: 's2', weight: 6000, tokens: 5500, ready: false, credit: { a: 3000 } },
        { id: 's3', weight: 5000, tokens: 4500, ready: false, credit: { b: 4000 } },
      ],
    };
    // s3 on b (credit 4000), s2 on a (3000), then s1: a has 4000 left, b 1000: skipped.
    expect(greedyByTriple(problem)).toEqual([
      { session: 's3', node: 'b' },
      { session: 's2', node: 'a' },
    ]);
  });
});

describe('tao pipeline', () => {
  let deps: TaoDeps;
  beforeAll(async () => {
    deps = await loadTaoDeps();
  });

  it('evaluates the pool, solves, and admits in plan order holding tokens + reserve', () => {
    const ticks: ProblemTick[] = [];
    // `tao` ranks the whole pool, so the session whose tool still runs is admissible too (see sim-tao-lifecycle).
    const tao = createTaoPolicy({
      variant: 'tao',
      params: defaultTaoParams,
      deps,
      onProblem: (t) => ticks.push(t),
    });
    const v = view(
      [{ capacity: 20_000 }, { capacity: 20_000 }],
      [
        {
          tokens: 9000,
          observations: [{ node: 'n1', tokens: 9000, observedAt: 99 }],
          tool: { name: 'bash', startedAt: 99 },
        },
        { tokens: 4000, pending: true, tool: { name: 'edit', startedAt: 95, returnedAt: 99.5 } },
      ],
      100,
    );
    const admissions = tao.schedule(v, 'tick');
    expect(ticks).toHaveLength(1);
    expect(ticks[0]!.tick).toBe(100);
    expect(ticks[0]!.problem.sessions.map((s) => s.weight)).toEqual([9512, 4512]);
    expect(admissions).toContainEqual({ session: 10, node: 1, weight: 9512 });
    expect(admissions).toContainEqual({ session: 11, node: expect.any(Number), weight: 4512 });
    expect(tao.stats.solverCalls).toBe(1);
  });

  it('tao-ta-order replaces the triple by ThunderAgent tiers as strict priorities', () => {
    let seen: Problem | undefined;
    const spy: TaoDeps = { ...deps, solve: (p, o) => ((seen ??= p), deps.solve(p, o)) };
    const policy = createTaoPolicy({ variant: 'tao-ta-order', params: defaultTaoParams, deps: spy });
    const v = view(
      [{ capacity: 5000 }],
      [
        { tokens: 3000, pending: true },
        { tokens: 1000, step: 0, pending: true },
        { tokens: 500, step: 2 },
        { tokens: 700, step: 1 },
      ],
    );
    policy.schedule(v, 'tick');
    // n = 4: issued past the first request 25, one request sent (new, or in its first tool) 5, tool
    // running 1 - on every node; no readiness, no tokens.
    expect(seen!.sessions.map((s) => [s.credit?.['n0'], s.ready, s.tokens])).toEqual([
      [25, false, 0],
      [5, false, 0],
      [1, false, 0],
      [5, false, 0],
    ]);
  });

  it('tao-no-credit and tao-no-ready blank their component', () => {
    let seen: Problem | undefined;
    const spy: TaoDeps = { ...deps, solve: (p, o) => ((seen ??= p), deps.solve(p, o)) };
    const v = view(
      [{ capacity: 50_000 }],
      [{ tokens: 3000, pending: true, observations: [{ node: 'n0', tokens: 3000, observedAt: 99 }] }],
    );
    createTaoPolicy({ variant: 'tao-no-credit', params: defaultTaoParams, deps: spy }).schedule(v, 'tick');
    expect(seen!.sessions[0]!.credit).toBeUndefined();
    expect(seen!.sessions[0]!.ready).toBe(true);
    seen = undefined;
    createTaoPolicy({ variant: 'tao-no-ready', params: defaultTaoParams, deps: spy }).schedule(v, 'tick');
    expect(seen!.sessions[0]!.ready).toBe(false);
    expect(seen!.sessions[0]!.credit?.['n0']).toBeGreaterThan(0);
  });
});
