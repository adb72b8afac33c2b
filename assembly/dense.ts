// Dense lexicographic multiple-knapsack DP over the mixed-radix used-capacity vector.
//
// State s encodes one used-capacity digit u_b in [0, radix_b - 1] per node, node 0 least significant:
// s = sum_b u_b * stride_b. table[s] holds D(s) = the best packed key of a plan whose used capacity is
// at most u_b on every node b ("at most", so every state is reachable and the table starts at zero;
// the answer is table[S - 1], the full-capacity state).
//
// One session is folded in per pass, in place, visiting states in descending linear index: every
// candidate reads s - w * stride_b < s, which this pass has not written yet, so it still holds the
// previous layer D_{j-1}. The choice of each (session, state) goes to a byte table: 0 = skip,
// b + 1 = node b. Ties keep the earlier option (skip first, then higher nodes), so the walk back is
// deterministic.
//
// "At most" instead of "exactly": no state is unreachable, so no -1 sentinel and no reachability test
// per cell, and no final scan for the best state. Keys are non-negative, so D is monotone in s.
//
// The SIMD segment kernels (two states per i64x2 vector, max by i64x2.gt_s + v128.bitselect) are
// faster than the scalar ones (bench/solver.bench.ts); the scalar kernels stay selectable
// (setSimdKernel) for that measurement and as a cross-check in tests.
//
// Nothing here allocates or checks bounds: the caller (index.ts) lays out memory and guarantees
// every pointer range.

import { MAX_NODES, PLANE_MAX_RADIX0 } from './limits';

// Active candidate list for the state run being processed. Slot order = priority on ties.
// Byte offset (w * stride_b * 8) back into the table, per candidate.
const candOff: usize = memory.data(MAX_NODES * 4, 16);
// The candidate's packed key, pre-splatted into both i64 lanes.
const candKeyV: usize = memory.data(MAX_NODES * 16, 16);
// The candidate's choice code (node + 1), pre-splatted into both i64 lanes.
const candCodeV: usize = memory.data(MAX_NODES * 16, 16);

// Per-pass context, set by foldSessions.
let gTable: usize = 0; // i64[S]
let gChoice: usize = 0; // u8[S], the current session's row
let gKeyRow: usize = 0; // i64[m], the current session's keys, -1 = not a candidate
let gRadix: usize = 0; // i32[m]
let gStride: usize = 0; // i32[m]
let gW: i32 = 0; // quantized weight of the current session
let gSimd: bool = true;

/** Chooses the SIMD (default) or the scalar segment kernels; both give identical tables. */
export function setSimdKernel(on: bool): void {
  gSimd = on;
}

// @ts-ignore: decorator
@inline function pushCandidate(slot: i32, offBytes: i32, key: i64, code: i32): void {
  store<i32>(candOff + (<usize>slot << 2), offBytes);
  v128.store(candKeyV + (<usize>slot << 4), i64x2.splat(key));
  v128.store(candCodeV + (<usize>slot << 4), i64x2.splat(<i64>code));
}

// Descending over states hi..lo (inclusive) with the first k active candidates.
function segment(lo: i32, hi: i32, k: i32): void {
  if (hi < lo) return;
  if (k == 0) {
    // Nothing fits here: the value is unchanged, the choice is skip.
    memory.fill(gChoice + <usize>lo, 0, <usize>(hi - lo + 1));
    return;
  }
  if (gSimd) {
    if (k == 1) segmentSimd1(lo, hi);
    else if (k == 2) segmentSimd2(lo, hi);
    else segmentSimdN(lo, hi, k);
  } else {
    segmentScalar(lo, hi, k);
  }
}

