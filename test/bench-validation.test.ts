import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorpusSource } from './helpers/internals.js';
import { defaultBenchOptions, type BenchOptions } from './helpers/internals.js';
import { REPORT_SCHEMA_VERSION } from './helpers/internals.js';
import { runBench } from './helpers/internals.js';
import type { Runner } from './helpers/internals.js';
import { checkPlan, judge } from './helpers/internals.js';
import { solveReference } from './helpers/internals.js';
import type { Plan, Problem } from './helpers/internals.js';
import { bruteForceOptimum } from './oracles/brute-force.js';

// Small problems whose optimum is known independently (brute force): two nodes, four sessions.
const problems: Problem[] = [
  {
    nodes: [
      { id: 'a', capacity: 10 },
      { id: 'b', capacity: 6 },
    ],
    sessions: [
      { id: 's1', weight: 6, tokens: 5, ready: true, credit: { a: 3 } },
      { id: 's2', weight: 5, tokens: 4, ready: false, credit: { b: 2 } },
      { id: 's3', weight: 4, tokens: 9, ready: true },
      { id: 's4', weight: 7, tokens: 1, ready: true, eligible: ['a'] },
    ],
  },
  {
    nodes: [{ id: 'a', capacity: 8 }],
    sessions: [
      { id: 'x', weight: 5, tokens: 5, ready: false },
      { id: 'y', weight: 4, tokens: 3, ready: true },
      { id: 'z', weight: 4, tokens: 3, ready: true },
    ],
  },
];

const source: CorpusSource = {
  window: 'test',
  fingerprint: async () => 'test-fixture-1',
  record: async (_setting, _seed, count) =>
    Array.from({ length: count }, (_, i) => problems[i % problems.length] as Problem),
};

const reference: Runner = {
  name: 'reference',
  description: 'TypeScript reference DP',
  async setup() {},
  solve: (p) => solveReference(p, { quantum: 1 }),
  async teardown() {},
};

/** Drops the last assignment and reports the (consistent) smaller value: feasible, but not optimal. */
const suboptimal: Runner = {
  name: 'wasm',
  description: 'wrong on purpose',
  async setup() {},
  solve(p) {
    const plan = solveReference(p, { quantum: 1 });
    const dropped = plan.assignments.at(-1);
    if (dropped === undefined) return plan;
    const s = p.sessions.find((x) => x.id === dropped.session) as Problem['sessions'][number];
    return {
      ...plan,
      assignments: plan.assignments.slice(0, -1),
      value: {
        credit: plan.value.credit - (s.credit?.[dropped.node] ?? 0),
        ready: plan.value.ready - (s.ready ? 1 : 0),
        tokens: plan.value.tokens - s.tokens,
      },
    };
  },
  async teardown() {},
};

