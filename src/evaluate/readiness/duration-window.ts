/**
 * A bounded history of tool-call durations: the last `capacity` samples in a ring buffer, and the
 * empirical Bernstein bound over them. A push costs O(1); the bound is recomputed (O(capacity), two
 * passes in a fixed order) on the first query after the samples changed, so a batch of pushes costs one
 * recomputation at most, and a restored window computes bit-identical bounds. Running sums updated on
 * each push would drift from the two-pass value by rounding, and differ between a window and its restored
 * copy.
 */
import { bernsteinBound, durationStats } from './bernstein.js';

export class DurationWindow {
  readonly #buf: Float64Array;
  /** Index of the oldest sample. */
  #start = 0;
  #count = 0;
  /** Largest `returnedAt` among the samples pushed: when this history last gained evidence. */
  #lastSampleAt = Number.NEGATIVE_INFINITY;
  /** The bound over the kept samples; NaN below 1 sample. Stale while #dirty. */
  #bound = Number.NaN;
  #dirty = false;
  readonly #delta: number;

  constructor(capacity: number, delta: number) {
    this.#buf = new Float64Array(capacity);
    this.#delta = delta;
  }

  get count(): number {
    return this.#count;
  }

  get lastSampleAt(): number {
    return this.#lastSampleAt;
  }

  /** The empirical Bernstein bound of the kept samples (NaN when empty). */
  get bound(): number {
    if (this.#dirty) {
      this.#dirty = false;
      this.#bound = bernsteinBound(durationStats(this.#buf, this.#start, this.#count), this.#delta);
    }
    return this.#bound;
  }

  /** Adds a duration observed at `at`, dropping the oldest when full. */
  push(duration: number, at: number): void {
    const cap = this.#buf.length;
    if (this.#count < cap) {
      this.#buf[(this.#start + this.#count) % cap] = duration;
      this.#count++;
    } else {
      this.#buf[this.#start] = duration;
      this.#start = this.#start + 1 === cap ? 0 : this.#start + 1;
    }
    if (at > this.#lastSampleAt) this.#lastSampleAt = at;
    this.#dirty = true;
  }

  /**
   * A window holding `values` (oldest first, at most `capacity`) whose history last gained a sample at
   * `lastSampleAt`: the state `values()` and `lastSampleAt` describe, with the same bound.
   */
  static restore(capacity: number, values: readonly number[], lastSampleAt: number, delta: number): DurationWindow {
    const w = new DurationWindow(capacity, delta);
    w.#buf.set(values);
    w.#count = values.length;
    w.#lastSampleAt = lastSampleAt;
    w.#dirty = values.length > 0;
    return w;
  }

  /** The kept samples, oldest first. */
  values(): number[] {
    const out: number[] = [];
    const cap = this.#buf.length;
    for (let i = 0; i < this.#count; i++) out.push(this.#buf[(this.#start + i) % cap]!);
    return out;
  }
}
