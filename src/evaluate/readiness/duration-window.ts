/**
 * A bounded history of tool-call durations: the last `capacity` samples in a ring buffer, with the
 * empirical Bernstein bound recomputed on each push (O(capacity)), so that a readiness query is O(1).
 */
import { bernsteinBound, durationStats } from './bernstein.js';

export class DurationWindow {
  readonly #buf: Float64Array;
  /** Index of the oldest sample. */
  #start = 0;
  #count = 0;
  /** Largest `returnedAt` among the samples pushed: when this history last gained evidence. */
  #lastSampleAt = Number.NEGATIVE_INFINITY;
  /** The bound over the kept samples; NaN below 1 sample. */
  #bound = Number.NaN;

  constructor(capacity: number) {
    this.#buf = new Float64Array(capacity);
  }

  get count(): number {
    return this.#count;
  }

  get lastSampleAt(): number {
    return this.#lastSampleAt;
  }

  /** The empirical Bernstein bound of the kept samples (NaN when empty). */
  get bound(): number {
    return this.#bound;
  }

  /** Adds a duration observed at `at`, dropping the oldest when full, and refreshes the bound. */
  push(duration: number, at: number, delta: number): void {
    const cap = this.#buf.length;
    if (this.#count < cap) {
      this.#buf[(this.#start + this.#count) % cap] = duration;
      this.#count++;
    } else {
      this.#buf[this.#start] = duration;
      this.#start = this.#start + 1 === cap ? 0 : this.#start + 1;
    }
    if (at > this.#lastSampleAt) this.#lastSampleAt = at;
    this.#bound = bernsteinBound(durationStats(this.#buf, this.#start, this.#count), delta);
  }

  /**
   * A window holding `values` (oldest first, at most `capacity`) whose history last gained a sample at
   * `lastSampleAt`: the state `values()` and `lastSampleAt` describe, with the same bound.
   */
  static restore(capacity: number, values: readonly number[], lastSampleAt: number, delta: number): DurationWindow {
    const w = new DurationWindow(capacity);
    w.#buf.set(values);
    w.#count = values.length;
    w.#lastSampleAt = lastSampleAt;
    if (values.length > 0) w.#bound = bernsteinBound(durationStats(w.#buf, 0, values.length), delta);
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
