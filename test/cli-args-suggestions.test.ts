/**
 * The flag parsing every `tao` command shares: an unknown flag names the closest known one when it is a
 * likely typo; a negative number given as a flag's separate value reaches the flag's range check (the
 * message says the range, not "needs a value"); an old flag name still works under its new one.
 */
import { describe, expect, it } from 'vitest';
import { InvalidValueError, didYouMean, intFlag, parseFlags } from './helpers/internals.js';

const FLAGS = { repeat: { type: 'string' }, 'state-budget': { type: 'string' }, json: { type: 'boolean' } } as const;

function message(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('flag suggestions and ranges', () => {
  it('suggests the closest known flag for a typo, and nothing for an unrelated word', () => {
    expect(didYouMean('--repaet', ['repeat', 'json'])).toBe(' (did you mean "--repeat"?)');
    expect(didYouMean('--stat', ['state-budget', 'json'])).toBe(' (did you mean "--state-budget"?)');
    expect(didYouMean('--jsno=1', ['repeat', 'json'])).toBe(' (did you mean "--json"?)');
    expect(didYouMean('--fast', ['repeat', 'json', 'help'])).toBe('');
    expect(message(() => parseFlags(['--repet', '3'], FLAGS))).toBe(
      'unknown option "--repet" (did you mean "--repeat"?)',
    );
  });

  it('a negative separate value is read as the value, and its range is what the error says', () => {
    expect(parseFlags(['--repeat', '-1'], FLAGS).values.repeat).toBe('-1');
    expect(parseFlags(['--repeat', '-0.5', '--json'], FLAGS).values).toEqual({ repeat: '-0.5', json: true });
    const err = (() => {
      try {
        intFlag('--repeat', '-1', 1, 100);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(InvalidValueError);
    expect((err as Error).message).toBe('--repeat must be an integer from 1 to 100 (got "-1")');
    expect(message(() => intFlag('--repeat', '1e3'))).toBe('--repeat must be an integer (got "1e3")');
  });

  it('an old flag name is read as its new one, in both spellings', () => {
    const aliases = { budget: 'state-budget' } as const;
    expect(parseFlags(['--budget', '10'], FLAGS, false, aliases).values).toEqual({ 'state-budget': '10' });
    expect(parseFlags(['--budget=12'], FLAGS, false, aliases).values).toEqual({ 'state-budget': '12' });
    expect(message(() => parseFlags(['--budgte', '1'], FLAGS, false, aliases))).toBe(
      'unknown option "--budgte" (did you mean "--budget"?)',
    );
  });
});
