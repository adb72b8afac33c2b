/**
 * The nesting check of a request line, counted on its bytes (as the line splitter does) or on its text,
 * refuses exactly the lines a left-to-right reading of the text refuses, with the same message: too deep
 * when the container that goes past the depth comes first, too many containers otherwise. Brackets in
 * strings (escapes included) are text; multi-byte characters count as one character of the line.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_DEPTH, nestingError, nestingOfBytes, nestingOfText } from './helpers/internals.js';

/** The oracle: one reading of the text that stops at the first rule broken. */
function firstBroken(line: string): string | undefined {
  const maxContainers = 1024 + Math.floor(line.length / 16);
  let depth = 0;
  let containers = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      for (i++; i < line.length; i++) {
        if (line[i] === '\\') i++;
        else if (line[i] === '"') break;
      }
    } else if (c === '[' || c === '{') {
      depth += 1;
      if (depth > MAX_REQUEST_DEPTH) return `line must nest arrays and objects at most ${MAX_REQUEST_DEPTH} deep`;
      containers += 1;
      if (containers > maxContainers) {
        return `line must hold at most ${maxContainers} arrays and objects (one per 16 characters)`;
      }
    } else if (c === ']' || c === '}') {
      depth -= 1;
    }
  }
  return undefined;
}

/** Pieces that reach both limits in a few dozen draws: runs of openings, of empty containers, strings. */
const piece = fc.constantFrom(
  '[',
  '{',
  ']',
  '}',
  '"',
  '\\',
  'a',
  'é',
  '€',
  '𝄞',
  '[[[[[[[[',
  ']]]]]]]]',
  '{}'.repeat(100),
  '[]'.repeat(40) + 'x'.repeat(200),
  '"[[[[{{{{"',
  '"\\"[["',
);

describe('the nesting check of a request line', () => {
  it('refuses what a left-to-right reading refuses, the same on the bytes as on the text', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }).map((a) => a.join('')),
        (line) => {
          const want = firstBroken(line);
          expect(nestingError(nestingOfText(line), line.length)?.message).toBe(want);
          expect(nestingError(nestingOfBytes(Buffer.from(line, 'utf8')), line.length)?.message).toBe(want);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('names the depth when a line breaks it first, and the count when that comes first', () => {
    const deep = '['.repeat(MAX_REQUEST_DEPTH + 1);
    const many = '{}'.repeat(3000);
    expect(nestingError(nestingOfText(deep + many), (deep + many).length)?.message).toMatch(/deep$/);
    expect(nestingError(nestingOfText(many + deep), (many + deep).length)?.message).toMatch(/one per 16 characters/);
    expect(nestingError(nestingOfText('"' + deep + '"'), deep.length + 2)).toBeUndefined();
  });

  it('at the boundary: the container one past the count that also goes too deep is named for its depth', () => {
    // `{}` x a, then MAX_REQUEST_DEPTH + 1 openings: the last is container a + MAX_REQUEST_DEPTH + 1.
    const line = (a: number): string => '{}'.repeat(a) + '['.repeat(MAX_REQUEST_DEPTH + 1);
    const excess = (a: number): number => a + MAX_REQUEST_DEPTH + 1 - (1024 + Math.floor(line(a).length / 16)); // its ordinal less the count allowed
    const onePast = Array.from({ length: 2000 }, (_, a) => a).find((a) => excess(a) === 1)!;
    const twoPast = Array.from({ length: 2000 }, (_, a) => a).find((a) => excess(a) === 2)!;
    for (const a of [onePast, twoPast]) {
      const text = line(a);
      expect(nestingError(nestingOfBytes(Buffer.from(text)), text.length)?.message).toBe(firstBroken(text));
    }
    expect(firstBroken(line(onePast))).toMatch(/deep$/);
    expect(firstBroken(line(twoPast))).toMatch(/one per 16 characters/);
  });
});
