/**
 * The dense DP in plain TypeScript, written independently of the WASM kernel: three exact Float64
 * planes (credit, ready, tokens sums) instead of one packed key, the *exact*-used-capacity recurrence
 * (unreachable states marked, the answer found by scanning every state) instead of the kernel's
 * "at most" table, and digits tracked by an odometer instead of nested runs.
 *
 * It is the test oracle for the WASM kernel and the solver's `dense-wide` path, used when the packed
 * key cannot hold the sums. Every sum stays below 2^53 within the limits (4096 sessions x 2^32), so the
 * planes are exact.
 */
import { resolveSolveOptions, type SolveOptions } from '../options.js';
import { packProblem, sessionsKept, nodesKept, unpackNodes, type PackedProblem } from '../pack.js';
import { buildPlan, elapsedMicros, trivialStats, type RawStats } from '../plan.js';
import type { Plan, Problem } from '../../types.js';
import { validateProblem } from '../validate.js';

/** Marks an unreachable state in the credit plane (real credit sums are >= 0). */
const UNREACHABLE = -1;

/** Bytes the dense-wide DP allocates for `states` states and `n` sessions: three planes + choices. */
export function wideBytes(n: number, states: number): number {
  return states * 24 + n * states;
}

/** Where a (possibly interrupted) reference run stands. */
export interface ReferenceRun {
  /** Kept sessions folded in so far. */
  readonly done: number;
  /** Folds kept sessions `done`..`until`-1. */
  step(until: number): void;
  /** After every session is folded: each kept session's kept node, or -1. */
  finish(): Int32Array;
}

/**
 * Starts the dense-wide DP over a packed problem. The caller steps it in chunks (to check a deadline
 * in between) and then calls `finish`. Allocates `wideBytes(sessionsKept, states)` bytes: the caller
 * checks that against its memory bound first.
 */
export function startReference(packed: PackedProblem): ReferenceRun {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const S = packed.states;
  if (!Number.isSafeInteger(S)) throw new RangeError(`dense-wide DP cannot hold ${S} states`);

  const radix = new Array<number>(m);
  const stride = new Array<number>(m);
  let st = 1;
  for (let b = 0; b < m; b++) {
    radix[b] = packed.capacity[b]! + 1;
    stride[b] = st;
    st *= radix[b]!;
  }

  // Planes hold D_j(s) for plans using exactly s; state 0 (nothing used) is the empty plan.
  const K = new Float64Array(S).fill(UNREACHABLE);
  const R = new Float64Array(S);
  const T = new Float64Array(S);
  K[0] = 0;
  const choice = new Uint8Array(n * S);
  const digit = new Int32Array(m);

  let done = 0;

  function fold(j: number): void {
    const w = packed.qweight[j]!;
    const r = packed.ready[j]!;
    const t = packed.tokens[j]!;
    const cand: number[] = [];
    for (let b = 0; b < m; b++) if (packed.candidate[j * m + b] === 1) cand.push(b);
    const row = j * S;
    // Start the odometer at the top state; it counts down with the linear index, so every read of
    // s - w * stride_b (< s) still sees layer j - 1.
    for (let b = 0; b < m; b++) digit[b] = radix[b]! - 1;
    for (let s = S - 1; s >= 0; s--) {
      let bk = K[s]!;
      let br = R[s]!;
      let bt = T[s]!;
      let code = 0;
      for (const b of cand) {
        if (digit[b]! < w) continue;
        const p = s - w * stride[b]!;
        const pk = K[p]!;
        if (pk === UNREACHABLE) continue;
        const ck = pk + packed.credit[j * m + b]!;
        const cr = R[p]! + r;
        const ct = T[p]! + t;
        if (bk === UNREACHABLE || ck > bk || (ck === bk && (cr > br || (cr === br && ct > bt)))) {
          bk = ck;
          br = cr;
          bt = ct;
          code = b + 1;
        }
      }
      K[s] = bk;
      R[s] = br;
      T[s] = bt;
      choice[row + s] = code;
      // Odometer decrement.
      for (let b = 0; b < m; b++) {
        if (digit[b]! > 0) {
          digit[b] = digit[b]! - 1;
          break;
        }
        digit[b] = radix[b]! - 1;
      }
    }
  }

  return {
    get done() {
      return done;
    },
    step(until: number): void {
      for (; done < until && done < n; done++) fold(done);
    },
    finish(): Int32Array {
      if (done !== n) throw new RangeError(`reference DP finished after ${done} of ${n} sessions`);
      // The best reachable state, lexicographically.
      let best = 0;
      for (let s = 1; s < S; s++) {
        const k = K[s]!;
        if (k === UNREACHABLE) continue;
        const bk = K[best]!;
        if (k > bk || (k === bk && (R[s]! > R[best]! || (R[s]! === R[best]! && T[s]! > T[best]!)))) best = s;
      }
      const out = new Int32Array(n).fill(-1);
      let s = best;
      for (let j = n - 1; j >= 0; j--) {
        const code = choice[j * S + s]!;
        if (code > 0) {
          out[j] = code - 1;
          s -= packed.qweight[j]! * stride[code - 1]!;
        }
      }
      return out;
    },
  };
}

/** Runs the dense-wide DP to completion; each kept session's kept node, or -1. */
export function solveReferencePacked(packed: PackedProblem): Int32Array {
  const run = startReference(packed);
  run.step(sessionsKept(packed));
  return run.finish();
}

/**
 * Solves a Problem exactly (at the options' quantum) with the TypeScript reference DP, ignoring the
 * state budget and the deadline. Meant for tests and measurements: its memory is 24 bytes per state
 * plus one byte per cell, so keep problems small.
 */
export function solveReference(problem: Problem, options?: SolveOptions): Plan {
  return solveExactly(problem, options, (packed, base) => ({
    node: solveReferencePacked(packed),
    stats: { ...base, path: 'reference', cells: packed.cells },
  }));
}

/**
 * Validates, resolves and packs a problem, then runs an exact packed-level algorithm on it, outside the
 * solver's budget and deadline rules (the test oracles' common frame). `run` returns the kept-node choice
 * of each kept session and the plan's stats; an empty problem never reaches it.
 */
export function solveExactly(
  problem: Problem,
  options: SolveOptions | undefined,
  run: (packed: PackedProblem, base: RawStats) => { node: Int32Array; stats: RawStats },
): Plan {
  const t0 = performance.now();
  const indexed = validateProblem(problem);
  const resolved = resolveSolveOptions(options);
  const packed = packProblem(indexed, resolved);
  const base = trivialStats(packed);
  if (sessionsKept(packed) === 0) {
    const node = new Int32Array(packed.sessionCount).fill(-1);
    return buildPlan(indexed, node, { status: 'optimal', quantum: resolved.quantum, stats: base }, elapsedMicros(t0));
  }
  const { node, stats } = run(packed, base);
  return buildPlan(
    indexed,
    unpackNodes(packed, node),
    { status: 'optimal', quantum: resolved.quantum, stats },
    elapsedMicros(t0),
  );
}
