/**
 * Flag parsing shared by every `tao` command: node:util parseArgs, with its errors turned into the
 * package's typed errors naming the flag (printed on one line, exit 2), and the value checks of the flags.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { InvalidTypeError, InvalidValueError } from '../errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>>;

/**
 * parseArgs in strict mode; unknown flags, missing values and (unless `positionals`) stray arguments become
 * typed errors. `--flag=VALUE` and `--flag VALUE` are both accepted; a lone `-` is a positional.
 */
export function parseFlags<O extends Options>(
  args: readonly string[],
  options: O,
  positionals = false,
): { values: Parsed<O>['values']; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: positionals });
    return { values: parsed.values as Parsed<O>['values'], positionals: parsed.positionals };
  } catch (err) {
    const code = (err as { code?: string }).code;
    const message = err instanceof Error ? err.message : String(err);
    // parseArgs quotes the flag, sometimes followed by ' <value>': keep the flag itself.
    const flag = /'(-[^' ]*)/.exec(message)?.[1] ?? 'an option';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new InvalidValueError(`unknown option "${flag}"`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      if (/ambiguous/.test(message)) {
        throw new InvalidTypeError(`${flag} needs a value (for a value starting with "-", write ${flag}=VALUE)`);
      }
      throw new InvalidTypeError(`${flag} needs a value`);
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new InvalidValueError(`unexpected argument: ${message}`);
    throw err;
  }
}

/** A positive integer flag value. */
export function intFlag(flag: string, text: string, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^[0-9]+$/.test(text)) throw new InvalidTypeError(`${flag} must be an integer (got "${text}")`);
  const x = Number(text);
  if (!Number.isSafeInteger(x) || x < min || x > max) throw new InvalidValueError(`${flag} must be an integer from ${min} to ${max} (got "${text}")`);
  return x;
}

/** A finite number flag value. */
export function numFlag(flag: string, text: string): number {
  const x = Number(text);
  if (text.trim() === '' || Number.isNaN(x)) throw new InvalidTypeError(`${flag} must be a number (got "${text}")`);
  if (!Number.isFinite(x)) throw new InvalidValueError(`${flag} must be finite (got "${text}")`);
  return x;
}

/** A positive finite number, of `unit` when given (`seconds`, `milliseconds`). */
export function positiveNumberFlag(flag: string, text: string, unit?: string): number {
  const x = numFlag(flag, text);
  if (x <= 0) throw new InvalidValueError(`${flag} must be a positive number${unit === undefined ? '' : ` of ${unit}`} (got "${text}")`);
  return x;
}

/** `--seeds N` (seeds 1..N) or `--seeds a,b,c` (those seeds). */
export function seedsFlag(flag: string, text: string): number[] {
  if (text.includes(',')) {
    const seeds = text.split(',').map((t) => intFlag(flag, t.trim(), 0));
    if (new Set(seeds).size !== seeds.length) throw new InvalidValueError(`${flag} must not repeat a seed (got "${text}")`);
    return seeds;
  }
  const n = intFlag(flag, text, 1, 10_000);
  return Array.from({ length: n }, (_, i) => i + 1);
}
