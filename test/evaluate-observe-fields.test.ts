import { describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError, predictReport, ReadinessPredictor } from './helpers/internals.js';

describe('fields of a completed call', () => {
  it('observe ignores fields outside CompletedToolCall (it reads only the fields it knows)', () => {
    const p = new ReadinessPredictor();
    expect(p.observe({ name: 'x', startedAt: 0, returnedAt: 1, exitCode: 0 } as never)).toBe(true);
    expect(p.counts().globalSamples).toBe(1);
  });

  it('predictReport refuses them, naming the field', () => {
    expect(() => predictReport([{ name: 'x', startedAt: 0, returnedAt: 1, exitCode: 0 } as never])).toThrow(
      new InvalidValueError('calls[0].exitCode is not a known field'),
    );
  });

  it('observe names a deadline that is not a number', () => {
    expect(() =>
      new ReadinessPredictor().observe({ name: 'x', startedAt: 0, returnedAt: 1, deadline: 'x' } as never),
    ).toThrow(new InvalidTypeError('call.deadline must be a number'));
  });
});
