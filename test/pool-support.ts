/**
 * Shared by the pool tests: where the compiled worker is, and random problems. Not a test file.
 *
 * Vitest runs `src/` through its transform, but Piscina's threads load plain JavaScript: the pool tests
 * point `workerFile` at `dist/pool/worker.js` explicitly and fail up front with the command to run when the
 * build is missing.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { Plan, Problem, ProblemSession } from './helpers/internals.js';

export const WORKER_FILE = fileURLToPath(new URL('../dist/pool/worker.js', import.meta.url));
const WASM_FILE = fileURLToPath(new URL('../build/tao.wasm', import.meta.url));

/** The compiled worker's path; throws with the fix when the build is missing. */
export function builtWorker(): string {
  if (!existsSync(WASM_FILE)) {
    throw new Error(`build/tao.wasm is missing: the pool tests need the WASM build, run \`npm run build\` first`);
  }
  if (!existsSync(WORKER_FILE)) {
    throw new Error(
      `dist/pool/worker.js is missing: the pool tests run the compiled worker, run \`npm run build\` (or \`npm run build:ts\`) first`,
    );
  }
  return WORKER_FILE;
}

/** A plan without its wall time, which differs between any two solves. */
export function timeless(plan: Plan): Omit<Plan, 'stats'> & { stats: Omit<Plan['stats'], 'micros'> } {
  const { micros: _micros, ...stats } = plan.stats;
  return { ...plan, stats };
}

/**
 * Random problems of the sizes the DP solves in well under a millisecond, with credit, readiness,
 * eligibility and signatures; quanta from 1 to 1024 tokens.
 */
export const problemArb: fc.Arbitrary<Problem> = fc
  .record({
    capacities: fc.array(fc.integer({ min: 0, max: 24_000 }), { minLength: 1, maxLength: 3 }),
    sessions: fc.array(
      fc.record({
        weight: fc.integer({ min: 1, max: 12_000 }),
        tokens: fc.integer({ min: 0, max: 12_000 }),
        ready: fc.boolean(),
        credit: fc.array(fc.integer({ min: 0, max: 9_000 }), { minLength: 3, maxLength: 3 }),
        eligibleMask: fc.integer({ min: 0, max: 7 }),
        signature: fc.integer({ min: 0, max: 1_000 }),
      }),
      { maxLength: 14 },
    ),
  })
  .map(({ capacities, sessions }) => {
    const nodes = capacities.map((capacity, b) => ({ id: `n${b}`, capacity }));
    const out: ProblemSession[] = sessions.map((s, i) => {
      const credit: Record<string, number> = {};
      nodes.forEach((n, b) => {
        if (s.credit[b]! > 4_000) credit[n.id] = s.credit[b]!;
      });
      const eligible =
        s.eligibleMask === 7 ? undefined : nodes.filter((_, b) => (s.eligibleMask >> b) & 1).map((n) => n.id);
      return {
        id: `s${i}`,
        weight: s.weight,
        tokens: s.tokens,
        ready: s.ready,
        credit,
        signature: s.signature,
        ...(eligible === undefined ? {} : { eligible }),
      };
    });
    return { nodes, sessions: out };
  });

export const quantumArb = fc.constantFrom(1, 64, 256, 512, 1024);

/**
 * A problem whose dense DP (at quantum 1024, `path: 'dense'`) takes long enough (tens of ms) to still be
 * running when a test acts.
 */
export function slowProblem(sessions = 400): Problem {
  return {
    nodes: [
      { id: 'a', capacity: 240_000 },
      { id: 'b', capacity: 240_000 },
    ],
    sessions: Array.from({ length: sessions }, (_, i) => ({
      id: `s${i}`,
      weight: 1_024 * (1 + (i % 7)),
      tokens: 1_000 + i,
      ready: i % 3 === 0,
      credit: { a: (i * 37) % 500 },
    })),
  };
}
