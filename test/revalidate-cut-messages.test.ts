/**
 * What `revalidate` says and returns beyond the prefix itself: the one-line message of every cut reason,
 * a typed error naming the field for an assignment whose session or node is not a string, each changed
 * session listed once however often the plan places it, and result arrays that are the caller's own (not
 * the plan's array, so editing them leaves the plan as it was).
 */
import { describe, expect, it } from 'vitest';
import { InvalidTypeError, revalidate, type Problem } from './helpers/internals.js';

const snapshot: Problem = {
  nodes: [
    { id: 'n1', capacity: 10_000 },
    { id: 'n2', capacity: 6_000 },
  ],
  sessions: [
    { id: 'a', weight: 4_000, tokens: 3_500, ready: true, signature: 1 },
    { id: 'b', weight: 5_000, tokens: 4_500, ready: false, signature: 1 },
  ],
};

describe('revalidate: cut messages', () => {
  it('names the node and session of a node that left', () => {
    const live: Problem = { nodes: [snapshot.nodes[0]!], sessions: snapshot.sessions };
    const r = revalidate({ assignments: [{ session: 'a', node: 'n2' }] }, snapshot, live);
    expect(r.cutAt?.message).toBe('node "n2" of session "a" is gone');
  });

  it('names a session placed twice and the node of its second placement', () => {
    const r = revalidate(
      {
        assignments: [
          { session: 'a', node: 'n1' },
          { session: 'a', node: 'n2' },
        ],
      },
      snapshot,
      snapshot,
    );
    expect(r.cutAt?.message).toBe('session "a" is placed twice (again on node "n2")');
  });
});

describe('revalidate: malformed assignments', () => {
  for (const [field, assignment] of [
    ['session', { session: 1, node: 'n1' }],
    ['node', { session: 'a', node: null }],
  ] as const) {
    it(`refuses an assignment whose ${field} is not a string, naming it`, () => {
      const call = (): unknown =>
        revalidate({ assignments: [{ session: 'a', node: 'n1' }, assignment] } as never, snapshot, snapshot);
      expect(call).toThrow(InvalidTypeError);
      expect(call).toThrow(`plan.assignments[1].${field} must be a string`);
    });
  }
});

describe('revalidate: result shape', () => {
  it('lists a changed session once when the plan places it twice', () => {
    const live: Problem = {
      nodes: snapshot.nodes,
      sessions: [{ ...snapshot.sessions[0]!, signature: 2 }, snapshot.sessions[1]!],
    };
    const plan = {
      assignments: [
        { session: 'a', node: 'n1' },
        { session: 'b', node: 'n1' },
        { session: 'a', node: 'n2' },
      ],
    };
    expect(revalidate(plan, snapshot, live).changed).toEqual(['a']);
  });

  it('returns arrays of its own: editing them leaves the plan as it was', () => {
    const plan = {
      assignments: [
        { session: 'a', node: 'n1' },
        { session: 'b', node: 'n1' },
      ],
    };
    const applied = revalidate(plan, snapshot, snapshot);
    expect(applied.outcome).toBe('applied');
    expect(applied.applied).not.toBe(plan.assignments);
    applied.applied.pop();
    const live: Problem = { nodes: snapshot.nodes, sessions: [snapshot.sessions[0]!] };
    const dropped = revalidate(plan, snapshot, live);
    expect(dropped.outcome).toBe('dropped');
    expect(dropped.cut).not.toBe(plan.assignments);
    dropped.cut.pop();
    expect(plan.assignments).toEqual([
      { session: 'a', node: 'n1' },
      { session: 'b', node: 'n1' },
    ]);
  });
});
