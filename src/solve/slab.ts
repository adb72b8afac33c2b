/**
 * Typed arrays carved out of one ArrayBuffer: a solve's validation and packing each make about a dozen
 * small arrays, and one buffer with views on it costs a fraction of a buffer per array (each backing store
 * is allocated, zeroed and tracked by the collector on its own).
 */
export class Slab {
  readonly #buffer: ArrayBuffer;
  #at = 0;

  /**
   * A zeroed slab for `wide` 8-byte, `mid` 4-byte and `narrow` 1-byte elements. Views must be taken widest
   * first (every 8-byte view, then every 4-byte view, then every 1-byte view), which keeps each aligned; a
   * view out of that order or past the end throws a RangeError.
   */
  constructor(wide: number, mid: number, narrow: number) {
    this.#buffer = new ArrayBuffer(8 * wide + 4 * mid + narrow);
  }

  f64(length: number): Float64Array {
    const view = new Float64Array(this.#buffer, this.#at, length);
    this.#at += 8 * length;
    return view;
  }

  i64(length: number): BigInt64Array {
    const view = new BigInt64Array(this.#buffer, this.#at, length);
    this.#at += 8 * length;
    return view;
  }

  i32(length: number): Int32Array {
    const view = new Int32Array(this.#buffer, this.#at, length);
    this.#at += 4 * length;
    return view;
  }

  u8(length: number): Uint8Array {
    const view = new Uint8Array(this.#buffer, this.#at, length);
    this.#at += length;
    return view;
  }
}
