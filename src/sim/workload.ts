/**
 * The agent workload: what one task (one agent session) is made of, two calibrated profiles, and the
 * generator that turns (profile, seed, task index) into a fully determined task.
 *
 * A task is a sequence of turns. Turn j is a model request whose prompt is the whole context so far
 * (prefill of the part not cached on the node, decode of `output[j]` tokens), followed, except on the last
 * turn, by a tool call of a drawn kind whose result (`result[j]` tokens) is appended to the context.
 * Everything is drawn up front from the task's own stream (see rng.ts), so the scheduler cannot change
 * what a task is, only when its parts run.
 *
 * Calibration sources are in /WORKLOAD.md of the project brief; every number is a field of the profile.
 */
import { type Dist, sample, sampleInt } from './dist.js';
import { FAMILY_CALIBRATIONS, sweLiteProfileName } from './calibration.js';
import { Rng, STREAM_TASK } from './rng.js';

/** What a tool interface tells the scheduler about when the call will end. */
export type DeadlineExposure =
  /** Nothing. */
  | 'none'
  /** An ETA (a monitor event): the true end time plus uniform noise of +-`etaJitter` seconds. */
  | 'eta'
  /** The call's timeout (e.g. a bash timeout): an upper bound, not a prediction. */
  | 'timeout';

/** One kind of tool call in a profile's mix. */
export interface ToolKind {
  /** Unique within the profile, for reports (`bash-test`). */
  readonly label: string;
  /** Structured tool name: the key the readiness predictor keeps duration history under (`bash`). */
  readonly name: string;
  /** Relative frequency in the mix. */
  readonly weight: number;
  /** Run time in seconds, before the timeout. */
  readonly duration: Dist;
  /** The harness kills the call after this many seconds (mini-swe-agent: 60). `null` = no timeout. */
  readonly timeout: number | null;
  readonly deadline: DeadlineExposure;
  /** Half-width of the uniform ETA noise in seconds, for `deadline: 'eta'`. */
  readonly etaJitter: number;
  /** The command line the call carries (only shell tools have one). */
  readonly command: string | null;
  /**
   * If set, the command is `sleep N && <command>` with N drawn from this (whole seconds, >= 1), and the
   * call takes N seconds plus a `duration` draw.
   */
  readonly sleep: Dist | null;
}

/** What happens when the next prompt would exceed `contextLimit`. */
export type ContextLimitAction =
  /** The agent stops (SWE-agent's "context window exceeded" exit); the task ends after this request. */
  | 'end'
  /** The context is replaced by a summary of `compactTo` tokens (Claude Code's auto-compaction). */
  | 'compact';

/** A workload profile. */
export interface WorkloadProfile {
  readonly name: string;
  readonly description: string;
  /** Tokens of the first prompt (system prompt, tool schemas, the issue). */
  readonly initialTokens: Dist;
  /** Model requests per task. */
  readonly turns: Dist;
  /** Output tokens per request. */
  readonly output: Dist;
  /**
   * Tool result tokens: log-normal with log-sd `resultSigma`, limited to `resultMax`, whose median decays
   * from `resultMedianFirst` (turn 0) to `resultMedianLate` with time constant `resultDecayTurns` turns
   * (early turns read whole files; later ones run commands with short outputs).
   */
  readonly resultMedianFirst: number;
  readonly resultMedianLate: number;
  readonly resultDecayTurns: number;
  readonly resultSigma: number;
  readonly resultMax: number;
  /** Largest prompt in tokens. */
  readonly contextLimit: number;
  readonly onContextLimit: ContextLimitAction;
  /** Context after a compaction, for `onContextLimit: 'compact'`. */
  readonly compactTo: Dist;
  readonly tools: readonly ToolKind[];
}

function tool(
  label: string,
  name: string,
  weight: number,
  duration: Dist,
  extra: Partial<Pick<ToolKind, 'timeout' | 'deadline' | 'etaJitter' | 'command' | 'sleep'>> = {},
): ToolKind {
  return {
    label,
    name,
    weight,
    duration,
    timeout: extra.timeout ?? null,
    deadline: extra.deadline ?? 'none',
    etaJitter: extra.etaJitter ?? 0,
    command: extra.command ?? null,
    sleep: extra.sleep ?? null,
  };
}

