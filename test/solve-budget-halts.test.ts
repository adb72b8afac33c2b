/**
 * When a solve's budget says to stop (src/solve/pipeline/budget.ts): `expired()` and `halted()` answer from
 * the stop flag (another thread's `Atomics.store`) and the deadline counted from `startedAt`, the stop
 * flag first; `stepped` says whether work must be cut into steps at all (only when either can fire). A
 * share answers from the same clock and flag as its parent. The deadline's edge is read on a clock held
 * still (performance.now mocked, restored after each test).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SolveBudget } from './helpers/internals.js';

const LIMIT = 1000;
const budget = (startedAt: number, deadlineMs: number, stop?: Int32Array): SolveBudget =>
  new SolveBudget(LIMIT, startedAt, deadlineMs, stop);

describe('the budget halts', () => {
  it('never without a stop flag or a deadline, and then work need not be stepped', () => {
    const b = budget(performance.now() - 1e9, Number.POSITIVE_INFINITY);
    expect(b.stepped).toBe(false);
    expect(b.expired()).toBe(false);
    expect(b.halted(3, 7)).toBeUndefined();
  });

  it('at a deadline already passed, with the message that names it and the progress', () => {
    const b = budget(performance.now() - 50, 5);
    expect(b.stepped).toBe(true);
    expect(b.expired()).toBe(true);
    expect(b.halted(3, 7)).toBe('deadline exceeded: 5 ms passed after 3 of 7 sessions of the DP');
    expect(b.share(10).expired()).toBe(true);
  });

  it('not before a deadline still ahead', () => {
    const b = budget(performance.now(), 60_000);
    expect(b.stepped).toBe(true);
    expect(b.expired()).toBe(false);
    expect(b.halted(3, 7)).toBeUndefined();
    expect(b.share(10).expired()).toBe(false);
    // The deadline counts from the clock reading `startedAt`, whatever that reading is.
    const later = budget(performance.now() + 1e7, 60_000);
    expect(later.expired()).toBe(false);
    expect(budget(performance.now() - 1e7, 60_000).expired()).toBe(true);
  });

  it('once the stop flag is set, before the deadline, and the stop flag is named first', () => {
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const b = budget(performance.now(), Number.POSITIVE_INFINITY, stop);
    expect(b.stepped).toBe(true);
    expect(b.expired()).toBe(false);
    expect(b.halted(0, 4)).toBeUndefined();
    Atomics.store(stop, 0, 1);
    expect(b.expired()).toBe(true);
    expect(b.share(10).expired()).toBe(true);
    expect(b.halted(2, 4)).toBe('stopped: the solve was aborted after 2 of 4 sessions of the DP');
    // Both fire: the stop flag is what the message names.
    const both = budget(performance.now() - 50, 5, stop);
    expect(both.halted(1, 4)).toBe('stopped: the solve was aborted after 1 of 4 sessions of the DP');
    Atomics.store(stop, 0, 0);
    expect(both.halted(1, 4)).toBe('deadline exceeded: 5 ms passed after 1 of 4 sessions of the DP');
  });

  it('at the deadline itself not yet: only once more than deadlineMs has passed', () => {
    let now = 1000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const b = budget(1000, 5);
    now = 1005;
    expect(b.expired()).toBe(false);
    expect(b.halted(1, 2)).toBeUndefined();
    now = 1005.001;
    expect(b.expired()).toBe(true);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});
