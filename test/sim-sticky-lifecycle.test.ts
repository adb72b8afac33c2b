import { beforeAll, describe, expect, it } from 'vitest';
import { loadTaoDeps, type TaoDeps } from './helpers/internals.js';
import { createPolicy } from './helpers/internals.js';
import { pauseUntilSafe } from './helpers/internals.js';
import { createThunderAgent, defaultThunderAgentParams } from './helpers/internals.js';
import type { AdmittedSession, NodeView, SchedulerView } from './helpers/internals.js';
import { parseSetting } from './helpers/internals.js';
import { Simulation } from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

function node(capacity: number, held: number): NodeView {
  return { index: 0, id: 'n0', capacity, held, running: 0, queued: 0, activeTokens: 0, prefillBacklog: 0 };
}

function program(index: number, tokens: number, acting: boolean): AdmittedSession {
  return { index, id: `t${index}`, node: 0, tokens, held: tokens + 100, acting, marked: false };
}

function viewOf(capacity: number, admitted: AdmittedSession[]): SchedulerView {
  const held = admitted.reduce((a, p) => a + p.held, 0);
  return { time: 50, nodes: [node(capacity, held)], pool: [], cachedTokens: () => 0, admitted };
}

describe('sticky lifecycle (ThunderAgent)', () => {
  it('the periodic check pauses acting programs smallest first until the node is within capacity', () => {
    // 15,000 tokens + 4 x 100 on 10,000: -5,400. Smallest acting first: 2,000 (-3,300), 3,000 (-200),
    // 6,000 (+5,900); the reasoning program is left alone.
    const v = viewOf(10_000, [
      program(1, 3000, true),
      program(2, 2000, true),
      program(3, 4000, false),
      program(4, 6000, true),
    ]);
    expect(pauseUntilSafe(v, 100)).toEqual({ pause: [2, 1, 4], mark: [] });
    expect(createThunderAgent(defaultThunderAgentParams).rebalance!(v)).toEqual({ pause: [2, 1, 4], mark: [] });
  });

  it('when pausing every acting program is not enough, it marks every reasoning program, smallest first', () => {
    // 6,000 + 300 on 5,000: pausing the acting 1,000 leaves -200; marking does not change the remaining
    // capacity ThunderAgent reads, so its loop marks all reasoning programs.
    const v = viewOf(5000, [program(1, 3000, false), program(2, 1000, true), program(3, 2000, false)]);
    expect(pauseUntilSafe(v, 100)).toEqual({ pause: [2], mark: [3, 1] });
  });

  it('a node within capacity is left alone', () => {
    const v = viewOf(20_000, [program(1, 3000, true), program(2, 9000, false)]);
    expect(pauseUntilSafe(v, 100)).toEqual({ pause: [], mark: [] });
  });

  it('a program stays admitted on its node across its tool, holding its grown context + 100', () => {
    const setting = parseSetting({ name: 'roomy', extends: 'ds-16', workers: 4, tasks: 4 });
    const sim = new Simulation(
      { setting, seed: 2, mode: { tasks: 4 }, sampleEvery: 0, checkInvariants: true },
      createPolicy('thunderagent', { setting, deps }),
    );
    let checked = 0;
    const nodeOf = new Map<number, number>();
    while (!sim.finished && sim.time < 3000) {
      sim.runUntil(sim.time + 0.25);
      for (const s of sim.sessions) {
        if (s === undefined) continue;
        if (s.node >= 0) {
          const before = nodeOf.get(s.index);
          // Never moved between nodes without going through the pool (there is room for everyone here).
          if (before !== undefined) expect(s.node).toBe(before);
          nodeOf.set(s.index, s.node);
        }
        if (s.turn > 0 && s.state === 'admitted' && !s.pending) {
          // In its tool, still admitted: not in the pool, holding its tokens + 100.
          expect(s.node).toBeGreaterThanOrEqual(0);
          expect(s.held).toBe(s.tokens + 100);
          checked++;
        }
        expect(s.state === 'pool' && s.turn > 0).toBe(false);
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('tao-sticky keeps sessions across tools too, holding tokens + its 512 reserve', () => {
    const setting = parseSetting({ name: 'roomy', extends: 'ds-16', workers: 4, tasks: 4 });
    const sim = new Simulation(
      { setting, seed: 2, mode: { tasks: 4 }, sampleEvery: 0, checkInvariants: true },
      createPolicy('tao-sticky', { setting, deps }),
    );
    let checked = 0;
    while (!sim.finished && sim.time < 600) {
      sim.runUntil(sim.time + 0.5);
      for (const s of sim.sessions) {
        if (s !== undefined && s.turn > 0 && s.state === 'admitted' && !s.pending) {
          expect(s.held).toBe(s.tokens + 512);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
