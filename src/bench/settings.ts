/**
 * The nine paper settings the benchmark measures, and the paper's reported solver overhead (Table 9) to
 * print beside ours. Numbers are the paper's, as tabulated in the project's shared paper-figures.json.
 */
import { InvalidValueError } from '../errors.js';

/** Setting names: model family and worker count. */
export const SETTING_NAMES = [
  'ds-16',
  'ds-32',
  'ds-64',
  'qwen-96',
  'qwen-128',
  'qwen-160',
  'glm-96',
  'glm-128',
  'glm-160',
] as const;

export type SettingName = (typeof SETTING_NAMES)[number];

/** What the paper ran a setting on. */
export interface SettingInfo {
  readonly name: SettingName;
  readonly family: 'ds' | 'qwen' | 'glm';
  readonly model: string;
  /** GPU nodes (capacity dimensions before any merging). */
  readonly nodes: number;
  /** Concurrent agent workers (sessions in flight). */
  readonly workers: number;
}

/** One row of the paper's Table 9 (solver overhead). */
export interface PaperRow {
  readonly solveMeanMs: number;
  readonly solveP95Ms: number;
  /** Share of solves that fell back to BFD, percent. */
  readonly fallbackPct: number;
}

const FAMILY: Readonly<Record<SettingInfo['family'], { model: string; nodes: number }>> = {
  ds: { model: 'DeepSeek-V4 Flash, TP4 x 2 nodes', nodes: 2 },
  qwen: { model: 'Qwen3-32B, TP2 x 4 replicas', nodes: 4 },
  glm: { model: 'GLM-4.7, TP8 x 1 node', nodes: 1 },
};

/** Table 9 of the paper. GLM-4.7 has no row there. */
export const PAPER_TABLE9: Readonly<Record<SettingName, PaperRow | null>> = Object.freeze({
  'ds-16': { solveMeanMs: 0.55, solveP95Ms: 0.55, fallbackPct: 0 },
  'ds-32': { solveMeanMs: 1.48, solveP95Ms: 2.08, fallbackPct: 0 },
  'ds-64': { solveMeanMs: 12.5, solveP95Ms: 88.84, fallbackPct: 5.24 },
  'qwen-96': { solveMeanMs: 0.56, solveP95Ms: 0.62, fallbackPct: 3.06 },
  'qwen-128': { solveMeanMs: 1.04, solveP95Ms: 2.43, fallbackPct: 6.74 },
  'qwen-160': { solveMeanMs: 1.59, solveP95Ms: 3.68, fallbackPct: 8.98 },
  'glm-96': null,
  'glm-128': null,
  'glm-160': null,
});

export function isSettingName(x: string): x is SettingName {
  return (SETTING_NAMES as readonly string[]).includes(x);
}

export function settingInfo(name: SettingName): SettingInfo {
  const [family, workers] = name.split('-') as [SettingInfo['family'], string];
  const f = FAMILY[family];
  return { name, family, model: f.model, nodes: f.nodes, workers: Number(workers) };
}

/**
 * Parses a comma-separated list of setting names (`all` for every one), keeping the canonical order.
 * `path` names the flag or field in the error message.
 */
export function parseSettings(list: string, path: string): SettingName[] {
  const parts = list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (parts.length === 0) throw new InvalidValueError(`${path} must name at least one setting`);
  if (parts.includes('all')) return [...SETTING_NAMES];
  for (const p of parts) {
    if (!isSettingName(p))
      throw new InvalidValueError(`${path}: unknown setting "${p}" (known: ${SETTING_NAMES.join(', ')}, all)`);
  }
  return SETTING_NAMES.filter((s) => parts.includes(s));
}
