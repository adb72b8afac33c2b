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
import type { Plan, Problem } from '../../../types.js';
import type { SolveOptions } from '../../options.js';
import { nodesKept, type PackedProblem, sessionsKept } from '../../pack.js';
import { workStats } from '../../plan.js';
import { solvePrepared } from '../../prepared.js';
import { DpStatus } from '../protocol.js';
import type { DenseEngine } from './engine.js';

/** Marks an unreachable state in the credit plane (real credit sums are >= 0). */
const UNREACHABLE = -1;

/**
 * The dense-wide DP over a packed problem as a DenseEngine: the driver steps it in chunks (to check a
 * deadline in between) and then calls `finish`. `start` allocates `bytes` bytes (three planes and the
 * choices): the caller checks that against its memory bound first.
 */
export function denseMirror(packed: PackedProblem): DenseEngine {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const S = packed.states;
  const bytes = S * 24 + n * S;

  const radix = new Array<number>(m);
  const stride = new Array<number>(m);
  let st = 1;
  for (let b = 0; b < m; b++) {
    radix[b] = packed.capacity[b]! + 1;
    stride[b] = st;
    st *= radix[b]!;
  }

  // Planes hold D_j(s) for plans using exactly s; state 0 (nothing used) is the empty plan. Allocated by start().
  let K = new Float64Array(0);
  let R = K;
  let T = K;
  let choice = new Uint8Array(0);
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
    path: 'dense-wide',
    boundedSteps: false,
    bytes,
    start(): DpStatus {
      if (!Number.isSafeInteger(S)) throw new RangeError(`dense-wide DP cannot hold ${S} states`);
      K = new Float64Array(S).fill(UNREACHABLE);
      R = new Float64Array(S);
      T = new Float64Array(S);
      K[0] = 0;
      choice = new Uint8Array(n * S);
      return DpStatus.paused;
    },
    step(quota: number): DpStatus {
      const until = Math.min(n, done + Math.max(1, Math.floor(quota / S)));
      for (; done < until; done++) fold(done);
      return done === n ? DpStatus.done : DpStatus.paused;
    },
    counters: () => ({ layers: done, work: done * S }),
    finish(): Int32Array {
      if (done !== n) throw new RangeError(`dense mirror finished after ${done} of ${n} sessions`);
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
  const run = denseMirror(packed);
  run.start();
  run.step(Number.POSITIVE_INFINITY);
  return run.finish();
}

/**
 * Solves a Problem exactly (at the options' quantum) with the TypeScript dense DP, ignoring the state
 * budget and the deadline. Meant for tests and measurements: its memory is 24 bytes per state plus one
 * byte per cell, so keep problems small.
 */
export function solveReference(problem: Problem, options?: SolveOptions): Plan {
  return solvePrepared(problem, options, (packed, base) => ({
    node: solveReferencePacked(packed),
    stats: { ...base, path: 'reference', ...workStats(packed.cells) },
  }));
}
