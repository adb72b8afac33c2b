/**
 * Validation reads each session's fields in its key scan (src/solve/validate.ts `sessionFields`): the
 * indexed problem is the same whatever the sessions' object shapes, each field's getter runs once, and a
 * required field the scan does not see (not enumerable) is still read as a property.
 */
import { describe, expect, it } from 'vitest';
import { burstProblem, validateProblem, validateScratch } from './helpers/internals.js';
import type { Problem } from '../src/index.js';

/** A session with every field of a Session, on node n0. */
const EVERY_FIELD = {
  id: 's0',
  weight: 10,
  tokens: 8,
  ready: true,
  signature: 'x',
  eligible: ['n0'],
  credit: { n0: 3 },
};

describe('validation reads the fields in its key scan', () => {
  it('gives the same indexed problem for sessions of many shapes as for their JSON copies', () => {
    // The burst family's credited sessions are spread copies with a credit object per node: dozens of
    // shapes. Their JSON copies have two.
    const problem = burstProblem(3, 4, 16, 512, 0);
    const json = JSON.parse(JSON.stringify(problem)) as Problem;
    const store = validateScratch();
    const fromObjects = validateProblem(problem, 'problem', store);
    const copy = (x: ReturnType<typeof validateProblem>) => ({
      ...x,
      capacity: Array.from(x.capacity),
      weight: Array.from(x.weight),
      tokens: Array.from(x.tokens),
      ready: Array.from(x.ready),
      creditStart: Array.from(x.creditStart),
      creditNode: Array.from(x.creditNode),
      creditValue: Array.from(x.creditValue),
      limited: Array.from(x.limited),
      eligibleStart: Array.from(x.eligibleStart),
      eligibleNode: Array.from(x.eligibleNode),
    });
    const a = copy(fromObjects);
    expect(a.creditNode.length).toBeGreaterThan(100);
    expect(copy(validateProblem(json, 'problem', store))).toEqual(a);
  });

  it('runs each field getter of a session once', () => {
    const reads = new Map<string, number>();
    const session: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(EVERY_FIELD)) {
      Object.defineProperty(session, key, {
        enumerable: true,
        get: () => {
          reads.set(key, (reads.get(key) ?? 0) + 1);
          return value;
        },
      });
    }
    const indexed = validateProblem({ nodes: [{ id: 'n0', capacity: 100 }], sessions: [session] });
    expect(Object.fromEntries(reads)).toEqual(Object.fromEntries(Object.keys(EVERY_FIELD).map((k) => [k, 1])));
    expect(Array.from(indexed.weight)).toEqual([10]);
    expect(Array.from(indexed.creditValue)).toEqual([3]);
    expect(Array.from(indexed.eligibleNode)).toEqual([0]);
  });

  it('refuses an unknown key by its name on a session that has every optional field before it', () => {
    const session = { ...EVERY_FIELD, colour: 'blue' };
    expect(() => validateProblem({ nodes: [{ id: 'n0', capacity: 100 }], sessions: [session] })).toThrow(
      'problem.sessions[0].colour is not a known field',
    );
  });

  it('reads a required field the key scan does not see (not enumerable) as a property', () => {
    const hidden: Record<string, unknown> = { id: 's0', tokens: 8, ready: false };
    Object.defineProperty(hidden, 'weight', { enumerable: false, value: 12 });
    const bare = Object.create(null) as Record<string, unknown>;
    Object.defineProperty(bare, 'ready', { enumerable: false, value: true });
    Object.defineProperty(bare, 'id', { enumerable: false, value: 's1' });
    Object.assign(bare, { weight: 5, tokens: 4 });
    const indexed = validateProblem({ nodes: [{ id: 'n0', capacity: 100 }], sessions: [hidden, bare] });
    expect(Array.from(indexed.weight)).toEqual([12, 5]);
    expect(Array.from(indexed.ready)).toEqual([0, 1]);
    expect(indexed.sessionIds).toEqual(['s0', 's1']);
    // A missing one is still refused by name.
    expect(() => validateProblem({ nodes: [], sessions: [{ id: 's0', tokens: 1, ready: true }] })).toThrow(
      'problem.sessions[0].weight must be',
    );
  });
});
