import { beforeAll, describe, expect, it } from 'vitest';
import { poolView } from './helpers/sim-view.js';
import type { CacheObservation, Problem, ProblemTick, RunResult, ToolCall } from './helpers/internals.js';
import {
  bfd,
  createPolicy,
  generateTask,
  loadTaoDeps,
  parseSetting,
  runOnce,
  type TaoDeps,
} from './helpers/internals.js';
import { createTaoPolicy, defaultTaoParams, type TaoVariant } from './helpers/internals.js';
import type { Admission, SchedulerView } from './helpers/internals.js';
import { compareTable4, PAPER_TABLE4, TABLE4_CONFIGS, TABLE4_POLICIES, TABLE4_SETTING } from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

const view = poolView;

/** The admissions of `variant` on `v`, and the Problem its decision was made on. */
function decide(variant: TaoVariant, v: SchedulerView): { admitted: Admission[]; problem: Problem } {
  const ticks: ProblemTick[] = [];
  const policy = createTaoPolicy({ variant, params: defaultTaoParams, deps, onProblem: (t) => ticks.push(t) });
  const admitted = [...policy.schedule(v, 'tick')];
  expect(ticks).toHaveLength(1);
  return { admitted, problem: ticks[0]!.problem };
}

const cached = (tokens: number, ...nodes: string[]): CacheObservation[] =>
  nodes.map((node) => ({ node, tokens, observedAt: 99 }));
const returned: ToolCall = { name: 'edit', startedAt: 95, returnedAt: 99 };

describe("Table 4's configurations pin what their names say", () => {
  // t0's tool returned (r = 1), prefix on n1; t1's tool still runs, prefix on n0.
  const mixed = (): SchedulerView =>
    view(
      [40_000, 40_000],
      [
        { tokens: 9000, pending: true, observations: cached(9000, 'n1'), tool: returned },
        { tokens: 5000, observations: cached(5000, 'n0'), tool: { name: 'bash', startedAt: 99.5 } },
      ],
    );

  it('no cache credit (tao-zero-credit): the DP sees k = 0 on every pair and keeps the readiness bits', () => {
    const tao = decide('tao', mixed()).problem;
    expect(tao.sessions.map((s) => s.credit?.n1 ?? 0)[0]).toBeGreaterThan(0);
    const { problem } = decide('tao-zero-credit', mixed());
    for (const s of problem.sessions) for (const k of Object.values(s.credit ?? {})) expect(k).toBe(0);
    expect(problem.sessions.map((s) => s.ready)).toEqual(tao.sessions.map((s) => s.ready));
    expect(problem.sessions[0]!.ready).toBe(true);
  });

  it('no cache credit places without the cache too: equal sessions cached on n1 are spread, not stacked on n1', () => {
    const v = (): SchedulerView =>
      view(
        [40_000, 40_000],
        [
          { tokens: 6000, pending: true, observations: cached(6000, 'n1'), tool: returned },
          { tokens: 6000, pending: true, observations: cached(6000, 'n1'), tool: returned },
        ],
      );
    expect(decide('tao', v()).admitted.map((a) => a.node)).toEqual([1, 1]);
    expect(
      decide('tao-zero-credit', v())
        .admitted.map((a) => a.node)
        .sort(),
    ).toEqual([0, 1]);
    // The like-for-like selection ablation keeps credit-aware placement.
    expect(decide('tao-no-credit', v()).admitted.map((a) => a.node)).toEqual([1, 1]);
  });

  it('no readiness (tao-no-ready): r = 0 on every session, credits kept', () => {
    const tao = decide('tao', mixed()).problem;
    const { problem } = decide('tao-no-ready', mixed());
    expect(problem.sessions.every((s) => s.ready === false)).toBe(true);
    expect(problem.sessions.map((s) => s.credit)).toEqual(tao.sessions.map((s) => s.credit));
  });

  it('neither (tao-zero-credit-no-ready): k = 0 and r = 0, tokens kept', () => {
    const tao = decide('tao', mixed()).problem;
    const { problem } = decide('tao-zero-credit-no-ready', mixed());
    for (const s of problem.sessions) {
      expect(s.ready).toBe(false);
      for (const k of Object.values(s.credit ?? {})) expect(k).toBe(0);
    }
    expect(problem.sessions.map((s) => s.tokens)).toEqual(tao.sessions.map((s) => s.tokens));
  });

  it("ThunderAgent pause ordering (tao-ta-order): ThunderAgent's tiers decide whom, whatever the credit", () => {
    // Room for two of three: a running tool (past the first request) with a fresh credit, a new session,
    // an issued request.
    const v = (): SchedulerView =>
      view(
        [10_000],
        [
          { tokens: 4000, step: 2, observations: cached(4000, 'n0'), tool: { name: 'bash', startedAt: 99.5 } },
          { tokens: 4000, step: 0, pending: true },
          { tokens: 4000, pending: true, tool: returned },
        ],
      );
    expect(decide('tao', v()).admitted.map((a) => a.session)).toContain(0);
    expect(
      decide('tao-ta-order', v())
        .admitted.map((a) => a.session)
        .sort(),
    ).toEqual([1, 2]);
  });

  it("BFD instead of DP (tao-bfd-plain): the plan is the package's bfd() plan, which admits fewer than the DP here", () => {
    // Two nodes of 10k; weights 6k, 6k, 4k, 4k (tokens + 512). The 4k sessions carry the credit (cached on
    // both nodes), so BFD places them first, both on n0 (best fit), and one 6k session fits nowhere; the DP
    // pairs a 6k with a 4k on each node and admits all four.
    const v = (): SchedulerView =>
      view(
        [10_000, 10_000],
        [
          { tokens: 5488, pending: true, tool: returned },
          { tokens: 5488, pending: true, tool: returned },
          { tokens: 3488, pending: true, observations: cached(3488, 'n0', 'n1'), tool: returned },
          { tokens: 3488, pending: true, observations: cached(3488, 'n0', 'n1'), tool: returned },
        ],
      );
    const { admitted, problem } = decide('tao-bfd-plain', v());
    const plan = bfd(problem, { quantum: defaultTaoParams.quantum, order: 'value' });
    expect(admitted.map((a) => [`t${a.session}`, `n${a.node}`])).toEqual(
      plan.assignments.map((a) => [a.session, a.node]),
    );
    expect(admitted).toHaveLength(3);
    expect(decide('tao', v()).admitted).toHaveLength(4);
    // The like-for-like reading admits the same sessions, then spreads ties as the solver does.
    const spread = decide('tao-bfd', v()).admitted;
    expect(spread.map((a) => a.session).sort()).toEqual(admitted.map((a) => a.session).sort());
    const tied = deps.spread(problem, plan.assignments, { quantum: defaultTaoParams.quantum });
    expect(spread.map((a) => [`t${a.session}`, `n${a.node}`])).toEqual(tied.map((a) => [a.session, a.node]));
  });

  it('BFD instead of DP stacks equal uncredited sessions by best fit, where the DP and tao-bfd spread them', () => {
    const v = (): SchedulerView =>
      view(
        [20_000, 20_000],
        [
          { tokens: 3000, pending: true, tool: returned },
          { tokens: 3000, pending: true, tool: returned },
          { tokens: 3000, pending: true, tool: returned },
        ],
      );
    expect(decide('tao-bfd-plain', v()).admitted.map((a) => a.node)).toEqual([0, 0, 0]);
    for (const variant of ['tao', 'tao-bfd'] as TaoVariant[])
      expect(decide(variant, v()).admitted.filter((a) => a.node === 0).length, variant).toBeLessThan(3);
  });
});

