/**
 * The paper's Table 4 (ablations of TAO; DeepSeek-V4 Flash, SWE-Lite, 32 workers) as a further
 * out-of-sample check: six TAO configurations, each a policy defined by the paper's name for it (nothing
 * here is fitted or tuned), run on `ds-32` with the paper runs' seeds, compared metric by metric (simulated
 * mean over the seeds, the paper's value, their ratio), paired against full TAO seed by seed (every policy
 * runs the same tasks on a seed), and the paper's order of the six against the simulated one.
 */
import { InvalidValueError } from '../errors.js';
import { mean } from '../stats.js';
import type { PolicyName } from './policies/index.js';
import { PAPER_TABLE4, type PaperAblationRow } from './paper-tables.js';
import type { RunResult } from './simulation.js';
import { type Estimate, estimate, kendallTau } from './stats.js';

/** The setting Table 4 was measured on. */
export const TABLE4_SETTING = 'ds-32';

/** A Table 4 configuration and the policy standing for it. */
export interface Table4Config {
  /** The paper's row name (PAPER_TABLE4's `config`). */
  readonly config: string;
  readonly policy: PolicyName;
  /** What the policy changes against `tao`, from the paper's name for the row. */
  readonly definition: string;
}

/** The six rows, in the paper's order; the first is the reference of the paired differences. */
export const TABLE4_CONFIGS: readonly Table4Config[] = Object.freeze([
  { config: 'full TAO', policy: 'tao', definition: 'the DP over the whole pool on (k, r, t)' },
  {
    config: 'no cache credit',
    policy: 'tao-zero-credit',
    definition: 'k = 0 on every (session, node) pair: the DP decides whom and where on (0, r, t)',
  },
  { config: 'no readiness', policy: 'tao-no-ready', definition: 'r = 0 on every session' },
  {
    config: 'neither',
    policy: 'tao-zero-credit-no-ready',
    definition: 'k = 0 and r = 0: the DP ranks by tokens alone',
  },
  {
    config: 'ThunderAgent pause ordering',
    policy: 'tao-ta-order',
    definition:
      "whom to admit by ThunderAgent's resume tiers (requests issued past the first, programs with one request sent, running tools) as strict priorities; where by TAO's DP",
  },
  {
    config: 'BFD instead of DP',
    policy: 'tao-bfd-plain',
    definition:
      "the package's bfd() plan in place of the DP: best triple descending, each on the node it leaves the least room on",
  },
]);

/** Other readings of a row, reported beside it but not in the order statistics. */
export const TABLE4_READINGS: readonly Table4Config[] = Object.freeze([
  {
    config: 'no cache credit',
    policy: 'tao-no-credit',
    definition: 'whom to admit without credit, where with it (the like-for-like selection ablation)',
  },
  {
    config: 'BFD instead of DP',
    policy: 'tao-bfd',
    definition:
      "bfd() followed by the solver's spreading tie-break, as every DP plan gets (the like-for-like ablation)",
  },
]);

/** Every policy a Table 4 comparison runs. */
export const TABLE4_POLICIES: readonly PolicyName[] = Object.freeze([
  ...TABLE4_CONFIGS.map((c) => c.policy),
  ...TABLE4_READINGS.map((c) => c.policy),
]);

export const TABLE4_METRICS = Object.freeze([
  {
    key: 'decode',
    label: 'decode tok/s',
    read: (r: RunResult) => r.metrics.decodeThroughput,
    paper: (p: PaperAblationRow) => p.decode,
    lowerIsBetter: false,
  },
  {
    key: 'cacheHit',
    label: 'cache hit %',
    read: (r: RunResult) => 100 * r.metrics.cacheHitRate,
    paper: (p: PaperAblationRow) => p.cacheHit,
    lowerIsBetter: false,
  },
  {
    key: 'ttft',
    label: 'TTFT s',
    read: (r: RunResult) => r.metrics.ttftMean,
    paper: (p: PaperAblationRow) => p.ttft,
    lowerIsBetter: true,
  },
  {
    key: 'toolReturn',
    label: 'tool return to first token s',
    read: (r: RunResult) => r.metrics.toolReturnToFirstTokenMean,
    paper: (p: PaperAblationRow) => p.toolReturnToFirstToken,
    lowerIsBetter: true,
  },
  {
    key: 'pauseWait',
    label: 'pause wait s',
    read: (r: RunResult) => r.metrics.pauseWaitMean,
    paper: (p: PaperAblationRow) => p.pauseWait,
    lowerIsBetter: true,
  },
] as const);

