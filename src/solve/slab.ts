/**
 * Typed arrays carved out of one ArrayBuffer: a solve's validation and packing each make about a dozen
 * small arrays, and one buffer with views on it costs a fraction of a buffer per array (each backing store
 * is allocated, zeroed and tracked by the collector on its own).
 */

/** Bytes of a chunk shared by small slabs (`Slab.shared`). */
const SHARED_CHUNK = 128 * 1024;
/** The largest slab `Slab.shared` carves out of a shared chunk; larger ones get their own buffer. */
const SHARED_SLAB_MAX = 16 * 1024;

/** The chunk small slabs are carved out of, kept by its owner (a solver's validation) from call to call. */
export class SlabArena {
  chunk = new ArrayBuffer(SHARED_CHUNK);
  at = 0;
}

export class Slab {
  readonly #buffer: ArrayBuffer;
  #at: number;

  private constructor(buffer: ArrayBuffer, at: number) {
    this.#buffer = buffer;
    this.#at = at;
  }

  /**
   * A zeroed slab on its own buffer for `wide` 8-byte, `mid` 4-byte and `narrow` 1-byte elements. Views
   * must be taken widest first (every 8-byte view, then every 4-byte view, then every 1-byte view), which
   * keeps each aligned; a view out of that order or past the end throws a RangeError.
   */
  static own(wide: number, mid: number, narrow: number): Slab {
    return new Slab(new ArrayBuffer(8 * wide + 4 * mid + narrow), 0);
  }

  /**
   * A slab like `Slab.own` for the same sizes, on the first bytes of `store`'s buffer, zeroed here; the
   * buffer is kept in `store` for the next call and replaced when it is too small. For arrays that live
   * no longer than the next call (views of an earlier call see this call's values).
   */
  static reused(wide: number, mid: number, narrow: number, store: { buffer: ArrayBuffer | null }): Slab {
    const bytes = 8 * wide + 4 * mid + narrow;
    if (store.buffer === null || store.buffer.byteLength < bytes) store.buffer = new ArrayBuffer(bytes);
    else new Uint8Array(store.buffer, 0, bytes).fill(0);
    return new Slab(store.buffer, 0);
  }

  /**
   * A zeroed slab like `Slab.own`, carved out of `arena`'s chunk shared with other small slabs when it is
   * at most SHARED_SLAB_MAX bytes (without an arena: its own buffer). Only for arrays that are never transferred (a transfer would detach the whole
   * chunk); a live view keeps its chunk (SHARED_CHUNK bytes) alive. No part of a chunk is handed out twice,
   * so every view starts zeroed. Views past the slab's size are not caught here: size it exactly.
   */
  static shared(wide: number, mid: number, narrow: number, arena?: SlabArena): Slab {
    const bytes = 8 * wide + 4 * mid + narrow;
    if (bytes > SHARED_SLAB_MAX || arena === undefined) return Slab.own(wide, mid, narrow);
    if (arena.at + bytes > SHARED_CHUNK) {
      arena.chunk = new ArrayBuffer(SHARED_CHUNK);
      arena.at = 0;
    }
    const slab = new Slab(arena.chunk, arena.at);
    arena.at += Math.ceil(bytes / 8) * 8;
    return slab;
  }

  f64(length: number): Float64Array {
    return this.#take(Float64Array, length);
  }

  i64(length: number): BigInt64Array {
    return this.#take(BigInt64Array, length);
  }

  i32(length: number): Int32Array {
    return this.#take(Int32Array, length);
  }

  u8(length: number): Uint8Array {
    return this.#take(Uint8Array, length);
  }

  /** The next `length` elements of the slab as a `View`. */
  #take<T>(
    View: { new (buffer: ArrayBuffer, offset: number, length: number): T; readonly BYTES_PER_ELEMENT: number },
    length: number,
  ): T {
    const view = new View(this.#buffer, this.#at, length);
    this.#at += View.BYTES_PER_ELEMENT * length;
    return view;
  }
}
