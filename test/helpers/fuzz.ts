/** Seeded random inputs shared by the fuzz suites: random JSON values over a vocabulary of keys. */
export type Rand = () => number;

export const int = (r: Rand, n: number): number => Math.floor(r() * n);
export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[int(r, xs.length)]!;

/** Strings that often break parsers and lookups: empty, prototype names, NUL, BOM, non-ASCII, long. */
export const STRINGS = [
  '',
  'a',
  'b',
  'n0',
  's0',
  '__proto__',
  'constructor',
  'ds-16',
  'sleep 5',
  'bash',
  'solve',
  'auto',
  '\u0000',
  '\uFEFF',
  'é',
  'x'.repeat(300),
];
/** Numbers at the package's limits and past them. */
export const NUMBERS = [0, 1, -1, 0.5, 16, 64, 4096, 4097, 2 ** 32, 2 ** 53, 1e308, -0, Number.MAX_SAFE_INTEGER];

/** A random JSON value; objects take their keys from `keys`. */
export function randomValue(r: Rand, keys: readonly string[], depth = 0): unknown {
  const k = int(r, depth > 2 ? 5 : 7);
  if (k === 0) return pick(r, NUMBERS);
  if (k === 1) return pick(r, STRINGS);
  if (k === 2) return r() < 0.5;
  if (k === 3) return null;
  if (k === 4) return int(r, 100);
  if (k === 5) return Array.from({ length: int(r, 4) }, () => randomValue(r, keys, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = int(r, 4); i > 0; i--) o[pick(r, keys)] = randomValue(r, keys, depth + 1);
  return o;
}