function segmentScalar(lo: i32, hi: i32, k: i32): void {
  for (let s = hi; s >= lo; s--) {
    const p = gTable + (<usize>s << 3);
    let best = load<i64>(p);
    let code: i32 = 0;
    for (let c = 0; c < k; c++) {
      const cand = load<i64>(p - <usize>load<i32>(candOff + (<usize>c << 2))) + load<i64>(candKeyV + (<usize>c << 4));
      if (cand > best) {
        best = cand;
        code = <i32>load<i64>(candCodeV + (<usize>c << 4));
      }
    }
    store<i64>(p, best);
    store<u8>(gChoice + <usize>s, <u8>code);
  }
}

// Two states per vector, lanes (s - 1, s); two vectors (four states) per iteration. Every lane reads
// a state at or below its own minus w * stride >= 1, and all loads of an iteration happen before its
// stores, so the in-place update stays exact even when w * stride is 1, 2 or 3.
// @ts-ignore: decorator
@inline function choiceBytes(code: v128): v128 {
  // Lane bytes 0 and 8 carry the two codes; gather them into the low u16.
  return i8x16.shuffle(code, code, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}

// States (s - 1, s) with the first k candidates: the tail of the four-state loops.
function pairN(s: i32, k: i32): void {
  const p = gTable + (<usize>(s - 1) << 3);
  let best = v128.load(p);
  let code = i64x2.splat(0);
  for (let c = 0; c < k; c++) {
    const cand = i64x2.add(
      v128.load(p - <usize>load<i32>(candOff + (<usize>c << 2))),
      v128.load(candKeyV + (<usize>c << 4)),
    );
    const take = i64x2.gt_s(cand, best);
    best = v128.bitselect(cand, best, take);
    code = v128.bitselect(v128.load(candCodeV + (<usize>c << 4)), code, take);
  }
  v128.store(p, best);
  v128.store16_lane(gChoice + <usize>(s - 1), choiceBytes(code), 0);
}

// Finishes a segment whose top state is s after the four-state loop: at most three states remain.
// @ts-ignore: decorator
@inline function tail(lo: i32, s: i32, k: i32): void {
  if (s - 1 >= lo) {
    pairN(s, k);
    s -= 2;
  }
  if (s >= lo) segmentScalar(lo, s, k);
}

function segmentSimd1(lo: i32, hi: i32): void {
  const off = <usize>load<i32>(candOff);
  const key = v128.load(candKeyV);
  const code = v128.load(candCodeV);
  let s = hi;
  while (s - 3 >= lo) {
    const p = gTable + (<usize>(s - 3) << 3);
    const curL = v128.load(p);
    const curH = v128.load(p, 16);
    const candL = i64x2.add(v128.load(p - off), key);
    const candH = i64x2.add(v128.load(p - off, 16), key);
    const takeL = i64x2.gt_s(candL, curL);
    const takeH = i64x2.gt_s(candH, curH);
    v128.store(p, v128.bitselect(candL, curL, takeL));
    v128.store(p, v128.bitselect(candH, curH, takeH), 16);
    const c = gChoice + <usize>(s - 3);
    v128.store16_lane(c, choiceBytes(v128.and(takeL, code)), 0);
    v128.store16_lane(c, choiceBytes(v128.and(takeH, code)), 0, 2);
    s -= 4;
  }
  tail(lo, s, 1);
}

function segmentSimd2(lo: i32, hi: i32): void {
  const off0 = <usize>load<i32>(candOff);
  const off1 = <usize>load<i32>(candOff, 4);
  const key0 = v128.load(candKeyV);
  const key1 = v128.load(candKeyV, 16);
  const code0 = v128.load(candCodeV);
  const code1 = v128.load(candCodeV, 16);
  let s = hi;
  while (s - 3 >= lo) {
    const p = gTable + (<usize>(s - 3) << 3);
    let bestL = v128.load(p);
    let bestH = v128.load(p, 16);
    const a0L = i64x2.add(v128.load(p - off0), key0);
    const a0H = i64x2.add(v128.load(p - off0, 16), key0);
    const a1L = i64x2.add(v128.load(p - off1), key1);
    const a1H = i64x2.add(v128.load(p - off1, 16), key1);
    let t = i64x2.gt_s(a0L, bestL);
    bestL = v128.bitselect(a0L, bestL, t);
    let codeL = v128.and(t, code0);
    t = i64x2.gt_s(a0H, bestH);
    bestH = v128.bitselect(a0H, bestH, t);
    let codeH = v128.and(t, code0);
    t = i64x2.gt_s(a1L, bestL);
    bestL = v128.bitselect(a1L, bestL, t);
    codeL = v128.bitselect(code1, codeL, t);
    t = i64x2.gt_s(a1H, bestH);
    bestH = v128.bitselect(a1H, bestH, t);
    codeH = v128.bitselect(code1, codeH, t);
    v128.store(p, bestL);
    v128.store(p, bestH, 16);
    const c = gChoice + <usize>(s - 3);
    v128.store16_lane(c, choiceBytes(codeL), 0);
    v128.store16_lane(c, choiceBytes(codeH), 0, 2);
    s -= 4;
  }
  tail(lo, s, 2);
}

function segmentSimdN(lo: i32, hi: i32, k: i32): void {
  let s = hi;
  while (s - 3 >= lo) {
    const p = gTable + (<usize>(s - 3) << 3);
    let bestL = v128.load(p);
    let bestH = v128.load(p, 16);
    let codeL = i64x2.splat(0);
    let codeH = i64x2.splat(0);
    for (let c = 0; c < k; c++) {
      const q = p - <usize>load<i32>(candOff + (<usize>c << 2));
      const key = v128.load(candKeyV + (<usize>c << 4));
      const code = v128.load(candCodeV + (<usize>c << 4));
      const aL = i64x2.add(v128.load(q), key);
      const aH = i64x2.add(v128.load(q, 16), key);
      const tL = i64x2.gt_s(aL, bestL);
      const tH = i64x2.gt_s(aH, bestH);
      bestL = v128.bitselect(aL, bestL, tL);
      bestH = v128.bitselect(aH, bestH, tH);
      codeL = v128.bitselect(code, codeL, tL);
      codeH = v128.bitselect(code, codeH, tH);
    }
    v128.store(p, bestL);
    v128.store(p, bestH, 16);
    const c = gChoice + <usize>(s - 3);
    v128.store16_lane(c, choiceBytes(codeL), 0);
    v128.store16_lane(c, choiceBytes(codeH), 0, 2);
    s -= 4;
  }
  tail(lo, s, k);
}

// One run of node 0's digit (the contiguous innermost dimension) at higher digits fixed in `base`,
// with `k` candidates of higher nodes active. Node 0 is a candidate only where u_0 >= w.
function innerRun(base: i32, k: i32): void {
  const top = load<i32>(gRadix) - 1;
  const key0 = load<i64>(gKeyRow);
  if (key0 >= 0 && gW <= top) {
    pushCandidate(k, gW << 3, key0, 1);
    segment(base + gW, base + top, k + 1);
    segment(base, base + gW - 1, k);
  } else {
    segment(base, base + top, k);
  }
}

// Plane mode (SIMD only, m >= 2): digits 0 and 1 are walked as one contiguous run of radix_0 * radix_1
// states, so short innermost digits (4 nodes of ~20 units each) do not cost a segment per digit value.
// Node 1's candidate is valid on a suffix of the plane (u_1 >= w), so the plane splits in two. Node 0's
// candidate is valid where u_0 >= w, a pattern with period radix_0: it is applied under a lane mask,
// built once per session into maskPair (entry x masks the pair of states with u_0 = x, (x+1) mod radix_0).
// A masked lane may read below its plane (at most w - 1 < PLANE_MAX_RADIX0 states before the table),
// which stays inside linear memory (the key region and the static data precede the table); its value
// is discarded by the mask.
// Short first digits gain per cell on 3-4 nodes and are neutral on 2; on long ones the mask costs more
// than the segment overhead it saves, so longer digits keep per-digit runs: PLANE_MAX_RADIX0 (limits.ts).
const maskPair: usize = memory.data(PLANE_MAX_RADIX0 * 16, 16);
let gPlane: bool = false; // plane mode for the current session
let gMask0: bool = false; // node 0 is a candidate of the current session (masked in plane mode)
let gR0: i32 = 0; // radix_0
let gKey0: i64 = 0;

function buildMask(): void {
  for (let x = 0; x < gR0; x++) {
    const next = x + 1 == gR0 ? 0 : x + 1;
    const lo: i64 = x >= gW ? -1 : 0;
    const hi: i64 = next >= gW ? -1 : 0;
    v128.store(maskPair + (<usize>x << 4), i64x2.replace_lane(i64x2.splat(lo), 1, hi));
  }
}

// One state with the first k candidates, plus node 0 where u_0 >= w.
function scalarMasked(s: i32, k: i32, planeBase: i32): void {
  const p = gTable + (<usize>s << 3);
  let best = load<i64>(p);
  let code: i32 = 0;
  for (let c = 0; c < k; c++) {
    const cand = load<i64>(p - <usize>load<i32>(candOff + (<usize>c << 2))) + load<i64>(candKeyV + (<usize>c << 4));
    if (cand > best) {
      best = cand;
      code = <i32>load<i64>(candCodeV + (<usize>c << 4));
    }
  }
  if ((s - planeBase) % gR0 >= gW) {
    const cand = load<i64>(p - (<usize>gW << 3)) + gKey0;
    if (cand > best) {
      best = cand;
      code = 1;
    }
  }
  store<i64>(p, best);
  store<u8>(gChoice + <usize>s, <u8>code);
}

// States hi..lo of the plane starting at planeBase: k unmasked candidates, then node 0 under the mask
// (last, so ties keep the same priority as in the per-digit path).
function maskedSegment(lo: i32, hi: i32, k: i32, planeBase: i32): void {
  const off0 = <usize>gW << 3;
  const key0 = i64x2.splat(gKey0);
  const code0 = i64x2.splat(1);
  let s = hi;
  let x = s - 3 >= lo ? (s - 3 - planeBase) % gR0 : 0;
  while (s - 3 >= lo) {
    const p = gTable + (<usize>(s - 3) << 3);
    let bestL = v128.load(p);
    let bestH = v128.load(p, 16);
    let codeL = i64x2.splat(0);
    let codeH = i64x2.splat(0);
    for (let c = 0; c < k; c++) {
      const q = p - <usize>load<i32>(candOff + (<usize>c << 2));
      const key = v128.load(candKeyV + (<usize>c << 4));
      const code = v128.load(candCodeV + (<usize>c << 4));
      const aL = i64x2.add(v128.load(q), key);
      const aH = i64x2.add(v128.load(q, 16), key);
      const tL = i64x2.gt_s(aL, bestL);
      const tH = i64x2.gt_s(aH, bestH);
      bestL = v128.bitselect(aL, bestL, tL);
      bestH = v128.bitselect(aH, bestH, tH);
      codeL = v128.bitselect(code, codeL, tL);
      codeH = v128.bitselect(code, codeH, tH);
    }
    let xh = x + 2;
    if (xh >= gR0) xh -= gR0;
    const q0 = p - off0;
    const aL = i64x2.add(v128.load(q0), key0);
    const aH = i64x2.add(v128.load(q0, 16), key0);
    const tL = v128.and(i64x2.gt_s(aL, bestL), v128.load(maskPair + (<usize>x << 4)));
    const tH = v128.and(i64x2.gt_s(aH, bestH), v128.load(maskPair + (<usize>xh << 4)));
    v128.store(p, v128.bitselect(aL, bestL, tL));
    v128.store(p, v128.bitselect(aH, bestH, tH), 16);
    const c = gChoice + <usize>(s - 3);
    v128.store16_lane(c, choiceBytes(v128.bitselect(code0, codeL, tL)), 0);
    v128.store16_lane(c, choiceBytes(v128.bitselect(code0, codeH, tH)), 0, 2);
    s -= 4;
    x -= 4;
    while (x < 0) x += gR0;
  }
  for (; s >= lo; s--) scalarMasked(s, k, planeBase);
}

// The plane of digits 0 and 1 at higher digits fixed in `base`, with k outer candidates active.
function plane(base: i32, k: i32): void {
  const r1 = load<i32>(gRadix + 4);
  const end = base + gR0 * r1 - 1;
  const key1 = load<i64>(gKeyRow + 8);
  let split = base;
  let k1 = k;
  if (key1 >= 0 && gW <= r1 - 1) {
    pushCandidate(k, (gW * gR0) << 3, key1, 2);
    split = base + gW * gR0;
    k1 = k + 1;
  }
  if (gMask0) {
    maskedSegment(split, end, k1, base);
    maskedSegment(base, split - 1, k, base);
  } else {
    segment(split, end, k1);
    segment(base, split - 1, k);
  }
}

// Walks digit L from its top value down (so linear indices descend), activating node L's candidate
// for digits u_L >= w. Candidates of outer nodes occupy slots [0, k); node L takes slot k.
function level(L: i32, base: i32, k: i32): void {
  if (L == 0) {
    innerRun(base, k);
    return;
  }
  if (L == 1 && gPlane) {
    plane(base, k);
    return;
  }
  const st = load<i32>(gStride + (<usize>L << 2));
  const top = load<i32>(gRadix + (<usize>L << 2)) - 1;
  const key = load<i64>(gKeyRow + (<usize>L << 3));
  let u = top;
  if (key >= 0 && gW <= top) {
    pushCandidate(k, (gW * st) << 3, key, L + 1);
    for (; u >= gW; u--) level(L - 1, base + u * st, k + 1);
  }
  for (; u >= 0; u--) level(L - 1, base + u * st, k);
}

/**
 * Folds sessions j0..j1-1 into the table. `keys` is session-major i64[n * m] (-1 = not a candidate),
 * `weights` i32[n], `radix`/`stride` i32[m], `choice` u8[n * S].
 */
export function foldSessions(
  j0: i32,
  j1: i32,
  m: i32,
  states: i32,
  keys: usize,
  weights: usize,
  radix: usize,
  stride: usize,
  table: usize,
  choice: usize,
): void {
  gTable = table;
  gRadix = radix;
  gStride = stride;
  for (let j = j0; j < j1; j++) {
    gKeyRow = keys + (<usize>j * <usize>m << 3);
    gChoice = choice + <usize>j * <usize>states;
    gW = load<i32>(weights + (<usize>j << 2));
    gR0 = load<i32>(radix);
    gKey0 = load<i64>(gKeyRow);
    gMask0 = gKey0 >= 0 && gW <= gR0 - 1;
    // Plane mode pays when node 0's digit is short; without a node-0 candidate it needs no mask at all.
    gPlane = gSimd && m >= 2 && (!gMask0 || gR0 <= PLANE_MAX_RADIX0);
    if (gPlane && gMask0) buildMask();
    level(m - 1, 0, 0);
  }
}

/**
 * Walks the choices back from the full-capacity state, writing each session's node (or -1) to
 * `nodeOut` i32[n]. Returns the optimal packed key.
 */
export function walkBack(
  n: i32,
  states: i32,
  weights: usize,
  stride: usize,
  table: usize,
  choice: usize,
  nodeOut: usize,
): i64 {
  let s = states - 1;
  for (let j = n - 1; j >= 0; j--) {
    const code = <i32>load<u8>(choice + <usize>j * <usize>states + <usize>s);
    if (code == 0) {
      store<i32>(nodeOut + (<usize>j << 2), -1);
    } else {
      const b = code - 1;
      store<i32>(nodeOut + (<usize>j << 2), b);
      s -= load<i32>(weights + (<usize>j << 2)) * load<i32>(stride + (<usize>b << 2));
    }
  }
  return load<i64>(table + (<usize>(states - 1) << 3));
}
