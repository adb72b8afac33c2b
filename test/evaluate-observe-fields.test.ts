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

  it('predict and remaining name a bad tool field by the path tool, and predict ignores unknown ones', () => {
    const p = new ReadinessPredictor();
    expect(() => p.remaining({ name: '', startedAt: 0 }, 1)).toThrow(
      new InvalidValueError('tool.name must be a non-empty string'),
    );
    expect(() => p.predict({ name: '', startedAt: 0 }, 1)).toThrow(
      new InvalidValueError('tool.name must be a non-empty string'),
    );
    expect(p.predict({ name: 'x', startedAt: 0, pid: 42 } as never, 1).source).toBe('default');
  });
});

describe('predict', () => {
  it('reports a returned call as completed at its return, not probing', () => {
    const p = new ReadinessPredictor().predict({ name: 'x', startedAt: 0, returnedAt: 30 }, 40);
    expect(p).toMatchObject({ source: 'returned', duration: 30, completion: 30, remaining: 0, ready: true });
    expect(p.probing).toBe(false);
  });

  it('reports a running call as completing at now + remaining', () => {
    // The 5 s default from 0, asked at 1.
    const p = new ReadinessPredictor().predict({ name: 'x', startedAt: 0 }, 1);
    expect(p).toMatchObject({ source: 'default', completion: 5, remaining: 4, ready: false, probing: false });
  });

  it("does not read a session's probe state for another call of that session", () => {
    // x (started 0) probed at 60 for 1 s: next probe at 0 + 2 * 61 = 122. y, also started 0 in session s,
    // is overdue and unprobed: remaining 0.
    const p = new ReadinessPredictor();
    p.ready({ name: 'x', startedAt: 0 }, 60, 's');
    expect(p.remaining({ name: 'x', startedAt: 0 }, 70, 's')).toBe(52);
    expect(p.remaining({ name: 'y', startedAt: 0 }, 70, 's')).toBe(0);
    expect(p.remaining({ name: 'x', startedAt: 1 }, 70, 's')).toBe(0);
  });

  it('falls through a progress so small that its ETA overflows', () => {
    const p = new ReadinessPredictor().predict({ name: 'x', startedAt: 0, progress: 5e-324, reportedAt: 10 }, 10);
    expect(p.source).toBe('default');
    expect(p.duration).toBe(5);
  });

  it("a returned call's query drops its own probe state only, not the session's other call's", () => {
    const p = new ReadinessPredictor();
    p.ready({ name: 'x', startedAt: 0 }, 60, 's');
    expect(p.ready({ name: 'y', startedAt: 3, returnedAt: 4 }, 61, 's')).toBe(true);
    expect(p.counts().probes).toBe(1);
    expect(p.ready({ name: 'x', startedAt: 0, returnedAt: 61 }, 62, 's')).toBe(true);
    expect(p.counts().probes).toBe(0);
  });

  it('closes a probe after its window and pushes the estimate to double the elapsed time', () => {
    // x started at 10, probed at 60 for 1 s: closed at 61; next estimate 10 + 2 * (61 - 10) = 112.
    const p = new ReadinessPredictor();
    const x = { name: 'x', startedAt: 10 };
    expect(p.ready(x, 60, 's')).toBe(true);
    expect(p.ready(x, 60.5, 's')).toBe(true);
    expect(p.ready(x, 62, 's')).toBe(false);
    expect(p.remaining(x, 70, 's')).toBe(42);
    expect(p.ready(x, 112, 's')).toBe(true);
  });

  it('estimates the remaining time of a probed call through its probes', () => {
    // x started at 10, probed at 60 (next 112), due again at 115 (remaining 0), probed again at 115 for
    // 1 s: next 10 + 2 * (116 - 10) = 222. A returned call has no remaining time, whatever its probes.
    const p = new ReadinessPredictor();
    const x = { name: 'x', startedAt: 10 };
    p.ready(x, 60, 's');
    expect(p.remaining(x, 115, 's')).toBe(0);
    expect(p.ready(x, 115, 's')).toBe(true);
    expect(p.remaining(x, 120, 's')).toBe(102);
    expect(p.remaining({ ...x, returnedAt: 119 }, 120, 's')).toBe(0);
  });

  it('keeps doubling the elapsed time once the probes are exhausted', () => {
    // maxProbes 1: probed at 60 (next 112); at 115 elapsed doubles from 102 to 204: return due at 214.
    const p = new ReadinessPredictor({ maxProbes: 1 });
    const x = { name: 'x', startedAt: 10 };
    p.ready(x, 60, 's');
    expect(p.remaining(x, 115, 's')).toBe(99);
    expect(p.ready(x, 115, 's')).toBe(false);
  });

  it('a restored empty predictor records the time of its first sample', () => {
    const p = ReadinessPredictor.fromJSON(JSON.parse(JSON.stringify(new ReadinessPredictor().toJSON())));
    p.observe({ name: 'x', startedAt: 1, returnedAt: 5 });
    expect(p.toJSON().global.lastSampleAt).toBe(5);
  });

  it('remaining and predict name a start after now by the paths tool and now', () => {
    const p = new ReadinessPredictor();
    const message = 'tool.startedAt must not be after now';
    expect(() => p.remaining({ name: 'x', startedAt: 5 }, 1)).toThrow(new InvalidValueError(message));
    expect(() => p.predict({ name: 'x', startedAt: 5 }, 1)).toThrow(new InvalidValueError(message));
  });
});