/**
 * Largest prompt of the SWE-bench-like profiles: the agent stops when its context would exceed it (as
 * SWE-agent does on a context-window error). The paper's snapshots show SWE-Lite sessions of 5-21k
 * tokens; sessions here reach ~20k at their median 11 steps, so the limit cuts the longest tasks short,
 * and it lets the settings' node capacities sit where the paper's snapshots put them (one or two
 * sessions of room per node) while any session still fits an empty node.
 */
export const SWE_CONTEXT_LIMIT = 24_000;

const ln = (median: number, sigma: number, min?: number, max?: number): Dist => {
  const d: { kind: 'lognormal'; median: number; sigma: number; min?: number; max?: number } = {
    kind: 'lognormal',
    median,
    sigma,
  };
  if (min !== undefined) d.min = min;
  if (max !== undefined) d.max = max;
  return d;
};

/**
 * The simulator's earlier default, kept for comparison: SWE-bench-like token shapes (below) with short
 * tools, so model time dominates a turn (tools are about a third of session time at 16 workers and less
 * under load). Contention then comes from decode residency rather than from sessions held across tools.
 * One change from the earlier profile: its context limit is the SWE-like one (24k instead of 131k), so
 * that it runs on the same settings.
 */
export const DECODE_HEAVY_PROFILE: WorkloadProfile = Object.freeze({
  name: 'decode-heavy',
  description:
    'SWE-bench-like token shapes with short tools (model time dominates): ~3.5k-token start, ~1.5k tokens per step, ~11 steps',
  initialTokens: ln(3500, 0.3, 1500, 8000),
  turns: ln(11, 0.22, 3, 135),
  output: ln(450, 0.6, 20, 4096),
  resultMedianFirst: 700,
  resultMedianLate: 700,
  resultDecayTurns: 1,
  resultSigma: 0.8,
  resultMax: 10_000,
  contextLimit: SWE_CONTEXT_LIMIT,
  onContextLimit: 'end',
  compactTo: { kind: 'constant', value: 1 } as Dist,
  tools: Object.freeze([
    tool('edit', 'str_replace_editor', 0.28, ln(0.25, 0.5, 0.02, 0.75)),
    tool('view', 'str_replace_editor', 0.14, ln(0.12, 0.4, 0.02, 0.75)),
    tool('bash-quick', 'bash', 0.24, ln(0.35, 0.7, 0.02), { timeout: 60, command: 'grep -rn "def " src | head -50' }),
    tool('bash-test', 'bash', 0.24, ln(6, 0.8, 0.5), { timeout: 60, command: 'python -m pytest -x -q tests' }),
    tool('bash-long', 'bash', 0.04, ln(40, 0.7, 5), { timeout: 60, command: 'python -m pytest -q' }),
    tool('bash-sleep', 'bash', 0.03, ln(0.3, 0.5, 0.02), {
      timeout: 60,
      command: 'tail -n 50 build.log',
      sleep: { kind: 'uniform', min: 1, max: 30 },
    }),
    tool('monitor', 'monitor', 0.03, ln(12, 0.6, 1), { deadline: 'eta', etaJitter: 0.3 }),
  ]),
});

/**
 * SWE-bench-like, the long-tool regime (tools take ~90% of a session's time, figure 1's share): the token shapes
 * of `decode-heavy` (a small start that grows by ~1-2k tokens per step, ~11 steps, Continuum: 10.9 +- 2.1;
 * ~450 output tokens, a reasoning model's thought before each command), with the tool times of a harness
 * that runs repository test suites and builds in containers: sub-second edits and views, quick shell
 * commands, test runs of median 30 s with a log-normal tail, long builds and full test runs cut at a
 * 180 s timeout (exposed to the scheduler as a deadline), `sleep N` waits and an ETA-exposing monitor.
 * Tools take 85-97% of session time under a router on the settings' nodes (~96% measured: see the tool
 * share test); the paper's tables imply far less, so the settings run the SWE-Lite profiles instead.
 */
