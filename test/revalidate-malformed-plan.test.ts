/**
 * `revalidate` refuses a plan whose assignment list is not an array, or whose assignments are not objects,
 * with a typed error naming the field by its full path (`plan.assignments`, `plan.assignments[k]`), before
 * anything of the plan is read.
 */
import { describe, expect, it } from 'vitest';
import { InvalidTypeError, type Problem, revalidate } from './helpers/internals.js';

const snapshot: Problem = {
  nodes: [{ id: 'n1', capacity: 10_000 }],
  sessions: [{ id: 'a', weight: 4_000, tokens: 3_500, ready: true, signature: 1 }],
};

describe('revalidate: a malformed plan', () => {
  for (const assignments of [undefined, 'a', { 0: { session: 'a', node: 'n1' }, length: 1 }]) {
    it(`refuses assignments of ${JSON.stringify(assignments) ?? 'undefined'}: plan.assignments must be an array`, () => {
      const call = (): unknown => revalidate({ assignments } as never, snapshot, snapshot);
      expect(call).toThrow(InvalidTypeError);
      expect(call).toThrow(/^plan\.assignments must be an array$/);
    });
  }

  for (const [k, assignments] of [
    [0, ['a']],
    [1, [{ session: 'a', node: 'n1' }, null]],
    [2, [{ session: 'a', node: 'n1' }, { session: 'a', node: 'n1' }, 7]],
  ] as const) {
    it(`names the index of an assignment that is not an object (plan.assignments[${k}])`, () => {
      const call = (): unknown => revalidate({ assignments } as never, snapshot, snapshot);
      expect(call).toThrow(InvalidTypeError);
      expect(call).toThrow(new RegExp(`^plan\\.assignments\\[${k}\\] must be `));
    });
  }
});
