/**
 * The paper's Tables 1-2 (TAO, 2026, CC BY 4.0), every cell: per table, policy and worker count,
 * [mean latency s, mean TTFT s, decode tok/s]. Transcribed from the paper's close reading (SWE-Lite columns
 * are the calibration target of calibration.ts; TAO's are the out-of-sample check).
 */
import { InvalidValueError } from '../errors.js';

export type PaperCell = readonly [latency: number, ttft: number, decode: number];
export type PaperRow = 'dynamo' | 'vllm_rr' | 'vllm_ca' | 'thunderagent' | 'tao';
export interface PaperTable {
  readonly family: string;
  readonly benchmark: string;
  readonly hardware: string;
  readonly rows: Readonly<Record<PaperRow, Readonly<Record<string, PaperCell>>>>;
}

export const PAPER_TABLES: readonly PaperTable[] = Object.freeze([
  {
    family: 'ds',
    benchmark: 'SWE-Lite',
    hardware: '2 nodes with 4 x H100 per node',
    rows: {
      dynamo: { '16': [122.0, 0.146, 874.1], '32': [152.3, 0.176, 1393.3], '64': [269.8, 0.351, 1548.5] },
      vllm_rr: { '16': [122.8, 0.177, 888.5], '32': [158.8, 0.217, 1145.6], '64': [290.7, 0.508, 1299.8] },
      vllm_ca: { '16': [116.0, 0.183, 889.6], '32': [150.4, 0.226, 1256.1], '64': [253.2, 0.41, 1561.3] },
      thunderagent: { '16': [123.6, 0.379, 796.2], '32': [215.7, 2.708, 961.8], '64': [407.2, 7.447, 969.0] },
      tao: { '16': [113.3, 0.135, 935.0], '32': [142.3, 0.153, 1477.5], '64': [185.4, 0.224, 2021.5] },
    },
  },
  {
    family: 'ds',
    benchmark: 'Terminal-Bench',
    hardware: '2 nodes with 4 x H100 per node',
    rows: {
      dynamo: { '16': [536.6, 1.371, 494.9], '32': [579.6, 1.252, 651.2], '64': [688.5, 1.315, 760.7] },
      vllm_rr: { '16': [342.5, 0.306, 820.8], '32': [375.2, 0.499, 1071.1], '64': [467.4, 0.582, 1597.5] },
      vllm_ca: { '16': [304.8, 0.319, 723.9], '32': [394.7, 0.331, 1146.4], '64': [393.1, 0.387, 1654.1] },
      thunderagent: { '16': [361.1, 0.336, 876.1], '32': [380.1, 1.402, 1053.0], '64': [391.6, 1.01, 1376.5] },
      tao: { '16': [298.2, 0.239, 798.6], '32': [333.6, 0.264, 1161.4], '64': [376.6, 0.324, 1551.4] },
    },
  },
  {
    family: 'qwen',
    benchmark: 'SWE-Lite',
    hardware: '4 nodes with 2 x H100 per node',
    rows: {
      dynamo: { '96': [821.6, 2.098, 2074.6], '128': [857.4, 7.924, 1203.7], '160': [1203.7, 17.208, 1239.4] },
      vllm_rr: { '96': [775.3, 5.109, 1400.6], '128': [975.4, 11.179, 1359.8], '160': [1088.0, 16.645, 1433.3] },
      vllm_ca: { '96': [811.6, 5.339, 1614.7], '128': [881.1, 11.707, 1456.4], '160': [1179.3, 18.304, 1285.4] },
      thunderagent: { '96': [716.3, 2.051, 2104.9], '128': [839.3, 8.705, 2036.3], '160': [1028.5, 16.209, 1712.4] },
      tao: { '96': [634.7, 1.827, 1996.8], '128': [829.4, 7.907, 2051.8], '160': [1031.0, 14.554, 1827.6] },
    },
  },
  {
    family: 'qwen',
    benchmark: 'SWE-verified',
    hardware: '4 nodes with 2 x H100 per node',
    rows: {
      dynamo: { '96': [736.8, 1.985, 1862.8], '128': [1041.9, 10.441, 1820.9], '160': [1286.2, 22.469, 1667.8] },
      vllm_rr: { '96': [777.6, 5.082, 1931.3], '128': [933.3, 12.586, 1804.5], '160': [1244.5, 24.221, 1091.0] },
      vllm_ca: { '96': [816.2, 5.731, 1522.6], '128': [1016.5, 14.263, 1670.9], '160': [1264.4, 23.199, 1619.8] },
      thunderagent: { '96': [699.8, 2.396, 2184.9], '128': [911.1, 10.5, 2045.9], '160': [1202.2, 21.608, 1993.6] },
      tao: { '96': [642.0, 1.392, 2354.7], '128': [933.7, 9.092, 2128.6], '160': [1094.3, 17.619, 2087.2] },
    },
  },
  {
    family: 'glm',
    benchmark: 'SWE-Lite',
    hardware: 'one node with 8 x H100 (TP8)',
    rows: {
      dynamo: { '96': [2870.3, 21.677, 290.5], '128': [3779.2, 41.865, 287.8], '160': [4786.7, 59.548, 262.2] },
      vllm_rr: { '96': [2687.8, 20.927, 310.8], '128': [3633.8, 39.502, 294.6], '160': [4391.0, 53.588, 272.5] },
      vllm_ca: { '96': [2606.5, 19.553, 318.7], '128': [3435.8, 37.665, 308.0], '160': [4314.5, 56.326, 297.3] },
      thunderagent: { '96': [999.6, 7.014, 773.3], '128': [1360.4, 14.243, 731.1], '160': [1747.0, 23.345, 668.9] },
      tao: { '96': [887.7, 6.777, 869.6], '128': [1261.9, 14.103, 813.7], '160': [1476.2, 20.066, 805.9] },
    },
  },
  {
    family: 'glm',
    benchmark: 'SWE-verified',
    hardware: 'one node with 8 x H100 (TP8)',
    rows: {
      dynamo: { '96': [3164.6, 26.761, 286.2], '128': [4545.3, 52.588, 256.6], '160': [8217.1, 86.008, 163.6] },
      vllm_rr: { '96': [2938.2, 23.967, 292.7], '128': [4136.0, 47.93, 269.8], '160': [6149.5, 71.452, 214.6] },
      vllm_ca: { '96': [2928.6, 24.505, 300.3], '128': [3935.7, 46.963, 284.9], '160': [5989.5, 71.239, 220.9] },
      thunderagent: { '96': [1146.1, 12.59, 691.5], '128': [1533.3, 18.516, 688.3], '160': [1846.5, 26.045, 683.6] },
      tao: { '96': [951.7, 7.752, 856.8], '128': [1243.9, 15.281, 858.1], '160': [1548.3, 21.943, 839.1] },
    },
  },
]);

