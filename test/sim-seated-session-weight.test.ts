import { beforeAll, describe, expect, it } from 'vitest';
import { loadTaoDeps, type TaoDeps } from './helpers/internals.js';
import { createPolicy } from './helpers/internals.js';
import { defaultTaoParams } from './helpers/internals.js';
import { SETTINGS } from './helpers/internals.js';
import { Simulation } from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

describe('interrupt lifecycle: a session seated during its tool', () => {
  it("holds its context with the tool's result plus the reserve once its request is issued", () => {
    const setting = SETTINGS['ds-32']!;
    const sim = new Simulation(
      { setting, seed: 3, mode: { tasks: 40 }, sampleEvery: 0, checkInvariants: true },
      createPolicy('tao', { setting, deps }),
    );
    const reserve = defaultTaoParams.reserve;
    let seatedEarly = 0;
    let checked = 0;
    while (!sim.finished && sim.time < 5000) {
      sim.runUntil(sim.time + 0.05);
      for (const s of sim.sessions) {
        // An issued request of an admitted session: from its tool's return to its end at the next boundary.
        if (s === undefined || s.node < 0 || !s.pending || s.turn === 0) continue;
        expect(s.held).toBe(s.tokens + reserve);
        checked++;
        if (s.admittedAt < s.issuedAt) seatedEarly++;
      }
    }
    expect(sim.finished).toBe(true);
    expect(checked).toBeGreaterThan(100);
    expect(seatedEarly).toBeGreaterThan(10);
  });
});