export const SWE_BENCH_PROFILE: WorkloadProfile = Object.freeze({
  ...DECODE_HEAVY_PROFILE,
  name: 'swe-bench',
  description:
    'SWE-bench-like, tool-dominated: ~3.5k-token start, ~1.5k tokens per step, ~11 steps, tests of median 85 s, builds of median 270 s, 600 s tool timeout',
  tools: Object.freeze([
    tool('edit', 'str_replace_editor', 0.2, ln(0.25, 0.5, 0.02, 0.75)),
    tool('view', 'str_replace_editor', 0.1, ln(0.12, 0.4, 0.02, 0.75)),
    tool('bash-quick', 'bash', 0.16, ln(0.5, 0.8, 0.02), { timeout: 600, command: 'grep -rn "def " src | head -50' }),
    tool('bash-test', 'bash', 0.3, ln(85, 1.1, 1), { timeout: 600, command: 'python -m pytest -x -q tests' }),
    tool('bash-long', 'bash', 0.14, ln(270, 0.9, 10), {
      timeout: 600,
      deadline: 'timeout',
      command: 'pip install -e . && python -m pytest -q',
    }),
    tool('bash-sleep', 'bash', 0.04, ln(0.3, 0.5, 0.02), {
      timeout: 600,
      command: 'tail -n 50 build.log',
      sleep: { kind: 'uniform', min: 10, max: 90 },
    }),
    tool('monitor', 'monitor', 0.06, ln(100, 0.6, 2), { deadline: 'eta', etaJitter: 0.5 }),
  ]),
});

/**
 * Claude-Code-like: a ~25k-token start (system prompt and tool schemas), early turns that read whole
 * files, then slower growth. Measured on 3000 generated tasks against the cc-traces numbers (WORKLOAD.md):
 * mean prompt by turn 0-1 / 2-4 / 5-9 / 10-19 / >=20: 29.3k / 47.0k / 60.0k / 69.4k / 99.5k (traces: 26.8k /
 * 47.3k / 57.4k / 67.6k / 90.5k); turns p50 64, mean 89, p90 189 (64 / 93 / 219); output p50 350, mean 550,
 * p90 1.18k (350 / 557 / 1.3k); auto-compaction at 160k. Tools at the paper's operating point (~90% of
 * session time): reads, edits and task tracking under a second, searches of 8-22 s, sub-agents of
 * 9-96 s, test and build commands with a log-normal tail up to a 600 s timeout (the llm-d agentic
 * inter-turn fit, median 9.8 s, has a 24 s mean: the tail carries the time), an ETA-exposing monitor.
 */
export const CLAUDE_CODE_PROFILE: WorkloadProfile = Object.freeze({
  name: 'claude-code',
  description:
    'Claude-Code-like, tool-dominated: ~25-29k-token start growing to ~90-100k, median 64 turns, compaction at 160k',
  initialTokens: ln(24_500, 0.08, 18_000, 32_000),
  turns: ln(64, 0.86, 2, 400),
  output: ln(350, 0.95, 1, 8192),
  resultMedianFirst: 6500,
  resultMedianLate: 150,
  resultDecayTurns: 3,
  resultSigma: 1,
  resultMax: 25_000,
  contextLimit: 160_000,
  onContextLimit: 'compact',
  compactTo: ln(40_000, 0.2, 20_000, 80_000),
  tools: Object.freeze([
    tool('read', 'Read', 0.2, ln(0.08, 0.5, 0.01, 2)),
    tool('edit', 'Edit', 0.15, ln(0.15, 0.5, 0.02, 0.75)),
    tool('todo', 'TodoWrite', 0.05, ln(0.05, 0.4, 0.01, 0.15)),
    tool('grep', 'Grep', 0.1, ln(0.3, 0.6, 0.02, 10)),
    tool('bash-quick', 'Bash', 0.12, ln(0.6, 0.8, 0.02), { timeout: 600, command: 'git status && git diff --stat' }),
    tool('bash-test', 'Bash', 0.2, ln(100, 1, 1), { timeout: 600, command: 'npm test' }),
    tool('bash-long', 'Bash', 0.07, ln(300, 0.9, 10), {
      timeout: 600,
      deadline: 'timeout',
      command: 'npm run build && npm test',
    }),
    tool('bash-sleep', 'Bash', 0.02, ln(0.3, 0.5, 0.02), {
      timeout: 600,
      command: 'tail -n 100 server.log',
      sleep: { kind: 'uniform', min: 20, max: 180 },
    }),
    tool('search', 'WebSearch', 0.03, ln(15, 0.4, 3)),
    tool('subagent', 'Task', 0.04, ln(120, 0.8, 9)),
    tool('monitor', 'Monitor', 0.02, ln(100, 0.6, 2), { deadline: 'eta', etaJitter: 0.5 }),
  ]),
});

/**
 * Largest prompt of the SWE-Lite profiles: SWE-agent stops the task when its context would exceed it. The
 * paper's snapshots show sessions of 5-21k tokens; the profiles reach ~20k around their median 30 turns.
 */
