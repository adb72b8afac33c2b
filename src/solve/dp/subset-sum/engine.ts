/**
 * The subset sums' engine: what the bitset fold's WebAssembly adapter (src/solve/dp/subset-sum/wasm.ts;
 * the kernel: assembly/subset-sum.ts) and its TypeScript mirror (src/solve/dp/subset-sum/mirror.ts) share:
 * the input, the statuses, the counters and the answer.
 */
import type { StepProtocol } from '../protocol.js';

/** What a fold step of the WebAssembly kernel reports (`start` reports `pending` with nothing to pay: step to begin). */
export const SubsetSumStatus = {
  /** The fold ended: its sum and subset are ready (subsetEnd). */
  done: 0,
  /** The next item's units were past the step's allowance: pay for them (subsetPending), then step again. */
  pending: 1,
  /** Memory could not grow for the next item's log entries. */
  memory: 2,
  /** A reachable sum had no log entry on the walk back (a bug, never an input). */
  broken: 3,
} as const;
export type SubsetSumStatus = (typeof SubsetSumStatus)[keyof typeof SubsetSumStatus];

/** A subset of the items and its weight. */
export interface SubsetSum {
  readonly sum: number;
  /** Positions (into the given item list) of the subset's items. */
  readonly chosen: number[];
}

/** A fold's items: positions 0..k-1 of `items` (ids into `w`), within `cap`, leaving out those `skipped`. */
export interface SubsetSumInput {
  readonly items: ArrayLike<number>;
  readonly k: number;
  readonly w: ArrayLike<number>;
  readonly cap: number;
  readonly skipped: Uint8Array | null;
}

/** What a fold has done: the units its last step paid for by itself, and (after `pending`) the units of the item waiting. */
export interface SubsetSumCounters {
  readonly paid: number;
  readonly pending: number;
}

/**
 * The bitset fold as a kernel (src/solve/dp/protocol.ts), folding exactly as the mirror does: `start`,
 * then `step(allowance)` until `done`; items whose units fit within `allowance` in all are paid for by the
 * step itself (`paid`), the next one past it stops the step (`pending`) for the host to pay for.
 */
export type SubsetSumKernel = StepProtocol<SubsetSumInput, SubsetSumStatus, SubsetSumCounters, SubsetSum>;