/** The paper's cell of `row` at `workers` in the `benchmark` table of `family`; throws if there is none. */
export function paperCell(family: string, benchmark: string, row: PaperRow, workers: number): PaperCell {
  const t = PAPER_TABLES.find((x) => x.family === family && x.benchmark === benchmark);
  const cell = t?.rows[row][String(workers)];
  if (cell === undefined)
    throw new InvalidValueError(`the paper has no ${benchmark} cell for ${family}-${workers} / ${row}`);
  return cell;
}

/** One configuration of the paper's Table 4 (ablation; DeepSeek-V4 Flash, SWE-Lite, 32 workers). */
export interface PaperAblationRow {
  readonly config: string;
  readonly decode: number;
  /** Cache hit rate, percent. */
  readonly cacheHit: number;
  readonly ttft: number;
  readonly toolReturnToFirstToken: number;
  readonly pauseWait: number;
}

/** The paper's Table 4, in its row order (transcribed from the close reading, section 7). */
export const PAPER_TABLE4: readonly PaperAblationRow[] = Object.freeze([
  {
    config: 'full TAO',
    decode: 1417.97,
    cacheHit: 96.31,
    ttft: 0.154,
    toolReturnToFirstToken: 0.203,
    pauseWait: 0.972,
  },
  {
    config: 'no cache credit',
    decode: 1398.35,
    cacheHit: 96.24,
    ttft: 0.157,
    toolReturnToFirstToken: 0.209,
    pauseWait: 1.028,
  },
  {
    config: 'no readiness',
    decode: 1363.06,
    cacheHit: 96.16,
    ttft: 0.161,
    toolReturnToFirstToken: 0.227,
    pauseWait: 1.067,
  },
  { config: 'neither', decode: 1373.51, cacheHit: 96.24, ttft: 0.182, toolReturnToFirstToken: 0.213, pauseWait: 1.025 },
  {
    config: 'ThunderAgent pause ordering',
    decode: 1355.2,
    cacheHit: 96.2,
    ttft: 0.162,
    toolReturnToFirstToken: 0.226,
    pauseWait: 1.025,
  },
  {
    config: 'BFD instead of DP',
    decode: 1233.72,
    cacheHit: 96.05,
    ttft: 0.195,
    toolReturnToFirstToken: 0.235,
    pauseWait: 1.081,
  },
]);
