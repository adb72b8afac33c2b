/**
 * A session's eligible nodes in the indexed problem, in each of its three forms: every node (no list), only
 * the listed ones (a session's `eligible`) and every node but the listed ones (the form a reduced problem
 * uses). Both ways of asking, `isEligible` and `markEligible` then `eligibleMarked` (one mark array over a
 * pass of sessions, as the plan's bound uses it), answer for every session and node exactly as the input's
 * lists say, with sessions whose lists lie next to each other in the flat entry array: no answer reads an
 * entry of the session before or after.
 */
import { describe, expect, it } from 'vitest';
import {
  EVERY_NODE,
  eligibleMarked,
  type IndexedArrays,
  isEligible,
  LISTED_NODES,
  markEligible,
  type Problem,
  UNLISTED_NODES,
  validateProblem,
} from './helpers/internals.js';

const nodeIds = ['n0', 'n1', 'n2', 'n3', 'n4'];
// Each listed session's first entry is a node the session before it does not list; s2 lists none.
const lists: Array<string[] | undefined> = [
  ['n1', 'n3'],
  ['n0'],
  undefined,
  ['n2', 'n4'],
  ['n3'],
  ['n0', 'n1', 'n2', 'n3', 'n4'],
];
const problem: Problem = {
  nodes: nodeIds.map((id) => ({ id, capacity: 10 })),
  sessions: lists.map((eligible, i) => ({
    id: `s${i}`,
    weight: 1,
    tokens: 0,
    ready: true,
    ...(eligible === undefined ? {} : { eligible }),
  })),
};

/** The answer read off the input: listed (or, in the complement form, not listed) or no list at all. */
const oracle = (i: number, b: number, complement: boolean): boolean => {
  const list = lists[i];
  if (list === undefined) return true;
  return list.includes(nodeIds[b]!) !== complement;
};

/** The answers of both ways of asking, per session then node, over one pass of sessions. */
function answers(ix: IndexedArrays): { direct: boolean[][]; marked: boolean[][] } {
  const mark = new Int32Array(nodeIds.length);
  const direct: boolean[][] = [];
  const marked: boolean[][] = [];
  for (let i = 0; i < lists.length; i++) {
    markEligible(ix, i, mark, i + 1);
    direct.push(nodeIds.map((_, b) => isEligible(ix, i, b)));
    marked.push(nodeIds.map((_, b) => eligibleMarked(ix, i, b, mark, i + 1)));
  }
  return { direct, marked };
}

describe('eligibility of a session for a node', () => {
  const ix = validateProblem(problem);
  const expected = (complement: boolean): boolean[][] =>
    lists.map((_, i) => nodeIds.map((_, b) => oracle(i, b, complement)));

  it('is given by the forms: no list is every node, a list is only its nodes', () => {
    expect(Array.from(ix.limited)).toEqual(lists.map((l) => (l === undefined ? EVERY_NODE : LISTED_NODES)));
  });

  it('answers as the input lists for every session and node, asked directly or through marks', () => {
    const { direct, marked } = answers(ix);
    expect(direct).toEqual(expected(false));
    expect(marked).toEqual(expected(false));
  });

  it('answers the complement of the lists where they name excluded nodes', () => {
    const complement: IndexedArrays = {
      ...ix,
      limited: Uint8Array.from(ix.limited, (form) => (form === LISTED_NODES ? UNLISTED_NODES : form)),
    };
    const { direct, marked } = answers(complement);
    expect(direct).toEqual(expected(true));
    expect(marked).toEqual(expected(true));
  });
});