export const SWE_LITE_CONTEXT_LIMIT = 32_000;

/**
 * SWE-Lite at the paper's operating point, as Tables 1-2 imply it (WORKLOAD.md; docs/simulator.md,
 * "Calibration"): ~30 model requests per task (the readiness error is measured on 10,967 tool calls, ~37
 * per task), short tools (edits and views under a second, quick shell commands, tests of a few seconds, a
 * rare longer run; ~1.2 s a call on average, so tools are ~30 s of a task), a ~3.5k-token start that grows
 * by a large first file read, then a few hundred tokens a turn. The output per request is the model's: its
 * median is fixed per model by Little's law on the routers' rows of the tables (output per task = decode x
 * latency / workers), so one profile shape serves every setting. Figure 1's 93.1% tool share cannot hold
 * together with the tables and is not followed.
 *
 * Tool names are the structured names the readiness predictor keys its history on: mini-swe-agent runs every
 * action through bash, so the bash kinds are named by what they run (a grep, a first-failure test run, a
 * full test run); its 60 s timeout is a harness setting, not exposed per call, so no call shows a deadline
 * but the monitor's ETA. One `bash` history over greps and test runs would put the predictor's error at
 * several seconds, against the paper's 0.41 s (docs/simulator.md, "When TAO admits").
 */
export function sweLiteProfile(name: string, outputMedian: number): WorkloadProfile {
  return Object.freeze({
    name,
    description: `SWE-Lite as the paper's tables imply it: ~3.5k-token start, ~30 turns, ${outputMedian}-token median output, short tools (~1.2 s a call)`,
    initialTokens: ln(3500, 0.3, 1500, 8000),
    turns: ln(30, 0.35, 5, 100),
    output: ln(outputMedian, 0.7, 10, 4096),
    resultMedianFirst: 1500,
    resultMedianLate: 250,
    resultDecayTurns: 3,
    resultSigma: 0.8,
    resultMax: 8000,
    contextLimit: SWE_LITE_CONTEXT_LIMIT,
    onContextLimit: 'end' as const,
    compactTo: { kind: 'constant', value: 1 } as Dist,
    tools: Object.freeze([
      tool('edit', 'str_replace_editor', 0.28, ln(0.25, 0.5, 0.02, 0.75)),
      tool('view', 'str_replace_editor', 0.24, ln(0.12, 0.4, 0.02, 0.75)),
      tool('bash-quick', 'bash', 0.28, ln(0.4, 0.7, 0.02), { timeout: 60, command: 'grep -rn "def " src | head -50' }),
      tool('bash-test', 'bash:pytest -x', 0.13, ln(3, 0.8, 0.3), {
        timeout: 60,
        command: 'python -m pytest -x -q tests',
      }),
      tool('bash-long', 'bash:pytest', 0.03, ln(12, 0.6, 2), { timeout: 60, command: 'python -m pytest -q' }),
      tool('bash-sleep', 'bash', 0.02, ln(0.3, 0.5, 0.02), {
        timeout: 60,
        command: 'tail -n 50 build.log',
        sleep: { kind: 'uniform', min: 1, max: 5 },
      }),
      tool('monitor', 'monitor', 0.02, ln(3, 0.6, 0.5), { deadline: 'eta', etaJitter: 0.3 }),
    ]),
  });
}

/** Built-in profiles by name. */
export const WORKLOAD_PROFILES: Readonly<Record<string, WorkloadProfile>> = Object.freeze({
  ...Object.fromEntries(
    FAMILY_CALIBRATIONS.map((f) => [sweLiteProfileName(f), sweLiteProfile(sweLiteProfileName(f), f.outputMedian)]),
  ),
  'swe-bench': SWE_BENCH_PROFILE,
  'claude-code': CLAUDE_CODE_PROFILE,
  'decode-heavy': DECODE_HEAVY_PROFILE,
});

