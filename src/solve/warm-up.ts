/**
 * The warm-up a solver can run on load (`loadSolver({ warmUp: true })`): a fixed set of small, seeded
 * problems shaped like scheduler ticks at the paper's sizes, each solved a few times, so that the
 * engine has compiled every stage's TypeScript before the first real tick. Without it the first few
 * hundred solves of a process run partly in the interpreter and the baseline compiler, which puts
 * milliseconds into their tail; the set reaches every decision path a tick at those sizes takes (the
 * warm-up test pins which).
 *
 * Shapes, one generator: 1-4 nodes; 4-120 waiting sessions with contexts log-uniform in [2k, 90k]
 * (weight = tokens + 512); a share of them credited on one to three nodes with a decayed prefix credit;
 * room per node for 1-4 sessions of the mean weight, or all nodes but one holding one session at most
 * (the assignment path); a part without credit whose demand slightly exceeds
 * the room (the multiple-knapsack path); a part of a few sessions with room for nearly all of them.
 */
import type { Problem, ProblemSession } from '../types.js';

/** Times each warm-up problem is solved: enough solves in all for the engine to optimize the hot stages. */
export const WARM_UP_ROUNDS = 3;

/** A small deterministic generator (xorshift32) in [0, 1): the warm-up is the same in every process. */
function generator(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4_294_967_296;
  };
}

/** The warm-up problems: `count` of them, from a fixed seed. */
export function warmUpProblems(count = 64): Problem[] {
  const rnd = generator(0x7a0_5eed);
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const out: Problem[] = [];
  for (let k = 0; k < count; k++) {
    const shape = k % 4;
    const m = 1 + ((k >> 2) % 4);
    const n = shape === 3 ? int(4, 12) : int(20, 100);
    const ids = Array.from({ length: m }, (_, b) => `n${b}`);
    const credited = shape === 2 ? 0 : 0.7;
    const sessions: ProblemSession[] = [];
    let weightSum = 0;
    for (let i = 0; i < n; i++) {
      const tokens = Math.round(2000 * 45 ** rnd());
      const s: ProblemSession = { id: `w${i}`, weight: tokens + 512, tokens, ready: rnd() < 0.4 };
      weightSum += s.weight;
      if (rnd() < credited) {
        const credit: Record<string, number> = {};
        const on = int(1, Math.min(3, m));
        for (let c = 0; c < on; c++) credit[ids[int(0, m - 1)]!] = Math.round(tokens * 2 ** (-rnd() * 3));
        s.credit = credit;
      }
      sessions.push(s);
    }
    const mean = weightSum / n;
    // Room: 1-4 sessions per node; for the uncredited shape the pool's weight over 1.02-1.3, split unevenly;
    // nearly all of the pool for the small one.
    const room = (): number =>
      shape === 3
        ? Math.round((weightSum / m) * (0.8 + 0.3 * rnd()))
        : shape === 2
          ? Math.round((weightSum / m / (1.02 + 0.28 * rnd())) * (0.5 + rnd()))
          : Math.round(mean * (1 + 3 * rnd()));
    // For the tight shape, nodes after the first hold one session at most: less than the two lightest together.
    const lightest = sessions.map((x) => x.weight).sort((a, b) => a - b);
    const single = (lightest[0]! + (lightest[1] ?? 0)) * (0.6 + 0.35 * rnd());
    out.push({
      nodes: ids.map((id, b) => ({ id, capacity: shape === 0 && b > 0 ? Math.round(single) : room() })),
      sessions,
    });
  }
  return out;
}
