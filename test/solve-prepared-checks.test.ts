/**
 * `checkPrepared`, the gate a Prepared passes before a pool takes it: only an object `prepare()` made (not
 * a copy), not one already sent to a pool (a send claims it; a check without one does not), with its
 * options valid again and its quantum the one the problem was packed with. Each refusal is
 * InvalidValueError with the exact message naming the field.
 */
import { describe, expect, it } from 'vitest';
import { checkPrepared, InvalidValueError, MAX_STATE_BUDGET, prepare, type Problem } from './helpers/internals.js';

const problem: Problem = {
  nodes: [{ id: 'a', capacity: 100 }],
  sessions: [{ id: 's', weight: 10, tokens: 1, ready: true }],
};

const refusal = (f: () => unknown): Error => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidValueError);
    return e as Error;
  }
  throw new Error('expected a refusal');
};

describe('checkPrepared', () => {
  it('takes what prepare() made, as often as it is checked without a send, and returns its parts', () => {
    const prepared = prepare(problem, { quantum: 4 });
    for (let k = 0; k < 3; k++) {
      const checked = checkPrepared(prepared);
      expect(checked.problem).toBe(prepared.problem);
      expect(checked.packed).toBe(prepared.packed);
      expect(checked.options).toEqual(prepared.options);
    }
  });

  it('refuses a copy, naming the path it is given', () => {
    expect(refusal(() => checkPrepared({ ...prepare(problem) }, 'task.prepared')).message).toBe(
      'task.prepared must be a Prepared made by prepare() (a copy or a look-alike object is not accepted)',
    );
  });

  it('refuses one a send has claimed, and takes one sent for the first time', () => {
    const prepared = prepare(problem);
    expect(checkPrepared(prepared, 'prepared', true).packed).toBe(prepared.packed);
    const message = 'prepared was already sent to a pool: its packed arrays are transferred once; call prepare() again';
    expect(refusal(() => checkPrepared(prepared)).message).toBe(message);
    expect(refusal(() => checkPrepared(prepared, 'prepared', true)).message).toBe(message);
  });

  it('refuses options changed past their limits or to another quantum than the packed one', () => {
    const budget = prepare(problem);
    (budget.options as { stateBudget: number }).stateBudget = 1e12;
    expect(refusal(() => checkPrepared(budget)).message).toBe(
      `prepared.options.stateBudget must be an integer from 1 to ${MAX_STATE_BUDGET}`,
    );
    const quantum = prepare(problem, { quantum: 4 });
    (quantum.options as { quantum: number }).quantum = 8;
    expect(refusal(() => checkPrepared(quantum)).message).toBe(
      'prepared.options.quantum (8) must be the quantum the problem was packed with (4)',
    );
    // A refused check claims nothing: the same Prepared, put right, is taken.
    (quantum.options as { quantum: number }).quantum = 4;
    expect(checkPrepared(quantum, 'prepared', true).options.quantum).toBe(4);
  });
});