/** One task, fully drawn. Arrays are indexed by turn (model request) j. */
export interface TaskSpec {
  readonly index: number;
  /** Tokens of the first prompt. */
  readonly initialTokens: number;
  /** Model requests in the task. */
  readonly turns: number;
  /** Output tokens of request j (>= 1). */
  readonly output: Int32Array;
  /** Index into the profile's `tools` of the call after request j; -1 after the last request. */
  readonly toolKind: Int16Array;
  /** Seconds the call after request j takes (timeout included). */
  readonly duration: Float64Array;
  /** Tokens the call's result appends. */
  readonly result: Int32Array;
  /** Seconds after the call's start that its interface exposes as a deadline; NaN when it exposes none. */
  readonly deadline: Float64Array;
  /** Command line of the call, if the tool has one. */
  readonly command: readonly (string | undefined)[];
  /** Context after the call if it triggered a compaction; -1 otherwise. */
  readonly compactTo: Int32Array;
  /** Why the task ended: its drawn turn count, or the context limit (`onContextLimit: 'end'`). */
  readonly endedBy: 'turns' | 'context-limit';
}

/** Result-token median at turn j. */
export function resultMedian(p: WorkloadProfile, j: number): number {
  return p.resultMedianLate + (p.resultMedianFirst - p.resultMedianLate) * Math.exp(-j / p.resultDecayTurns);
}

/** Draws task `index` of `seed` from `profile`: the same arguments always give the same task. */
export function generateTask(profile: WorkloadProfile, seed: number, index: number): TaskSpec {
  const rng = Rng.derive(seed, STREAM_TASK, index);
  const initialTokens = Math.max(1, sampleInt(profile.initialTokens, rng));
  const turns = Math.max(1, sampleInt(profile.turns, rng));
  const output = new Int32Array(turns);
  const toolKind = new Int16Array(turns).fill(-1);
  const duration = new Float64Array(turns);
  const result = new Int32Array(turns);
  const deadline = new Float64Array(turns).fill(Number.NaN);
  const command: (string | undefined)[] = new Array<string | undefined>(turns).fill(undefined);
  const compactTo = new Int32Array(turns).fill(-1);
  const weights = profile.tools.map((t) => t.weight);
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  let tokens = initialTokens;
  let used = turns;
  let endedBy: TaskSpec['endedBy'] = 'turns';
  for (let j = 0; j < turns; j++) {
    // A prompt never exceeds the limit; the output can only push the context past it by one request.
    const out = Math.max(1, sampleInt(profile.output, rng));
    output[j] = out;
    tokens += out;
    if (j === turns - 1) break;
    const kindIndex = rng.weighted(weights, totalWeight);
    const kind = profile.tools[kindIndex]!;
    toolKind[j] = kindIndex;
    let seconds = sample(kind.duration, rng);
    if (kind.sleep !== null) {
      const n = Math.max(1, Math.round(sample(kind.sleep, rng)));
      seconds += n;
      command[j] = kind.command === null ? `sleep ${n}` : `sleep ${n} && ${kind.command}`;
    } else if (kind.command !== null) {
      command[j] = kind.command;
    }
    if (kind.timeout !== null && seconds > kind.timeout) seconds = kind.timeout;
    duration[j] = seconds;
    if (kind.deadline === 'eta') {
      // The ETA is noisy but never before the start of the call.
      deadline[j] = Math.max(0, seconds + (2 * rng.float() - 1) * kind.etaJitter);
    } else if (kind.deadline === 'timeout' && kind.timeout !== null) {
      deadline[j] = kind.timeout;
    }
    const res = Math.max(
      0,
      Math.min(profile.resultMax, Math.round(rng.lognormal(resultMedian(profile, j), profile.resultSigma))),
    );
    result[j] = res;
    if (tokens + res > profile.contextLimit) {
      if (profile.onContextLimit === 'end') {
        // The harness stops the agent instead of sending an over-long prompt: no tool call follows.
        toolKind[j] = -1;
        duration[j] = 0;
        result[j] = 0;
        deadline[j] = Number.NaN;
        command[j] = undefined;
        used = j + 1;
        endedBy = 'context-limit';
        break;
      }
      // validateSetting guarantees compactTo's upper bound is within the limit.
      const to = Math.max(1, sampleInt(profile.compactTo, rng));
      compactTo[j] = to;
      tokens = to;
    } else {
      tokens += res;
    }
  }
  if (used < turns) {
    return {
      index,
      initialTokens,
      turns: used,
      output: output.slice(0, used),
      toolKind: toolKind.slice(0, used),
      duration: duration.slice(0, used),
      result: result.slice(0, used),
      deadline: deadline.slice(0, used),
      command: command.slice(0, used),
      compactTo: compactTo.slice(0, used),
      endedBy,
    };
  }
  return { index, initialTokens, turns, output, toolKind, duration, result, deadline, command, compactTo, endedBy };
}
