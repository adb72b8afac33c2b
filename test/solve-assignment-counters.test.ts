/**
 * The assignment path's work, pinned: over 300 seeded problems of its shape (single nodes and one or two
 * nodes that hold two or three sessions, ties, eligibility limits, several quanta) its outcome, plan,
 * steps, least deciding limit and the steps it spends one under it hash to the digest below; and it decides within exactly the steps it spends, and gives way one
 * step under. Its plans are checked against brute force in test/solve-assignment-brute-force.test.ts;
 * this test pins what they cost, which `PlanStats.work` reports. After an intended change, print the
 * digest (`DIGEST=1`), check the brute-force tests pass, and pin it again.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assignmentTicks } from './helpers/assignment-ticks.js';
import { assignmentPlan, nodesKept, type PackedProblem, sessionsKept } from './helpers/internals.js';

const PINNED = '04a62119ea64555f';

/** The least limit at which the path decides `packed` (it gives way at 0 and decides at 2^22), by bisection. */
function leastDecidingLimit(packed: PackedProblem): number {
  let lo = 0;
  let hi = 2 ** 22;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    const out = assignmentPlan(packed, mid);
    if (out !== 'not-applicable' && 'abandoned' in out) lo = mid;
    else hi = mid;
  }
  return hi;
}

describe('the assignment path', () => {
  it('spends the same steps on 300 seeded problems of its shape', () => {
    const hash = createHash('sha256');
    let applied = 0;
    for (const { seed, packed } of assignmentTicks(300)) {
      const out = assignmentPlan(packed, 2 ** 22);
      if (out !== 'not-applicable') applied++;
      const least = out === 'not-applicable' || 'abandoned' in out ? null : leastDecidingLimit(packed);
      // The least deciding limit, and what the path spent giving way one step under it.
      hash.update(JSON.stringify(least === null ? null : [least, assignmentPlan(packed, least - 1)]));
      hash.update(
        JSON.stringify([
          seed,
          out === 'not-applicable' ? out : ['abandoned' in out, Array.from('node' in out ? out.node : []), out.work],
        ]),
      );
    }
    const digest = hash.digest('hex').slice(0, 16);
    if (process.env.DIGEST === '1') console.log(`assignment path digest ${digest}`);
    expect(applied).toBeGreaterThan(150);
    expect(digest).toBe(PINNED);
  });

  it("decides at the least limit its checks allow and gives way one step under, stopping within a matching's reads past a limit", () => {
    let checked = 0;
    for (const { packed } of assignmentTicks(300)) {
      const full = assignmentPlan(packed, 2 ** 22);
      if (full === 'not-applicable' || 'abandoned' in full || full.work === 0) continue;
      const hi = leastDecidingLimit(packed);
      const least = assignmentPlan(packed, hi);
      expect(least).toEqual(full);
      expect(full.work).toBeLessThanOrEqual(hi);
      const short = assignmentPlan(packed, hi - 1);
      if (short === 'not-applicable' || !('abandoned' in short)) throw new Error('one step under must give way');
      // Past a limit it stops within the candidates one matching reads (at most a kept pair each).
      expect(short.work).toBeLessThanOrEqual(hi - 1 + sessionsKept(packed) * nodesKept(packed));
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });
});
