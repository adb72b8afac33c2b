/**
 * Test doubles for the planner: a backend whose off-thread solves the test releases by hand, and a small
 * first-fit "solver" so plans are real plans over the snapshot. Not a test file (no `.test.ts`).
 */
import { resolveSolveOptions, type ResolvedSolveOptions, type SolveOptions } from './helpers/internals.js';
import type { PlannerBackend } from './helpers/internals.js';
import { AbortedError } from './helpers/internals.js';
import type { Assignment, Plan, Problem } from './helpers/internals.js';
import { validateProblem } from './helpers/internals.js';

export interface FakePrepared {
  problem: Problem;
  options: ResolvedSolveOptions;
  /** Stand-in for sessions x states. */
  work: number;
}

/** First fit in input order on the first eligible node with room, exact tokens. */
export function firstFit(problem: Problem): Plan {
  const left = new Map(problem.nodes.map((n) => [n.id, n.capacity]));
  const assignments: Assignment[] = [];
  let credit = 0;
  let ready = 0;
  let tokens = 0;
  for (const s of problem.sessions) {
    for (const n of problem.nodes) {
      if (s.eligible !== undefined && !s.eligible.includes(n.id)) continue;
      if (left.get(n.id)! < s.weight) continue;
      left.set(n.id, left.get(n.id)! - s.weight);
      assignments.push({ session: s.id, node: n.id });
      credit += s.credit?.[n.id] ?? 0;
      ready += s.ready ? 1 : 0;
      tokens += s.tokens;
      break;
    }
  }
  return {
    status: 'optimal',
    assignments,
    value: { credit, ready, tokens },
    bound: { credit, ready, tokens },
    quantum: 1,
    stats: { path: 'reference', work: 0, cells: 0, states: 0, micros: 0 },
  };
}

interface Held {
  prepared: FakePrepared;
  signal: AbortSignal | undefined;
  resolve(plan: Plan): void;
  reject(err: unknown): void;
}

/**
 * A backend whose off-thread solves wait until `release()`; in-thread solves are immediate. Records
 * concurrency so tests can check "at most one in flight".
 */
export class ManualBackend implements PlannerBackend<FakePrepared> {
  readonly held: Held[] = [];
  readonly solvedInThread: Problem[] = [];
  readonly solvedOffThread: Problem[] = [];
  running = 0;
  maxRunning = 0;
  closed = 0;
  /** Makes the next in-thread solve throw this. */
  failNext: Error | undefined;

  constructor(private readonly workOf: (p: Problem) => number = () => 1e9) {}

  prepare(problem: Problem, options: SolveOptions): FakePrepared {
    validateProblem(problem);
    return { problem, options: resolveSolveOptions(options), work: this.workOf(problem) };
  }

  work(prepared: FakePrepared): number {
    return prepared.work;
  }

  solveInThread(prepared: FakePrepared): Plan {
    if (this.failNext !== undefined) {
      const e = this.failNext;
      this.failNext = undefined;
      throw e;
    }
    this.solvedInThread.push(prepared.problem);
    return firstFit(prepared.problem);
  }

  solveOffThread(prepared: FakePrepared, signal: AbortSignal | undefined): Promise<Plan> {
    this.solvedOffThread.push(prepared.problem);
    this.running += 1;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    return new Promise<Plan>((resolve, reject) => {
      let done = false;
      const held: Held = {
        prepared,
        signal,
        resolve: (plan) => {
          if (done) return;
          done = true;
          this.running -= 1;
          resolve(plan);
        },
        reject: (err) => {
          if (done) return;
          done = true;
          this.running -= 1;
          const at = this.held.indexOf(held);
          if (at >= 0) this.held.splice(at, 1);
          reject(err);
        },
      };
      signal?.addEventListener('abort', () => held.reject(new AbortedError('solve aborted')), { once: true });
      this.held.push(held);
    });
  }

  /** Completes the oldest held solve with a first-fit plan (or `plan`). */
  release(plan?: Plan): void {
    const h = this.held.shift();
    if (h === undefined) throw new Error('no held solve to release');
    h.resolve(plan ?? firstFit(h.prepared.problem));
  }

  async close(): Promise<void> {
    this.closed += 1;
  }
}

/** Resolves after pending setImmediate callbacks (the planner starts solves on a macrotask). */
export const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function problemOf(n: number, signature: number | string = 0, capacity = 10_000): Problem {
  return {
    nodes: [
      { id: 'n1', capacity },
      { id: 'n2', capacity },
    ],
    sessions: Array.from({ length: n }, (_, i) => ({
      id: `s${i}`,
      weight: 1_000 + i,
      tokens: 900 + i,
      ready: i % 2 === 0,
      signature,
    })),
  };
}
