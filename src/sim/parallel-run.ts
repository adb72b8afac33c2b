/**
 * One (setting, policy, seed) run as plain data, and running it: what the parallel runner sends to its
 * worker threads (every field survives a structured clone) and what a serial run executes in-thread.
 */
import type { TaoDeps } from './deps.js';
import { createPolicy, needsDeps } from './policies/index.js';
import type { TaoParams } from './policies/tao.js';
import type { TaoBoundedParams } from './policies/tao-bounded.js';
import type { PolicyName, ProblemTick } from './policy.js';
import type { RunMode } from './run.js';
import type { SimSetting } from './settings.js';
import { Simulation, type RunResult } from './simulation.js';
import type { Trace } from './trace.js';

/** Everything one run depends on: the same description gives the same result in any thread. */
export interface RunDescription {
  readonly setting: SimSetting;
  readonly policy: PolicyName;
  readonly seed: number;
  readonly mode: RunMode;
  /** TAO parameters given (the defaults fill the rest). */
  readonly tao?: Partial<TaoParams>;
  readonly taoBounded: TaoBoundedParams;
  readonly sampleEvery: number;
  readonly checkInvariants: boolean;
  /** Tasks replayed instead of drawn from the setting's profile. */
  readonly trace?: Trace;
}

/** Whether any of `runs` needs the solver and evaluation loaded. */
export function runsNeedDeps(runs: readonly RunDescription[]): boolean {
  return runs.some((r) => needsDeps(r.policy));
}

/** Runs `d` in this thread (a fresh policy instance: policies keep state). */
export function executeRun(
  d: RunDescription,
  deps: TaoDeps | undefined,
  onProblem?: (tick: ProblemTick) => void,
): RunResult {
  const policy = createPolicy(d.policy, {
    setting: d.setting,
    ...(deps === undefined ? {} : { deps }),
    ...(d.tao === undefined ? {} : { tao: d.tao }),
    taoBounded: d.taoBounded,
    ...(onProblem === undefined ? {} : { onProblem }),
  });
  const sim = new Simulation(
    {
      setting: d.setting,
      seed: d.seed,
      mode: d.mode,
      sampleEvery: d.sampleEvery,
      checkInvariants: d.checkInvariants,
      ...(d.trace === undefined ? {} : { trace: d.trace }),
    },
    policy,
  );
  return sim.run();
}
