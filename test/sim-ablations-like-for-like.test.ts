import { beforeAll, describe, expect, it } from 'vitest';
import { poolView } from './helpers/sim-view.js';
import type { CacheObservation } from './helpers/internals.js';
import { loadTaoDeps, type TaoDeps } from './helpers/internals.js';
import { createTaoPolicy, defaultTaoParams, type TaoVariant } from './helpers/internals.js';
import type { Admission, SchedulerView } from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

const view = poolView;

// Under the hold reading, so that sessions whose tool still runs are admissible in every arm: these tests
// pin what the selection does, the lifecycle reading is pinned in sim-tao-lifecycle.
function run(variant: TaoVariant, v: SchedulerView): Admission[] {
  return [...createTaoPolicy({ variant, admissible: 'any', params: defaultTaoParams, deps }).schedule(v, 'tick')].sort(
    (a, b) => a.session - b.session,
  );
}

const cachedOn = (node: string, tokens: number): CacheObservation[] => [{ node, tokens, observedAt: 99 }];

describe('ablation arms differ only in their named part', () => {
  it('with room for everyone, the selection ablations admit the same sessions onto the same nodes as tao (credit-aware placement)', () => {
    // Every session fits; t0 and t2 have their prefix on n1, t1 on n0. Placement is by credit in all arms.
    const v = view(
      [40_000, 40_000],
      [
        { tokens: 9000, observations: cachedOn('n1', 9000), tool: { name: 'bash', startedAt: 90 } },
        {
          tokens: 6000,
          pending: true,
          observations: cachedOn('n0', 6000),
          tool: { name: 'edit', startedAt: 95, returnedAt: 99 },
        },
        {
          tokens: 5000,
          pending: true,
          observations: cachedOn('n1', 5000),
          tool: { name: 'edit', startedAt: 95, returnedAt: 99 },
        },
      ],
    );
    const tao = run('tao', v);
    expect(tao.map((a) => a.node)).toEqual([1, 0, 1]);
    for (const variant of ['tao-no-credit', 'tao-ta-order', 'tao-no-ready'] as TaoVariant[])
      expect(run(variant, v), variant).toEqual(tao);
  });

  it('when only one session fits, the selection is what differs: credit first for tao, readiness first without credit', () => {
    // One node with room for one of them: t0 has its prefix cached (tool still running), t1's tool returned.
    const v = view(
      [10_000],
      [
        { tokens: 9000, observations: cachedOn('n0', 9000), tool: { name: 'bash', startedAt: 99.5 } },
        { tokens: 9000, pending: true, tool: { name: 'edit', startedAt: 95, returnedAt: 99 } },
      ],
    );
    expect(run('tao', v).map((a) => a.session)).toEqual([0]);
    expect(run('tao-no-credit', v).map((a) => a.session)).toEqual([1]);
    // ThunderAgent's tiers: an issued request outranks a running tool.
    expect(run('tao-ta-order', v).map((a) => a.session)).toEqual([1]);
  });

  it('BFD and greedy get the spreading tie-break: uncredited equal sessions are not stacked on one node', () => {
    const four = view(
      [20_000, 20_000],
      [
        { tokens: 3000, pending: true },
        { tokens: 3000, pending: true },
        { tokens: 3000, pending: true },
        { tokens: 3000, pending: true },
      ],
    );
    for (const variant of ['tao', 'tao-bfd', 'greedy'] as TaoVariant[]) {
      const admitted = run(variant, four);
      expect(admitted, variant).toHaveLength(4);
      expect(
        admitted.filter((a) => a.node === 0),
        variant,
      ).toHaveLength(2);
    }
  });

  it('the tie-break never overrides a credit difference (greedy places by credit as tao does; BFD by fit, its definition)', () => {
    const v = view(
      [40_000, 40_000],
      [
        { tokens: 9000, pending: true, observations: cachedOn('n1', 9000) },
        { tokens: 5000, pending: true, observations: cachedOn('n0', 5000) },
      ],
    );
    for (const variant of ['tao', 'greedy'] as TaoVariant[])
      expect(
        run(variant, v).map((a) => a.node),
        variant,
      ).toEqual([1, 0]);
    // Best fit: t0 (larger value first) on its credited n1, then t1 where it leaves the least room: n1 too.
    expect(run('tao-bfd', v).map((a) => a.node)).toEqual([1, 1]);
  });
});
