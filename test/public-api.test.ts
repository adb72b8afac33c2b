/**
 * The package's entry points export deliberate lists: every name is a promise to users (or, under
 * `tao-solver/internals`, explicitly none). A name added or removed must be added or removed here too.
 */
import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';
import * as internals from '../src/internals.js';
import * as simulate from '../src/sim/index.js';

describe('public API', () => {
  it('tao-solver exports what a scheduler needs', () => {
    expect(Object.keys(root).sort()).toEqual([
      'AbortedError',
      'ClosedError',
      'DEFAULT_WORKER_FILE',
      'EVIDENCE_SOURCES',
      'IN_THREAD_MAX_CELLS',
      'IN_THREAD_MAX_WORK',
      'InvalidTypeError',
      'InvalidValueError',
      'MAX_COMMAND_LENGTH',
      'MAX_CORPUS_BYTES',
      'MAX_INPUT_BYTES',
      'MAX_NODES',
      'MAX_PREDICTOR_HISTORY_SLOTS',
      'MAX_SESSIONS',
      'MAX_STATE_BUDGET',
      'MAX_U32',
      'MEMORY_CAP_BYTES',
      'Planner',
      'ReadinessPredictor',
      'SolverTrapError',
      'bfd',
      'boundedEvaluateOptions',
      'createPlanner',
      'createSolverPool',
      'decayCredit',
      'defaultEvaluateOptions',
      'defaultPlannerOptions',
      'defaultPoolOptions',
      'defaultPredictorOptions',
      'defaultSolveOptions',
      'evaluate',
      'loadSolver',
      'predictReport',
      'resolveEvaluateOptions',
      'resolvePlannerOptions',
      'resolvePoolOptions',
      'resolvePredictorOptions',
      'resolveSolveOptions',
      'revalidate',
      'sessionSignature',
      'signaturesOf',
      'validateSnapshot',
    ]);
  });

  it('tao-solver/internals holds the plumbing, none of it also at the root', () => {
    const names = Object.keys(internals).sort();
    expect(names).toEqual([
      'LatencyHistogram',
      'bernsteinBound',
      'durationStats',
      'estimateCells',
      'estimateWork',
      'fallbackPlan',
      'finishPlan',
      'packProblem',
      'packedTransferList',
      'parseSleep',
      'prepare',
      'solveFrontierReference',
      'solveReference',
      'validateProblem',
    ]);
    for (const name of names) expect(Object.keys(root)).not.toContain(name);
  });

  it('tao-solver/simulate exports runs, settings, parameters and reports, not the simulator machinery', () => {
    expect(Object.keys(simulate).sort()).toEqual(
      [
        'CLAUDE_CODE_PROFILE',
        'COMPARISON_COLUMNS',
        'DECODE_HEAVY_PROFILE',
        'DEEPSEEK_ENGINE',
        'DEEPSEEK_NODE_CAPACITY',
        'GLM_ENGINE',
        'GLM_NODE_CAPACITY',
        'POLICY_NAMES',
        'QWEN_ENGINE',
        'QWEN_NODE_CAPACITY',
        'RETENTION_BINS',
        'SETTINGS',
        'SETTING_NAMES',
        'SIM_REPORT_SCHEMA_VERSION',
        'STEADY_SKIP',
        'SUMMARY_METRICS',
        'SWEEP_PARAMS',
        'SWE_BENCH_PROFILE',
        'TABLE_COLUMNS',
        'WORKLOAD_PROFILES',
        'compareToBaseline',
        'defaultSimulateOptions',
        'defaultTaoParams',
        'formatComparisonMarkdown',
        'formatComparisonTable',
        'formatMarkdownTable',
        'formatSetting',
        'formatSummaryTable',
        'isPolicyName',
        'loadSettingFile',
        'loadTaoDeps',
        'namedSetting',
        'parseSetting',
        'recordLine',
        'recordProblems',
        'resolveSetting',
        'simulate',
        'summarize',
        'sweep',
        'sweepSvg',
        'validateSetting',
        'runningRequestsSvg',
        'planSimulation',
        'assembleReport',
        'planSweep',
        'assembleSweep',
        'runAll',
        'runShard',
        'mergeShards',
        'parseShardSpec',
        'parseTrace',
        'loadTraceFile',
        'generatedTraceLines',
      ].sort(),
    );
  });
});
