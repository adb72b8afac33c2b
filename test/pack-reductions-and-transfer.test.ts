/**
 * Packing: quantization (w' = ceil(w / q), C' = floor(C / q)), the exact reductions (capacity capped at
 * the sum of fitting weights, empty nodes and unplaceable sessions dropped, largest radix innermost), the
 * packed key layout, and structured cloning / transfer of the result to another thread.
 */
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packedTransferList, type PackedProblem } from './helpers/internals.js';
import { BEST_NODES_PAIR_WORK, loadSolver, packWork, prepare, type Solver } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

const problem: Problem = {
  nodes: [
    { id: 'empty', capacity: 0 },
    { id: 'small', capacity: 25 }, // C' = 2 at quantum 10
    { id: 'big', capacity: 1000 }, // C' = 100, reduced to the fitting weights' sum
  ],
  sessions: [
    { id: 'a', weight: 11, tokens: 7, ready: true, credit: { small: 3, big: 1 } }, // w' = 2
    { id: 'nowhere', weight: 2000, tokens: 1, ready: true }, // fits no node: dropped
    { id: 'b', weight: 30, tokens: 2, ready: false, credit: { big: 4 }, eligible: ['small', 'big'] }, // w' = 3: only big
    { id: 'c', weight: 1, tokens: 0, ready: true, eligible: ['empty'] }, // eligible only on a full node: dropped
  ],
};

describe('packProblem', () => {
  const { packed } = prepare(problem, { quantum: 10 });

  it('quantizes, reduces and orders', () => {
    expect(Array.from(packed.sessionIndex)).toEqual([0, 2]);
    // big: min(100, 2 + 3) = 5; small: min(2, 2) = 2; largest radix first.
    expect(Array.from(packed.nodeIndex)).toEqual([2, 1]);
    expect(Array.from(packed.capacity)).toEqual([5, 2]);
    expect(Array.from(packed.qcapacity)).toEqual([100, 2]);
    expect(Array.from(packed.qweight)).toEqual([2, 3]);
    expect(Array.from(packed.candidate)).toEqual([1, 1, 1, 0]);
    expect(packed.states).toBe(6 * 3);
    expect(packed.cells).toBe(2 * 18);
  });

  it('packs keys as credit * (R + 1)(T + 1) + ready * (T + 1) + tokens', () => {
    // Kept: a (ready, 7 tokens), b (not ready, 2 tokens): R = 1, T = 9.
    const rt = 2n * 10n;
    expect(packed.keyFits).toBe(true);
    expect(Array.from(packed.key)).toEqual([1n * rt + 10n + 7n, 3n * rt + 10n + 7n, 4n * rt + 2n, -1n]);
  });

  it('the optimum on the packed problem maps back to original indices, on every path', () => {
    for (const path of ['auto', 'dense', 'frontier'] as const) {
      const plan = solver.solve(problem, { quantum: 10, path });
      expect(plan.assignments).toEqual([
        { session: 'b', node: 'big' },
        { session: 'a', node: 'small' },
      ]);
      expect(plan.stats).toMatchObject({ nodesKept: 2, sessionsKept: 2, states: 18 });
    }
    // Each session on its best-credit node fits: no DP cell is visited, only validation and packing and
    // the check's pass over the pairs.
    const packing = packWork(prepare(problem, { quantum: 10 }).packed);
    expect(solver.solve(problem, { quantum: 10 }).stats).toMatchObject({
      path: 'best-nodes',
      work: packing + BEST_NODES_PAIR_WORK * 2 * 2,
    });
    expect(solver.solve(problem, { quantum: 10, path: 'dense' }).stats).toMatchObject({
      path: 'dense',
      work: packing + 36,
    });
  });
});

describe('structured clone and transfer', () => {
  const prepared = prepare(problem, { quantum: 10 });

  it('structuredClone preserves every field and the solution', () => {
    const copy = structuredClone(prepared.packed);
    expect(copy).toEqual(prepared.packed);
    expect(solver.runPacked(copy, prepared.options)).toEqual(solver.runPacked(prepared.packed, prepared.options));
  });

  it('packedTransferList lists each buffer once and a transfer detaches them', async () => {
    const packed = prepare(problem, { quantum: 10 }).packed;
    const list = packedTransferList(packed);
    expect(new Set(list).size).toBe(list.length);
    expect(list.length).toBe(1); // every packed array is a view on one buffer
    const { port1, port2 } = new MessageChannel();
    const received = new Promise<PackedProblem>((resolve) => port2.once('message', resolve));
    port1.postMessage(packed, list);
    const other = await received;
    port1.close();
    port2.close();
    expect(packed.qweight.byteLength).toBe(0); // detached on this side
    expect(Array.from(other.qweight)).toEqual([2, 3]);
    expect(solver.runPacked(other, prepared.options).node).toEqual(
      solver.runPacked(prepared.packed, prepared.options).node,
    );
  });
});
