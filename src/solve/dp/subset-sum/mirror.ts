/**
 * The subset sums' bitset fold in TypeScript, the mirror of the kernel's (assembly/subset-sum.ts): the
 * algorithm is stated in src/solve/dp/subset-sum/setup.ts; this fold and the kernel's name the same subset
 * with the same work.
 */
import { SolverTrapError } from '../../../errors.js';
import type { WorkMeter } from '../../mkp/meter.js';
import type { SubsetSum } from './engine.js';
import type { SubsetSumScratch } from './setup.js';

/** The fold over the items not `skipped`: the largest sum within `cap` and a subset reaching it (null: the meter halted). */
export function foldMirror(
  items: ArrayLike<number>,
  k: number,
  w: ArrayLike<number>,
  cap: number,
  meter: WorkMeter,
  scratch: SubsetSumScratch,
  skipped: Uint8Array | null,
): SubsetSum | null {
  scratch.reserve(cap);
  const { bits, head } = scratch;
  const top = cap >>> 5;
  bits.fill(0, 0, top + 1);
  head.fill(-1, 0, top + 1);
  bits[0] = 1;
  // Bits above cap in the top word are masked off.
  const topMask = (cap & 31) === 31 ? -1 : (1 << ((cap & 31) + 1)) - 1;
  let best = 0;
  let used = 0;
  for (let x = 0; x < k && best < cap; x++) {
    if (skipped !== null && skipped[x] === 1) continue;
    const wi = w[items[x]!]!;
    if (wi > cap) continue;
    const ws = wi >>> 5;
    const bs = wi & 31;
    const back = 32 - bs;
    if (!meter.spend(top - ws + 1)) return null;
    // The words above the largest sum reachable after this fold receive no sum.
    for (let i = Math.min(top, (best + wi) >>> 5); i >= ws; i--) {
      const had = bits[i]!;
      if (had === -1) continue;
      const lo = i - ws;
      let shifted = bits[lo]! << bs;
      if (bs !== 0 && lo > 0) shifted |= bits[lo - 1]! >>> back;
      if (i === top) shifted &= topMask;
      const fresh = shifted & ~had;
      if (fresh === 0) continue;
      bits[i] = had | fresh;
      const high = i * 32 + (31 - Math.clz32(fresh));
      if (high > best) best = high;
      if (used === scratch.item.length) scratch.grow(used);
      scratch.item[used] = x;
      scratch.mask[used] = fresh;
      scratch.prev[used] = head[i]!;
      head[i] = used++;
    }
  }
  const { item, mask, prev } = scratch;
  const chosen: number[] = [];
  for (let s = best; s > 0; ) {
    const bit = 1 << (s & 31);
    let e = head[s >>> 5]!;
    while (e >= 0 && (mask[e]! & bit) === 0) e = prev[e]!;
    // Every reachable sum has an entry on its word's chain; a missing one is a bug, never an input.
    if (e < 0) throw new SolverTrapError(`subset sums: no entry reaches the sum ${s} on the walk back`);
    const x = item[e]!;
    chosen.push(x);
    s -= w[items[x]!]!;
  }
  return { sum: best, chosen };
}
