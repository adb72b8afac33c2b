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

  it('ready and remaining ignore fields of the tool call they do not know', () => {
    const p = new ReadinessPredictor();
    const tool = { name: 'x', startedAt: 0, pid: 42 } as never;
    expect(p.ready(tool, 1)).toBe(false);
    expect(p.remaining(tool, 1)).toBe(4);
  });

  it("observe keeps the probe state of the session's other call", () => {
    // Session s's call x (started 0) is probed at 60; a completed call y of s (started 3) is another call.
    const p = new ReadinessPredictor();
    p.ready({ name: 'x', startedAt: 0 }, 60, 's');
    expect(p.counts().probes).toBe(1);
    p.observe({ name: 'y', startedAt: 3, returnedAt: 4, session: 's' });
    expect(p.counts().probes).toBe(1);
    p.observe({ name: 'x', startedAt: 0, returnedAt: 61, session: 's' });
    expect(p.counts().probes).toBe(0);
  });
});
