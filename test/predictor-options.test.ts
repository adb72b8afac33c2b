import { describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { defaultPredictorOptions, resolvePredictorOptions } from './helpers/internals.js';
import { ReadinessPredictor } from './helpers/internals.js';

describe('predictor options', () => {
  it('defaults to the paper values and is frozen', () => {
    expect(defaultPredictorOptions).toMatchObject({
      horizon: 1,
      delta: 0.2,
      freshness: 30,
      defaultDuration: 5,
      minSamples: 2,
      probeWindow: 1,
    });
    expect(Object.isFrozen(defaultPredictorOptions)).toBe(true);
    expect(new ReadinessPredictor().options).toEqual(defaultPredictorOptions);
  });

  it('makes the probe window follow the horizon unless set', () => {
    expect(resolvePredictorOptions({ horizon: 2 }).probeWindow).toBe(2);
    expect(resolvePredictorOptions({ horizon: 2, probeWindow: 0.5 }).probeWindow).toBe(0.5);
  });

  it.each([
    [null, InvalidTypeError, 'options must be an object'],
    [{ H: 1 }, InvalidValueError, 'options.H is not a known option'],
    [{ horizon: '1' }, InvalidTypeError, 'options.horizon must be a number'],
    [{ horizon: 0 }, InvalidValueError, 'options.horizon must be a positive finite number'],
    [{ horizon: Infinity }, InvalidValueError, 'options.horizon must be a positive finite number'],
    [{ delta: 0 }, InvalidValueError, 'options.delta must be a number in (0, 1)'],
    [{ delta: 1 }, InvalidValueError, 'options.delta must be a number in (0, 1)'],
    [{ delta: NaN }, InvalidValueError, 'options.delta must be a number in (0, 1)'],
    [{ freshness: -1 }, InvalidValueError, 'options.freshness must be a non-negative finite number'],
    [{ defaultDuration: NaN }, InvalidValueError, 'options.defaultDuration must be a non-negative finite number'],
    [{ minSamples: 1 }, InvalidValueError, 'options.minSamples must be an integer from 2 to 4096'],
    [{ minSamples: 2.5 }, InvalidValueError, 'options.minSamples must be an integer from 2 to 4096'],
    [{ minSamples: 10, window: 8 }, InvalidValueError, 'options.minSamples must be at most options.window (8)'],
    [
      { minSamples: 10, globalWindow: 8 },
      InvalidValueError,
      'options.minSamples must be at most options.globalWindow (8)',
    ],
    [{ window: 1 }, InvalidValueError, 'options.window must be an integer from 2 to 4096'],
    [{ globalWindow: 100_000 }, InvalidValueError, 'options.globalWindow must be an integer from 2 to 65536'],
    [{ maxTools: 0 }, InvalidValueError, 'options.maxTools must be an integer from 1 to 65536'],
    [{ probeWindow: 0 }, InvalidValueError, 'options.probeWindow must be a positive finite number'],
    [{ maxProbes: -1 }, InvalidValueError, 'options.maxProbes must be an integer from 0 to 64'],
    [{ maxProbedCalls: 0 }, InvalidValueError, 'options.maxProbedCalls must be an integer from 1 to 1048576'],
  ] as const)('rejects %j with an exact message', (options, cls, message) => {
    expect(() => new ReadinessPredictor(options as never)).toThrow(cls);
    expect(() => new ReadinessPredictor(options as never)).toThrow(new cls(message));
  });
});

describe('predictor input checks', () => {
  const p = new ReadinessPredictor();
  it.each<[string, () => unknown, typeof InvalidTypeError | typeof InvalidValueError, string]>([
    ['now NaN', () => p.ready({ name: 'x', startedAt: 0 }, NaN), InvalidValueError, 'now must be a finite number'],
    ['tool not an object', () => p.ready(null as never, 1), InvalidTypeError, 'tool must be an object'],
    [
      'tool without name',
      () => p.remaining({ startedAt: 0 } as never, 1),
      InvalidTypeError,
      'tool.name must be a string',
    ],
    [
      'tool started after now',
      () => p.ready({ name: 'x', startedAt: 2 }, 1),
      InvalidValueError,
      'tool.startedAt must not be after now',
    ],
    [
      'tool returned after now',
      () => p.ready({ name: 'x', startedAt: 0, returnedAt: 2 }, 1),
      InvalidValueError,
      'tool.returnedAt must not be after now',
    ],
    [
      'progress above 1',
      () => p.predict({ name: 'x', startedAt: 0, progress: 2 }, 1),
      InvalidValueError,
      'tool.progress must be from 0 to 1',
    ],
    [
      'session not a string',
      () => p.ready({ name: 'x', startedAt: 0 }, 1, 3 as never),
      InvalidTypeError,
      'session must be a string',
    ],
    ['call not an object', () => p.observe(undefined as never), InvalidTypeError, 'call must be an object'],
    [
      'call returned before start',
      () => p.observe({ name: 'x', startedAt: 2, returnedAt: 1 }),
      InvalidValueError,
      'call.returnedAt must not be before call.startedAt',
    ],
    [
      'call returnedAt missing',
      () => p.observe({ name: 'x', startedAt: 2 } as never),
      InvalidTypeError,
      'call.returnedAt must be a number',
    ],
    [
      'call command not a string',
      () => p.observe({ name: 'x', startedAt: 0, returnedAt: 1, command: 1 } as never),
      InvalidTypeError,
      'call.command must be a string',
    ],
  ])('rejects %s', (_name, f, cls, message) => {
    expect(f).toThrow(cls);
    expect(f).toThrow(new cls(message));
  });
});