/** Claims the optimal value but packs every session on the first node: over capacity. */
const infeasible: Runner = {
  name: 'pool',
  description: 'infeasible on purpose',
  async setup() {},
  async solve(p) {
    const plan = solveReference(p, { quantum: 1 });
    return {
      ...plan,
      assignments: p.sessions.map((s) => ({ session: s.id, node: (p.nodes[0] as { id: string }).id })),
    };
  },
  async teardown() {},
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tao-bench-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function options(): BenchOptions {
  return {
    ...defaultBenchOptions,
    settings: ['ds-16'],
    count: 4,
    runners: [],
    highsSample: 0,
    warmupIterations: 1,
    solve: { ...defaultBenchOptions.solve, quantum: 1 },
    cacheDir: dir,
  };
}

describe('bench validation', () => {
  it('the fixture optimum is what brute force says', () => {
    for (const p of problems) expect(solveReference(p, { quantum: 1 }).value).toEqual(bruteForceOptimum(p, 1));
  });

  it('reports an injected wrong runner as mismatch, and a right one as exact', async () => {
    const report = await runBench(options(), {
      runners: [reference, suboptimal, infeasible],
      skipped: [],
      source,
      log: () => {},
      referenceOracle: (p) => solveReference(p, { quantum: 1 }),
      command: 'test',
    });
    const s = report.settings[0];
    expect(s?.setting).toBe('ds-16');
    const wasm = s?.runners.wasm;
    expect(wasm?.validation.mismatch).toBe(4);
    expect(wasm?.validation.exact).toBe(0);
    expect(wasm?.validation.mismatches[0]?.reason).toMatch(
      /^value \(credit \d+, ready \d+, tokens \d+\) but reference has \(credit 5, ready 2, tokens 18\)$/,
    );
    const pool = s?.runners.pool;
    expect(pool?.validation.mismatch).toBe(4);
    expect(pool?.validation.mismatches[0]?.reason).toMatch(/^infeasible plan: node "a" over capacity/);
    // The reference is not judged against itself: with no HiGHS it is unverified, never "exact" by fiat.
    expect(s?.runners.reference?.validation.unverified).toBe(4);
    expect(report.goal.met).toBe(false);
    expect(report.goal.misses.map((m) => m.metric)).toContain('exactness');
    expect(wasm?.ratioToReference?.sum).toBeGreaterThan(0);
    expect(s?.runners.reference?.ratioToReference).toBeNull();
    // Every runner was still timed once per problem.
    expect(wasm?.time.n).toBe(4);
    expect(wasm?.samplesMs).toHaveLength(4);
    expect(wasm?.sampleProblems?.slice().sort()).toEqual([0, 1, 2, 3]);
  });

  it('records the schema version, the package from package.json, the parameters used, and one step per runner and setting', async () => {
    const steps: string[] = [];
    const report = await runBench(options(), {
      runners: [reference, suboptimal],
      skipped: [],
      source,
      log: () => {},
      referenceOracle: (p) => solveReference(p, { quantum: 1 }),
      command: 'tao bench --count 4',
      onStep: (what) => steps.push(what),
    });
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      name: string;
      version: string;
    };
    expect(report.schemaVersion).toBe(REPORT_SCHEMA_VERSION);
    expect(report.package).toEqual({ name: pkg.name, version: pkg.version });
    expect(report.command).toBe('tao bench --count 4');
    expect(report.workload).toMatchObject({
      settings: ['ds-16'],
      seed: options().seed,
      count: options().count,
      runners: ['reference', 'wasm'],
    });
    expect(report.workload.solveOptions.quantum).toBe(1);
    expect(report.timing).toMatchObject({ warmupIterations: 1, cycles: options().cycles });
    expect(steps.sort()).toEqual(['ds-16 reference', 'ds-16 wasm']);
  });

  it('a runner that throws is a mismatch naming the error', async () => {
    const throwing: Runner = {
      ...suboptimal,
      name: 'bfd',
      solve: () => {
        throw new Error('boom');
      },
    };
    const report = await runBench(options(), {
      runners: [reference, throwing],
      skipped: [],
      source,
      log: () => {},
      referenceOracle: (p) => solveReference(p, { quantum: 1 }),
      command: 'test',
    });
    const bfd = report.settings[0]?.runners.bfd;
    expect(bfd?.validation.mismatch).toBe(4);
    expect(bfd?.validation.mismatches[0]?.reason).toBe('threw: boom');
  });
});

describe('checkPlan', () => {
  const p = problems[0] as Problem;
  const ok = (): Plan => solveReference(p, { quantum: 1 });

  it('accepts the optimal plan', () => {
    expect(checkPlan(p, ok())).toBeNull();
    expect(judge(p, ok(), [{ source: 'brute force', value: bruteForceOptimum(p, 1) }])).toEqual({ verdict: 'exact' });
  });

  it('rejects a duplicate session, an unknown node, an ineligible node and a misreported value', () => {
    const plan = ok();
    const first = plan.assignments[0] as { session: string; node: string };
    expect(checkPlan(p, { ...plan, assignments: [...plan.assignments, first] })).toMatch(/assigned twice/);
    expect(checkPlan(p, { ...plan, assignments: [{ session: 's3', node: 'zz' }] })).toBe(
      'assignments[0]: unknown node "zz"',
    );
    expect(
      checkPlan(p, { ...plan, assignments: [{ session: 's4', node: 'b' }], value: { credit: 0, ready: 1, tokens: 1 } }),
    ).toBe('assignments[0]: session "s4" is not eligible on node "b"');
    expect(checkPlan(p, { ...plan, value: { ...plan.value, tokens: plan.value.tokens + 1 } })).toMatch(
      /^reported value .* differs from the assignments' sum/,
    );
  });

  it('checks an optimal plan at its quantum: fits in tokens but not in quanta', () => {
    // Quantum 4: weights 6 and 4 round up to 2 + 1 = 3 quanta, node a's 10 tokens round down to 2.
    const plan: Plan = {
      status: 'optimal',
      assignments: [
        { session: 's1', node: 'a' },
        { session: 's3', node: 'a' },
      ],
      value: { credit: 3, ready: 2, tokens: 14 },
      bound: { credit: 3, ready: 2, tokens: 14 },
      quantum: 4,
      stats: { path: 'dense', work: 1, cells: 1, states: 1, micros: 0 },
    };
    expect(checkPlan(p, plan)).toBe('node "a" over capacity: 3 quanta used of 2 (quantum 4)');
    expect(checkPlan(p, { ...plan, status: 'fallback', reason: 'test' })).toBeNull();
  });
});
