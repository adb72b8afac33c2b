import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { revalidate } from './helpers/internals.js';
import type { Assignment, Problem, ProblemSession } from './helpers/internals.js';

const snapshot: Problem = {
  nodes: [
    { id: 'n1', capacity: 10_000 },
    { id: 'n2', capacity: 6_000 },
  ],
  sessions: [
    { id: 'a', weight: 4_000, tokens: 3_500, ready: true, signature: 1 },
    { id: 'b', weight: 5_000, tokens: 4_500, ready: false, signature: 1 },
    { id: 'c', weight: 3_000, tokens: 2_500, ready: true, signature: 'x', eligible: ['n2'] },
  ],
};
const plan = {
  assignments: [
    { session: 'a', node: 'n1' },
    { session: 'b', node: 'n1' },
    { session: 'c', node: 'n2' },
  ],
};

function withSession(p: Problem, id: string, patch: Partial<ProblemSession>): Problem {
  return { nodes: p.nodes, sessions: p.sessions.map((s) => (s.id === id ? { ...s, ...patch } : s)) };
}

describe('revalidate: known cases', () => {
  it('applies the whole plan when live state equals the snapshot, with exact residuals', () => {
    const r = revalidate(plan, snapshot, snapshot);
    expect(r.outcome).toBe('applied');
    expect(r.applied).toEqual(plan.assignments);
    expect(r.cut).toEqual([]);
    expect(r.cutAt).toBeUndefined();
    expect(r.residual).toEqual({ n1: 1_000, n2: 3_000 });
  });

  it('drops the whole plan when one selected session changed signature, naming it', () => {
    const live = withSession(snapshot, 'c', { signature: 'y' });
    const r = revalidate(plan, snapshot, live);
    expect(r.outcome).toBe('dropped');
    expect(r.applied).toEqual([]);
    expect(r.cut).toEqual(plan.assignments);
    expect(r.changed).toEqual(['c']);
    expect(r.cutAt).toEqual({
      index: 2,
      assignment: { session: 'c', node: 'n2' },
      reason: { code: 'signature-changed', session: 'c', before: 'x', after: 'y' },
      message: 'signature of session "c" changed (x -> y)',
    });
  });

  it('drops the whole plan when a selected session is gone', () => {
    const live: Problem = { nodes: snapshot.nodes, sessions: snapshot.sessions.filter((s) => s.id !== 'b') };
    const r = revalidate(plan, snapshot, live);
    expect(r.outcome).toBe('dropped');
    expect(r.cutAt?.reason).toEqual({ code: 'session-gone', session: 'b' });
    expect(r.cutAt?.message).toBe('session "b" is no longer waiting');
  });

  it('ignores signature changes of sessions the plan did not select', () => {
    const live: Problem = {
      nodes: snapshot.nodes,
      sessions: [...snapshot.sessions, { id: 'd', weight: 1, tokens: 0, ready: true, signature: 9 }],
    };
    const extra: Problem = {
      nodes: snapshot.nodes,
      sessions: [...snapshot.sessions, { id: 'd', weight: 1, tokens: 0, ready: true, signature: 8 }],
    };
    const r = revalidate({ assignments: plan.assignments.slice(0, 1) }, extra, live);
    expect(r.outcome).toBe('applied');
  });

  it('cuts at the first assignment that no longer fits, in exact tokens', () => {
    // 9_000 left on n1 after a's 4_000 would leave 5_000 for b: fits exactly at 9_000, not at 8_999.
    const fits = revalidate(plan, snapshot, {
      nodes: [{ id: 'n1', capacity: 9_000 }, snapshot.nodes[1]!],
      sessions: snapshot.sessions,
    });
    expect(fits.outcome).toBe('applied');
    const live: Problem = { nodes: [{ id: 'n1', capacity: 8_999 }, snapshot.nodes[1]!], sessions: snapshot.sessions };
    const r = revalidate(plan, snapshot, live);
    expect(r.outcome).toBe('truncated');
    expect(r.applied).toEqual([{ session: 'a', node: 'n1' }]);
    expect(r.cut).toEqual(plan.assignments.slice(1));
    expect(r.cutAt?.reason).toEqual({ code: 'capacity', session: 'b', node: 'n1', weight: 5_000, available: 4_999 });
    expect(r.cutAt?.message).toBe('capacity on node "n1": session "b" needs 5000 tokens, 4999 left');
    expect(r.residual).toEqual({ n1: 4_999, n2: 6_000 });
  });

  it('uses the live weight, not the snapshot weight', () => {
    const live = withSession(snapshot, 'a', { weight: 6_000 });
    const r = revalidate(plan, snapshot, live);
    expect(r.cutAt?.reason).toEqual({ code: 'capacity', session: 'b', node: 'n1', weight: 5_000, available: 4_000 });
  });

  it('does not skip a failed assignment to apply later ones (prefix, not subset)', () => {
    // c on n2 would still fit, but b failed first.
    const live = withSession(snapshot, 'b', { eligible: ['n2'] });
    const r = revalidate(plan, snapshot, live);
    expect(r.outcome).toBe('truncated');
    expect(r.applied).toEqual([{ session: 'a', node: 'n1' }]);
    expect(r.cutAt?.reason).toEqual({ code: 'ineligible', session: 'b', node: 'n1' });
    expect(r.cutAt?.message).toBe('session "b" is not eligible on node "n1"');
  });

  it('cuts at a node that left', () => {
    const live: Problem = {
      nodes: [snapshot.nodes[0]!],
      sessions: snapshot.sessions.map((s) => (s.id === 'c' ? { ...s, eligible: ['n1'] } : s)),
    };
    const r = revalidate(plan, snapshot, live);
    expect(r.cutAt?.reason).toEqual({ code: 'node-gone', session: 'c', node: 'n2' });
    expect(r.applied).toHaveLength(2);
  });

  it('applies only the first placement of a session the plan repeats', () => {
    const twice = {
      assignments: [
        { session: 'a', node: 'n1' },
        { session: 'a', node: 'n2' },
      ],
    };
    const r = revalidate(twice, snapshot, snapshot);
    expect(r.applied).toEqual([{ session: 'a', node: 'n1' }]);
    expect(r.cutAt?.reason).toEqual({ code: 'duplicate', session: 'a', node: 'n2' });
  });

  it('rejects a plan naming a session the snapshot does not have', () => {
    expect(() => revalidate({ assignments: [{ session: 'zz', node: 'n1' }] }, snapshot, snapshot)).toThrow(
      new InvalidValueError('plan.assignments[0].session names session "zz" that is not in the snapshot'),
    );
  });

  it('validates the live state with paths under `live`', () => {
    const bad = { nodes: [{ id: 'n1', capacity: -1 }], sessions: [] } as Problem;
    expect(() => revalidate(plan, snapshot, bad)).toThrow(
      new InvalidValueError('live.nodes[0].capacity must be a non-negative safe integer'),
    );
    expect(() => revalidate(plan, snapshot, { nodes: 3 } as unknown as Problem)).toThrow(InvalidTypeError);
  });
});

