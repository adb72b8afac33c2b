/**
 * A fixed-memory latency histogram with bounded relative error, for the planner's solve time and queue
 * wait. Keeping every sample would grow without bound in a scheduler that runs for days; buckets do not.
 *
 * Layout (log-linear, as in HdrHistogram): values below 2^SUB_BITS get one bucket each (exact); above,
 * every power of two is split into 2^SUB_BITS equal buckets, so a bucket's width is at most 1/32 of its
 * lower bound and a reported percentile (the bucket's midpoint, clamped to the observed min and max) is
 * within 1/64 (~1.6%) of a recorded value.
 */

/** Sub-buckets per power of two, as a bit count. */
const SUB_BITS = 5;
const SUB = 1 << SUB_BITS;
/** Values are clamped to [0, 2^53): 48 octaves above the exact range, SUB buckets each. */
const OCTAVES = 53 - SUB_BITS;
const BUCKETS = SUB + OCTAVES * SUB;

/** Count, extremes, mean and percentiles of the recorded values; every field 0 when nothing was recorded. */
export interface HistogramSummary {
  count: number;
  min: number;
  max: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
}

function bucketOf(x: number): number {
  if (x < SUB) return x;
  // The exponent of the highest set bit; x < 2^53 so Math.log2 is exact enough after the correction below.
  let e = Math.floor(Math.log2(x));
  if (2 ** e > x) e -= 1;
  else if (2 ** (e + 1) <= x) e += 1;
  const shift = e - SUB_BITS;
  const sub = Math.floor(x / 2 ** shift) - SUB;
  return SUB + shift * SUB + sub;
}

/** Lower bound and width of bucket `i`. */
function boundsOf(i: number): [low: number, width: number] {
  if (i < SUB) return [i, 1];
  const shift = Math.floor((i - SUB) / SUB);
  const sub = (i - SUB) % SUB;
  const width = 2 ** shift;
  return [(SUB + sub) * width, width];
}

/**
 * Records non-negative values (rounded to integers: record microseconds, not milliseconds) and answers
 * percentiles. Memory is constant (~12 KiB) whatever the number of samples.
 */
export class LatencyHistogram {
  readonly #counts = new Float64Array(BUCKETS);
  #count = 0;
  #sum = 0;
  #min = Number.POSITIVE_INFINITY;
  #max = 0;

  /** Adds one sample. Negative or non-finite values are a caller bug and throw a RangeError. */
  record(value: number): void {
    if (!Number.isFinite(value) || value < 0) {
      throw new RangeError(`histogram value must be a finite non-negative number (got ${value})`);
    }
    const x = Math.min(Math.round(value), 2 ** 53 - 1);
    this.#counts[bucketOf(x)]! += 1;
    this.#count += 1;
    this.#sum += x;
    if (x < this.#min) this.#min = x;
    if (x > this.#max) this.#max = x;
  }

  get count(): number {
    return this.#count;
  }

  /**
   * The value below which a fraction `q` of the samples fall (nearest rank), as the midpoint of its bucket
   * clamped to [min, max]. 0 when empty.
   */
  percentile(q: number): number {
    if (!(q >= 0 && q <= 1)) throw new RangeError(`percentile must be in [0, 1] (got ${q})`);
    if (this.#count === 0) return 0;
    const rank = Math.max(1, Math.ceil(q * this.#count));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.#counts[i]!;
      if (seen >= rank) {
        const [low, width] = boundsOf(i);
        const mid = width === 1 ? low : low + (width - 1) / 2;
        return Math.min(this.#max, Math.max(this.#min, mid));
      }
    }
    return this.#max;
  }

  summary(): HistogramSummary {
    if (this.#count === 0) return { count: 0, min: 0, max: 0, mean: 0, p50: 0, p95: 0, p99: 0 };
    return {
      count: this.#count,
      min: this.#min,
      max: this.#max,
      mean: this.#sum / this.#count,
      p50: this.percentile(0.5),
      p95: this.percentile(0.95),
      p99: this.percentile(0.99),
    };
  }

  reset(): void {
    this.#counts.fill(0);
    this.#count = 0;
    this.#sum = 0;
    this.#min = Number.POSITIVE_INFINITY;
    this.#max = 0;
  }
}
