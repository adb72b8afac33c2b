/**
 * The simulator policy `tao-bounded` and its ablations: what it adds to the snapshot, that each ablation
 * switches off only its part, and that with every part off it is the paper's `tao` run for run.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { boundedEvaluateOptions } from './helpers/internals.js';
import type { Snapshot } from './helpers/internals.js';
import { loadTaoDeps, type TaoDeps } from './helpers/internals.js';
import { createPolicy } from './helpers/internals.js';
import {
  ablate,
  boundedSnapshot,
  resolveTaoBoundedParams,
  defaultTaoBoundedParams,
  TAO_BOUNDED_VARIANTS,
} from './helpers/internals.js';
import type { PooledSession, SchedulerView } from './helpers/internals.js';
import { runOnce, simulate } from './helpers/internals.js';
import { SETTINGS } from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

function pooled(index: number, pending: boolean, issuedAt: number, observed: number): PooledSession {
  return {
    index,
    id: `t${index}`,
    tokens: 5_000,
    step: 1,
    pooledAt: 90,
    pooledTokens: 5_000,
    tool: pending ? { name: 'bash', startedAt: 90, returnedAt: issuedAt } : { name: 'bash', startedAt: 90 },
    pending,
    issuedAt: pending ? issuedAt : Number.NaN,
    observations: [{ node: 'n1', tokens: observed, observedAt: 90 }],
  };
}

describe('tao-bounded snapshot', () => {
  const view: SchedulerView = {
    time: 100,
    nodes: [0, 1].map((i) => ({
      index: i,
      id: `n${i}`,
      capacity: 10_000,
      held: 0,
      running: 0,
      queued: 0,
      activeTokens: 0,
      prefillBacklog: 0,
    })),
    pool: [pooled(7, true, 95, 4_000), pooled(8, false, 0, 3_000)],
    admitted: [],
    cachedTokens: (session, node) => (node === 1 ? (session === 7 ? 1_500 : 9_999) : 0),
  };
  const snapshot: Snapshot = {
    time: 100,
    nodes: [],
    sessions: view.pool.map((s) => ({ id: s.id, tokens: s.tokens, tool: s.tool!, cache: s.observations })),
  };

  it('times issued sessions from when their request was issued, and caps live prefixes at the observation', () => {
    const out = boundedSnapshot(snapshot, view, true);
    expect(out.sessions[0]!.waitingSince).toBe(95);
    expect(out.sessions[1]!.waitingSince).toBeUndefined();
    expect(out.sessions.map((s) => s.cache![0]!.live)).toEqual([1_500, 3_000]);
  });

  it('adds no live prefix under observed credit', () => {
    const out = boundedSnapshot(snapshot, view, false);
    expect(out.sessions.map((s) => s.cache![0]!.live)).toEqual([undefined, undefined]);
    expect(out.sessions[0]!.waitingSince).toBe(95);
  });
});

describe('tao-bounded ablations', () => {
  it('use the preset values and switch off exactly their part', () => {
    const p = defaultTaoBoundedParams;
    expect(p).toEqual({
      waitThreshold: boundedEvaluateOptions.waitThreshold,
      waitServiceMultiple: boundedEvaluateOptions.waitServiceMultiple,
      waitReserve: boundedEvaluateOptions.waitReserve,
      holdHorizon: boundedEvaluateOptions.holdHorizon,
      creditSource: boundedEvaluateOptions.creditSource,
      eventAdmission: true,
    });
    expect(ablate('tao-bounded', p)).toEqual(p);
    expect(ablate('tao-bounded-no-wait', p)).toEqual({ ...p, waitThreshold: Infinity, waitServiceMultiple: Infinity });
    expect(ablate('tao-bounded-no-reserve', p)).toEqual({ ...p, waitReserve: false });
    expect(ablate('tao-bounded-no-hold', p)).toEqual({ ...p, holdHorizon: Infinity });
    expect(ablate('tao-bounded-observed', p)).toEqual({ ...p, creditSource: 'observed' });
  });

  it('with every part off, runs exactly as tao (every pooled session admissible)', () => {
    const setting = { ...SETTINGS['ds-64']!, tasks: 40 };
    const mode = { tasks: 40 };
    const paper = runOnce(setting, createPolicy('tao', { setting, deps }), 3, mode);
    const off = createPolicy('tao-bounded-no-wait', {
      setting,
      deps,
      // Both admit between ticks too (tao's default and tao-bounded's).
      taoBounded: { holdHorizon: Infinity, creditSource: 'observed', eventAdmission: true },
    });
    const bounded = runOnce(setting, off, 3, mode);
    expect(bounded.policy).toBe('tao-bounded-no-wait');
    expect(bounded.metrics).toEqual(paper.metrics);
    expect(bounded.completedTasks).toEqual(paper.completedTasks);
  });

  it.each(TAO_BOUNDED_VARIANTS)('%s completes every task once', (name) => {
    const setting = { ...SETTINGS['ds-64']!, tasks: 40 };
    const r = runOnce(setting, createPolicy(name, { setting, deps }), 1, { tasks: 40 });
    expect(r.policy).toBe(name);
    expect([...r.completedTasks].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('changes the run once the bounded wait is on', () => {
    const setting = { ...SETTINGS['ds-64']!, tasks: 120 };
    const mode = { tasks: 120 };
    const paper = runOnce(setting, createPolicy('tao', { setting, deps }), 2, mode);
    const bounded = runOnce(
      setting,
      createPolicy('tao-bounded', {
        setting,
        deps,
        taoBounded: { waitThreshold: 5, holdHorizon: Infinity, creditSource: 'observed' },
      }),
      2,
      mode,
    );
    expect(bounded.metrics).not.toEqual(paper.metrics);
  });
});

describe('tao-bounded knobs', () => {
  it('are checked field by field, naming the field', () => {
    expect(() => resolveTaoBoundedParams({ holdHorizon: -1 })).toThrow('options.taoBounded.holdHorizon');
    expect(() => resolveTaoBoundedParams({ waitThreshold: Number.NaN })).toThrow('options.taoBounded.waitThreshold');
    expect(() => resolveTaoBoundedParams({ creditSource: 'guess' as 'live' })).toThrow(
      'options.taoBounded.creditSource must be "observed" or "live"',
    );
    expect(() => resolveTaoBoundedParams({ horizon: 5 } as never)).toThrow('options.taoBounded.horizon');
    expect(() => resolveTaoBoundedParams({ eventAdmission: 1 as unknown as boolean })).toThrow(
      'options.taoBounded.eventAdmission must be a boolean',
    );
    expect(resolveTaoBoundedParams({ holdHorizon: 7 })).toEqual({ ...defaultTaoBoundedParams, holdHorizon: 7 });
  });

  it('are recorded in the simulate report with the defaults filled in', async () => {
    const r = await simulate({
      setting: 'ds-16',
      policies: ['tao-bounded'],
      seeds: [1],
      mode: { tasks: 6 },
      deps,
      taoBounded: { waitThreshold: 9 },
    });
    expect(r.taoBounded).toEqual({ ...defaultTaoBoundedParams, waitThreshold: 9 });
  });
});

describe('tao-bounded admission timing', () => {
  it('reacts between ticks by default and only at ticks with eventAdmission false, whatever tao.eventAdmission says', () => {
    const setting = SETTINGS['ds-64']!;
    const ctx = { setting, deps };
    expect(createPolicy('tao-bounded', ctx).reactive).toBe(true);
    expect(createPolicy('tao-bounded', { ...ctx, taoBounded: { eventAdmission: false } }).reactive).toBe(false);
    expect(
      createPolicy('tao-bounded', { ...ctx, tao: { eventAdmission: true }, taoBounded: { eventAdmission: false } })
        .reactive,
    ).toBe(false);
    expect(createPolicy('tao', ctx).reactive).toBe(true);
    expect(createPolicy('tao-tick', ctx).reactive).toBe(false);
    expect(createPolicy('tao', { ...ctx, tao: { eventAdmission: false } }).reactive).toBe(false);
  });
});