// ---- properties -------------------------------------------------------------------------------------

interface World {
  snapshot: Problem;
  plan: Assignment[];
  live: Problem;
}

const NODE_IDS = ['n0', 'n1', 'n2', 'n3'];

/** A snapshot, a plan over it (any order, possibly infeasible or repeating a session) and a drifted live state. */
const worldArb: fc.Arbitrary<World> = fc
  .record({
    capacities: fc.array(fc.integer({ min: 0, max: 40_000 }), { minLength: 1, maxLength: 4 }),
    sessions: fc.array(
      fc.record({
        weight: fc.integer({ min: 1, max: 15_000 }),
        signature: fc.integer({ min: 0, max: 3 }),
        eligibleMask: fc.integer({ min: 0, max: 15 }),
      }),
      { minLength: 0, maxLength: 12 },
    ),
    picks: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 14 }),
    drift: fc.array(
      fc.record({
        kind: fc.constantFrom('signature', 'gone', 'weight', 'eligible', 'none', 'none'),
        amount: fc.integer({ min: 1, max: 15_000 }),
        mask: fc.integer({ min: 0, max: 15 }),
      }),
      { minLength: 12, maxLength: 12 },
    ),
    capacityDrift: fc.array(fc.integer({ min: -20_000, max: 20_000 }), { minLength: 4, maxLength: 4 }),
    nodeGone: fc.integer({ min: -1, max: 3 }),
  })
  .map(({ capacities, sessions, picks, drift, capacityDrift, nodeGone }) => {
    const nodeIds = NODE_IDS.slice(0, capacities.length);
    const eligibleFor = (mask: number): string[] | undefined =>
      mask === 15 ? undefined : nodeIds.filter((_, b) => (mask >> b) & 1);
    const snapSessions: ProblemSession[] = sessions.map((s, i) => {
      const eligible = eligibleFor(s.eligibleMask);
      return {
        id: `s${i}`,
        weight: s.weight,
        tokens: s.weight,
        ready: true,
        signature: s.signature,
        ...(eligible ? { eligible } : {}),
      };
    });
    const snap: Problem = { nodes: nodeIds.map((id, b) => ({ id, capacity: capacities[b]! })), sessions: snapSessions };
    const plan: Assignment[] =
      snapSessions.length === 0
        ? []
        : picks.map(([i, b]) => ({
            session: snapSessions[i % snapSessions.length]!.id,
            node: nodeIds[b % nodeIds.length]!,
          }));
    const liveNodes = snap.nodes
      .filter((_, b) => b !== nodeGone || nodeIds.length === 1)
      .map((n, b) => ({ id: n.id, capacity: Math.max(0, n.capacity + capacityDrift[b]!) }));
    const liveIds = liveNodes.map((n) => n.id);
    const liveSessions: ProblemSession[] = [];
    snapSessions.forEach((s, i) => {
      const d = drift[i]!;
      if (d.kind === 'gone') return;
      const base: ProblemSession = { ...s };
      if (base.eligible !== undefined) {
        const kept = base.eligible.filter((e) => liveIds.includes(e));
        base.eligible = kept;
      }
      if (d.kind === 'signature') base.signature = (s.signature as number) + 10;
      if (d.kind === 'weight') base.weight = d.amount;
      if (d.kind === 'eligible') base.eligible = liveIds.filter((_, b) => (d.mask >> b) & 1);
      liveSessions.push(base);
    });
    return { snapshot: snap, plan, live: { nodes: liveNodes, sessions: liveSessions } };
  });

