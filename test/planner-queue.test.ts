import { describe, expect, it } from 'vitest';
import { ClosedError, InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import {
  IN_THREAD_MAX_CELLS,
  IN_THREAD_MAX_WORK,
  Planner,
  resolvePlannerOptions,
  type PlannerBackend,
  type SubmitResult,
} from './helpers/internals.js';
import type { ProblemSession } from './helpers/internals.js';
import { ManualBackend, problemOf, tick, type FakePrepared } from './planner-fakes.js';

const planned = (r: SubmitResult) => {
  if (r.status !== 'planned') throw new Error(`expected planned, got ${r.status}`);
  return r;
};

describe('planner queue: latest wins, one in flight', () => {
  it('supersedes a queued submission with a newer one and solves the newest after the running one', async () => {
    const backend = new ManualBackend();
    const planner = new Planner(backend, { inThreadMaxWork: 0 });
    const a = planner.submit(problemOf(2, 'a'));
    await tick();
    const b = planner.submit(problemOf(3, 'b'));
    const c = planner.submit(problemOf(4, 'c'));
    await expect(b).resolves.toEqual({ status: 'superseded' });
    expect(backend.held).toHaveLength(1);
    backend.release();
    const ra = planned(await a);
    expect(ra.snapshot.sessions[0]!.signature).toBe('a');
    await tick();
    expect(backend.held).toHaveLength(1);
    backend.release();
    const rc = planned(await c);
    expect(rc.snapshot.sessions).toHaveLength(4);
    expect(backend.maxRunning).toBe(1);
    expect(backend.solvedOffThread.map((p) => p.sessions.length)).toEqual([2, 4]);
    const s = planner.stats();
    expect([s.submitted, s.solves, s.solvesPool, s.solvesInThread, s.superseded]).toEqual([3, 2, 2, 0, 1]);
  });

  it('coalesces submissions made in the same tick before anything starts', async () => {
    const backend = new ManualBackend();
    const planner = new Planner(backend, { inThreadMaxWork: 0 });
    const results = [1, 2, 3].map((n) => planner.submit(problemOf(n)));
    await tick();
    backend.release();
    const settled = await Promise.all(results);
    expect(settled.map((r) => r.status)).toEqual(['superseded', 'superseded', 'planned']);
    expect(backend.solvedOffThread).toHaveLength(1);
  });

  it('routes by estimated work: at or below the threshold in-thread, above it to the pool', async () => {
    const backend = new ManualBackend((p) => p.sessions.length * 100);
    const planner = new Planner(backend, { inThreadMaxWork: 300 });
    const small = planned(await planner.submit(problemOf(3)));
    expect(small.path).toBe('in-thread');
    const big = planner.submit(problemOf(4));
    await tick();
    backend.release();
    expect(planned(await big).path).toBe('pool');
    const s = planner.stats();
    expect([s.solvesInThread, s.solvesPool, s.inThreadMaxWork]).toEqual([1, 1, 300]);
    expect(s.solveMicros.count).toBe(2);
    expect(s.queueWaitMicros.count).toBe(2);
  });

  it('counts fallback plans', async () => {
    const backend = new ManualBackend();
    const planner = new Planner(backend, { inThreadMaxWork: 0 });
    const p = planner.submit(problemOf(1));
    await tick();
    backend.release({
      status: 'fallback',
      reason: 'worker failed: test',
      assignments: [],
      value: { credit: 0, ready: 0, tokens: 0 },
      bound: { credit: 0, ready: 0, tokens: 0 },
      quantum: 1,
      stats: { path: 'bfd', work: 0, cells: 0, states: 0, micros: 0 },
    });
    expect(planned(await p).plan.reason).toBe('worker failed: test');
    expect(planner.stats().fallbacks).toBe(1);
  });

  it('hands out the newest completed plan once through takeLatest', async () => {
    const backend = new ManualBackend(() => 0);
    const planner = new Planner(backend);
    expect(planner.takeLatest()).toBeUndefined();
    await planner.submit(problemOf(1));
    const second = planned(await planner.submit(problemOf(2)));
    expect(planner.takeLatest()).toBe(second);
    expect(planner.takeLatest()).toBeUndefined();
    expect(planner.stats().plansUnused).toBe(1);
  });
});

describe('planner signal', () => {
  it('drops a queued submission when its signal fires: it settles aborted and never runs', async () => {
    const backend = new ManualBackend();
    const planner = new Planner(backend, { inThreadMaxWork: 0 });
    const first = planner.submit(problemOf(1));
    await tick();
    const ac = new AbortController();
    const second = planner.submit(problemOf(2), { signal: ac.signal });
    ac.abort();
    await expect(second).resolves.toEqual({ status: 'aborted', reason: 'signal' });
    backend.release();
    await first;
    await tick();
    expect(backend.solvedOffThread).toHaveLength(1);
    expect(planner.stats().aborted).toBe(1);
  });

  it('settles an already-aborted submission without solving it', async () => {
    const backend = new ManualBackend(() => 0);
    const planner = new Planner(backend);
    await expect(planner.submit(problemOf(1), { signal: AbortSignal.abort() })).resolves.toEqual({
      status: 'aborted',
      reason: 'signal',
    });
    expect(backend.solvedInThread).toHaveLength(0);
  });

  it('settles a running pool solve as aborted when the backend rejects with AbortedError', async () => {
    const backend = new ManualBackend();
    const planner = new Planner(backend, { inThreadMaxWork: 0 });
    const ac = new AbortController();
    const p = planner.submit(problemOf(1), { signal: ac.signal });
    await tick();
    ac.abort();
    await expect(p).resolves.toEqual({ status: 'aborted', reason: 'signal' });
    expect(planner.stats().inFlight).toBe(false);
  });
});

describe('planner errors and close', () => {
  it('rejects invalid input without throwing synchronously, naming the field', async () => {
    const planner = new Planner(new ManualBackend());
    const bad = { nodes: [], sessions: [{ id: 's', weight: 0, tokens: 0, ready: true }] };
    let p: Promise<SubmitResult> | undefined;
    expect(() => (p = planner.submit(bad))).not.toThrow();
    await expect(p).rejects.toThrow(
      new InvalidValueError('problem.sessions[0].weight must be a positive integer <= 4294967295'),
    );
    await expect(planner.submit(problemOf(1), { signal: 'x' as unknown as AbortSignal })).rejects.toThrow(
      new InvalidTypeError('options.signal must be an AbortSignal'),
    );
    await expect(planner.submit(problemOf(1), { quantum: 0 })).rejects.toThrow(
      new InvalidValueError('options.quantum must be a positive integer'),
    );
    expect(planner.stats().submitted).toBe(0);
  });

  it('rejects the submission when the solve throws, and keeps serving', async () => {
    const backend = new ManualBackend(() => 0);
    const planner = new Planner(backend);
    backend.failNext = new Error('boom');
    await expect(planner.submit(problemOf(1))).rejects.toThrow('boom');
    expect(planned(await planner.submit(problemOf(1))).path).toBe('in-thread');
    expect(planner.stats().failed).toBe(1);
  });

  it('close is idempotent, lets the running solve finish, aborts the queued one, and closes the backend once', async () => {
    const backend = new ManualBackend();
    const planner = new Planner(backend, { inThreadMaxWork: 0 });
    const running = planner.submit(problemOf(1));
    await tick();
    const queued = planner.submit(problemOf(2));
    const c1 = planner.close();
    const c2 = planner.close();
    expect(c2).toBe(c1);
    await expect(queued).resolves.toEqual({ status: 'aborted', reason: 'closed' });
    expect(backend.closed).toBe(0);
    backend.release();
    expect((await running).status).toBe('planned');
    await c1;
    expect(backend.closed).toBe(1);
  });

  it('rejects submit with ClosedError after close; apply and a foreign plan throw typed errors', async () => {
    const backend = new ManualBackend(() => 0);
    const planner = new Planner(backend);
    const r = planned(await planner.submit(problemOf(2)));
    const other = new Planner(new ManualBackend(() => 0));
    expect(() => other.apply(r.plan, r.snapshot)).toThrow(
      new InvalidValueError('plan was not returned by this planner: apply() needs the snapshot it was solved on'),
    );
    await planner.close();
    await expect(planner.submit(problemOf(1))).rejects.toThrow(new ClosedError('planner.submit() after close()'));
    await expect(planner.submit(problemOf(1))).rejects.toBeInstanceOf(ClosedError);
    expect(() => planner.apply(r.plan, r.snapshot)).toThrow(new ClosedError('planner.apply() after close()'));
    await other.close();
  });

  it('validates planner options by name', () => {
    expect(() => resolvePlannerOptions({ inThreadMaxWork: -1 })).toThrow(
      new InvalidValueError('options.inThreadMaxWork must be a non-negative integer or Infinity'),
    );
    expect(() => resolvePlannerOptions({ inThreadMaxWork: '1' as unknown as number })).toThrow(
      new InvalidTypeError('options.inThreadMaxWork must be a number'),
    );
    expect(resolvePlannerOptions({ inThreadMaxWork: Infinity }).inThreadMaxWork).toBe(Infinity);
    expect(() => resolvePlannerOptions({ inThreadMaxcells: 5 } as never)).toThrow(
      new InvalidValueError('options.inThreadMaxcells is not a known option'),
    );
  });

  it("still accepts and reports the deprecated names inThreadMaxCells, IN_THREAD_MAX_CELLS and a backend's cells()", async () => {
    expect(IN_THREAD_MAX_CELLS).toBe(IN_THREAD_MAX_WORK);
    expect(resolvePlannerOptions({ inThreadMaxCells: 7 })).toEqual({ inThreadMaxWork: 7 });
    expect(() => resolvePlannerOptions({ inThreadMaxCells: -1 })).toThrow(
      new InvalidValueError('options.inThreadMaxCells must be a non-negative integer or Infinity'),
    );
    expect(() => resolvePlannerOptions({ inThreadMaxCells: 1, inThreadMaxWork: 1 })).toThrow(
      new InvalidValueError(
        'options.inThreadMaxCells is the deprecated name of options.inThreadMaxWork: give only one of them',
      ),
    );
    // A backend written against the old interface: `cells` instead of `work`.
    const backend = new ManualBackend((p) => p.sessions.length * 100);
    const legacy: PlannerBackend<FakePrepared> = Object.assign(backend, {
      work: undefined,
      cells: (p: FakePrepared) => p.work,
    });
    const planner = new Planner(legacy, { inThreadMaxCells: 300 });
    expect(planned(await planner.submit(problemOf(3))).path).toBe('in-thread');
    const big = planner.submit(problemOf(4));
    await tick();
    backend.release();
    expect(planned(await big).path).toBe('pool');
    const s = planner.stats();
    expect([s.inThreadMaxWork, s.inThreadMaxCells]).toEqual([300, 300]);
    await planner.close();
    expect(() => new Planner({ prepare: legacy.prepare } as unknown as PlannerBackend<FakePrepared>)).toThrow(
      new InvalidTypeError('backend.work must be a function'),
    );
  });
});

describe('planner apply', () => {
  it('revalidates against the snapshot as submitted, even if the caller mutates it afterwards', async () => {
    const backend = new ManualBackend(() => 0);
    const planner = new Planner(backend);
    const snap = problemOf(3, 1);
    const pending = planner.submit(snap);
    // The caller reuses its objects for the next tick: the planner must have read signatures at submit.
    for (const s of snap.sessions as ProblemSession[]) s.signature = 2;
    const r = planned(await pending);
    const live = problemOf(3, 1);
    const applied = planner.apply(r.plan, live);
    expect(applied.outcome).toBe('applied');
    expect(applied.applied).toEqual(r.plan.assignments);
  });

  it('counts applied, truncated and dropped plans', async () => {
    const planner = new Planner(new ManualBackend(() => 0));
    const r = planned(await planner.submit(problemOf(4, 1)));
    expect(r.plan.assignments.length).toBe(4);
    expect(planner.apply(r.plan, problemOf(4, 1)).outcome).toBe('applied');
    expect(planner.apply(r.plan, problemOf(4, 1, 1_500)).outcome).toBe('truncated');
    expect(planner.apply(r.plan, problemOf(4, 2)).outcome).toBe('dropped');
    const s = planner.stats();
    expect([s.applies, s.plansApplied, s.plansTruncated, s.plansDropped]).toEqual([3, 1, 1, 1]);
    // First fit put all four on n1; at 1_500 tokens only the first (1_000) still fits there.
    expect(s.assignmentsApplied).toBe(4 + 1);
    expect(s.assignmentsCut).toBe(3 + 4);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });
});
