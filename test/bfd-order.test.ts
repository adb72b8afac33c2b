/**
 * BFD's documented order and placement: sessions by best triple (value order) or by tokens (ThunderAgent
 * order), ties by larger weight then input order; each to the fitting eligible node with the least
 * quantized capacity left, ties by higher credit there, then lower node index; a session that fits
 * nowhere is skipped. Each case is small enough to follow by hand.
 */
import { describe, expect, it } from 'vitest';
import { bfd } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import { expectFeasible } from './helpers/plan-checks.js';

const placed = (problem: Problem, order: 'value' | 'tokens' = 'value') =>
  Object.fromEntries(bfd(problem, { quantum: 1, order }).assignments.map((a) => [a.session, a.node]));

describe('bfd', () => {
  it('best fit: least capacity left over', () => {
    const problem: Problem = {
      nodes: [
        { id: 'roomy', capacity: 20 },
        { id: 'snug', capacity: 6 },
      ],
      sessions: [{ id: 's', weight: 5, tokens: 1, ready: true }],
    };
    expect(placed(problem)).toEqual({ s: 'snug' });
  });

  it('leftover tie: higher credit on the node, then lower node index', () => {
    const nodes = [
      { id: 'n0', capacity: 10 },
      { id: 'n1', capacity: 10 },
      { id: 'n2', capacity: 10 },
    ];
    expect(
      placed({ nodes, sessions: [{ id: 's', weight: 4, tokens: 1, ready: true, credit: { n2: 2, n1: 2 } }] }),
    ).toEqual({ s: 'n1' });
    expect(placed({ nodes, sessions: [{ id: 's', weight: 4, tokens: 1, ready: true }] })).toEqual({ s: 'n0' });
  });

  it('value order: best credit, then ready, then tokens, then larger weight, then input order', () => {
    // One node with room for exactly one session of weight 5: the first in the order wins it.
    const nodes = [{ id: 'g', capacity: 5 }];
    const s = (id: string, extra: object) => ({ id, weight: 5, tokens: 0, ready: false, ...extra });
    expect(
      placed({ nodes, sessions: [s('ready', { ready: true, tokens: 99 }), s('cached', { credit: { g: 1 } })] }),
    ).toEqual({ cached: 'g' });
    expect(placed({ nodes, sessions: [s('tokens', { tokens: 99 }), s('ready', { ready: true })] })).toEqual({
      ready: 'g',
    });
    expect(placed({ nodes, sessions: [s('few', { tokens: 1 }), s('many', { tokens: 2 })] })).toEqual({ many: 'g' });
    expect(placed({ nodes, sessions: [s('first', {}), s('second', {})] })).toEqual({ first: 'g' });
    // Larger weight first on a tie: both fit alone, only one fits.
    const tie: Problem = {
      nodes: [{ id: 'g', capacity: 5 }],
      sessions: [s('light', { weight: 3 }), s('heavy', { weight: 5 })],
    };
    expect(placed(tie)).toEqual({ heavy: 'g' });
  });

  it('best triple counts only nodes the session is eligible on and fits on', () => {
    const nodes = [
      { id: 'tiny', capacity: 2 },
      { id: 'g', capacity: 5 },
    ];
    const sessions = [
      { id: 'x', weight: 5, tokens: 0, ready: false, credit: { tiny: 100 } }, // credit where it cannot fit
      { id: 'y', weight: 5, tokens: 0, ready: false, credit: { g: 1 } },
    ];
    expect(placed({ nodes, sessions })).toEqual({ y: 'g' });
  });

  it('tokens order (ThunderAgent): token count descending, whatever the credit', () => {
    const nodes = [{ id: 'g', capacity: 5 }];
    const sessions = [
      { id: 'cached', weight: 5, tokens: 1, ready: true, credit: { g: 100 } },
      { id: 'long', weight: 5, tokens: 2, ready: false },
    ];
    expect(placed({ nodes, sessions }, 'tokens')).toEqual({ long: 'g' });
    expect(placed({ nodes, sessions }, 'value')).toEqual({ cached: 'g' });
  });

  it('skips what fits nowhere and keeps going; reports fallback with its order', () => {
    const problem: Problem = {
      nodes: [{ id: 'g', capacity: 10 }],
      sessions: [
        { id: 'big', weight: 8, tokens: 0, ready: true, credit: { g: 9 } },
        { id: 'mid', weight: 6, tokens: 0, ready: true, credit: { g: 5 } },
        { id: 'small', weight: 2, tokens: 0, ready: true, credit: { g: 1 } },
      ],
    };
    const plan = bfd(problem, { quantum: 1 });
    expect(plan.assignments.map((a) => a.session)).toEqual(['big', 'small']);
    expect(plan).toMatchObject({
      status: 'fallback',
      reason: 'bfd requested (order: value)',
      stats: { path: 'bfd', work: 0 },
    });
    expect(bfd(problem, { quantum: 1, order: 'tokens' }).reason).toBe('bfd requested (order: tokens)');
    expectFeasible(problem, plan);
  });

  it('works at the quantum: residuals and weights are quantized', () => {
    // quantum 4: capacity 10 -> 2 units; weights 5 -> 2 units, 3 -> 1 unit. Exact sizes would fit 5 + 3.
    const problem: Problem = {
      nodes: [{ id: 'g', capacity: 10 }],
      sessions: [
        { id: 'a', weight: 5, tokens: 0, ready: true, credit: { g: 2 } },
        { id: 'b', weight: 3, tokens: 0, ready: true, credit: { g: 1 } },
      ],
    };
    expect(bfd(problem, { quantum: 4 }).assignments.map((a) => a.session)).toEqual(['a']);
    expect(bfd(problem, { quantum: 1 }).assignments.map((a) => a.session)).toEqual(['a', 'b']);
  });
});
