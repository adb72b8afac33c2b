import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBaselineSolver, readBaselineBuild, writeBaselineBuild, type GateSolver } from './helpers/internals.js';
import { readFamilyCorpora, type FamilyCorpus } from './helpers/internals.js';
import { PAIRED_GATE } from './helpers/internals.js';
import {
  geometricInterval,
  judgePaired,
  measurePaired,
  type PairedGroupResult,
  type SolveFn,
} from './helpers/internals.js';
import { threadCpuMs } from './helpers/internals.js';
import { loadSolver } from './helpers/internals.js';

const thresholds = { maxSlowdown: PAIRED_GATE.maxSlowdown, maxFallbackIncreasePct: PAIRED_GATE.maxFallbackIncreasePct };

/** `solve`, then a busy loop of `extra` times the solve's own CPU time: a solver made (1 + extra)x slower. */
function slowedBy(solve: SolveFn, extra: number): SolveFn {
  return (p, o) => {
    const t0 = threadCpuMs();
    const plan = solve(p, o);
    const until = threadCpuMs() + (threadCpuMs() - t0) * extra;
    while (threadCpuMs() < until);
    return plan;
  };
}

let solver: GateSolver;
let corpora: FamilyCorpus[];
beforeAll(async () => {
  solver = await loadSolver();
  corpora = await readFamilyCorpora(PAIRED_GATE.corpusDir);
});
afterAll(() => solver.close());

/** A pinned hard group, cut to `n` problems to keep the test short. */
function hardGroup(name: string, n: number) {
  const c = corpora.find((x) => x.header.group === name);
  if (c === undefined) throw new Error(`no pinned corpus of ${name}`);
  return { name, problems: c.problems.slice(0, n), options: { quantum: c.header.quantum } };
}

describe('the paired regression gate', () => {
  it('pins a corpus for every gated group, the big-cluster groups included', () => {
    expect(corpora.map((c) => c.header.group).sort()).toEqual(
      Object.keys({ ...PAIRED_GATE.groups, ...PAIRED_GATE.bigGroups }).sort(),
    );
  });

  it('catches a solver made 15% slower on a hard family', () => {
    const solve: SolveFn = (p, o) => solver.solve(p, o);
    // near-fitting/4n: still milliseconds per solve with the credit-level solver, so CPU-time accounting
    // granularity stays small beside the injected 15% (spread-credit/4n now solves in a fraction of that).
    const r = measurePaired(
      hardGroup('near-fitting/4n', PAIRED_GATE.groups['near-fitting/4n']!),
      solve,
      slowedBy(solve, 0.15),
      PAIRED_GATE.rounds,
    );
    const verdict = judgePaired([r], thresholds);
    expect(r.lower, verdict.lines.join('\n')).toBeGreaterThan(PAIRED_GATE.maxSlowdown);
    expect(verdict.code).toBe(1);
    expect(verdict.lines[1]).toMatch(/^ {2}near-fitting\/4n: current\/baseline time .*slower than the baseline/);
  });

  it('does not flag the same solver against itself', () => {
    const solve: SolveFn = (p, o) => solver.solve(p, o);
    const r = measurePaired(hardGroup('near-fitting/4n', 12), solve, solve, 3);
    expect(judgePaired([r], thresholds).code).toBe(0);
    expect(r.fallbacks.current).toBe(r.fallbacks.baseline);
    expect(r.disagreements).toEqual([]);
  });

  it('flags more fallbacks and optimal plans of different values, whatever the times', () => {
    const solve: SolveFn = (p, o) => solver.solve(p, o);
    const g = hardGroup('steady-state/qwen-160', 10);
    const worse: SolveFn = (p, o) => ({ ...solve(p, o), status: 'fallback' });
    const r1 = measurePaired(g, solve, worse, 1);
    expect(r1.fallbacks.current - r1.fallbacks.baseline).toBeGreaterThan(0);
    expect(judgePaired([r1], thresholds).lines.join('\n')).toMatch(/fallbacks 10 vs baseline \d of 10/);
    const off: SolveFn = (p, o) => {
      const plan = solve(p, o);
      return { ...plan, value: { ...plan.value, tokens: plan.value.tokens + 1 } };
    };
    const r2 = measurePaired(g, solve, off, 1);
    expect(r2.disagreements.length).toBeGreaterThan(0);
    expect(judgePaired([r2], thresholds).code).toBe(1);
  });

  it('judges by the lower bound of the interval, not the point estimate', () => {
    const result = (ratio: number, lower: number): PairedGroupResult => ({
      name: 'g',
      problems: 10,
      ratio,
      lower,
      upper: ratio * 2 - lower,
      totalRatio: ratio,
      baseMs: 1,
      currentMs: ratio,
      fallbacks: { baseline: 0, current: 0 },
      disagreements: [],
    });
    expect(judgePaired([result(1.2, 1.06)], thresholds).code).toBe(0);
    expect(judgePaired([result(1.1, 1.08)], thresholds).code).toBe(1);
  });

  it('computes the geometric mean of the ratios with an interval that narrows with agreement', () => {
    const g = geometricInterval([1.1, 1.1, 1.1, 1.1]);
    expect(g.ratio).toBeCloseTo(1.1, 12);
    expect(g.lower).toBeCloseTo(1.1, 12);
    const h = geometricInterval([1, 1.21]);
    expect(h.ratio).toBeCloseTo(1.1, 12);
    expect(h.lower).toBeLessThan(1);
    expect(geometricInterval([1.5]).lower).toBe(0);
  });

  it('snapshots the compiled solver and loads the copy, which solves like the package', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tao-baseline-build-'));
    try {
      const file = join(dir, 'build.json.gz');
      const written = await writeBaselineBuild(file);
      const read = await readBaselineBuild(file);
      expect(Object.keys(read.files)).toEqual(Object.keys(written.files));
      expect(read.files['build/tao.wasm']).toBeDefined();
      const copy = await loadBaselineSolver(read, dir);
      try {
        const g = hardGroup('single-credit/4n', 5);
        for (const p of g.problems) expect(copy.solve(p, g.options).value).toEqual(solver.solve(p, g.options).value);
      } finally {
        copy.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
