/**
 * The nine paper settings as named profiles, built from the calibrated constants of calibration.ts (one
 * parameter set per model and hardware): KV capacity per node (also the admission capacity), the engine,
 * and the family's SWE-Lite workload profile. The long-tool regime (`swe-bench`, `claude-code`) runs on the
 * same nodes with `--workload`.
 */
import {
  DEEPSEEK_CALIBRATION,
  FAMILY_CALIBRATIONS,
  type FamilyCalibration,
  GLM_CALIBRATION,
  QWEN_CALIBRATION,
  sweLiteProfileName,
} from './calibration.js';
import type { EngineModel } from './engine.js';
import { WORKLOAD_PROFILES, type WorkloadProfile } from './workload.js';

export interface NodeSpec {
  readonly id: string;
  /** KV capacity in tokens: the engine's blocks, and what the routers' requests are counted against. */
  readonly capacity: number;
  /**
   * The capacity the engine reports (vLLM's `num_gpu_blocks x block_size`), which a scheduler in front of
   * it (ThunderAgent, TAO) counts admitted sessions' weights against; at most `capacity`.
   * @default capacity
   */
  readonly reportedCapacity?: number;
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

export const DEEPSEEK_ENGINE: EngineModel = DEEPSEEK_CALIBRATION.engine;
export const QWEN_ENGINE: EngineModel = QWEN_CALIBRATION.engine;
export const GLM_ENGINE: EngineModel = GLM_CALIBRATION.engine;

/** KV tokens per node of each family. */
export const DEEPSEEK_NODE_CAPACITY = DEEPSEEK_CALIBRATION.capacity.capacity;
export const QWEN_NODE_CAPACITY = QWEN_CALIBRATION.capacity.capacity;
export const GLM_NODE_CAPACITY = GLM_CALIBRATION.capacity.capacity;

/** Tasks of a paper run (the paper's GLM runs are 300 tasks). */
export const PAPER_TASKS = 300;

function nodes(count: number, capacity: number, reported: number): NodeSpec[] {
  return Array.from({ length: count }, (_, i) =>
    reported === capacity ? { id: `n${i}`, capacity } : { id: `n${i}`, capacity, reportedCapacity: reported },
  );
}

/** The capacity a scheduler in front of the engine counts admissions against on `node`. */
export function reportedCapacityOf(node: NodeSpec): number {
  return node.reportedCapacity ?? node.capacity;
}

/** The settings of one family, one per worker count. */
export function familySettings(f: FamilyCalibration): SimSetting[] {
  const capacity = f.capacity.capacity;
  const reported = f.capacity.reported;
  const workload = WORKLOAD_PROFILES[sweLiteProfileName(f)]!;
  return f.workerCounts.map((workers) =>
    Object.freeze({
      name: `${f.prefix}-${workers}`,
      description: `${f.label}: ${f.nodeCount} node${f.nodeCount > 1 ? 's' : ''} x ${capacity} KV tokens${reported === capacity ? '' : ` (${reported} reported)`}, ${workers} workers`,
      workers,
      tasks: PAPER_TASKS,
      nodes: Object.freeze(nodes(f.nodeCount, capacity, reported)),
      engine: f.engine,
      workload,
    }),
  );
}

/** The nine settings of the paper's tables, by name. */
export const SETTINGS: Readonly<Record<string, SimSetting>> = Object.freeze(
  Object.fromEntries(FAMILY_CALIBRATIONS.flatMap(familySettings).map((s) => [s.name, s])),
);

export const SETTING_NAMES: readonly string[] = Object.freeze(Object.keys(SETTINGS));
