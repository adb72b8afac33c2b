// The frontier's LP bounds, as lists over DP positions (FrontierBound in src/solve/dp/frontier/mirror.ts is the
// mirror, bit for bit): a list holds a value per DP position (i64, >= 0), its members sorted by density
// (value / weight descending, exact 96-bit cross products, ties by position), and, restricted to the
// positions >= some `from`, the sums of weights and values in that order. `lpUpper(r)` is the greedy LP
// over the restricted members within residual r, the last one fractional and rounded up.
//
// The sums are two Fenwick trees over the density ranks (a position below `from` counts weight and value
// 0), so restricting to `from + 1` costs O(log n) and not a pass over the members: the DP restricts once
// per layer, and a pass per layer made the bound O(n^2) over a run (at 1 node x 4096 sessions, most of
// the run's time). `lpUpper` finds the last rank whose prefix weight fits by descending the tree: every
// member has weight >= 1, so the rank after it is a restricted member, the one the prefix arrays' binary
// search found; the sums are the same exact integers, hence the same bound.
//
// A list is a record of LP_FIELDS words at its address: values, weights (i64[n] per position, shared),
// members (i32[count]), each position's rank (i32[n]), the Fenwick trees of weights and values
// (i64[n + 1]), the member count and the `from` it is restricted to.

import { align16 } from './memory';
import { UP } from './exact';

const F_VALUES: usize = 0;
const F_WEIGHTS: usize = 8;
const F_MEMBERS: usize = 16;
const F_RANK: usize = 24;
const F_WP: usize = 32;
const F_PP: usize = 40;
const F_MEMBER_COUNT: usize = 48;
const F_FROM: usize = 56;

/** Bytes of one list's record. */
export const LP_RECORD: usize = 64;

// @ts-ignore: decorator
@inline function word(list: usize, f: usize): usize {
  return <usize>load<i64>(list + f);
}

/** Bytes of the arrays a list over n positions needs (after its record). */
export function lpBytes(n: i32): u64 {
  return <u64>align16(<usize>n * 4) * 2 + <u64>align16(<usize>(n + 1) * 8) * 2;
}

/** p_a * w_b compared with p_b * w_a exactly (96-bit products); > 0 if a is denser. */
function cmpDensity(values: usize, weights: usize, a: i32, b: i32): i32 {
  const pa = load<i64>(values + (<usize>a << 3));
  const pb = load<i64>(values + (<usize>b << 3));
  const wa = <u64>load<i64>(weights + (<usize>a << 3));
  const wb = <u64>load<i64>(weights + (<usize>b << 3));
  // p < 2^63 and w < 2^32: p * w = hi * w * 2^32 + lo * w with hi * w < 2^63 and lo * w < 2^64.
  const xa = (<u64>pa >>> 32) * wb;
  const ya = (<u64>pa & 0xffffffff) * wb;
  const xb = (<u64>pb >>> 32) * wa;
  const yb = (<u64>pb & 0xffffffff) * wa;
  const topA = xa + (ya >>> 32);
  const topB = xb + (yb >>> 32);
  if (topA != topB) return topA > topB ? 1 : -1;
  const lowA = ya & 0xffffffff;
  const lowB = yb & 0xffffffff;
  if (lowA != lowB) return lowA > lowB ? 1 : -1;
  return 0;
}

/**
 * Lays a list out at `list` (LP_RECORD bytes, then lpBytes(n) at `arrays`) over values i64[n] and
 * weights i64[n], every position a member, sorted by density with `scratch` (i32[n]).
 */