describe('revalidate: properties under random drift', () => {
  it('the applied plan is a prefix, fits every live capacity, places each session once, and never holds a changed session', () => {
    fc.assert(
      fc.property(worldArb, ({ snapshot: snap, plan: assignments, live }) => {
        const r = revalidate({ assignments }, snap, live);
        // prefix of the submitted plan, and applied ++ cut is the plan
        expect(r.applied).toEqual(assignments.slice(0, r.applied.length));
        expect([...r.applied, ...r.cut]).toEqual(assignments);
        // capacity: recompute the load per live node from scratch
        const liveSession = new Map(live.sessions.map((s) => [s.id, s]));
        const load = new Map<string, number>();
        for (const a of r.applied) load.set(a.node, (load.get(a.node) ?? 0) + liveSession.get(a.session)!.weight);
        for (const n of live.nodes) expect(load.get(n.id) ?? 0).toBeLessThanOrEqual(n.capacity);
        for (const node of load.keys()) expect(live.nodes.some((n) => n.id === node)).toBe(true);
        // once each
        expect(new Set(r.applied.map((a) => a.session)).size).toBe(r.applied.length);
        // eligibility
        for (const a of r.applied) {
          const e = liveSession.get(a.session)!.eligible;
          expect(e === undefined || e.includes(a.node)).toBe(true);
        }
        // no changed or vanished session is applied, and one changed selected session drops everything
        const snapSig = new Map(snap.sessions.map((s) => [s.id, s.signature]));
        const changed = assignments.filter(
          (a) => liveSession.get(a.session)?.signature !== snapSig.get(a.session) || !liveSession.has(a.session),
        );
        if (changed.length > 0) {
          expect(r.outcome).toBe('dropped');
          expect(r.applied).toEqual([]);
        }
        for (const a of r.applied) expect(liveSession.get(a.session)!.signature).toBe(snapSig.get(a.session));
        // longest: when cut for capacity, the cut assignment really does not fit the residual
        if (r.cutAt?.reason.code === 'capacity') {
          const { node, weight, available } = r.cutAt.reason;
          const cap = live.nodes.find((n) => n.id === node)!.capacity;
          expect(available).toBe(cap - (load.get(node) ?? 0));
          expect(weight).toBeGreaterThan(available);
        }
        expect(r.outcome === 'applied').toBe(r.cut.length === 0);
      }),
      { numRuns: 2_000 },
    );
  });
});
