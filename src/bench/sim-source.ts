/**
 * The corpus source backed by the simulator: Problems the TAO policy builds on a setting, from a seed, in
 * one of two windows of the run. `steady-state` (the default, what `tao bench` measures): ticks after
 * warm-up, from several seeds (see families/steady-state.ts). `warm-up`: the first `count` non-trivial
 * Problems (at least two waiting sessions, one of which fits somewhere), where the cluster is still
 * filling and nearly everything fits; kept as one labelled family.
 */
import { readdir, readFile } from 'node:fs/promises';
import { InvalidValueError } from '../errors.js';
import { defaultTaoParams, recordProblems, SETTINGS } from '../sim/index.js';
import type { Problem } from '../types.js';
import type { CorpusSource } from './corpus.js';
import { STEADY_STATE, steadyStateProblems } from './families/steady-state.js';
import { sha256 } from './hash.js';
import { wasmBuildHash } from './machine.js';
import type { SettingName } from './settings.js';

/** The windows of a simulator run a corpus can be recorded from. */
export const SIM_WINDOWS = ['steady-state', 'warm-up'] as const;
export type SimWindow = (typeof SIM_WINDOWS)[number];

/** Options of the warm-up recording run, part of its fingerprint. */
const WARM_UP_RECORD = Object.freeze({ policy: 'tao', minSessions: 2, contended: false } as const);

/** What each window records, and the parameters that go into its fingerprint. */
const WINDOWS: Readonly<
  Record<
    SimWindow,
    { params: object; record: (setting: SettingName, seed: number, count: number) => Promise<Problem[]> }
  >
> = {
  'steady-state': { params: STEADY_STATE, record: steadyStateProblems },
  'warm-up': {
    params: WARM_UP_RECORD,
    async record(setting, seed, count) {
      const out: Problem[] = [];
      for await (const r of recordProblems(setting, { seed, count, ...WARM_UP_RECORD })) out.push(r.problem);
      return out;
    },
  },
};

/** Package code the recorded run depends on: everything but the harness and the CLI commands. */
const CODE_ROOT = new URL('../', import.meta.url);
const EXCLUDED = /^(bench|commands)\//;

let codeHash: Promise<string> | undefined;

/**
 * sha256 over the package's own code (compiled .js, or .ts when run from sources) and the WASM build: the
 * solver steers the simulated run (its plans decide who is admitted), so any of it can change the Problems.
 */
function packageCodeHash(): Promise<string> {
  codeHash ??= (async () => {
    const entries = await readdir(CODE_ROOT, { recursive: true });
    const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    const files = entries
      .map((e) => e.replaceAll('\\', '/'))
      .filter((e) => e.endsWith(ext) && !e.endsWith('.d.ts') && !EXCLUDED.test(e))
      .sort();
    const parts: string[] = [];
    for (const f of files) parts.push(`${f}\n${sha256(await readFile(new URL(f, CODE_ROOT)))}`);
    parts.push(`wasm\n${(await wasmBuildHash()).sha256 ?? 'none'}`);
    return sha256(parts.join('\n'));
  })();
  return codeHash;
}

/** The simulator as a corpus source, recording `window` (default: steady state). */
export function simulatorSource(window: SimWindow = 'steady-state'): CorpusSource {
  const w = WINDOWS[window];
  return {
    window,
    async fingerprint(setting) {
      const profile = SETTINGS[setting];
      if (profile === undefined) throw new InvalidValueError(`the simulator has no setting "${setting}"`);
      return sha256(
        JSON.stringify({ profile, tao: defaultTaoParams, window, record: w.params, code: await packageCodeHash() }),
      );
    },
    record: (setting, seed, count) => w.record(setting, seed, count),
  };
}
