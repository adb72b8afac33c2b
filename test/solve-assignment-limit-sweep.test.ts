/**
 * The assignment path (src/solve/assignment) at every limit from 0, on
 * the first 30 seeded problems of its shape (test/helpers/assignment-ticks.ts, the problems of
 * test/solve-assignment-counters.test.ts), up to three past the least limit that decides: from that limit
 * on it decides, with the plan and steps of the whole run; below, it gives way. A combination is started only while its set-up (a step per
 * session) fits in what is left of the limit, so where each limit stops it is part of what it costs: the
 * outcome and steps at every limit hash to the digest below. After an intended change, print the digest
 * (`DIGEST=1`), check test/solve-assignment-brute-force.test.ts passes, and pin it again.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assignmentTicks } from './helpers/assignment-ticks.js';
import { assignmentPlan } from './helpers/internals.js';

const PINNED = 'a41a69a67965e233';

describe('the assignment path at every limit', () => {
  it('decides from one limit on with the same plan and steps, gives way below it, and spends the pinned steps at each', () => {
    const hash = createHash('sha256');
    let swept = 0;
    for (const { seed, packed } of assignmentTicks(30)) {
      const full = assignmentPlan(packed, 2 ** 22);
      if (full === 'not-applicable' || 'abandoned' in full) continue;
      // Up to three limits past the least that decides (at least the steps the whole run spends).
      let least = -1;
      for (let limit = 0; least < 0 || limit <= least + 3; limit++) {
        expect(limit, `seed ${seed}`).toBeLessThan(100_000);
        const out = assignmentPlan(packed, limit);
        if (out === 'not-applicable') throw new Error(`seed ${seed}: the path applies at 2^22 steps`);
        if ('abandoned' in out) expect(least, `seed ${seed} at ${limit}`).toBe(-1);
        else {
          expect(out, `seed ${seed} at ${limit}`).toEqual(full);
          if (least < 0) least = limit;
        }
        hash.update(JSON.stringify([seed, limit, 'abandoned' in out, out.work]));
      }
      expect(least).toBeGreaterThanOrEqual(full.work);
      swept++;
    }
    const digest = hash.digest('hex').slice(0, 16);
    if (process.env.DIGEST === '1') console.log(`assignment limit sweep digest ${digest}`);
    expect(swept).toBeGreaterThan(20);
    expect(digest).toBe(PINNED);
  });
});
