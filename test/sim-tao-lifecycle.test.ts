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
  it('tao-ready: only sessions whose tool returned (or new ones) or whose tool is predicted back within H are admissible', () => {
    const { problems: ps } = problems('tao-ready');
    const sessions = ps.flatMap((p) => p.sessions);
    expect(sessions.length).toBeGreaterThan(100);
    // evaluate sets ready for a new session, a returned tool, or a predicted return within H: under this
    // reading the readiness component is 1 on every session the DP sees, so it never decides anything.
    for (const s of sessions) expect(s.ready).toBe(true);
  });

  it('tao: the whole pool is ranked, sessions far from their tool return included, and they hold capacity through tools', () => {
    const tao = problems('tao');
    const sessions = tao.problems.flatMap((p) => p.sessions);
    expect(sessions.some((s) => s.ready === false)).toBe(true);
    expect(sessions.some((s) => s.ready === true)).toBe(true);
    expect(tao.heldByTool).toBeGreaterThan(problems('tao-ready').heldByTool);
  });

  it('tao-no-ready (no readiness): the whole pool, every readiness bit 0', () => {
    const sessions = problems('tao-no-ready').problems.flatMap((p) => p.sessions);
    expect(sessions.length).toBeGreaterThan(100);
    for (const s of sessions) expect(s.ready).toBe(false);
  });
});
