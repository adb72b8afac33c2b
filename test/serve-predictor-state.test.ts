/**
 * The sidecar's predictor state at its limits: whatever `predictor.save` answers, `predictor.load` takes
 * back (a state too large for the line cap is refused at save, with the sizes, and kept); and `stats`
 * reports the predictor's counts without serializing it (its time does not grow with the probe states).
 * Runs the compiled CLI: needs `npm run build`.
 */
import { describe, expect, it } from 'vitest';
import { SidecarProcess, type Json } from './helpers/sidecar.js';
import { MAX_PROBED_CALLS, ReadinessPredictor } from './helpers/internals.js';

/** 4096 sessions whose tool calls are all overdue at `time`: each evaluate opens 4096 probes. */
function overdue(time: number, tag: string): Json {
  return {
    time,
    nodes: [{ id: 'n', capacity: 1 << 20 }],
    sessions: Array.from({ length: 4096 }, (_, i) => ({
      id: `${tag}-session-${i}`,
      tokens: 1,
      tool: { name: 'bash', startedAt: 1 },
    })),
  };
}

describe('predictor.save and predictor.load in the sidecar', () => {
  it('never answers a save that load refuses: past the line cap the save is refused and the state kept', async () => {
    const cap = 1 << 20;
    const s = new SidecarProcess(['--max-line-bytes', String(cap)]);
    const options = new ReadinessPredictor({ maxProbedCalls: MAX_PROBED_CALLS }).toJSON();
    expect(await s.request({ id: 'l', op: 'predictor.load', predictor: options })).toEqual({
      id: 'l',
      op: 'predictor.load',
      ok: true,
    });
    let refused: Json | undefined;
    for (let round = 0; round < 6 && refused === undefined; round++) {
      expect(
        await s.request({ id: `e${round}`, op: 'evaluate', snapshot: overdue(100 + round, `r${round}`) }),
      ).toMatchObject({ ok: true });
      const saved = await s.request({ id: `s${round}`, op: 'predictor.save' });
      if (saved.ok === true) {
        // What was saved loads back in a sidecar with the same cap.
        const other = new SidecarProcess(['--max-line-bytes', String(cap)]);
        expect(await other.request({ id: 'load', op: 'predictor.load', predictor: saved.predictor })).toEqual({
          id: 'load',
          op: 'predictor.load',
          ok: true,
        });
        await other.shutdown();
      } else {
        refused = saved;
      }
    }
    expect(refused, 'the probe states outgrew the cap within 6 rounds').toBeDefined();
    expect(refused!.error).toEqual({
      code: 'ERR_TAO_INVALID_VALUE',
      message: expect.stringMatching(
        new RegExp(
          `^predictor state is \\d+ bytes of JSON, over the ${cap - 1024} a predictor\\.load line under --max-line-bytes ${cap} can carry$`,
        ),
      ),
    });
    // The state was kept, not dropped: saving again is refused with the same size.
    expect((await s.request({ id: 'again', op: 'predictor.save' })).error).toEqual(refused!.error);
    await s.shutdown();
  });

  it('stats does not serialize the predictor: its time does not grow with 250,000 probe states', async () => {
    const p = new ReadinessPredictor({ maxProbedCalls: 300_000, globalWindow: 65_536 });
    for (let k = 0; k < 65_536; k++) p.observe({ name: `t${k % 100}`, startedAt: k, returnedAt: k + 1 });
    for (let k = 0; k < 250_000; k++) p.ready({ name: 'x', startedAt: 0 }, 10, `s${k}`);
    const state = p.toJSON();
    expect(state.probes).toHaveLength(250_000);
    const s = new SidecarProcess(['--max-line-bytes', String(64 << 20)]);
    const time = async (): Promise<number> => {
      const samples: number[] = [];
      for (let k = 0; k < 15; k++) {
        const t = performance.now();
        await s.request({ id: k, op: 'stats' });
        samples.push(performance.now() - t);
      }
      return samples.sort((a, b) => a - b)[7]!;
    };
    const empty = await time();
    expect(await s.request({ id: 'l', op: 'predictor.load', predictor: state })).toEqual({
      id: 'l',
      op: 'predictor.load',
      ok: true,
    });
    const full = await time();
    expect(await s.request({ id: 'st', op: 'stats' })).toMatchObject({
      predictor: { tools: 100, globalSamples: 65_536 },
    });
    // Serializing this state costs 25-65 ms per stats.
    expect(full - empty).toBeLessThan(10);
    await s.shutdown();
  });
});
