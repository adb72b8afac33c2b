/**
 * The hold rule: a session whose tool still runs is eligible on node b only where
 * weight * remaining < holdHorizon * credit(b). Remaining times here come from tool deadlines, so the
 * predictor's answer is known exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { evaluate } from './helpers/internals.js';
import { ReadinessPredictor, type ReadinessSource } from './helpers/internals.js';
import type { Snapshot, SnapshotSession } from './helpers/internals.js';
import { loadSolver, type Solver } from './helpers/internals.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

const predictor = new ReadinessPredictor();

/** A session of 9,488 tokens (weight 10,000) with 8,000 cached on n0, its tool due `due` seconds after t = 100. */
function running(id: string, due: number): SnapshotSession {
  return {
    id,
    tokens: 9_488,
    cache: [{ node: 'n0', tokens: 8_000, observedAt: 100 }],
    tool: { name: 'pytest', startedAt: 99, deadline: 100 + due },
  };
}

const nodes = [
  { id: 'n0', capacity: 12_000 },
  { id: 'n1', capacity: 12_000 },
];

describe('hold rule', () => {
  it('holds a short tool where its prefix is cached and nowhere else; a long tool nowhere', () => {
    // holdHorizon 30: on n0, 10,000 * remaining < 30 * 8,000 iff remaining < 24 s; on n1 (no credit) never.
    const snapshot: Snapshot = {
      time: 100,
      nodes,
      sessions: [running('short', 5), running('below', 23.9), running('edge', 24), running('long', 90)],
    };
    const p = evaluate(snapshot, predictor, { holdHorizon: 30 });
    expect(p.sessions.map((s) => s.ready)).toEqual([false, false, false, false]);
    expect(p.sessions.map((s) => s.eligible)).toEqual([['n0'], ['n0'], [], []]);
    expect(p.sessions.map((s) => s.credit)).toEqual([{ n0: 8_000 }, { n0: 8_000 }, undefined, undefined]);
  });

  it('judges a running tool predicted ready like any running tool, and leaves returned and new sessions as the paper does', () => {
    const sessions: SnapshotSession[] = [
      running('due', 0.5), // predicted within the 1 s horizon: ready, still running
      { id: 'back', tokens: 9_488, tool: { name: 'pytest', startedAt: 0, returnedAt: 99 } },
      { id: 'new', tokens: 9_488 },
    ];
    const p = evaluate({ time: 100, nodes, sessions }, predictor, { holdHorizon: 30 });
    expect(p.sessions.map((s) => s.ready)).toEqual([true, true, true]);
    // 10,000 * 0.5 < 30 * 8,000: held where cached only.
    expect(p.sessions.map((s) => s.eligible)).toEqual([['n0'], undefined, undefined]);
  });

  it('holds nothing that still runs at horizon 0, not even a tool due now', () => {
    const sessions: SnapshotSession[] = [running('due', 0.5), running('now', 0)];
    const p = evaluate({ time: 100, nodes, sessions }, predictor, { holdHorizon: 0 });
    expect(p.sessions.map((s) => s.eligible)).toEqual([[], []]);
    expect(p.sessions.map((s) => s.credit)).toEqual([undefined, undefined]);
  });

  it('keeps the caller eligibility as the outer bound', () => {
    const s = { ...running('short', 5), eligible: ['n1'] };
    const p = evaluate({ time: 100, nodes, sessions: [s] }, predictor, { holdHorizon: 30 });
    expect(p.sessions[0]!.eligible).toEqual([]);
  });

  it('admits a returned session instead of holding capacity for a long tool (real solver)', () => {
    const one = [{ id: 'n0', capacity: 12_000 }];
    const sessions: SnapshotSession[] = [
      running('long', 90),
      { id: 'back', tokens: 9_488, tool: { name: 'pytest', startedAt: 0, returnedAt: 99 }, waitingSince: 99 },
    ];
    const snapshot: Snapshot = { time: 100, nodes: one, sessions };
    const paper = solver.solve(evaluate(snapshot, predictor), { quantum: 16 });
    expect(paper.assignments).toEqual([{ session: 'long', node: 'n0' }]);
    const held = solver.solve(evaluate(snapshot, predictor, { holdHorizon: 30 }), { quantum: 16 });
    expect(held.assignments).toEqual([{ session: 'back', node: 'n0' }]);
    // A short tool is still held, beating the uncredited returned session on credit.
    const short = { time: 100, nodes: one, sessions: [running('short', 5), sessions[1]!] };
    const heldShort = solver.solve(evaluate(short, predictor, { holdHorizon: 30 }), { quantum: 16 });
    expect(heldShort.assignments).toEqual([{ session: 'short', node: 'n0' }]);
  });

  it('needs a predictor with remaining, and checks what it returns', () => {
    const snapshot: Snapshot = { time: 100, nodes, sessions: [running('x', 5)] };
    const readyOnly: ReadinessSource = { ready: () => false };
    expect(() => evaluate(snapshot, readyOnly, { holdHorizon: 30 })).toThrow(
      new InvalidTypeError('predictor.remaining must be a function when options.holdHorizon is finite'),
    );
    expect(evaluate(snapshot, readyOnly).sessions[0]!.eligible).toBeUndefined();
    const negative: ReadinessSource = { ready: () => false, remaining: () => -1 };
    expect(() => evaluate(snapshot, negative, { holdHorizon: 30 })).toThrow(
      new InvalidValueError('predictor.remaining must return a non-negative number (got -1)'),
    );
    const text = { ready: () => false, remaining: () => '5' } as unknown as ReadinessSource;
    expect(() => evaluate(snapshot, text, { holdHorizon: 30 })).toThrow(
      new InvalidTypeError('predictor.remaining must return a number'),
    );
  });

  it('asks remaining with the snapshot time and session id, after ready', () => {
    const calls: string[] = [];
    const spy: ReadinessSource = {
      ready: (_t, now, session) => (calls.push(`ready ${now} ${session}`), false),
      remaining: (_t, now, session) => (calls.push(`remaining ${now} ${session}`), 1),
    };
    evaluate({ time: 100, nodes, sessions: [running('x', 5)] }, spy, { holdHorizon: 30 });
    expect(calls).toEqual(['ready 100 x', 'remaining 100 x']);
  });
});
