/**
 * The engine interface of the two DPs. Each DP has two engines, the WASM kernel (src/solve/wasm-engines.ts)
 * and its TypeScript twin (src/solve/ts/), and the driver (src/solve/solver.ts) runs either through the
 * same loop: `start`, then `step` with a work quota until the run is done, checking the deadline and the
 * work cap in between, then `finish`.
 *
 * A unit of work is what the state budget counts (see `SolveOptions.stateBudget`): one dense DP cell (a
 * session tried in a state), or one frontier child generated, one dominance test or one node looked up
 * by the per-node credit bound, each about a nanosecond up to 16 nodes (the driver counts frontier units
 * over more nodes several times, see frontierUnitWeight in src/solve/solver.ts).
 */
import type { FrontierStats, SolvePath } from '../types.js';

/**
 * The status of a DP run after `start` or `step`, one vocabulary for both DPs and both engines. The
 * numbers are those the WASM ABI returns (assembly/index.ts).
 */
export const DpStatus = {
  /** Every session is folded: `finish` may run. */
  done: 0,
  /** The quota is spent: `step` again. */
  paused: 1,
  /** The run could not hold its states within the memory cap; nothing trapped. */
  memory: 2,
  /** The frontier's incumbent meets the bound: it is optimal, nothing to fold (`finish` returns it). */
  incumbent: 3,
  /** A frontier layer lost every state (a bug, reported instead of trapping). */
  emptyLayer: 4,
} as const;
export type DpStatus = (typeof DpStatus)[keyof typeof DpStatus];

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

/** Counters every run keeps: sessions (layers) folded so far and units of work spent. */
export interface DpCounters {
  layers: number;
  work: number;
}

/** The frontier's counters (see FrontierStats in src/types.ts), plus its work units. */
export type FrontierCounters = Record<(typeof FRONTIER_COUNTER_NAMES)[number], number>;

/** A new set of frontier counters, all zero. */
export function zeroFrontierCounters(): FrontierCounters {
  const out = {} as FrontierCounters;
  for (const name of FRONTIER_COUNTER_NAMES) out[name] = 0;
  return out;
}

/** One DP run over one packed problem. */
export interface DpEngine<C extends DpCounters = DpCounters> {
  /** The path a finished run reports. */
  readonly path: SolvePath;
  /**
   * The engine needs steps of bounded quota even without a deadline: the TypeScript frontier checks its
   * memory between steps.
   */
  readonly boundedSteps: boolean;
  /** Lays out memory and writes the inputs: `paused` (ready to step), `memory` or `incumbent`. */
  start(): DpStatus;
  /** Folds until done or until about `quota` more units of work were spent (at least one session for the dense DP). */
  step(quota: number): DpStatus;
  /** The counters so far. */
  counters(): C;
  /** After `done` (or `incumbent`): the kept node per kept session, -1 = not admitted. */
  finish(): Int32Array;
}

/** The dense DP: also knows the bytes it will hold, so the driver can refuse it before `start`. */
export interface DenseEngine extends DpEngine<DpCounters> {
  readonly bytes: number;
}

/** The frontier DP, with its full counters. */
export type FrontierEngine = DpEngine<FrontierCounters>;
