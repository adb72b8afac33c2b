/**
 * The sidecar's line framing: however the bytes are chunked, the lines that come out are the text split
 * at newlines (a trailing CR dropped, multi-byte characters intact), and a line over the cap comes out
 * as `oversized` with its byte count, without being held.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter, type Line, nestingOfText } from './helpers/internals.js';

function splitAll(splitter: LineSplitter, chunks: Buffer[]): Line[] {
  const out: Line[] = [];
  for (const c of chunks) out.push(...splitter.push(c));
  const last = splitter.end();
  if (last !== undefined) out.push(last);
  return out;
}

/** Cuts `bytes` at the given offsets (sorted, deduplicated). */
function cut(bytes: Buffer, at: number[]): Buffer[] {
  const points = [...new Set(at.map((x) => x % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(prev, p));
    prev = p;
  }
  return out;
}

/** The oracle: String.split on the decoded text (each line with its UTF-8 bytes and its nesting read on the text). */
function expected(text: string, cap: number): Line[] {
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts.map((p) => {
    const line = p.endsWith('\r') ? p.slice(0, -1) : p;
    const bytes = Buffer.byteLength(line);
    if (bytes > cap) return { kind: 'oversized', bytes: Buffer.byteLength(p) } as Line;
    return { kind: 'line', text: line, bytes, nesting: nestingOfText(line) } as Line;
  });
}

describe('LineSplitter', () => {
  it('gives the newline-split lines whatever the chunking', () => {
    const alphabet = fc.constantFrom('a', 'b', '\n', '\r', 'é', '€', '𝄞', ' ', '{', ']', '"', '\\');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 80 }).map((a) => a.join('')),
        fc.array(fc.nat(400), { maxLength: 12 }),
        fc.integer({ min: 1, max: 24 }),
        (text, offsets, cap) => {
          const bytes = Buffer.from(text, 'utf8');
          const got = splitAll(new LineSplitter(cap), cut(bytes, offsets));
          expect(got).toEqual(expected(text, cap));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('counts an oversized line without holding it: the pieces are dropped as they come', () => {
    const s = new LineSplitter(10);
    expect(s.push(Buffer.from('0123456789'))).toEqual([]);
    expect(s.push(Buffer.from('0123456789'.repeat(1000)))).toEqual([]);
    expect(s.push(Buffer.from('ab\nok\n'))).toEqual([
      { kind: 'oversized', bytes: 10_012 },
      { kind: 'line', text: 'ok', bytes: 2, nesting: { containers: 0, tooDeepAt: 0 } },
    ]);
    expect(s.end()).toBeUndefined();
  });

  it('does not count the CR of a CRLF against the cap', () => {
    const s = new LineSplitter(3);
    expect(s.push(Buffer.from('abc\r\nabcd\r\n'))).toEqual([
      { kind: 'line', text: 'abc', bytes: 3, nesting: { containers: 0, tooDeepAt: 0 } },
      { kind: 'oversized', bytes: 5 },
    ]);
  });
});
