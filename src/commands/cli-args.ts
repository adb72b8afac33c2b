/**
 * Flag parsing shared by every `tao` command: node:util parseArgs, with its errors turned into the
 * package's typed errors naming the flag (printed on one line, exit 2), and the value checks of the flags.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { InvalidTypeError, InvalidValueError } from '../errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>
>;

/** Edit distance between two flag names (insertions, deletions, substitutions, adjacent swaps). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** ` (did you mean "--x"?)` for the known flag closest to `flag`, when one is close enough to be a typo. */
export function didYouMean(flag: string, known: readonly string[]): string {
  const name = flag.replace(/^-+/, '').split('=')[0]!;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const dist = k.startsWith(name) && name.length >= 3 ? 0.5 : distance(name, k);
    if (dist < bestDistance) [best, bestDistance] = [k, dist];
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(name.length / 3))
    ? ` (did you mean "--${best}"?)`
    : '';
}

/** A negative number given as the separate value of a string flag (`--repeat -1`), joined as `--repeat=-1`. */
const NEGATIVE = /^-(?:\d|\.\d)/;

/**
 * parseArgs in strict mode; unknown flags (with the closest known one), missing values and (unless
 * `positionals`) stray arguments become typed errors. `--flag=VALUE` and `--flag VALUE` are both accepted,
 * also when VALUE is a negative number (the flag's own check then says what range it takes); a lone `-` is
 * a positional. `aliases` maps an old flag name to its current one (`{ budget: 'state-budget' }`).
 */
export function parseFlags<O extends Options>(
  args: readonly string[],
  options: O,
  positionals = false,
  aliases: Readonly<Record<string, keyof O & string>> = {},
): { values: Parsed<O>['values']; positionals: string[] } {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    let a = args[i]!;
    const m = /^--([^=]+)(=.*)?$/.exec(a);
    if (m !== null && Object.hasOwn(aliases, m[1]!)) a = `--${aliases[m[1]!]!}${m[2] ?? ''}`;
    const name = /^--([^=]+)$/.exec(a)?.[1];
    const next = args[i + 1];
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && NEGATIVE.test(next)) {
      joined.push(`${a}=${next}`);
      i += 1;
    } else joined.push(a);
  }
  try {
    const parsed = parseArgs({ args: joined, options, strict: true, allowPositionals: positionals });
    return { values: parsed.values as Parsed<O>['values'], positionals: parsed.positionals };
  } catch (err) {
    const code = (err as { code?: string }).code;
    const message = err instanceof Error ? err.message : String(err);
    // parseArgs quotes the flag, sometimes followed by ' <value>': keep the flag itself.
    const flag = /'(-[^' ]*)/.exec(message)?.[1] ?? 'an option';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      throw new InvalidValueError(
        `unknown option "${flag}"${didYouMean(flag, [...Object.keys(options), ...Object.keys(aliases)])}`,
      );
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      if (/does not take an argument/.test(message)) throw new InvalidValueError(`${flag} takes no value`);
      if (/ambiguous/.test(message)) {
        throw new InvalidTypeError(`${flag} needs a value (for a value starting with "-", write ${flag}=VALUE)`);
      }
      throw new InvalidTypeError(`${flag} needs a value`);
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new InvalidValueError(`unexpected argument: ${message}`);
    throw err;
  }
}

/** An integer flag value from `min` to `max`; a negative integer is out of range, not malformed. */
export function intFlag(flag: string, text: string, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^-?[0-9]+$/.test(text)) throw new InvalidTypeError(`${flag} must be an integer (got "${text}")`);
  const x = Number(text);
  if (!Number.isSafeInteger(x) || x < min || x > max)
    throw new InvalidValueError(`${flag} must be an integer from ${min} to ${max} (got "${text}")`);
  return x;
}

/** A decimal number: digits with an optional sign, fraction and exponent (no hex, binary, `Infinity`, spaces). */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A finite decimal number flag value. */
export function numFlag(flag: string, text: string): number {
  if (!DECIMAL.test(text)) throw new InvalidTypeError(`${flag} must be a decimal number (got "${text}")`);
  const x = Number(text);
  if (!Number.isFinite(x)) throw new InvalidValueError(`${flag} must be finite (got "${text}")`);
  return x;
}

/** A positive finite number, of `unit` when given (`seconds`, `milliseconds`). */
export function positiveNumberFlag(flag: string, text: string, unit?: string): number {
  const x = numFlag(flag, text);
  if (x <= 0)
    throw new InvalidValueError(
      `${flag} must be a positive number${unit === undefined ? '' : ` of ${unit}`} (got "${text}")`,
    );
  return x;
}

/** `--seeds N` (seeds 1..N) or `--seeds a,b,c` (those seeds). */
export function seedsFlag(flag: string, text: string): number[] {
  if (text.includes(',')) {
    const seeds = text.split(',').map((t) => intFlag(flag, t.trim(), 0));
    if (new Set(seeds).size !== seeds.length)
      throw new InvalidValueError(`${flag} must not repeat a seed (got "${text}")`);
    return seeds;
  }
  const n = intFlag(flag, text, 1, 10_000);
  return Array.from({ length: n }, (_, i) => i + 1);
}
