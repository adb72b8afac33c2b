import { describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { defaultEvaluateOptions, resolveEvaluateOptions } from './helpers/internals.js';
import { defaultBoundedOptions } from './helpers/internals.js';
import { evaluate } from './helpers/internals.js';
import { ReadinessPredictor } from './helpers/internals.js';

describe('evaluate options', () => {
  it('defaults to the paper values and is frozen', () => {
    expect(defaultEvaluateOptions).toEqual({ halfLife: 10, creditUnit: 1, reserve: 512, ...defaultBoundedOptions });
    expect(Object.isFrozen(defaultEvaluateOptions)).toBe(true);
    expect(resolveEvaluateOptions(undefined)).toBe(defaultEvaluateOptions);
  });

  it('merges caller fields over the defaults without touching them', () => {
    expect(resolveEvaluateOptions({ reserve: 0 })).toEqual({
      halfLife: 10,
      creditUnit: 1,
      reserve: 0,
      ...defaultBoundedOptions,
    });
    expect(resolveEvaluateOptions({ halfLife: Infinity, creditUnit: 64 })).toEqual({
      halfLife: Infinity,
      creditUnit: 64,
      reserve: 512,
      ...defaultBoundedOptions,
    });
    expect(defaultEvaluateOptions.reserve).toBe(512);
  });

  it.each([
    [null, InvalidTypeError, 'options must be an object'],
    [[], InvalidTypeError, 'options must be an object'],
    [{ halflife: 5 }, InvalidValueError, 'options.halflife is not a known option'],
    [{ halfLife: '10' }, InvalidTypeError, 'options.halfLife must be a number'],
    [{ halfLife: 0 }, InvalidValueError, 'options.halfLife must be a positive number or Infinity'],
    [{ halfLife: NaN }, InvalidValueError, 'options.halfLife must be a positive number or Infinity'],
    [{ creditUnit: 0 }, InvalidValueError, 'options.creditUnit must be an integer from 1 to 4294967295'],
    [{ creditUnit: 1.5 }, InvalidValueError, 'options.creditUnit must be an integer from 1 to 4294967295'],
    [{ creditUnit: true }, InvalidTypeError, 'options.creditUnit must be a number'],
    [{ reserve: -1 }, InvalidValueError, 'options.reserve must be an integer from 0 to 4294967295'],
    [{ reserve: 2 ** 32 }, InvalidValueError, 'options.reserve must be an integer from 0 to 4294967295'],
  ] as const)('rejects %j with an exact message', (options, cls, message) => {
    expect(() => resolveEvaluateOptions(options as never)).toThrow(new cls(message));
    expect(() => resolveEvaluateOptions(options as never)).toThrow(cls);
    const snapshot = { time: 0, nodes: [], sessions: [] };
    expect(() => evaluate(snapshot, new ReadinessPredictor(), options as never)).toThrow(new cls(message));
  });
});
