/**
 * The nine paper settings as named profiles. Capacities are KV tokens per node (also the admission
 * capacity). They follow the paper's appendix H snapshots rather than the hardware: at 32 DeepSeek
 * workers the waiting sessions (5-21k tokens) do not all fit, with roughly one session of room per node.
 * With the tool-dominated `swe-bench` profile the stock of context (all sessions' tokens) is 1.8-5.9x the
 * capacity at every setting, so the knapsack binds on every tick, while the flow in the engines (tokens of
 * sessions in a model request) stays at 0.1-0.5 of it, so that routers keep tools at 85-95% of session
 * time at the smaller settings (docs/simulator.md has each setting's demand, flow and stock). The engine
 * constants are stated in engine.ts terms.
 */
import type { EngineModel } from './engine.js';
import { SWE_BENCH_PROFILE, type WorkloadProfile } from './workload.js';

export interface NodeSpec {
  readonly id: string;
  /** KV capacity in tokens, which is also what admitted sessions' weights are counted against. */
  readonly capacity: number;
}

/** Everything a run needs besides the policy and the seed. */
export interface SimSetting {
  readonly name: string;
  readonly description: string;
  /** Concurrent agent workers (each runs tasks back to back). */
  readonly workers: number;
  /** Tasks of a fixed-count run (the default run mode); a run with a duration ignores it. */
  readonly tasks: number;
  readonly nodes: readonly NodeSpec[];
  readonly engine: EngineModel;
  readonly workload: WorkloadProfile;
}

/**
 * DeepSeek-like: a MoE model on 4 x H100 (TP4) per node. Light decode steps (few active parameters),
 * fast prefill (~47k tokens/s idle). Decode: ~570 tok/s at batch 8, ~1100 at batch 24 per node.
 */
export const DEEPSEEK_ENGINE: EngineModel = Object.freeze({
  name: 'deepseek-like TP4',
  blockSize: 16,
  stepBase: 0.01,
  stepPerSeq: 0.0005,
  stepPerKToken: 0.00001,
  prefillPerKToken: 0.02,
  prefillChunk: 8192,
});

/**
 * Qwen-like: a dense 32B model on 2 x H100 (TP2) per replica. Every step reads all weights (18 ms), KV is
 * large per token (BF16, ~256 KB/token), prefill ~9k tokens/s. Per sequence 0.3 ms and 0.03 ms per 1000
 * KV tokens (batch 32 at 15k context: 42 ms a step, ~760 tok/s).
 */
export const QWEN_ENGINE: EngineModel = Object.freeze({
  name: 'qwen-like TP2',
  blockSize: 16,
  stepBase: 0.018,
  stepPerSeq: 0.0003,
  stepPerKToken: 0.00003,
  prefillPerKToken: 0.1,
  prefillChunk: 8192,
});

/**
 * GLM-like: a large MoE (~32B active) on one node of 8 x H100 (TP8). 15 ms a step at batch 1 (~67 tok/s),
 * 0.2 ms per sequence and 0.01 ms per 1000 KV tokens (batch 100 at 15k context: 50 ms a step, ~2000 tok/s),
 * ~30k tokens/s prefill.
 */
export const GLM_ENGINE: EngineModel = Object.freeze({
  name: 'glm-like TP8',
  blockSize: 16,
  stepBase: 0.015,
  stepPerSeq: 0.0002,
  stepPerKToken: 0.00001,
  prefillPerKToken: 0.03,
  prefillChunk: 8192,
});

/** KV tokens per node of each family. */
export const DEEPSEEK_NODE_CAPACITY = 48_000;
export const QWEN_NODE_CAPACITY = 100_000;
export const GLM_NODE_CAPACITY = 360_000;

function nodes(count: number, capacity: number): NodeSpec[] {
  return Array.from({ length: count }, (_, i) => ({ id: `n${i}`, capacity }));
}

function family(
  prefix: string,
  label: string,
  nodeCount: number,
  capacity: number,
  engine: EngineModel,
  workerCounts: readonly number[],
): SimSetting[] {
  return workerCounts.map((workers) =>
    Object.freeze({
      name: `${prefix}-${workers}`,
      description: `${label}: ${nodeCount} node${nodeCount > 1 ? 's' : ''} x ${capacity} KV tokens, ${workers} workers`,
      workers,
      tasks: 300,
      nodes: Object.freeze(nodes(nodeCount, capacity)),
      engine,
      workload: SWE_BENCH_PROFILE,
    }),
  );
}

/** The nine settings of the paper's tables, by name. */
export const SETTINGS: Readonly<Record<string, SimSetting>> = Object.freeze(
  Object.fromEntries(
    [
      ...family('ds', 'DeepSeek-like', 2, DEEPSEEK_NODE_CAPACITY, DEEPSEEK_ENGINE, [16, 32, 64]),
      ...family('qwen', 'Qwen-like', 4, QWEN_NODE_CAPACITY, QWEN_ENGINE, [96, 128, 160]),
      ...family('glm', 'GLM-like', 1, GLM_NODE_CAPACITY, GLM_ENGINE, [96, 128, 160]),
    ].map((s) => [s.name, s]),
  ),
);

export const SETTING_NAMES: readonly string[] = Object.freeze(Object.keys(SETTINGS));
