/**
 * bestNodesPlan's scratch (`BestNodesScratch`, kept by the caller between solves): arrays large enough
 * for the problem are used as they are, never replaced; arrays too small are replaced by larger ones,
 * and the plan is the same as with a fresh scratch.
 */
import { describe, expect, it } from 'vitest';
import { BestNodesScratch, bestNodesPlan, prepare, type Problem } from './helpers/internals.js';

/** n sessions of weight 1 on m nodes of capacity n (every session fits anywhere). */
function packedOf(n: number, m: number) {
  const problem: Problem = {
    nodes: Array.from({ length: m }, (_, b) => ({ id: `n${b}`, capacity: n })),
    sessions: Array.from({ length: n }, (_, j) => ({ id: `s${j}`, weight: 1, tokens: 1, ready: true })),
  };
  return prepare(problem, { quantum: 1 }).packed;
}

describe('best-nodes scratch', () => {
  it('keeps arrays exactly as long as the problem needs', () => {
    const packed = packedOf(5, 3);
    const scratch = new BestNodesScratch();
    scratch.sequence = new Int32Array(5);
    scratch.out = new Int32Array(5);
    scratch.residual = new Float64Array(3);
    const { sequence, out, residual } = scratch;
    const plan = bestNodesPlan(packed, undefined, scratch);
    expect(plan).toEqual(bestNodesPlan(packed));
    expect(scratch.sequence).toBe(sequence);
    expect(scratch.out).toBe(out);
    expect(scratch.residual).toBe(residual);
  });

  it('keeps its default arrays for a small problem', () => {
    const packed = packedOf(4, 2);
    const scratch = new BestNodesScratch();
    const { sequence, out, residual } = scratch;
    bestNodesPlan(packed, undefined, scratch);
    expect([scratch.sequence, scratch.out, scratch.residual]).toEqual([sequence, out, residual]);
    expect(scratch.sequence).toBe(sequence);
    expect(scratch.out).toBe(out);
    expect(scratch.residual).toBe(residual);
  });

  it('grows arrays too short for the problem, with the same plan', () => {
    const packed = packedOf(6, 4);
    const scratch = new BestNodesScratch();
    scratch.sequence = new Int32Array(5);
    scratch.out = new Int32Array(5);
    scratch.residual = new Float64Array(3);
    const plan = bestNodesPlan(packed, undefined, scratch);
    expect(plan).not.toBeNull();
    expect(plan).toEqual(bestNodesPlan(packed));
    expect(scratch.sequence.length).toBeGreaterThanOrEqual(6);
    expect(scratch.out.length).toBeGreaterThanOrEqual(6);
    expect(scratch.residual.length).toBeGreaterThanOrEqual(4);
    // Used again, the grown arrays stay.
    const { sequence, residual } = scratch;
    expect(bestNodesPlan(packed, undefined, scratch)).toEqual(plan);
    expect(scratch.sequence).toBe(sequence);
    expect(scratch.residual).toBe(residual);
  });
});