describe("Table 4's comparison", () => {
  it("lists the paper's six rows in its order, each with a distinct policy, all run on ds-32", () => {
    expect(TABLE4_CONFIGS.map((c) => c.config)).toEqual(PAPER_TABLE4.map((p) => p.config));
    expect(new Set(TABLE4_CONFIGS.map((c) => c.policy)).size).toBe(6);
    expect(TABLE4_CONFIGS.find((c) => c.config === 'BFD instead of DP')!.policy).toBe('tao-bfd-plain');
    expect(TABLE4_CONFIGS[0]!.policy).toBe('tao');
    expect(TABLE4_SETTING).toBe('ds-32');
  });

  it('pairs every configuration with full TAO seed by seed (full TAO against itself: zero)', async () => {
    const setting = parseSetting({ name: TABLE4_SETTING, extends: TABLE4_SETTING, tasks: 8 });
    const runs: RunResult[] = [];
    for (const policy of TABLE4_POLICIES)
      for (const seed of [1, 2])
        runs.push(runOnce(setting, createPolicy(policy, { setting, deps }), seed, { tasks: 8 }));
    const t = compareTable4(runs);
    expect(t.rows).toHaveLength(TABLE4_POLICIES.length);
    for (const v of t.rows[0]!.values) {
      expect(v.vsFull.mean).toBe(0);
      expect(v.paperVsFull).toBe(0);
    }
    const bfdRow = t.rows.find((r) => r.policy === 'tao-bfd-plain')!;
    const decode = bfdRow.values.find((v) => v.metric === 'decode')!;
    expect(decode.paperVsFull).toBeCloseTo(1233.72 / 1417.97 - 1, 12);
    const of = (p: string, seed: number) => runs.find((r) => r.policy === p && r.seed === seed)!.metrics;
    const d = (s: number) =>
      (of('tao-bfd-plain', s).decodeThroughput - of('tao', s).decodeThroughput) / of('tao', s).decodeThroughput;
    expect(decode.vsFull.mean).toBeCloseTo((d(1) + d(2)) / 2, 12);
    expect(t.orders.map((o) => o.sim.length)).toEqual([6, 6, 6, 6, 6]);
  });
});

describe('pause wait', () => {
  // One node that never refuses anyone: a session is re-admitted at its tool boundary (event admission) or
  // its request routed at the return, so each pause lasts exactly its tool.
  const SETTING = parseSetting({
    name: 'unlimited',
    extends: 'glm-96',
    workers: 8,
    tasks: 16,
    nodes: [{ id: 'solo', capacity: 1_000_000_000 }],
  });

  it("with room for everyone, a pause is its tool's duration; admitting at the ticks only adds to it", () => {
    let sum = 0;
    let n = 0;
    for (let i = 0; i < 16; i++) {
      const task = generateTask(SETTING.workload, 3, i);
      for (let j = 0; j < task.turns; j++)
        if (task.toolKind[j]! >= 0) {
          sum += task.duration[j]!;
          n++;
        }
    }
    const run = (policy: 'round-robin' | 'tao' | 'tao-tick') =>
      runOnce(SETTING, createPolicy(policy, { setting: SETTING, deps }), 3, { tasks: 16 }).metrics;
    expect(run('round-robin').pauseWaitMean).toBeCloseTo(sum / n, 9);
    expect(run('tao').pauseWaitMean).toBeCloseTo(sum / n, 9);
    expect(run('tao-tick').pauseWaitMean).toBeGreaterThan(sum / n + 0.01);
  });
});
