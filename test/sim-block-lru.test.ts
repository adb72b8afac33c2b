import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockPool, CacheEntry } from './helpers/internals.js';

/**
 * The entry-granular pool against a naive per-block LRU: every cached block is its own list element
 * stamped with its release time and its position in its prefix; eviction takes the oldest stamp, and
 * within one release the highest position first (tail first, as vLLM frees a sequence's blocks).
 */
class NaiveBlocks {
  blocks: { session: number; pos: number; stamp: number }[] = [];
  pinned = 0;
  clock = 0;
  constructor(readonly total: number) {}
  cachedOf(session: number): number {
    return this.blocks.filter((b) => b.session === session).length;
  }
  release(session: number, count: number): void {
    this.clock++;
    for (let p = 0; p < count; p++) this.blocks.push({ session, pos: p, stamp: this.clock });
  }
  take(session: number): number {
    const mine = this.cachedOf(session);
    this.blocks = this.blocks.filter((b) => b.session !== session);
    return mine;
  }
  makeFree(n: number): boolean {
    if (this.total - this.pinned < n) return false;
    while (this.total - this.pinned - this.blocks.length < n) {
      let victim = 0;
      for (let i = 1; i < this.blocks.length; i++) {
        const a = this.blocks[i]!;
        const v = this.blocks[victim]!;
        if (a.stamp < v.stamp || (a.stamp === v.stamp && a.session === v.session && a.pos > v.pos)) victim = i;
      }
      this.blocks.splice(victim, 1);
    }
    return true;
  }
}

type Op = { kind: 'run'; session: number; blocks: number } | { kind: 'end'; session: number };

describe('block-granular LRU prefix cache', () => {
  it('keeps exactly the blocks a per-block LRU keeps, and never exceeds its capacity', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('run' as const),
        session: fc.integer({ min: 0, max: 5 }),
        blocks: fc.integer({ min: 1, max: 12 }),
      }),
      fc.record({ kind: fc.constant('end' as const), session: fc.integer({ min: 0, max: 5 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 12, max: 40 }), fc.array(op, { maxLength: 80 }), (total, ops: Op[]) => {
        const pool = new BlockPool(total);
        const naive = new NaiveBlocks(total);
        const entries = new Map<number, CacheEntry>();
        const running = new Map<number, number>();
        for (const o of ops) {
          if (o.kind === 'run') {
            if (running.has(o.session)) continue;
            const entry = entries.get(o.session) ?? new CacheEntry(o.session, 0);
            entries.set(o.session, entry);
            // The request needs at least its cached prefix (contexts only grow).
            const need = Math.max(o.blocks, entry.blocks);
            const okPool = pool.available >= need;
            const okNaive = naive.total - naive.pinned >= need;
            expect(okPool).toBe(okNaive);
            if (!okPool) continue;
            pool.unlink(entry);
            const reuse = entry.blocks;
            entry.blocks = 0;
            pool.pinned += reuse;
            expect(pool.makeFree(need - reuse)).toBe(true);
            pool.pinned += need - reuse;
            expect(naive.take(o.session)).toBe(reuse);
            naive.pinned += reuse;
            expect(naive.makeFree(need - reuse)).toBe(true);
            naive.pinned += need - reuse;
            running.set(o.session, need);
          } else {
            const need = running.get(o.session);
            if (need === undefined) continue;
            running.delete(o.session);
            pool.pinned -= need;
            naive.pinned -= need;
            const entry = entries.get(o.session)!;
            entry.blocks = need;
            pool.release(entry);
            naive.release(o.session, need);
          }
          expect(pool.pinned + pool.cached).toBeLessThanOrEqual(total);
          expect(pool.countCached()).toBe(pool.cached);
          for (const [s, e] of entries) {
            if (!running.has(s)) expect(e.blocks).toBe(naive.cachedOf(s));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
