/**
 * Recording solver inputs: the Problem a TAO-family policy builds at each scheduling tick, as JSONL for
 * the benchmark harness, and a library generator that runs TAO until it has a requested number of
 * non-trivial Problems (deterministic per seed: same setting, seed and options, same Problems).
 */
import { nonNegativeInteger, positiveInteger, recordAt } from '../checks.js';
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import type { Problem } from '../types.js';
import { loadTaoDeps, type TaoDeps } from './deps.js';
import { createPolicy } from './policies/index.js';
import type { TaoParams } from './policies/tao.js';
import type { PolicyName, ProblemTick } from './policy.js';
import { resolveSetting } from './run.js';
import type { SimSetting } from './settings.js';
import { Simulation } from './simulation.js';

/** One recorded tick: the line format of `--record`. */
export interface RecordedProblem {
  readonly setting: string;
  readonly seed: number;
  /** Tick index: time / H. */
  readonly tick: number;
  readonly time: number;
  readonly problem: Problem;
}

/** The JSONL line of a recorded problem (no trailing newline), fields in a fixed order. */
export function recordLine(r: RecordedProblem): string {
  return JSON.stringify({ setting: r.setting, seed: r.seed, tick: r.tick, time: r.time, problem: r.problem });
}

export interface RecordOptions {
  /** Seed of the run. */
  readonly seed: number;
  /** Problems to collect. */
  readonly count: number;
  /** Least sessions in a Problem. @default 2 */
  readonly minSessions?: number;
  /**
   * Keep only Problems where the pool's total weight exceeds the total residual capacity (the solver must
   * leave someone out). @default false
   */
  readonly contended?: boolean;
  /** The policy that drives the run and builds the Problems. @default 'tao' */
  readonly policy?: Extract<
    PolicyName,
    'tao' | 'tao-no-credit' | 'tao-no-ready' | 'tao-bfd' | 'tao-ta-order' | 'greedy'
  >;
  /**
   * TAO parameters of the driving policy. The recording decides at the ticks only (`eventAdmission` false
   * unless given here), so that it yields one Problem per scheduling period, the DP's own input.
   */
  readonly tao?: Partial<TaoParams>;
  /** Simulated seconds after which the run gives up (it then throws). @default 604800 (7 days) */
  readonly maxTime?: number;
  readonly deps?: TaoDeps;
}

/**
 * Whether a Problem is worth benchmarking: at least `minSessions` sessions, at least one session fits
 * some node (there is a decision), and, if `contended`, more weight waiting than room.
 */
export function isNonTrivial(problem: Problem, minSessions: number, contended: boolean): boolean {
  if (problem.sessions.length < minSessions) return false;
  let room = 0;
  let largestRoom = 0;
  for (const n of problem.nodes) {
    room += n.capacity;
    if (n.capacity > largestRoom) largestRoom = n.capacity;
  }
  let demand = 0;
  let fits = false;
  for (const s of problem.sessions) {
    demand += s.weight;
    if (s.weight <= largestRoom) fits = true;
  }
  return fits && (!contended || demand > room);
}

/**
 * Runs the driving policy (workers back to back) on `setting` with `options.seed` and yields the first
 * `options.count` non-trivial Problems, in tick order. Throws InvalidValueError naming `options.count`
 * if the run reaches `maxTime` first.
 */
export async function* recordProblems(
  setting: string | SimSetting,
  options: RecordOptions,
): AsyncGenerator<RecordedProblem, void, undefined> {
  const resolved = resolveSetting(setting);
  recordAt(options, 'options');
  nonNegativeInteger(options.seed, 'options.seed');
  const count = positiveInteger(options.count, 'options.count');
  const minSessions =
    options.minSessions === undefined ? 2 : positiveInteger(options.minSessions, 'options.minSessions');
  const contended = options.contended ?? false;
  const maxTime = options.maxTime ?? 7 * 86_400;
  if (typeof maxTime !== 'number') throw new InvalidTypeError('options.maxTime must be a number');
  if (!(maxTime > 0) || !Number.isFinite(maxTime))
    throw new InvalidValueError('options.maxTime must be a positive number of seconds');
  const deps = options.deps ?? (await loadTaoDeps());
  const buffer: ProblemTick[] = [];
  const policy = createPolicy(options.policy ?? 'tao', {
    setting: resolved,
    deps,
    tao: { eventAdmission: false, ...options.tao },
    onProblem: (tick) => {
      if (isNonTrivial(tick.problem, minSessions, contended)) buffer.push(tick);
    },
  });
  const sim = new Simulation(
    { setting: resolved, seed: options.seed, mode: { duration: maxTime }, sampleEvery: 0 },
    policy,
  );
  let yielded = 0;
  while (yielded < count) {
    if (sim.finished) {
      throw new InvalidValueError(
        `options.count: only ${yielded} of ${count} non-trivial problems in ${maxTime} s of simulated time on ${resolved.name}`,
      );
    }
    sim.runUntil(sim.time + policy.period);
    for (const tick of buffer) {
      if (yielded >= count) break;
      yield { setting: resolved.name, seed: options.seed, tick: tick.tick, time: tick.time, problem: tick.problem };
      yielded++;
    }
    buffer.length = 0;
  }
}
