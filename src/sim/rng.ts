/**
 * The simulator's only source of randomness: xoshiro128** (Blackman & Vigna) seeded through splitmix32.
 * 32-bit integer arithmetic only, so a seed gives the same stream on every platform; no `Math.random`.
 *
 * Streams are derived, not shared: each task draws from `Rng.derive(seed, STREAM_TASK, taskIndex)`, so a
 * task's turns, outputs and tool durations do not depend on the order the scheduler happens to start
 * tasks in. Every policy run on the same seed therefore sees the same workload (common random numbers),
 * and differences between policies are differences of scheduling, not of luck.
 */

/** One step of splitmix32: a well-mixed 32-bit word from a counter. */
function splitmix32(state: number): number {
  let z = (state + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

const TWO_POW_32 = 4294967296;

export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  /** Seeds the generator from up to three integers (a seed and stream coordinates). */
  constructor(seed: number, stream = 0, index = 0) {
    // Fold the three coordinates through splitmix so nearby seeds give unrelated states.
    let x = splitmix32((seed | 0) ^ 0x5bd1e995);
    x = splitmix32(x ^ Math.imul(stream | 0, 0x27d4eb2f));
    x = splitmix32(x ^ Math.imul(index | 0, 0x165667b1));
    // Seeds above 2^32 would alias silently; callers validate seeds as safe integers, fold the high part in.
    x = splitmix32(x ^ Math.floor(seed / TWO_POW_32));
    this.s0 = splitmix32(x);
    this.s1 = splitmix32(this.s0 ^ 0x1b873593);
    this.s2 = splitmix32(this.s1 ^ 0xcc9e2d51);
    this.s3 = splitmix32(this.s2 ^ 0xe6546b64);
    // The all-zero state is the one fixed point of xoshiro.
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** An independent generator for stream `stream`, item `index` of `seed`. */
  static derive(seed: number, stream: number, index: number): Rng {
    return new Rng(seed, stream, index);
  }

  /** The next 32-bit unsigned integer. */
  nextU32(): number {
    const s0 = this.s0;
    const s1 = this.s1;
    const s2 = this.s2;
    const s3 = this.s3;
    const m = Math.imul(s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    const t = s1 << 9;
    const n2 = s2 ^ s0;
    const n3 = s3 ^ s1;
    this.s1 = s1 ^ n2;
    this.s0 = s0 ^ n3;
    this.s2 = n2 ^ t;
    this.s3 = (n3 << 11) | (n3 >>> 21);
    return result;
  }

  /** Uniform in [0, 1) with 53 bits of resolution. */
  float(): number {
    const hi = this.nextU32() >>> 5; // 27 bits
    const lo = this.nextU32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [0, n), n a positive integer; rejection keeps it unbiased. */
  int(n: number): number {
    if (n <= 1) return 0;
    if (n > TWO_POW_32) return Math.floor(this.float() * n);
    const limit = TWO_POW_32 - (TWO_POW_32 % n);
    let x = this.nextU32();
    while (x >= limit) x = this.nextU32();
    return x % n;
  }

  /** Standard normal (Box-Muller, one value per call so the stream position is easy to reason about). */
  normal(): number {
    // 1 - float() is in (0, 1]: log never sees 0.
    const u = 1 - this.float();
    const v = this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal with the given median (e^mu) and log-space standard deviation sigma. */
  lognormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Index drawn with probability proportional to `weights[i]` (non-negative, positive sum). */
  weighted(weights: readonly number[], total: number): number {
    let x = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i]!;
      if (x < 0) return i;
    }
    // Rounding can leave x a hair above 0 after the last positive weight: that weight was drawn.
    for (let i = weights.length - 1; i >= 0; i--) if (weights[i]! > 0) return i;
    return 0;
  }
}

/** Stream ids: one per independent use, so adding a draw in one place cannot shift another. */
export const STREAM_TASK = 1;
