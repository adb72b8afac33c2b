/**
 * The solve frame every entry point shares: `prepare` (validate, resolve options, pack; pure TypeScript,
 * safe on any thread) before a decision, `finishPlan` after it. A decision on the packed problem is a
 * RawSolution, structured-cloneable so a worker can make it.
 */
import { recordAt } from '../checks.js';
import { InvalidValueError } from '../errors.js';
import { resolveSolveOptions, type ResolvedSolveOptions, type SolveOptions } from './options.js';
import { packProblem, sessionsKept, unpackNodes, type PackScratch, type PackedProblem } from './pack.js';
import { buildPlan, elapsedMicros, pathStats, type PlanScratch, type RawStats } from './plan.js';
import type { Plan, PlanValue, Problem } from '../types.js';
import { validateProblem, type IndexedProblem, type ValidateScratch } from './validate.js';

/** A validated, resolved and packed problem: what a decision needs, plus what `finishPlan` needs. */
export interface Prepared {
  readonly problem: IndexedProblem;
  readonly options: ResolvedSolveOptions;
  readonly packed: PackedProblem;
}

/**
 * A decision on a packed problem, structured-cloneable (transfer `node.buffer`).
 * `node[i]` is the original node index session i is admitted to, or -1.
 */
export interface RawSolution {
  status: Plan['status'];
  reason?: string;
  node: Int32Array;
  stats: RawStats;
  /** A bound the decision proved on a fallback's optimum, per level (the Plan's bound is the least of it and the relaxation's). */
  bound?: PlanValue;
  /**
   * The fallback was made past the deadline or once the stop flag was set: its Plan's bound leaves out
   * the refinement by the plan's credit (`known` in src/solve/bound.ts `relaxationBound`, eight more
   * knapsack bounds), so that what runs after the deadline is one pass over the input at most.
   */
  halted?: true;
}

/**
 * Marks every Prepared `prepare` made: the only ones a solve accepts (a look-alike object could hold
 * anything). The mark is a private field stamped onto the plain object (the base constructor returns the
 * object it is given), so only this module can set or test it, a copy or a proxy does not carry it, and
 * the Prepared keeps its plain prototype. Cheaper per solve than a WeakSet, which the collector must scan.
 */
class Stamp {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the stamp is put on the given object, not a new one (above).
    return target;
  }
}
class Made extends Stamp {
  #made = true;
  /** The Prepared's packed arrays were handed to a pool (transferred, hence detached on this thread). */
  #sent = false;
  static mark(x: object): void {
    new Made(x);
  }
  static has(x: object): boolean {
    return #made in x;
  }
  /** Whether `x` (stamped) was sent to a pool. */
  static sent(x: object): boolean {
    return (x as Made).#sent;
  }
  static send(x: object): void {
    (x as Made).#sent = true;
  }
}

/**
 * Validates, resolves options and packs. Pure TypeScript: no WASM, safe on any thread. `reusePacked`: the
 * packed arrays are the scratch's, valid until the next such call (see `packProblem`).
 */
export function prepare(
  problem: Problem,
  options?: SolveOptions,
  scratch?: { readonly validate: ValidateScratch; readonly pack: PackScratch },
  reusePacked = false,
): Prepared {
  const indexed = validateProblem(problem, 'problem', scratch?.validate);
  const resolved = resolveSolveOptions(options);
  const prepared: Prepared = {
    problem: indexed,
    options: resolved,
    packed: packProblem(indexed, resolved, scratch?.pack, reusePacked),
  };
  Made.mark(prepared);
  return prepared;
}

/**
 * Checks that `x` is a Prepared `prepare` made and returns it with its options validated again (a caller
 * may have changed them since: `stateBudget: 1e12` must not reach a worker). With `send`, also claims it
 * for a transfer to a pool: a Prepared goes to a pool once, as its packed arrays are detached afterwards.
 */
export function checkPrepared(x: unknown, path = 'prepared', send = false): Prepared {
  const given = recordAt(x, path);
  if (!Made.has(given)) {
    throw new InvalidValueError(
      `${path} must be a Prepared made by prepare() (a copy or a look-alike object is not accepted)`,
    );
  }
  const prepared = given as unknown as Prepared;
  if (Made.sent(given)) {
    throw new InvalidValueError(
      `${path} was already sent to a pool: its packed arrays are transferred once; call prepare() again`,
    );
  }
  const options = resolveSolveOptions(prepared.options, `${path}.options`);
  if (options.quantum !== prepared.packed.quantum) {
    throw new InvalidValueError(
      `${path}.options.quantum (${options.quantum}) must be the quantum the problem was packed with (${prepared.packed.quantum})`,
    );
  }
  if (send) Made.send(given);
  return { problem: prepared.problem, options, packed: prepared.packed };
}

/** Builds the Plan of a RawSolution; `micros` is the wall time the caller measured for the whole solve. */
export function finishPlan(prepared: Prepared, raw: RawSolution, micros: number, scratch?: PlanScratch): Plan {
  return buildPlan(
    prepared.problem,
    raw.node,
    {
      status: raw.status,
      ...(raw.reason !== undefined ? { reason: raw.reason } : {}),
      quantum: prepared.options.quantum,
      stats: raw.stats,
      ...(raw.bound !== undefined ? { proven: raw.bound } : {}),
      ...(raw.halted === true ? { lean: true } : {}),
    },
    micros,
    scratch,
  );
}

/** The decision when no session fits anywhere: nothing admitted, optimal, path `trivial`. */
export function trivialSolution(packed: PackedProblem): RawSolution {
  return { status: 'optimal', node: new Int32Array(packed.sessionCount).fill(-1), stats: pathStats(packed) };
}

/**
 * Prepares a problem and decides it with `decide` (kept node per kept session, and the stats), unless
 * nothing fits (then the trivial solution): the frame of the solves outside the solver's budget and
 * deadline rules (the standalone BFD, the TypeScript mirrors as oracles).
 */
export function solvePrepared(
  problem: Problem,
  options: SolveOptions | undefined,
  decide: (
    packed: PackedProblem,
    base: RawStats,
  ) => { node: Int32Array; stats: RawStats; status?: Plan['status']; reason?: string },
): Plan {
  const t0 = performance.now();
  const prepared = prepare(problem, options);
  const { packed } = prepared;
  if (sessionsKept(packed) === 0) return finishPlan(prepared, trivialSolution(packed), elapsedMicros(t0));
  const { node, stats, status = 'optimal', reason } = decide(packed, pathStats(packed));
  const raw: RawSolution = {
    status,
    ...(reason !== undefined ? { reason } : {}),
    node: unpackNodes(packed, node),
    stats,
  };
  return finishPlan(prepared, raw, elapsedMicros(t0));
}
