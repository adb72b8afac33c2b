/**
 * Slabs: typed arrays carved out of one buffer. Views of one slab and of different shared slabs never
 * overlap, every view starts zeroed, views keep their alignment, and a validated problem's arrays are not
 * disturbed by validating others (they live in shared chunks).
 */
import { describe, expect, it } from 'vitest';
import { Slab, SlabArena } from './helpers/internals.js';
import { creditOn, isEligible, validateProblem } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';

describe('Slab', () => {
  it('hands out zeroed, disjoint views, on shared chunks and own buffers, across chunk boundaries', () => {
    const written: Array<[Float64Array, Uint8Array, number]> = [];
    // One arena, as a solver's validation keeps: about 600 KiB of shared slabs cross its 128 KiB chunks.
    const arena = new SlabArena();
    for (let k = 0; k < 400; k++) {
      const n = 1 + ((k * 37) % 300);
      const slab = k % 3 === 0 ? Slab.own(n, 0, n) : Slab.shared(n, 0, n, k % 3 === 1 ? arena : undefined);
      const wide = slab.f64(n);
      const narrow = slab.u8(n);
      expect(wide.every((x) => x === 0)).toBe(true);
      expect(narrow.every((x) => x === 0)).toBe(true);
      expect(wide.byteOffset % 8).toBe(0);
      wide.fill(k + 0.5);
      narrow.fill(k % 251);
      written.push([wide, narrow, k]);
    }
    for (const [wide, narrow, k] of written) {
      expect(wide.every((x) => x === k + 0.5)).toBe(true);
      expect(narrow.every((x) => x === k % 251)).toBe(true);
    }
  });

  it('refuses a view past its own buffer or out of alignment order', () => {
    const slab = Slab.own(1, 0, 1);
    slab.u8(1);
    expect(() => slab.f64(1)).toThrow(RangeError);
    expect(() => Slab.own(1, 0, 0).f64(2)).toThrow(RangeError);
  });

  it('keeps each validated problem intact while others are validated', () => {
    const problem = (k: number): Problem => ({
      nodes: [
        { id: 'a', capacity: 100 + k },
        { id: 'b', capacity: 7 },
      ],
      sessions: Array.from({ length: 1 + (k % 40) }, (_, i) => ({
        id: `s${i}`,
        weight: 1 + i + k,
        tokens: k,
        ready: i % 2 === 0,
        credit: { b: k },
      })),
    });
    const kept = Array.from({ length: 2000 }, (_, k) => [k, validateProblem(problem(k))] as const);
    for (const [k, ix] of kept) {
      expect(Array.from(ix.capacity)).toEqual([100 + k, 7]);
      expect(Array.from(ix.weight)).toEqual(problem(k).sessions.map((s) => s.weight));
      expect(ix.tokens.every((t) => t === k)).toBe(true);
      expect(Array.from(ix.ready)).toEqual(problem(k).sessions.map((s) => (s.ready ? 1 : 0)));
      expect(ix.limited.every((l) => l === 0)).toBe(true);
      const sessions = problem(k).sessions.length;
      for (let i = 0; i < sessions; i++) {
        expect([creditOn(ix, i, 0), creditOn(ix, i, 1)]).toEqual([0, k]);
        expect([isEligible(ix, i, 0), isEligible(ix, i, 1)]).toEqual([true, true]);
      }
    }
  });
});
