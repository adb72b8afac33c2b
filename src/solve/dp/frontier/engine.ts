/**
 * The frontier DP's engine (src/solve/dp/protocol.ts) and its counters. Its setup is
 * src/solve/dp/frontier/setup.ts, its WebAssembly adapter src/solve/dp/frontier/wasm.ts (the kernel:
 * assembly/frontier.ts and assembly/frontier-bound.ts), its TypeScript mirror src/solve/dp/frontier/mirror.ts.
 */
import type { FrontierStats } from '../../../types.js';
import type { DpEngine } from '../protocol.js';

/** The counters of the frontier DP, in the order the WASM ABI writes them (see FrontierStats in src/types.ts). */
export const FRONTIER_COUNTER_NAMES = [
  'layers',
  'generated',
  'kept',
  'maxLayer',
  'prunedBound',
  'prunedDominance',
  'comparisons',
  'work',
  'prunedCredit',
] as const;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Checked when compiling: the names are FrontierStats' counters plus `work`, no more, no fewer.
true satisfies Same<
  (typeof FRONTIER_COUNTER_NAMES)[number],
  Exclude<keyof FrontierStats, 'outcome' | 'nodeClasses'> | 'work'
>;

/** The frontier's counters (see FrontierStats in src/types.ts), plus its work units. */
export type FrontierCounters = Record<(typeof FRONTIER_COUNTER_NAMES)[number], number>;

/** A new set of frontier counters, all zero. */
export function zeroFrontierCounters(): FrontierCounters {
  const out = {} as FrontierCounters;
  for (const name of FRONTIER_COUNTER_NAMES) out[name] = 0;
  return out;
}

/** The frontier DP, with its full counters. */
export type FrontierEngine = DpEngine<FrontierCounters>;
