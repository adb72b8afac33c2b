/**
 * Seeded problems of the assignment path's shape (src/solve/assignment): m nodes of room for one session,
 * a few of room for two or three; ties, eligibility limits, several quanta.
 */
import { type PackedProblem, prepare, seededRandom, sessionsKept } from './internals.js';

/** The problems of seeds 0 to count - 1 that keep a session, packed at their quantum. */
export function* assignmentTicks(count: number): Generator<{ seed: number; packed: PackedProblem }> {
  for (let seed = 0; seed < count; seed++) {
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
