import { describe, expect, it } from 'vitest';
import { evaluate } from './helpers/internals.js';
import { ReadinessPredictor } from './helpers/internals.js';
import { sessionSignature } from './helpers/internals.js';
import type { Snapshot, SnapshotSession } from './helpers/internals.js';

const nodes = [
  { id: 'n1', capacity: 100_000 },
  { id: 'n2', capacity: 100_000 },
  { id: 'n3', capacity: 100_000 },
];

function base(): SnapshotSession {
  return {
    id: 's',
    tokens: 5000,
    eligible: ['n1', 'n2'],
    cache: [{ node: 'n1', tokens: 4000, observedAt: 90 }],
    // Running; its 5 s default prediction (started at 80) is overdue at 100, so it is probed (ready).
    tool: { name: 'bash', startedAt: 80, command: 'pytest' },
  };
}

/** The signature of `session` evaluated in a snapshot at `time` by a fresh predictor. */
function sig(session: SnapshotSession, time = 100, reserve?: number): number | string {
  const snapshot: Snapshot = { time, nodes, sessions: [session] };
  const options = reserve === undefined ? undefined : { reserve };
  return evaluate(snapshot, new ReadinessPredictor(), options).sessions[0]!.signature!;
}

describe('session signature', () => {
  it('is a safe integer, deterministic, and the one evaluate reports', () => {
    const s = sig(base());
    expect(Number.isSafeInteger(s)).toBe(true);
    expect(sig(base())).toBe(s);
    expect(sessionSignature(base(), 5512, true)).toBe(s);
  });

  it.each<[string, (s: SnapshotSession) => void]>([
    ['tokens', (s) => (s.tokens = 5001)],
    ['the session reserve', (s) => (s.reserve = 0)],
    ['the eligibility set', (s) => (s.eligible = ['n1'])],
    ['eligibility from a list to "all nodes"', (s) => delete s.eligible],
    ['the tool name', (s) => (s.tool!.name = 'grep')],
    ['the tool start (a new call)', (s) => (s.tool!.startedAt = 81)],
    ['the call returning', (s) => (s.tool!.returnedAt = 99)],
    ['a new session (no tool)', (s) => delete s.tool],
  ])('changes with %s', (_name, change) => {
    const changed = base();
    change(changed);
    expect(sig(changed)).not.toBe(sig(base()));
  });

  it('changes with the reserve option (the weight)', () => {
    expect(sig(base(), 100, 1024)).not.toBe(sig(base()));
  });

  it('changes when readiness flips', () => {
    // Started at 100 with the 5 s default: not ready at 100, ready at 104.5 (due within 1 s, fresh).
    const s = { ...base(), tool: { name: 'bash', startedAt: 100 } };
    expect(new ReadinessPredictor().ready(s.tool, 100)).toBe(false);
    expect(new ReadinessPredictor().ready(s.tool, 104.5)).toBe(true);
    expect(sig(s, 104.5)).not.toBe(sig(s, 100));
  });

  it.each<[string, (s: SnapshotSession) => void]>([
    ['the eligibility order', (s) => (s.eligible = ['n2', 'n1'])],
    ['a new cache observation', (s) => (s.cache = [{ node: 'n2', tokens: 9000, observedAt: 99 }])],
    ['a dropped cache observation', (s) => delete s.cache],
    ['the command (readiness unchanged)', (s) => (s.tool!.command = 'pytest -x')],
    ['a progress report (readiness unchanged)', (s) => (s.tool!.progress = 0.99)],
  ])('ignores %s', (_name, change) => {
    const changed = base();
    change(changed);
    expect(sig(changed)).toBe(sig(base()));
  });

  it('ignores credit decay as time passes while readiness holds', () => {
    // Not ready at 90 (due at 85 + 30) nor at 95: only the credit decays in between.
    const s = { ...base(), tool: { name: 'bash', startedAt: 85, deadline: 115 } };
    const a = evaluate({ time: 90, nodes, sessions: [s] }, new ReadinessPredictor()).sessions[0]!;
    const b = evaluate({ time: 95, nodes, sessions: [s] }, new ReadinessPredictor()).sessions[0]!;
    expect(a.credit).not.toEqual(b.credit);
    expect(a.ready).toBe(b.ready);
    expect(a.signature).toBe(b.signature);
  });

  it('tells apart many sessions differing in one field (no collisions on a grid)', () => {
    const seen = new Set<number>();
    for (let tokens = 0; tokens < 40; tokens++) {
      for (let start = 0; start < 25; start++) {
        for (const ready of [false, true]) {
          const s: SnapshotSession = { id: 'x', tokens, tool: { name: 'bash', startedAt: start / 4 } };
          seen.add(sessionSignature(s, tokens + 512, ready));
        }
      }
    }
    expect(seen.size).toBe(40 * 25 * 2);
  });
});
