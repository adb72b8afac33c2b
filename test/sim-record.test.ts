import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidValueError } from './helpers/internals.js';
import { validateProblem } from './helpers/internals.js';
import { loadTaoDeps, type TaoDeps } from './helpers/internals.js';
import { isNonTrivial, recordLine, recordProblems, type RecordedProblem } from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

async function collect(setting: string, seed: number, count: number, contended = false): Promise<RecordedProblem[]> {
  const out: RecordedProblem[] = [];
  for await (const r of recordProblems(setting, { seed, count, contended, deps })) out.push(r);
  return out;
}

describe('recorded solver problems', () => {
  it('yields exactly `count` valid, non-trivial problems in tick order', async () => {
    const got = await collect('qwen-160', 1, 150);
    expect(got).toHaveLength(150);
    for (const r of got) {
      expect(() => validateProblem(r.problem)).not.toThrow();
      expect(isNonTrivial(r.problem, 2, false)).toBe(true);
      expect(r.setting).toBe('qwen-160');
      expect(r.tick).toBe(Math.round(r.time));
    }
    for (let i = 1; i < got.length; i++) expect(got[i]!.tick).toBeGreaterThan(got[i - 1]!.tick);
  });

  it('is deterministic per seed', async () => {
    const a = await collect('ds-64', 3, 60);
    const b = await collect('ds-64', 3, 60);
    expect(b).toEqual(a);
    const c = await collect('ds-64', 4, 60);
    expect(c.map((r) => JSON.stringify(r.problem))).not.toEqual(a.map((r) => JSON.stringify(r.problem)));
  });

  it('can keep only contended problems (more weight waiting than room)', async () => {
    const got = await collect('ds-64', 2, 40, true);
    for (const r of got) {
      const demand = r.problem.sessions.reduce((a, s) => a + s.weight, 0);
      const room = r.problem.nodes.reduce((a, n) => a + n.capacity, 0);
      expect(demand).toBeGreaterThan(room);
    }
  });

  it('writes the JSONL line format of --record', () => {
    const line = recordLine({
      setting: 'ds-64',
      seed: 1,
      tick: 37,
      time: 37,
      problem: { nodes: [{ id: 'n0', capacity: 5 }], sessions: [] },
    });
    expect(line).toBe(
      '{"setting":"ds-64","seed":1,"tick":37,"time":37,"problem":{"nodes":[{"id":"n0","capacity":5}],"sessions":[]}}',
    );
  });

  it('throws naming options.count when the run cannot supply enough problems', async () => {
    const it = recordProblems('ds-16', { seed: 1, count: 1000, contended: true, maxTime: 60, deps });
    await expect(
      (async () => {
        for await (const _ of it) void _;
      })(),
    ).rejects.toThrow(InvalidValueError);
  });
});
