import { describe, expect, it } from 'vitest';
import { AdaptiveRoute, ROUTE } from './helpers/internals.js';
import { Planner, type PlannerBackend } from './helpers/internals.js';
import type { Plan, Problem } from './helpers/internals.js';
import { firstFit } from './planner-fakes.js';

const LIMIT = 1_000;

/** Teaches `route` `n` pool solves of estimate `estimate`: the worker took `solve` us, the round trip `overhead` more. */
function teach(route: AdaptiveRoute, estimate: number, n: number, solve: number, overhead: number): void {
  for (let i = 0; i < n; i++) route.record(estimate, solve, overhead);
}

describe('adaptive route', () => {
  it('runs every solve estimated at most the limit in-thread, and none when the limit is 0', () => {
    expect(new AdaptiveRoute(LIMIT).inThread(LIMIT)).toBe(true);
    expect(new AdaptiveRoute(LIMIT).inThread(LIMIT + 1)).toBe(false);
    expect(new AdaptiveRoute(0).inThread(0)).toBe(false);
    expect(new AdaptiveRoute(Infinity).inThread(1e15)).toBe(true);
  });

  it('sends a larger estimate in-thread once its class was measured faster than the round trip adds', () => {
    const route = new AdaptiveRoute(LIMIT);
    teach(route, 5_000, ROUTE.minSamples - 1, 40, 150);
    expect(route.inThread(5_000)).toBe(false);
    teach(route, 5_000, 1, 40, 150);
    expect(route.overheadMicros()).toBe(150);
    // 5,000 and 6,000 share a class (4,096..8,191); 9,000 does not and stays in the pool.
    expect(route.inThread(6_000)).toBe(true);
    expect(route.inThread(9_000)).toBe(false);
  });

  it('keeps a class in the pool when its slowest recent solve took longer than the overhead', () => {
    const route = new AdaptiveRoute(LIMIT);
    teach(route, 5_000, ROUTE.window - 1, 40, 150);
    route.record(5_000, 151, 150);
    expect(route.inThread(5_000)).toBe(false);
  });

  it('one slow in-thread solve sends its class back to the pool at once', () => {
    const route = new AdaptiveRoute(LIMIT);
    teach(route, 5_000, ROUTE.minSamples, 40, 150);
    expect(route.inThread(5_000)).toBe(true);
    route.record(5_000, 2_000);
    expect(route.inThread(5_000)).toBe(false);
  });

  it('leaves the largest overhead out of its mean, so one stall does not send slow classes in-thread', () => {
    const route = new AdaptiveRoute(LIMIT);
    teach(route, 5_000, ROUTE.minSamples, 400, 100);
    route.record(9_000, 1_000, 80_000);
    expect(route.overheadMicros()).toBe(100);
    expect(route.inThread(5_000)).toBe(false);
  });

  it('still sends every ROUTE.poolEvery-th such solve to the pool, so the overhead stays measured', () => {
    const route = new AdaptiveRoute(LIMIT);
    teach(route, 5_000, ROUTE.minSamples, 40, 150);
    const routes = Array.from({ length: ROUTE.poolEvery * 2 }, () => route.inThread(5_000));
    expect(routes.filter((x) => !x)).toHaveLength(2);
  });
});

/** Off-thread solves that report a worker time: `workerMicros` us out of a round trip the test sets. */
class TimedBackend implements PlannerBackend<Problem> {
  readonly worker = new WeakMap<Plan, number>();
  inThread = 0;
  offThread = 0;
  prepare = (p: Problem): Problem => p;
  work = (): number => 10 * LIMIT;
  solveInThread(p: Problem): Plan {
    this.inThread++;
    return firstFit(p);
  }
  async solveOffThread(p: Problem): Promise<Plan> {
    this.offThread++;
    // A round trip of at least 2 ms, of which the worker spent 10 us.
    await new Promise((r) => setTimeout(r, 2));
    const plan = firstFit(p);
    this.worker.set(plan, 10);
    return plan;
  }
  workerMicros = (plan: Plan): number | undefined => this.worker.get(plan);
  close = async (): Promise<void> => {};
}

describe('planner with the adaptive route', () => {
  const problem: Problem = {
    nodes: [{ id: 'a', capacity: 10 }],
    sessions: [{ id: 's', weight: 1, tokens: 1, ready: true }],
  };

  it('routes in-thread what its pool solves showed to be cheaper than the round trip, and counts it', async () => {
    const backend = new TimedBackend();
    const planner = new Planner(backend, { inThreadMaxWork: LIMIT });
    for (let i = 0; i < ROUTE.minSamples; i++) await planner.submit(problem);
    expect([backend.offThread, backend.inThread]).toEqual([ROUTE.minSamples, 0]);
    const r = await planner.submit(problem);
    expect(r.status === 'planned' && r.path).toBe('in-thread');
    const s = planner.stats();
    expect([s.solvesPool, s.solvesInThread, s.solvesRouted]).toEqual([ROUTE.minSamples, 1, 1]);
    expect(s.poolOverheadMicros).toBeGreaterThanOrEqual(1_000);
    await planner.close();
  });

  it('without worker times the route is the fixed threshold', async () => {
    const backend = new TimedBackend();
    const { workerMicros: _w, ...rest } = backend;
    const fixed: PlannerBackend<Problem> = {
      ...rest,
      solveInThread: (p) => backend.solveInThread(p),
      solveOffThread: (p) => backend.solveOffThread(p),
    };
    const planner = new Planner(fixed, { inThreadMaxWork: LIMIT });
    for (let i = 0; i < ROUTE.minSamples + 2; i++) await planner.submit(problem);
    expect([backend.offThread, backend.inThread]).toEqual([ROUTE.minSamples + 2, 0]);
    expect(planner.stats().poolOverheadMicros).toBeNull();
    await planner.close();
  });
});
