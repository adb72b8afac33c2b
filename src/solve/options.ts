import { checkOptionsObject } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { MAX_STATE_BUDGET } from '../limits.js';

/** What a caller may set for one solve. */
export interface SolveOptions {
  /**
   * Capacity quantum Delta in tokens: weights are rounded up and capacities down to multiples of it.
   * A plan feasible after quantization is feasible before it; a coarser quantum loses plans that only
   * fit in finer units. Measured on the recorded corpora (README "Performance"): at 1024 the optimum is
   * below the exact-token optimum on 19-43% of the problems of the contended settings, at 16 on at most
   * 1.5%, at about the same speed (the frontier DP hardly depends on the quantum). 16 is also the finest
   * quantum at which four nodes of the Qwen setting's capacity (360k tokens) pack their usages into one
   * 64-bit word. Pools of many uncredited sessions that nearly fit are the exception: there a coarse
   * quantum (1024) falls back less (README "Performance").
   * @default 16
   */
  quantum?: number;
  /**
   * Units of work, about a nanosecond of thread CPU each on the development machine, that bound every
   * step a solve may skip: those steps together stay within 2 x stateBudget (WORK_CEILING), each starting
   * only when its cost fits in what is left, and the searches among them share stateBudget. Charged: a
   * dense DP cell; a frontier unit (a generated state, a dominance test, a node looked up by the per-node
   * credit bound) as 4 x ceil(m / 16) units over m kept nodes, 12 times more in the BigInt mirror, and its
   * set-up; a multiple-knapsack search unit as 2 x max(ceil(m / 16)^2, ceil(m / 4)); the assignment path's
   * matching steps;
   * the best-nodes check, the credit level and its branching (200 units per knapsack state), the credit
   * greedy and the decomposition plans, per session, entry and session-node pair. Past it the plan is a
   * labelled fallback. What no solve skips is charged on top: validation and packing, BFD in both orders
   * and the credit greedy in one, the fallback's bound, linear in the sessions, nodes and
   * credit entries. `PlanStats.work` reports every unit (docs/solver.md, "The budget", states its bound).
   * The time a default solve within the caps (64 nodes, 4096 sessions) takes on the worst shapes
   * constructed, what no solve skips and the search's shape-dependent unit cost among it, is measured in
   * docs/threat-model.md ("Time").
   * @default 4194304 (2^22)
   */
  stateBudget?: number;
  /**
   * Wall-clock bound on one solve in milliseconds, counted from the call (through the pool: including
   * validation, packing and the wait for a worker). It is checked between the phases of the decision
   * (heuristics, frontier set-up) and between DP steps; past it the plan is a labelled heuristic
   * fallback, never worse than BFD. Validation and packing always complete, so a solve returns after at least their time (the
   * measured overshoot per size is in docs/results/time-and-memory.md). `Infinity` means no bound.
   * @default Infinity
   */
  deadlineMs?: number;
  /**
   * Which exact algorithm may run. `auto`: the closed-form paths first (nothing fits, every session on a
   * best node fits), then the frontier or the dense DP chosen by a cost estimate. `dense`: only the dense
   * DP. `frontier`: only the frontier DP. Every choice returns the same optimal value; the state budget,
   * the memory cap and the deadline bound each of them, with the same labelled heuristic fallback.
   * @default 'auto'
   */
  path?: SolvePathOption;
}

/** The values of `SolveOptions.path`. */
export type SolvePathOption = 'auto' | 'dense' | 'frontier';

const PATH_OPTIONS: readonly SolvePathOption[] = ['auto', 'dense', 'frontier'];

/** Options with every field filled in. */
export type ResolvedSolveOptions = Required<SolveOptions>;

/** The defaults, frozen. */
export const defaultSolveOptions: Readonly<ResolvedSolveOptions> = Object.freeze({
  quantum: 16,
  stateBudget: 2 ** 22,
  deadlineMs: Number.POSITIVE_INFINITY,
  path: 'auto',
});

/** Merges a caller's options over the defaults once, validating each field by name. */
export function resolveSolveOptions(options: SolveOptions | undefined, path = 'options'): ResolvedSolveOptions {
  if (options === undefined) return { ...defaultSolveOptions };
  checkOptionsObject(options, defaultSolveOptions, path);
  const out: ResolvedSolveOptions = { ...defaultSolveOptions };
  if (options.quantum !== undefined) {
    const q = options.quantum;
    if (typeof q !== 'number') throw new InvalidTypeError(`${path}.quantum must be a number`);
    if (!Number.isSafeInteger(q) || q < 1) throw new InvalidValueError(`${path}.quantum must be a positive integer`);
    out.quantum = q;
  }
  if (options.stateBudget !== undefined) {
    const b = options.stateBudget;
    if (typeof b !== 'number') throw new InvalidTypeError(`${path}.stateBudget must be a number`);
    if (!Number.isSafeInteger(b) || b < 1 || b > MAX_STATE_BUDGET) {
      throw new InvalidValueError(`${path}.stateBudget must be an integer from 1 to ${MAX_STATE_BUDGET}`);
    }
    out.stateBudget = b;
  }
  if (options.deadlineMs !== undefined) {
    const d = options.deadlineMs;
    if (typeof d !== 'number') throw new InvalidTypeError(`${path}.deadlineMs must be a number`);
    if (Number.isNaN(d) || d <= 0)
      throw new InvalidValueError(`${path}.deadlineMs must be a positive number or Infinity`);
    out.deadlineMs = d;
  }
  if (options.path !== undefined) {
    const a = options.path;
    if (typeof a !== 'string') throw new InvalidTypeError(`${path}.path must be a string`);
    if (!PATH_OPTIONS.includes(a as SolvePathOption)) {
      throw new InvalidValueError(`${path}.path must be one of ${PATH_OPTIONS.map((x) => `"${x}"`).join(', ')}`);
    }
    out.path = a;
  }
  return out;
}
