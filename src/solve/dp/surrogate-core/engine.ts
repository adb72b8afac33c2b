/**
 * The surrogate core DP's engine: what its WebAssembly adapter (src/solve/dp/surrogate-core/wasm.ts; the
 * kernel: assembly/surrogate-core.ts) and its TypeScript mirror (src/solve/dp/surrogate-core/mirror.ts, where
 * the algorithm is stated) share: the input, the statuses, the counters, the answer, and the caps.
 */
import type { MultipleKnapsackStats } from '../../../types.js';
import { MkpHalt } from '../../mkp/meter.js';
import type { StepProtocol } from '../protocol.js';

/** Most states in one list, and most history entries, of one knapsack (about 80 MiB and 64 MiB). */
export const KNAPSACK_MAX_STATES = 1 << 21;
export const KNAPSACK_MAX_HISTORY = 1 << 23;
/** Merge steps of one DP layer between two halting checks (a layer may hold 2^21 states, ~30 ms). */
export const KNAPSACK_POLL_STEPS = 1 << 14;
/** Lists of at least this many states are paired with the items outside the core after their layer (see Pairing). */
export const PAIR_STATES = 32;
/** States a DP generates before its cardinality ceiling is computed (see Ceiling). */
export const CEILING_STATES = 256;

/** Counters of the knapsack DP, summed over calls (named as in MultipleKnapsackStats). */
export type KnapsackCounters = Pick<MultipleKnapsackStats, 'knapsacks' | 'states' | 'ceilingStops'>;

/** What a core DP step reports (the WASM kernel's statuses; the TypeScript loop takes the same steps). */
export const CoreStatus = {
  /** No layer left: the best state is final. */
  done: 0,
  /** A layer is about to merge: pay for its states (see corePending), then step again. */
  layer: 1,
  /** Memory could not grow for the next layer. */
  memory: 2,
  /** The step's merge steps ran (KnapsackScratch.pollSteps): ask the halting check, then step again. */
  paused: 3,
  /** The layers so far generated CEILING_STATES states: pass the cardinality ceiling (coreCeiling), then step again. */
  ceiling: 4,
} as const;
export type CoreStatus = (typeof CoreStatus)[keyof typeof CoreStatus];

/** Where the core DP starts: the break solution, the first threshold and the best state so far. */
export interface CoreStart {
  /** Items before position b form the break solution. */
  readonly b: number;
  readonly cap: number;
  /** Weight and value of the break solution. */
  readonly bw: number;
  readonly bv: number;
  /** The value a state must beat. */
  readonly z: number;
  /** A proven ceiling on the optimum (Dantzig's bound): the DP ends once the best value reaches it. */
  readonly ceiling: number;
  /** The best feasible state's history entry (-1: the break solution), or -2 for none yet. */
  readonly bestH: number;
  readonly bestW: number;
}

/** Where the core DP ended: the best value and its state. */
export interface CoreEnd {
  readonly z: number;
  /** It ended at its ceiling with states still open. */
  readonly atCeiling: boolean;
  /** The best state's history entry: -1 for the break solution, -2 when no state beat the threshold. */
  readonly bestH: number;
  readonly bestW: number;
  /** The positions (into the item list) the best state toggled from the break solution, latest decision first. */
  readonly toggled: number[];
}

/** The positions on the history path from entry `h` (-1 ends it), latest first. */
export function historyPath(h: number, pos: (h: number) => number, parent: (h: number) => number): number[] {
  const out: number[] = [];
  for (let e = h; e >= 0; e = parent(e)) out.push(pos(e));
  return out;
}

/** What a core DP run reads: the items at positions 0..k-1 (ids into `p`, `w`), where it starts, and its halting cadence. */
export interface CoreInput {
  readonly items: ArrayLike<number>;
  readonly k: number;
  readonly p: ArrayLike<number>;
  readonly w: ArrayLike<number>;
  readonly start: CoreStart;
  /** Merge steps inside a layer between two halting checks (`paused`). */
  readonly pollSteps: number;
}

/** What a core DP run has done: the units its last step paid for by itself, the layer waiting (after `layer`), the swap cuts. */
export interface CoreCounters {
  /** Units the last step paid for by itself. */
  readonly paid: number;
  /** States of the layer about to merge (after `layer`). */
  readonly pendingStates: number;
  /** History entries so far. */
  readonly history: number;
  /** States dropped by the swap bound since `start`. */
  readonly swapCuts: number;
}

/**
 * The core DP as a kernel (src/solve/dp/protocol.ts), stepping exactly as the mirror does: `start` (paused,
 * or memory), then `step(allowance)` until `done`; layers within `allowance` units in all are paid for by
 * the step itself (`paid`), the next one past it stops the step (`layer`) for the host to pay for; a layer
 * of more than KNAPSACK_MAX_STATES states, or past KNAPSACK_MAX_HISTORY history entries, goes to the host;
 * lists of PAIR_STATES states are paired; after CEILING_STATES states it asks for the ceiling (`ceiling`).
 */
export interface CoreDpKernel extends StepProtocol<CoreInput, CoreStatus, CoreCounters, CoreEnd> {
  /** After `ceiling`: lowers the ceiling to `ceiling`. */
  lowerCeiling(ceiling: number): void;
}

/** The memory-cap halt of the core DP. */
export function capHalt(): MkpHalt {
  return new MkpHalt(
    `memory cap exceeded: the surrogate knapsack would hold more than ${KNAPSACK_MAX_STATES} states or ${KNAPSACK_MAX_HISTORY} history entries`,
  );
}
