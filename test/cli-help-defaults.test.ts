import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultBenchOptions } from './helpers/internals.js';
import { runBenchCommand as bench } from './helpers/internals.js';
import { DEFAULT_REPEAT, runDemoCommand as demo } from './helpers/internals.js';
import { boundedEvaluateOptions } from './helpers/internals.js';
import { DEFAULT_POLICY, DEFAULT_SETTING, runSimulateCommand as simulate } from './helpers/internals.js';
import { runSolveCommand as solve } from './helpers/internals.js';
import { runSweepCommand as sweep } from './helpers/internals.js';
import { defaultEvaluateOptions } from './helpers/internals.js';
import { defaultPredictorOptions } from './helpers/internals.js';
import { defaultTaoParams } from './helpers/internals.js';
import { defaultSimulateOptions } from './helpers/internals.js';
import { defaultSolveOptions } from './helpers/internals.js';

async function help(run: (args: string[]) => Promise<number>): Promise<string> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  expect(await run(['--help'])).toBe(0);
  return out;
}

/** The help line of `flag` (the flag at the start of a line, after the indent). */
function line(text: string, flag: string): string {
  const found = text.split('\n').find((l) => l.trimStart().startsWith(`${flag} `));
  if (found === undefined) throw new Error(`no help line for ${flag}`);
  return found;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('help texts show the exported defaults', () => {
  it('tao solve: the solve defaults', async () => {
    const text = await help(solve);
    expect(line(text, '--quantum')).toContain(`(default ${defaultSolveOptions.quantum})`);
    expect(line(text, '--state-budget')).toContain(`(default ${defaultSolveOptions.stateBudget},`);
  });

  it('tao simulate: the TAO parameters, which are the evaluation, predictor and solve defaults', async () => {
    expect(defaultTaoParams).toEqual({
      halfLife: defaultEvaluateOptions.halfLife,
      horizon: defaultPredictorOptions.horizon,
      delta: defaultPredictorOptions.delta,
      quantum: defaultSolveOptions.quantum,
      stateBudget: defaultSolveOptions.stateBudget,
      reserve: defaultEvaluateOptions.reserve,
      creditUnit: defaultEvaluateOptions.creditUnit,
      eventAdmission: true,
      creditSource: 'observed',
    });
    const text = await help(simulate);
    expect(line(text, '--half-life')).toContain(`(default ${defaultEvaluateOptions.halfLife})`);
    expect(line(text, '--horizon')).toContain(`(default ${defaultPredictorOptions.horizon})`);
    expect(line(text, '--delta')).toContain(`(default ${defaultPredictorOptions.delta})`);
    expect(line(text, '--quantum')).toContain(`(default ${defaultSolveOptions.quantum})`);
    expect(line(text, '--state-budget')).toContain(`(default ${defaultSolveOptions.stateBudget})`);
    expect(line(text, '--sample')).toContain(`(default ${defaultSimulateOptions.sampleEvery})`);
    expect(line(text, '--seeds')).toContain(`(default ${defaultSimulateOptions.seeds.length})`);
    expect(line(text, '--setting')).toContain(`(default ${DEFAULT_SETTING})`);
    expect(line(text, '--policy')).toContain(`(default ${DEFAULT_POLICY})`);
    expect(line(text, '--wait-threshold')).toContain(`(default ${boundedEvaluateOptions.waitThreshold})`);
    expect(line(text, '--hold-horizon')).toContain(`(default ${boundedEvaluateOptions.holdHorizon})`);
    expect(line(text, '--tick-admission')).toContain('(default: also when the pool changes between ticks)');
  });

  it('tao sweep: the simulate defaults it shares', async () => {
    const text = await help(sweep);
    expect(line(text, '--seeds')).toContain(`(default ${defaultSimulateOptions.seeds.length})`);
    expect(line(text, '--setting')).toContain(`(default ${DEFAULT_SETTING})`);
    expect(line(text, '--policy')).toContain(`(default ${DEFAULT_POLICY};`);
  });

  it('tao demo and tao bench: their own defaults', async () => {
    expect(await help(demo)).toContain(`(default ${DEFAULT_REPEAT})`);
    const text = await help(bench);
    expect(line(text, '--quantum')).toContain(`(default ${defaultBenchOptions.solve.quantum})`);
    expect(line(text, '--state-budget')).toContain(`(default ${defaultBenchOptions.solve.stateBudget})`);
    expect(line(text, '--count')).toContain(`(default ${defaultBenchOptions.count};`);
  });
});
