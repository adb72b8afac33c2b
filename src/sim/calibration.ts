/**
 * The calibrated constants of the nine paper settings, in one place: per model and hardware, the KV
 * capacity (derived from the hardware where the model's config is public), the engine step model and the
 * model's output per request. They are fitted on the four baselines' SWE-Lite columns of the paper's
 * Tables 1-2 only (Dynamo, vLLM RR, vLLM CA, ThunderAgent); TAO's columns are the out-of-sample check.
 * `scripts/calibrate-sim.mjs` is the fit; docs/simulator.md ("Calibration") has the derivations.
 *
 * One parameter set per model and hardware, the same for every policy.
 */
import type { EngineModel } from './engine.js';

/** The arithmetic behind a node's KV capacity, kept beside the number so a report can print it. */
export interface CapacityDerivation {
  readonly model: string;
  readonly hardware: string;
  /** KV bytes per token (2 x layers x KV heads x head dim x bytes), or null where the config is not public. */
  readonly kvBytesPerToken: number | null;
  /** GPU memory of the node given to the engine, bytes (GPUs x 80 GB x gpu_memory_utilization 0.9). */
  readonly engineMemory: number;
  /** Weights, bytes. */
  readonly weights: number;
  /** Activations, CUDA graphs and other reserved memory, bytes. */
  readonly reserved: number;
  /** The capacity the arithmetic gives, tokens (null where the KV size is not public). */
  readonly derived: number | null;
  /** The capacity used, tokens per node. */
  readonly capacity: number;
  /**
   * The capacity the engine reports (`num_gpu_blocks x block_size`), tokens per node: what a scheduler in
   * front of it (ThunderAgent, TAO) counts admissions against. Equal to `capacity` where the KV layout is a
   * plain per-token one; fitted where it is not public.
   */
  readonly reported: number;
  readonly note: string;
}

export interface FamilyCalibration {
  readonly prefix: string;
  readonly label: string;
  readonly nodeCount: number;
  readonly workerCounts: readonly number[];
  readonly capacity: CapacityDerivation;
  readonly engine: EngineModel;
  /** Median output tokens per request of this model on SWE-Lite (log-normal, sigma 0.7). */
  readonly outputMedian: number;
}

const GB = 1e9;

function derive(kvBytesPerToken: number, engineMemory: number, weights: number, reserved: number): number {
  return Math.floor((engineMemory - weights - reserved) / kvBytesPerToken / 1000) * 1000;
}

const QWEN_KV = 2 * 64 * 8 * 128 * 2; // 64 layers, 8 KV heads x 128, K and V, BF16: 262,144 B
const GLM_KV = 2 * 92 * 8 * 128 * 2; // 92 layers, 8 KV heads x 128, K and V, BF16: 376,832 B

/** DeepSeek-V4 Flash on 2 nodes of 4 x H100 (TP4). */
export const DEEPSEEK_CALIBRATION: FamilyCalibration = Object.freeze({
  prefix: 'ds',
  label: 'DeepSeek-like',
  nodeCount: 2,
  workerCounts: Object.freeze([16, 32, 64]),
  capacity: Object.freeze({
    model: 'DeepSeek-V4 Flash (284B total, 13B active, compressed latent KV)',
    hardware: '4 x H100 80 GB, TP4',
    kvBytesPerToken: null,
    engineMemory: 4 * 80 * 0.9 * GB,
    weights: 160 * GB,
    reserved: 12 * GB,
    derived: null,
    capacity: 697_000,
    reported: 168_000,
    note:
      'the KV layout is not public: with a few KB per token the hardware leaves >= 1 M tokens; the capacity the ' +
      'engine serves from is fitted on the routers, and the capacity it reports (what ThunderAgent counts against) on ' +
      "ThunderAgent's rows",
  }),
  engine: Object.freeze({
    name: 'deepseek-like TP4',
    blockSize: 16,
    stepBase: 0.00545,
    stepPerSeq: 0.000128,
    stepPerKToken: 0.00002,
    prefillPerKToken: 0.00287,
    prefillChunk: 8192,
    requestOverhead: 0.152,
  }),
  outputMedian: 182,
});

/** Qwen3-32B on 4 replicas of 2 x H100 (TP2). */
export const QWEN_CALIBRATION: FamilyCalibration = Object.freeze({
  prefix: 'qwen',
  label: 'Qwen-like',
  nodeCount: 4,
  workerCounts: Object.freeze([96, 128, 160]),
  capacity: Object.freeze({
    model: 'Qwen3-32B (64 layers, 8 KV heads x 128, BF16 KV)',
    hardware: '2 x H100 80 GB, TP2',
    kvBytesPerToken: QWEN_KV,
    engineMemory: 2 * 80 * 0.9 * GB,
    weights: 65.5 * GB,
    reserved: 6 * GB,
    derived: derive(QWEN_KV, 2 * 80 * 0.9 * GB, 65.5 * GB, 6 * GB),
    capacity: derive(QWEN_KV, 2 * 80 * 0.9 * GB, 65.5 * GB, 6 * GB),
    reported: derive(QWEN_KV, 2 * 80 * 0.9 * GB, 65.5 * GB, 6 * GB),
    note: '32.8B parameters in BF16',
  }),
  engine: Object.freeze({
    name: 'qwen-like TP2',
    blockSize: 16,
    stepBase: 0.0121,
    stepPerSeq: 0.000075,
    stepPerKToken: 0.00004,
    prefillPerKToken: 0.0198,
    prefillChunk: 8192,
    requestOverhead: 0.053,
  }),
  outputMedian: 282,
});

/** GLM-4.7 (GLM-4.6 architecture) on one node of 8 x H100 (TP8). */
export const GLM_CALIBRATION: FamilyCalibration = Object.freeze({
  prefix: 'glm',
  label: 'GLM-like',
  nodeCount: 1,
  workerCounts: Object.freeze([96, 128, 160]),
  capacity: Object.freeze({
    model: 'GLM-4.7 (GLM-4.6 architecture: 355B total, 32B active, 92 layers, 8 KV heads x 128, BF16 KV)',
    hardware: '8 x H100 80 GB, TP8, FP8 weights',
    kvBytesPerToken: GLM_KV,
    engineMemory: 8 * 80 * 0.9 * GB,
    weights: 355 * GB,
    reserved: 16 * GB,
    derived: derive(GLM_KV, 8 * 80 * 0.9 * GB, 355 * GB, 16 * GB),
    capacity: derive(GLM_KV, 8 * 80 * 0.9 * GB, 355 * GB, 16 * GB),
    reported: derive(GLM_KV, 8 * 80 * 0.9 * GB, 355 * GB, 16 * GB),
    note: '355B parameters in FP8',
  }),
  engine: Object.freeze({
    name: 'glm-like TP8',
    blockSize: 16,
    stepBase: 0.0074,
    stepPerSeq: 0.00041,
    stepPerKToken: 0.000015,
    prefillPerKToken: 0.0293,
    prefillChunk: 8192,
    requestOverhead: 0.066,
  }),
  outputMedian: 183,
});

export const FAMILY_CALIBRATIONS: readonly FamilyCalibration[] = Object.freeze([
  DEEPSEEK_CALIBRATION,
  QWEN_CALIBRATION,
  GLM_CALIBRATION,
]);

/** The name of a family's SWE-Lite workload profile. */
export function sweLiteProfileName(f: FamilyCalibration): string {
  return `swe-lite-${f.prefix}`;
}
