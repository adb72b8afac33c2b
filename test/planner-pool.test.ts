import fc from 'fast-check';
import { InvalidValueError, SolverTrapError } from './helpers/internals.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateWork, createPlanner, solverBackend } from './helpers/internals.js';
import type { Planner, SubmitResult } from './helpers/internals.js';
import { createSolverPool, type SolverPool } from './helpers/internals.js';
import { fallbackPlan, loadSolver, prepare, type Prepared, type Solver } from './helpers/internals.js';
import { builtWorker, problemArb, slowProblem, timeless } from './pool-support.js';

let solver: Solver;
let pool: SolverPool;
let planner: Planner<Prepared>;

beforeAll(async () => {
  solver = await loadSolver();
  pool = createSolverPool({ workerFile: builtWorker() });
  planner = await createPlanner({ pool, solver, inThreadMaxWork: 2_000 });
});

afterAll(async () => {
  await planner?.close();
  await pool?.close();
  solver?.close();
});

const plannedOf = (r: SubmitResult) => {
  if (r.status !== 'planned') throw new Error(`expected planned, got ${r.status}`);
  return r;
};

describe('planner over the WASM solver and the pool', () => {
  it('routes by estimated work (and what it measured) and returns the solver’s plan on both paths', async () => {
    const problems = fc.sample(problemArb, { numRuns: 120, seed: 42 });
    const paths = new Set<string>();
    let routed = 0;
    for (const problem of problems) {
      const work = estimateWork(prepare(problem, { quantum: 256 }));
      const r = plannedOf(await planner.submit(problem, { quantum: 256 }));
      if (work <= 2_000) expect(r.path).toBe('in-thread');
      else if (r.path === 'in-thread') routed++;
      paths.add(r.path);
      expect(timeless(r.plan)).toEqual(timeless(solver.solve(problem, { quantum: 256 })));
    }
    expect(paths).toEqual(new Set(['in-thread', 'pool']));
    const s = planner.stats();
    expect(s.solvesInThread + s.solvesPool).toBe(s.solves);
    expect(s.solvesRouted).toBe(routed);
    expect(s.poolOverheadMicros).toBeGreaterThan(0);
  });

  it('estimates an over-budget problem at the state budget, the most work the frontier DP may spend', () => {
    const over = prepare(slowProblem(1_000), { stateBudget: 1_000 });
    expect(over.packed.cells).toBeGreaterThan(1_000);
    expect(estimateWork(over)).toBe(1_000);
  });

  it('estimates a problem closed on the best-nodes path at one pass over its pairs, unless a DP path is forced', () => {
    const roomy = prepare(slowProblem(20));
    expect(roomy.packed.cells).toBeGreaterThan(20 * 2);
    expect(estimateWork(roomy)).toBe(20 * 2);
    expect(solver.solve(slowProblem(20)).stats.path).toBe('best-nodes');
    expect(estimateWork(prepare(slowProblem(20), { path: 'dense' }))).toBe(Math.min(roomy.packed.cells, 2 ** 22));
  });

  it('keeps the loop free: a slow solve in the pool does not stall timers on this thread', async () => {
    // The dense DP at quantum 1024: the frontier (the default path) solves this problem in well under a ms.
    const p = planner.submit(slowProblem(1_000), { stateBudget: 2 ** 26, quantum: 1024, path: 'dense' });
    const t0 = performance.now();
    let last = t0;
    let maxGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 1);
    const r = plannedOf(await p);
    clearInterval(timer);
    const elapsed = performance.now() - t0;
    expect(r.path).toBe('pool');
    expect(elapsed).toBeGreaterThan(10);
    // In-thread, the loop would stall for the whole solve (one gap ~ elapsed).
    expect(maxGap).toBeLessThan(elapsed / 2);
  });

  it('applies a fresh plan whole and drops it when a selected session’s signature moved', async () => {
    const problem = fc.sample(
      problemArb.filter((p) => p.sessions.length > 3 && p.nodes.some((n) => n.capacity > 10_000)),
      { numRuns: 1, seed: 9 },
    )[0]!;
    const r = plannedOf(await planner.submit(problem, { quantum: 64 }));
    expect(r.plan.assignments.length).toBeGreaterThan(0);
    expect(planner.apply(r.plan, problem).outcome).toBe('applied');
    const moved = r.plan.assignments.at(-1)!.session;
    const live = { ...problem, sessions: problem.sessions.map((s) => (s.id === moved ? { ...s, signature: -1 } : s)) };
    const dropped = planner.apply(r.plan, live);
    expect(dropped.outcome).toBe('dropped');
    expect(dropped.changed).toEqual([moved]);
  });
});

describe('planner backend', () => {
  it('answers an in-thread solve whose WASM trapped with the labelled heuristic fallback', () => {
    const trapping: Solver = {
      solve: (p, o) => solver.solve(p, o),
      runPacked: () => {
        throw new SolverTrapError('WASM trap in step: unreachable');
      },
      memoryBytes: () => solver.memoryBytes(),
      close: () => {},
    };
    const backend = solverBackend(trapping, pool, async () => {});
    const problem = fc.sample(
      problemArb.filter((p) => p.sessions.length > 2),
      { numRuns: 1, seed: 4 },
    )[0]!;
    const plan = backend.solveInThread(prepare(problem));
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toBe('in-thread WASM trap in step: unreachable');
    expect(timeless(plan)).toEqual(
      timeless(fallbackPlan(prepare(problem), 'in-thread WASM trap in step: unreachable')),
    );
  });
});

describe('createPlanner', () => {
  it('creates and closes its own pool and solver', async () => {
    const own = await createPlanner({ poolOptions: { workerFile: builtWorker() }, inThreadMaxWork: 0 });
    const problem = fc.sample(problemArb, { numRuns: 1, seed: 2 })[0]!;
    expect(plannedOf(await own.submit(problem)).path).toBe('pool');
    await own.close();
    await expect(own.submit(problem)).rejects.toThrow('planner.submit() after close()');
  });

  it('rejects when its workers cannot start, naming the missing file', async () => {
    await expect(createPlanner({ poolOptions: { workerFile: '/nonexistent/worker.js' } })).rejects.toThrow(
      /^options\.poolOptions\.workerFile \/nonexistent\/worker\.js does not exist/,
    );
  });

  it('rejects unknown or conflicting options by name, without throwing synchronously', async () => {
    let p: Promise<unknown> | undefined;
    expect(() => (p = createPlanner({ inThreadMaxcells: 1 } as never))).not.toThrow();
    await expect(p).rejects.toThrow(new InvalidValueError('options.inThreadMaxcells is not a known option'));
    await expect(createPlanner({ pool, poolOptions: {} })).rejects.toThrow(
      new InvalidValueError('options.poolOptions must be absent when options.pool is given'),
    );
  });
});
