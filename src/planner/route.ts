/**
 * The planner's route between the calling thread and the pool, adapted to what it measures.
 *
 * The backend's estimate (`estimateWork`) is the most work a solve may spend, so routing on it alone is
 * conservative: a tick the frontier DP solves is often estimated far above what it then spends (on the
 * steady-state corpora, 62 of 1800 ticks estimated above the default threshold took 43-470 us in-thread,
 * P50 ~150 us). The route therefore measures both sides as it goes:
 * - the pool's round-trip overhead: a pool solve's wall time minus the time its worker spent solving;
 * - per class of estimates (one power of two), the solve time: in-thread solves measure it directly, pool
 *   solves through their worker's time (the same solver on another thread).
 * A problem estimated at most `limit` runs in-thread, as with a fixed threshold. A larger one runs
 * in-thread once its class has ROUTE.minSamples measurements and the slowest of its last ROUTE.window is
 * at most the mean overhead of the last ROUTE.window pool solves (the largest left out, so one stall of
 * the machine cannot dominate it): blocking the loop then costs less than the round trip would add. A slower solve raises its class at once. Every ROUTE.poolEvery-th such
 * decision goes to the pool anyway, which never blocks the loop and keeps the overhead current.
 */

/** The route's constants (see the file header). */
export const ROUTE = Object.freeze({ window: 16, minSamples: 4, poolEvery: 16 });

/** The last ROUTE.window values. */
class Recent {
  readonly #values = new Float64Array(ROUTE.window);
  #count = 0;

  push(x: number): void {
    this.#values[this.#count % ROUTE.window] = x;
    this.#count += 1;
  }

  get size(): number {
    return Math.min(this.#count, ROUTE.window);
  }

  max(): number {
    let m = -Infinity;
    for (let i = 0; i < this.size; i++) m = Math.max(m, this.#values[i] as number);
    return m;
  }

  /** The mean without the largest value (the mean itself of a single value): one stall cannot dominate it. */
  trimmedMean(): number {
    if (this.size <= 1) return this.size === 0 ? NaN : (this.#values[0] as number);
    let s = 0;
    for (let i = 0; i < this.size; i++) s += this.#values[i] as number;
    return (s - this.max()) / (this.size - 1);
  }
}

/** A class of estimates: floor(log2(estimate)). */
function classOf(estimate: number): number {
  return Math.floor(Math.log2(Math.max(1, estimate)));
}

export class AdaptiveRoute {
  readonly #limit: number;
  readonly #overhead = new Recent();
  readonly #classes = new Map<number, Recent>();
  /** Decisions above the limit that the measurements sent in-thread. */
  #above = 0;

  /** `limit`: the threshold (units of work) up to which every solve runs in-thread; 0 sends all to the pool. */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Whether a problem of estimated work `estimate` runs on the calling thread. */
  inThread(estimate: number): boolean {
    if (this.#limit <= 0) return false;
    if (estimate <= this.#limit) return true;
    const times = this.#classes.get(classOf(estimate));
    if (times === undefined || times.size < ROUTE.minSamples || this.#overhead.size === 0) return false;
    if (times.max() > this.#overhead.trimmedMean()) return false;
    this.#above += 1;
    return this.#above % ROUTE.poolEvery !== 0;
  }

  /**
   * A solve of estimated work `estimate` took `solveMicros` (in-thread, or in its worker); for a pool
   * solve, `overheadMicros` is the rest of its round trip. Solves estimated at most the limit teach
   * nothing (they always run in-thread) and are ignored.
   */
  record(estimate: number, solveMicros: number, overheadMicros?: number): void {
    if (overheadMicros !== undefined && Number.isFinite(overheadMicros))
      this.#overhead.push(Math.max(0, overheadMicros));
    if (!(estimate > this.#limit) || !Number.isFinite(solveMicros)) return;
    const c = classOf(estimate);
    let times = this.#classes.get(c);
    if (times === undefined) {
      times = new Recent();
      this.#classes.set(c, times);
    }
    times.push(solveMicros);
  }

  /** Round-trip overhead of the last pool solves (their mean, the largest left out), microseconds; NaN before the first. */
  overheadMicros(): number {
    return this.#overhead.trimmedMean();
  }
}