export type Table4Metric = (typeof TABLE4_METRICS)[number]['key'];

export interface Table4Value {
  readonly metric: Table4Metric;
  readonly sim: number;
  readonly paper: number;
  readonly ratio: number;
  /**
   * Against full TAO, paired by seed: the mean of the per-seed relative differences (this - tao) / tao and
   * its Student-t 95% half-width (zero for full TAO itself; NaN under 2 seeds).
   */
  readonly vsFull: Estimate;
  /** The paper's relative difference to full TAO. */
  readonly paperVsFull: number;
}

export interface Table4Row extends Table4Config {
  /** A reading beside a row (TABLE4_READINGS), not in the order statistics. */
  readonly reading: boolean;
  readonly values: readonly Table4Value[];
}

export interface Table4Order {
  readonly metric: Table4Metric;
  /** Kendall tau of the six simulated values against the paper's. */
  readonly tau: number;
  /** The six configurations best first, simulated and the paper's. */
  readonly sim: readonly string[];
  readonly paper: readonly string[];
}

export interface Table4Report {
  readonly setting: string;
  readonly seeds: readonly number[];
  readonly rows: readonly Table4Row[];
  readonly orders: readonly Table4Order[];
  readonly meanTau: number;
}

/** Per-seed relative differences (x - y) / y over the seeds both ran. */
function seedDiffs(x: readonly RunResult[], y: readonly RunResult[], read: (r: RunResult) => number): number[] {
  const ys = new Map(y.map((r) => [r.seed, read(r)] as const));
  const out: number[] = [];
  for (const r of [...x].sort((a, b) => a.seed - b.seed)) {
    const b = ys.get(r.seed);
    if (b !== undefined) out.push((read(r) - b) / b);
  }
  return out;
}

/** The Table 4 comparison of `runs` (which must hold every TABLE4_POLICIES run on TABLE4_SETTING). */
export function compareTable4(runs: readonly RunResult[]): Table4Report {
  const at = runs.filter((r) => r.setting === TABLE4_SETTING);
  const of = (policy: PolicyName): RunResult[] => {
    const xs = at.filter((r) => r.policy === policy);
    if (xs.length === 0) throw new InvalidValueError(`no runs of ${policy} on ${TABLE4_SETTING}`);
    return xs;
  };
  const paperOf = (config: string): PaperAblationRow => PAPER_TABLE4.find((p) => p.config === config)!;
  const full = of(TABLE4_CONFIGS[0]!.policy);
  const fullPaper = paperOf(TABLE4_CONFIGS[0]!.config);
  const row = (c: Table4Config, reading: boolean): Table4Row => {
    const rs = of(c.policy);
    const p = paperOf(c.config);
    return {
      ...c,
      reading,
      values: TABLE4_METRICS.map((m) => {
        const sim = mean(rs.map(m.read));
        const paper = m.paper(p);
        return {
          metric: m.key,
          sim,
          paper,
          ratio: sim / paper,
          vsFull: estimate(seedDiffs(rs, full, m.read)),
          paperVsFull: (paper - m.paper(fullPaper)) / m.paper(fullPaper),
        };
      }),
    };
  };
  const rows = [...TABLE4_CONFIGS.map((c) => row(c, false)), ...TABLE4_READINGS.map((c) => row(c, true))];
  const six = rows.filter((r) => !r.reading);
  const orders = TABLE4_METRICS.map((m, k): Table4Order => {
    const ranked = (key: 'sim' | 'paper'): string[] =>
      [...six]
        .sort((a, b) => (m.lowerIsBetter ? 1 : -1) * (a.values[k]![key] - b.values[k]![key]))
        .map((r) => r.config);
    return {
      metric: m.key,
      tau: kendallTau(
        six.map((r) => r.values[k]!.sim),
        six.map((r) => r.values[k]!.paper),
      ),
      sim: ranked('sim'),
      paper: ranked('paper'),
    };
  });
  const seeds = [...new Set(full.map((r) => r.seed))].sort((a, b) => a - b);
  return { setting: TABLE4_SETTING, seeds, rows, orders, meanTau: mean(orders.map((o) => o.tau)) };
}
