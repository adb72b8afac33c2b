/**
 * Shared draws of the tick-shaped generators (single-credit, spread-credit, near-fitting, large): session
 * sizes, readiness, decayed prefix credit and per-node room, all from one seeded Rng per instance.
 *
 * Sizes: tokens log-normal with median 24k and log-sd 0.7, clipped to [2k, 160k] (SWE-bench-like contexts
 * that grew over tens of steps); weight = tokens + the 512-token reserve. Credit on a node: the tokens times
 * a retention 2^(-age / 10 s) with age uniform in [0, 30) s, rounded (what TAO's decayed prefix credit
 * gives for a session that paused 0-30 s).
 */
import { Rng } from '../../sim/rng.js';
import type { ProblemNode, ProblemSession } from '../../types.js';

/** Random-stream id of the benchmark families (disjoint from the simulator's streams). */
export const STREAM_FAMILY = 0x7a0;

export const TOKENS_MEDIAN = 24_000;
export const TOKENS_SIGMA = 0.7;
export const TOKENS_MIN = 2_000;
export const TOKENS_MAX = 160_000;
export const RESERVE = 512;
export const CREDIT_HALF_LIFE_SEC = 10;
export const CREDIT_MAX_AGE_SEC = 30;

/** The generator of instance `index` of a family group, from the run's seed. */
export function instanceRng(seed: number, familyIndex: number, groupIndex: number, index: number): Rng {
  return Rng.derive(seed, STREAM_FAMILY + familyIndex * 64 + groupIndex, index);
}

/** Uniform in [lo, hi). */
export function uniform(rng: Rng, lo: number, hi: number): number {
  return lo + (hi - lo) * rng.float();
}

/** Uniform integer in [lo, hi]. */
export function between(rng: Rng, lo: number, hi: number): number {
  return lo + rng.int(hi - lo + 1);
}

export function drawTokens(rng: Rng): number {
  return Math.min(TOKENS_MAX, Math.max(TOKENS_MIN, Math.round(rng.lognormal(TOKENS_MEDIAN, TOKENS_SIGMA))));
}

/** Decayed prefix credit of `tokens` cached on a node. */
export function drawCredit(rng: Rng, tokens: number): number {
  const age = uniform(rng, 0, CREDIT_MAX_AGE_SEC);
  return Math.max(1, Math.round(tokens * 2 ** (-age / CREDIT_HALF_LIFE_SEC)));
}

export function nodeIds(m: number): string[] {
  return Array.from({ length: m }, (_, b) => `n${b}`);
}

/** `n` sessions (ids s0..), each ready with probability `readyRate`, without credit. */
export function drawSessions(rng: Rng, n: number, readyRate: number): ProblemSession[] {
  return Array.from({ length: n }, (_, i) => {
    const tokens = drawTokens(rng);
    return { id: `s${i}`, weight: tokens + RESERVE, tokens, ready: rng.float() < readyRate };
  });
}

/** Nodes whose room holds `lo`..`hi` (uniform, real) sessions of the pool's mean weight each. */
export function roomInSessions(
  rng: Rng,
  ids: readonly string[],
  sessions: readonly ProblemSession[],
  lo: number,
  hi: number,
): ProblemNode[] {
  const mean = sessions.reduce((a, s) => a + s.weight, 0) / Math.max(1, sessions.length);
  return ids.map((id) => ({ id, capacity: Math.round(uniform(rng, lo, hi) * mean) }));
}
