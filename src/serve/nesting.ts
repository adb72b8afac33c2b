/**
 * How a request line nests, counted before it is parsed: parsing builds every array and object it holds
 * (an empty object costs ~100 bytes once built, so a line of `{},{},...` would cost 30-40 times its size,
 * and millions of nested brackets about 100 bytes per byte of line), so a line is refused when it nests
 * deeper than MAX_REQUEST_DEPTH or holds more than one array or object per CHARS_PER_CONTAINER characters
 * (beyond a first CONTAINER_ALLOWANCE). Brackets inside strings are text, not nesting.
 *
 * The count is taken on the line's bytes where they are at hand (the line splitter), else on its text:
 * the two agree, since the scan only reads `"`, `\` and brackets, which are ASCII, and in UTF-8 every
 * ASCII character is one byte and no byte of a multi-byte character is below 0x80.
 */
import { InvalidValueError } from '../errors.js';

/** Deepest nesting of arrays and objects a request line may have; the protocol nests at most 6 deep. */
export const MAX_REQUEST_DEPTH = 32;
/** Characters of line per array or object allowed (beyond a first CONTAINER_ALLOWANCE). */
export const CHARS_PER_CONTAINER = 16;
export const CONTAINER_ALLOWANCE = 1024;

/** Arrays and objects a line opens, and the ordinal (from 1) of the first opened past MAX_REQUEST_DEPTH (0: none). */
export interface Nesting {
  containers: number;
  tooDeepAt: number;
}

/** What each byte is to the scan: 0 for most, so the loop does one table read per byte. */
const OTHER = 0;
const QUOTE = 1;
const BACKSLASH = 2;
const OPEN = 3;
const CLOSE = 4;
const CLASS = new Uint8Array(256);
CLASS[0x22] = QUOTE;
CLASS[0x5c] = BACKSLASH;
CLASS[0x5b] = OPEN; // [
CLASS[0x7b] = OPEN; // {
CLASS[0x5d] = CLOSE; // ]
CLASS[0x7d] = CLOSE; // }

/** The nesting of a line's UTF-8 bytes. */
export function nestingOfBytes(bytes: Uint8Array): Nesting {
  let depth = 0;
  let containers = 0;
  let tooDeepAt = 0;
  let inString = false;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const k = CLASS[bytes[i]!]!;
    if (k === OTHER) continue;
    if (inString) {
      if (k === BACKSLASH) i++;
      else if (k === QUOTE) inString = false;
    } else if (k === QUOTE) {
      inString = true;
    } else if (k === OPEN) {
      containers++;
      if (++depth > MAX_REQUEST_DEPTH && tooDeepAt === 0) tooDeepAt = containers;
    } else if (k === CLOSE) {
      depth--;
    }
  }
  return { containers, tooDeepAt };
}

/** The nesting of a line's text: nestingOfBytes of its UTF-8 encoding (for a line not read by the splitter). */
export function nestingOfText(text: string): Nesting {
  return nestingOfBytes(Buffer.from(text, 'utf8'));
}

/**
 * Why a line of `chars` characters (UTF-16 units) with this nesting is refused, if it is. When it breaks
 * both rules, the one a left-to-right reading meets first is named: the depth when the container that
 * goes too deep comes no later than the first one over the count.
 */
export function nestingError(nesting: Nesting, chars: number): InvalidValueError | undefined {
  const maxContainers = CONTAINER_ALLOWANCE + Math.floor(chars / CHARS_PER_CONTAINER);
  if (nesting.tooDeepAt !== 0 && nesting.tooDeepAt <= maxContainers + 1) {
    return new InvalidValueError(`line must nest arrays and objects at most ${MAX_REQUEST_DEPTH} deep`);
  }
  if (nesting.containers > maxContainers) {
    return new InvalidValueError(
      `line must hold at most ${maxContainers} arrays and objects (one per ${CHARS_PER_CONTAINER} characters)`,
    );
  }
  return undefined;
}
