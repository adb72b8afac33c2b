import { describe, expect, it } from 'vitest';
import type { SnapshotSession } from './helpers/internals.js';
import { sessionSignature } from './helpers/internals.js';

/**
 * The signature is compared across processes (a worker and the main thread; a sidecar client sends back
 * the signatures of an earlier tick response, possibly to a restarted sidecar), so it is a fixed function
 * of the session's fields, with no seed: the values below are pinned.
 */
const sessions: [string, SnapshotSession, number, boolean, number][] = [
  ['a new session on every node', { id: 'a', tokens: 0 }, 512, true, 1329670891338938],
  ['a listed eligibility set', { id: 'b', tokens: 5000, eligible: ['n1', 'n2'] }, 5512, false, 5238106672261817],
  ['a running call', { id: 'c', tokens: 70, tool: { name: 'bash', startedAt: 12.5 } }, 582, false, 2387716389842907],
  [
    'a returned call',
    { id: 'd', tokens: 9, tool: { name: 'grep', startedAt: 3, returnedAt: 4 } },
    9,
    true,
    3280424586700915,
  ],
];

describe('session signature digest', () => {
  it.each(sessions)('is the pinned value for %s', (_name, session, weight, ready, pinned) => {
    expect(sessionSignature(session, weight, ready)).toBe(pinned);
  });

  it('is a 53-bit non-negative integer', () => {
    for (const [, session, weight, ready] of sessions) {
      const s = sessionSignature(session, weight, ready);
      expect(Number.isSafeInteger(s)).toBe(true);
      expect(s).toBeGreaterThanOrEqual(0);
    }
  });

  it('treats a start time of -0 as 0 (the same instant)', () => {
    const zero = sessionSignature({ id: 's', tokens: 1, tool: { name: 't', startedAt: 0 } }, 1, false);
    const negativeZero = sessionSignature({ id: 's', tokens: 1, tool: { name: 't', startedAt: -0 } }, 1, false);
    expect(negativeZero).toBe(zero);
  });

  it('tells apart eligibility sets of the same size', () => {
    const one = sessionSignature({ id: 's', tokens: 1, eligible: ['n1', 'n2'] }, 1, true);
    const other = sessionSignature({ id: 's', tokens: 1, eligible: ['n1', 'n3'] }, 1, true);
    expect(other).not.toBe(one);
  });

  it('tells apart an eligibility list from the same list with one more node', () => {
    const two = sessionSignature({ id: 's', tokens: 1, eligible: ['n1', 'n2'] }, 1, true);
    const three = sessionSignature({ id: 's', tokens: 1, eligible: ['n1', 'n2', 'n3'] }, 1, true);
    expect(three).not.toBe(two);
  });
});
