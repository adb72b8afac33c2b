/**
 * The corpus source backed by the simulator: the first `count` non-trivial Problems (at least two waiting
 * sessions, one of which fits somewhere) that the TAO policy builds on a setting, from a seed.
 */
import { readdir, readFile } from 'node:fs/promises';
import { InvalidValueError } from '../errors.js';
import { defaultTaoParams, recordProblems, SETTINGS } from '../sim/index.js';
import type { Problem } from '../types.js';
import type { CorpusSource } from './corpus.js';
import { sha256 } from './hash.js';
import { wasmBuildHash } from './machine.js';

/** Options of the recording run, part of the fingerprint. */
const RECORD = Object.freeze({ policy: 'tao', minSessions: 2, contended: false } as const);

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

export function simulatorSource(): CorpusSource {
  return {
    async fingerprint(setting) {
      const profile = SETTINGS[setting];
      if (profile === undefined) throw new InvalidValueError(`the simulator has no setting "${setting}"`);
      return sha256(JSON.stringify({ profile, tao: defaultTaoParams, record: RECORD, code: await packageCodeHash() }));
    },
    async record(setting, seed, count) {
      const out: Problem[] = [];
      for await (const r of recordProblems(setting, { seed, count, ...RECORD })) out.push(r.problem);
      return out;
    },
  };
}
