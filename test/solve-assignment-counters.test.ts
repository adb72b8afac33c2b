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
import {
  assignmentPlan,
  nodesKept,
  type PackedProblem,
  prepare,
  seededRandom,
  sessionsKept,
} from './helpers/internals.js';

const PINNED = '04a62119ea64555f';

/** Seeded problems of the path's shape: m nodes of room for one session, a few of room for two or three. */
function* assignmentTicks(): Generator<{ seed: number; packed: PackedProblem }> {
  for (let seed = 0; seed < 300; seed++) {
    const rnd = seededRandom(seed + 31_000);
    const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
    const m = int(2, 6);
    const multi = int(0, Math.min(2, m >> 1));
    const nodes = Array.from({ length: m }, (_, b) => ({
      id: `n${b}`,
      capacity: b < multi ? int(60, 90) : int(25, 45),
    }));
    const sessions = Array.from({ length: int(3, 12) }, (_, i) => {
      const credit: Record<string, number> = {};
      for (const node of nodes) if (rnd() < 0.5) credit[node.id] = int(1, 4);
      const s = { id: `s${i}`, weight: int(20, 40), tokens: int(0, 9), ready: rnd() < 0.5, credit };
      return rnd() < 0.2 ? { ...s, eligible: nodes.filter(() => rnd() < 0.7).map((node) => node.id) } : s;
    });
    const { packed } = prepare({ nodes, sessions }, { quantum: 1 + (seed % 3) * 3 });
    if (sessionsKept(packed) === 0) continue;
    yield { seed, packed };
  }
}

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
    for (const { seed, packed } of assignmentTicks()) {
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
    for (const { packed } of assignmentTicks()) {
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
