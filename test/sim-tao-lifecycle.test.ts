import { beforeAll, describe, expect, it } from 'vitest';
import {
  loadTaoDeps,
  type TaoDeps,
  createPolicy,
  type PolicyName,
  runOnce,
  SETTINGS,
  type Problem,
} from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

function problems(name: PolicyName): { problems: Problem[]; heldByTool: number } {
  const setting = SETTINGS['ds-32']!;
  const out: Problem[] = [];
  const policy = createPolicy(name, { setting, deps, onProblem: (t) => out.push(t.problem) });
  const r = runOnce(setting, policy, 3, { tasks: 40 }, { sampleEvery: 0 });
  return { problems: out, heldByTool: r.metrics.diagnostics.heldByToolCapacityShare };
}

describe("TAO's lifecycle readings", () => {
  it('tao: only sessions whose tool returned (or new ones) or whose tool is predicted back within H are admissible', () => {
    const { problems: ps } = problems('tao');
    const sessions = ps.flatMap((p) => p.sessions);
    expect(sessions.length).toBeGreaterThan(100);
    // evaluate sets ready for a new session, a returned tool, or a predicted return within H.
    for (const s of sessions) expect(s.ready).toBe(true);
  });

  it('tao-hold: sessions far from their tool return are admissible too, and hold capacity through tools', () => {
    const hold = problems('tao-hold');
    expect(hold.problems.flatMap((p) => p.sessions).some((s) => s.ready === false)).toBe(true);
    expect(hold.heldByTool).toBeGreaterThan(problems('tao').heldByTool);
  });

  it('tao-no-ready (no readiness): only issued requests are admissible', () => {
    for (const p of problems('tao-no-ready').problems) for (const s of p.sessions) expect(s.ready).toBe(false);
  });
});
