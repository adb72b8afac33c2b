/**
 * Splits a byte stream into lines of at most `maxBytes` bytes (newline and a trailing CR excluded).
 * A longer line is never held: its bytes are counted and dropped up to its newline, and it comes out as
 * `oversized`. So the memory held is at most `maxBytes` plus the chunk being split. Each line comes out
 * decoded, with its byte count and its nesting (counted on the bytes while they are at hand, so that the
 * request reader does not scan the text again).
 */
import { type Nesting, nestingOfBytes } from './nesting.js';

/**
 * A line: its text, with its UTF-8 byte count and its nesting as the splitter counted them (a line made
 * otherwise may leave them out: they are then counted from the text); or a line over the cap, by its bytes.
 */
export type Line =
  | { kind: 'line'; text: string; bytes?: number; nesting?: Nesting }
  | { kind: 'oversized'; bytes: number };

const NEWLINE = 0x0a;
const CR = 0x0d;

export class LineSplitter {
  readonly maxBytes: number;
  #parts: Buffer[] = [];
  #length = 0;
  /** Bytes of the current line when it has passed the cap (its bytes are being dropped), else -1. */
  #overBytes = -1;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Bytes of the line still arriving that are held (0 while an oversized line is being dropped). */
  get pendingBytes(): number {
    return this.#length;
  }

  /** Feeds one chunk; returns the lines it completes. */
  push(chunk: Buffer): Line[] {
    const out: Line[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      if (nl !== -1 && this.#length === 0 && this.#overBytes === -1) {
        out.push(this.#line(chunk.subarray(start, end))); // the whole line is in this chunk: no copy
      } else {
        this.#take(chunk, start, end);
        if (nl === -1) break;
        out.push(this.#finish());
      }
      if (nl === -1) break;
      start = nl + 1;
    }
    return out;
  }

  /** The last line when the stream ends without a newline, if any bytes are pending. */
  end(): Line | undefined {
    if (this.#length === 0 && this.#overBytes === -1) return undefined;
    return this.#finish();
  }

  #take(chunk: Buffer, start: number, end: number): void {
    const n = end - start;
    if (n === 0) return;
    if (this.#overBytes >= 0) {
      this.#overBytes += n;
      return;
    }
    if (this.#length + n > this.maxBytes + 1) {
      // One byte of slack: a CR before the newline does not count against the cap.
      this.#overBytes = this.#length + n;
      this.#parts = [];
      this.#length = 0;
      return;
    }
    // A copy: a view would keep the whole chunk alive for a few bytes of a line still arriving.
    this.#parts.push(Buffer.from(chunk.subarray(start, end)));
    this.#length += n;
  }

  #finish(): Line {
    if (this.#overBytes >= 0) {
      const bytes = this.#overBytes;
      this.#overBytes = -1;
      return { kind: 'oversized', bytes };
    }
    const buf = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.#length);
    this.#parts = [];
    this.#length = 0;
    return this.#line(buf);
  }

  /** A whole line's bytes (newline excluded): `bytes` of an oversized line count its CR, if any. */
  #line(bytes: Buffer): Line {
    const text = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.subarray(0, bytes.length - 1) : bytes;
    if (text.length > this.maxBytes) return { kind: 'oversized', bytes: bytes.length };
    return { kind: 'line', text: text.toString('utf8'), bytes: text.length, nesting: nestingOfBytes(text) };
  }
}