export function lpInit(list: usize, arrays: usize, values: usize, weights: usize, n: i32, scratch: usize): void {
  const members = arrays;
  const items = members + align16(<usize>n * 4);
  const wp = items + align16(<usize>n * 4);
  const pp = wp + align16(<usize>(n + 1) * 8);
  store<i64>(list + F_VALUES, <i64>values);
  store<i64>(list + F_WEIGHTS, <i64>weights);
  store<i64>(list + F_MEMBERS, <i64>members);
  store<i64>(list + F_RANK, <i64>items);
  store<i64>(list + F_WP, <i64>wp);
  store<i64>(list + F_PP, <i64>pp);
  let k = 0;
  for (let t = 0; t < n; t++) {
    store<i32>(members + (<usize>k << 2), t);
    k++;
  }
  store<i64>(list + F_MEMBER_COUNT, <i64>k);
  // A bottom-up merge sort through `scratch`; stable, deterministic.
  let src = members;
  let dst = scratch;
  for (let width = 1; width < k; width <<= 1) {
    for (let lo = 0; lo < k; lo += width << 1) {
      const mid = min(lo + width, k);
      const hi = min(lo + (width << 1), k);
      let i = lo;
      let j = mid;
      let o = lo;
      while (i < mid && j < hi) {
        const a = load<i32>(src + (<usize>i << 2));
        const b = load<i32>(src + (<usize>j << 2));
        const c = cmpDensity(values, weights, b, a);
        if (c > 0 || (c == 0 && b < a)) {
          store<i32>(dst + (<usize>o << 2), b);
          j++;
        } else {
          store<i32>(dst + (<usize>o << 2), a);
          i++;
        }
        o++;
      }
      for (; i < mid; i++, o++) store<i32>(dst + (<usize>o << 2), load<i32>(src + (<usize>i << 2)));
      for (; j < hi; j++, o++) store<i32>(dst + (<usize>o << 2), load<i32>(src + (<usize>j << 2)));
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src != members) memory.copy(members, src, <usize>k << 2);
  for (let i = 0; i < k; i++) store<i32>(items + (<usize>load<i32>(members + (<usize>i << 2)) << 2), i);
  fenwickBuild(list, 0);
}

/** The trees over every member at or past `from` (the others count 0): O(n). */
function fenwickBuild(list: usize, from: i32): void {
  const values = word(list, F_VALUES);
  const weights = word(list, F_WEIGHTS);
  const members = word(list, F_MEMBERS);
  const wp = word(list, F_WP);
  const pp = word(list, F_PP);
  const count = <i32>load<i64>(list + F_MEMBER_COUNT);
  store<i64>(wp, 0);
  store<i64>(pp, 0);
  for (let i = 1; i <= count; i++) {
    const t = load<i32>(members + (<usize>(i - 1) << 2));
    const live = t >= from;
    store<i64>(wp + (<usize>i << 3), live ? load<i64>(weights + (<usize>t << 3)) : 0);
    store<i64>(pp + (<usize>i << 3), live ? load<i64>(values + (<usize>t << 3)) : 0);
  }
  for (let i = 1; i <= count; i++) {
    const j = i + (i & -i);
    if (j > count) continue;
    store<i64>(wp + (<usize>j << 3), load<i64>(wp + (<usize>j << 3)) + load<i64>(wp + (<usize>i << 3)));
    store<i64>(pp + (<usize>j << 3), load<i64>(pp + (<usize>j << 3)) + load<i64>(pp + (<usize>i << 3)));
  }
  store<i64>(list + F_FROM, <i64>from);
}

/**
 * Restricts the list to positions >= from: each position passed since the last restriction leaves the
 * trees (O(log n) each); a `from` below the last one rebuilds them.
 */
export function lpRestrict(list: usize, from: i32): void {
  let at = <i32>load<i64>(list + F_FROM);
  if (from < at) {
    fenwickBuild(list, from);
    return;
  }
  const values = word(list, F_VALUES);
  const weights = word(list, F_WEIGHTS);
  const rank = word(list, F_RANK);
  const wp = word(list, F_WP);
  const pp = word(list, F_PP);
  const count = <i32>load<i64>(list + F_MEMBER_COUNT);
  for (; at < from; at++) {
    const w = load<i64>(weights + (<usize>at << 3));
    const p = load<i64>(values + (<usize>at << 3));
    for (let i = load<i32>(rank + (<usize>at << 2)) + 1; i <= count; i += i & -i) {
      store<i64>(wp + (<usize>i << 3), load<i64>(wp + (<usize>i << 3)) - w);
      store<i64>(pp + (<usize>i << 3), load<i64>(pp + (<usize>i << 3)) - p);
    }
  }
  store<i64>(list + F_FROM, <i64>from);
}

/** Upper bound on the value the restricted members can add within residual r (the mirror's `upper`). */
export function lpUpper(list: usize, r: i64): i64 {
  const wp = word(list, F_WP);
  const pp = word(list, F_PP);
  const count = <i32>load<i64>(list + F_MEMBER_COUNT);
  // The last rank lo whose prefix weight is at most r, and the prefix sums up to it.
  let lo = 0;
  let wsum: i64 = 0;
  let ub: i64 = 0;
  if (count > 0) {
    for (let step = 1 << (31 - <i32>clz<i32>(count)); step > 0; step >>= 1) {
      const i = lo + step;
      if (i > count) continue;
      const w = wsum + load<i64>(wp + (<usize>i << 3));
      if (w > r) continue;
      lo = i;
      wsum = w;
      ub += load<i64>(pp + (<usize>i << 3));
    }
  }
  if (lo < count) {
    const t = load<i32>(word(list, F_MEMBERS) + (<usize>lo << 2));
    const rem = r - wsum;
    const p = load<i64>(word(list, F_VALUES) + (<usize>t << 3));
    if (rem != 0 && p != 0) {
      const pf = <f64>p;
      const g = ((pf * <f64>rem) / <f64>load<i64>(word(list, F_WEIGHTS) + (<usize>t << 3))) * UP;
      if (g >= pf) ub += p;
      else {
        const up = <i64>Math.floor(g);
        ub += up < p ? up : p;
      }
    }
  }
  return ub;
}
