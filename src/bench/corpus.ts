/**
 * Benchmark corpora: for each setting, `count` solver Problems recorded from the simulator running the TAO
 * policy, from a seed, in one window of the run (steady state, or warm-up). Generated on first use and cached as JSON lines; a header line carries the cache key
 * (package version, simulator fingerprint) so a cache written by another version is regenerated, never
 * silently reused. The corpus hash (sha256 of the problem lines) is the workload's identity in reports and
 * in the regression gate.
 *
 * Pinned corpora (`readDirs`, e.g. the committed bench/corpus/) are different: they are fixed inputs,
 * named without a key (`<setting>-seed<seed>-n<count>.jsonl.gz`) and reused whatever the package version,
 * so the gate keeps measuring the same problems when the simulator or the solver's tie-breaking (which
 * steers the recorded run) changes. They are checked against their own hash and window only.
 */
import { mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { InvalidValueError } from '../errors.js';
import { MAX_CORPUS_BYTES } from '../limits.js';
import type { Problem } from '../types.js';
import { validateProblem } from '../solve/validate.js';
import { sha256 } from './hash.js';
import { PACKAGE_VERSION } from '../version.js';
import type { SettingName } from './settings.js';

/** Bumped when the file layout below changes. */
export const CORPUS_FORMAT_VERSION = 2;

/** Produces the problems of one setting; deterministic in (setting, seed, count). */
export interface CorpusSource {
  /** What part of a run it records (e.g. `steady-state`); a corpus of another window is never used in its place. */
  readonly window: string;
  /** Changes whenever the problems a (setting, seed, count) yields may change (profile, code). */
  fingerprint(setting: SettingName): Promise<string>;
  record(setting: SettingName, seed: number, count: number): Promise<Problem[]>;
}

/** The first line of a corpus file. */
export interface CorpusHeader {
  format: 'tao-bench-corpus';
  formatVersion: number;
  setting: SettingName;
  seed: number;
  count: number;
  /** The source's window (CorpusSource.window). */
  window: string;
  packageVersion: string;
  fingerprint: string;
  /** sha256 of the problem lines joined by '\n'. */
  corpusHash: string;
}

export interface Corpus {
  setting: SettingName;
  seed: number;
  /** The window of the run it was recorded from (CorpusSource.window). */
  window: string;
  problems: Problem[];
  hash: string;
  fingerprint: string;
  /** Where it came from: a pinned file, the cache, or generated (and written to the cache `file`). */
  origin: 'pinned' | 'cache' | 'generated';
  file: string;
  /** Generation time in ms (0 when read from the cache). */
  generateMs: number;
}

export interface CorpusOptions {
  seed: number;
  count: number;
  /** Directory the cache lives in; created on demand. */
  cacheDir: string;
  /** Read-only directories searched first for a pinned corpus of the same setting, seed and count. */
  readDirs?: readonly string[];
  /** Ignore cached files and record again. */
  regenerate?: boolean;
}

/** The cache key of a corpus: what must match for a file to be reused. */
export function corpusKey(version: string, fingerprint: string): string {
  return sha256(`${CORPUS_FORMAT_VERSION}\n${version}\n${fingerprint}`).slice(0, 12);
}

/** `<setting>-seed<seed>-n<count>-<key>.jsonl` */
export function corpusFileName(setting: SettingName, seed: number, count: number, key: string): string {
  return `${setting}-seed${seed}-n${count}-${key}.jsonl`;
}

export function hashLines(lines: readonly string[]): string {
  return sha256(lines.join('\n'));
}

/** `<setting>-seed<seed>-n<count>.jsonl.gz`: a pinned corpus. */
export function pinnedFileName(setting: SettingName, seed: number, count: number): string {
  return `${setting}-seed${seed}-n${count}.jsonl.gz`;
}

type Expectation = {
  setting: SettingName;
  seed: number;
  count: number;
  window: string;
  packageVersion?: string;
  fingerprint?: string;
};

/** Parses and checks a corpus file; returns the reason when it is not reusable. Absent keys are not checked. */
export function parseCorpusFile(
  text: string,
  expect: Expectation,
): { header: CorpusHeader; problems: Problem[]; lines: string[] } | { error: string } {
  const all = text.split('\n');
  if (all.at(-1) === '') all.pop();
  const [head, ...lines] = all;
  if (head === undefined) return { error: 'empty file' };
  let header: CorpusHeader;
  try {
    header = JSON.parse(head) as CorpusHeader;
  } catch {
    return { error: 'header is not JSON' };
  }
  if (header.format !== 'tao-bench-corpus' || header.formatVersion !== CORPUS_FORMAT_VERSION)
    return { error: 'not a corpus file of this format version' };
  if (header.window !== expect.window)
    return {
      error: `recorded from the ${JSON.stringify(header.window)} window, this run measures ${JSON.stringify(expect.window)}`,
    };
  for (const k of ['setting', 'seed', 'count', 'packageVersion', 'fingerprint'] as const) {
    if (expect[k] !== undefined && header[k] !== expect[k])
      return { error: `stale: header ${k} ${JSON.stringify(header[k])}, expected ${JSON.stringify(expect[k])}` };
  }
  if (lines.length !== header.count) return { error: `truncated: ${lines.length} problems of ${header.count}` };
  if (hashLines(lines) !== header.corpusHash) return { error: 'corpus hash does not match its lines' };
  const problems: Problem[] = [];
  for (const [i, line] of lines.entries()) {
    const p = JSON.parse(line) as unknown;
    validateProblem(p, `corpus line ${i + 2}`);
    problems.push(p as Problem);
  }
  return { header, problems, lines };
}

async function readIfExists(file: string): Promise<string | null> {
  try {
    if ((await stat(file)).size > MAX_CORPUS_BYTES)
      throw new InvalidValueError(`corpus ${file} is larger than ${MAX_CORPUS_BYTES} bytes`);
    const bytes = await readFile(file);
    return file.endsWith('.gz')
      ? gunzipSync(bytes, { maxOutputLength: MAX_CORPUS_BYTES }).toString('utf8')
      : bytes.toString('utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ERR_BUFFER_TOO_LARGE')
      throw new InvalidValueError(`corpus ${file} expands past ${MAX_CORPUS_BYTES} bytes`);
    throw err;
  }
}

/**
 * Whether `file` is a cache file this harness wrote for (setting, seed, count): its first line is a corpus
 * header naming them. Reads at most 4 KiB; any other file (a user's notes named like a corpus) is not.
 */
async function isOwnCacheFile(file: string, setting: SettingName, seed: number, count: number): Promise<boolean> {
  let head: string;
  try {
    const fh = await open(file, 'r');
    try {
      const buf = Buffer.alloc(4096);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      head = buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    return false;
  }
  const eol = head.indexOf('\n');
  if (eol < 0) return false;
  try {
    const h = JSON.parse(head.slice(0, eol)) as Partial<CorpusHeader> | null;
    return (
      h !== null && h.format === 'tao-bench-corpus' && h.setting === setting && h.seed === seed && h.count === count
    );
  } catch {
    return false;
  }
}

/**
 * Loads the corpus of `setting`: a valid cached file if there is one, else records it and writes the cache
 * (atomically, and removes older files of the same setting/seed/count with another key). `log` receives
 * one line per decision (cache hit, stale cache, generation time).
 */
export async function loadCorpus(
  source: CorpusSource,
  setting: SettingName,
  options: CorpusOptions,
  log: (line: string) => void = () => {},
): Promise<Corpus> {
  const { seed, count } = options;
  if (!Number.isSafeInteger(count) || count < 1)
    throw new InvalidValueError(`corpus count must be a positive integer, got ${count}`);
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new InvalidValueError(`corpus seed must be a non-negative integer, got ${seed}`);
  const version = PACKAGE_VERSION;
  const fingerprint = await source.fingerprint(setting);
  const key = corpusKey(version, fingerprint);
  const name = corpusFileName(setting, seed, count, key);
  const expect = { setting, seed, count, window: source.window, packageVersion: version, fingerprint };
  if (options.regenerate !== true) {
    for (const dir of options.readDirs ?? []) {
      const file = join(dir, pinnedFileName(setting, seed, count));
      const text = await readIfExists(file);
      if (text === null) continue;
      const parsed = parseCorpusFile(text, { setting, seed, count, window: source.window });
      // A damaged pinned corpus is an error, not a cache miss: recording instead would change the workload.
      if ('error' in parsed) throw new Error(`pinned corpus ${file}: ${parsed.error}`);
      const h = parsed.header;
      return {
        setting,
        seed,
        window: source.window,
        problems: parsed.problems,
        hash: h.corpusHash,
        fingerprint: h.fingerprint,
        origin: 'pinned',
        file,
        generateMs: 0,
      };
    }
    const file = join(options.cacheDir, name);
    const text = await readIfExists(file);
    if (text !== null) {
      const parsed = parseCorpusFile(text, expect);
      if (!('error' in parsed)) {
        return {
          setting,
          seed,
          window: source.window,
          problems: parsed.problems,
          hash: parsed.header.corpusHash,
          fingerprint,
          origin: 'cache',
          file,
          generateMs: 0,
        };
      }
      log(`corpus ${file}: ${parsed.error}; recording again`);
    }
  }
  const t0 = performance.now();
  const problems = await source.record(setting, seed, count);
  if (problems.length !== count) {
    throw new Error(
      `the simulator recorded ${problems.length} problems for ${setting} seed ${seed}, ${count} were asked for`,
    );
  }
  problems.forEach((p, i) => validateProblem(p, `${setting} problem ${i}`));
  const generateMs = performance.now() - t0;
  const lines = problems.map((p) => JSON.stringify(p));
  const hash = hashLines(lines);
  const header: CorpusHeader = {
    format: 'tao-bench-corpus',
    formatVersion: CORPUS_FORMAT_VERSION,
    ...expect,
    corpusHash: hash,
  };
  await mkdir(options.cacheDir, { recursive: true });
  const file = join(options.cacheDir, name);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, [JSON.stringify(header), ...lines].join('\n') + '\n');
  await rename(tmp, file);
  // Stale siblings (same setting/seed/count, another key) would only accumulate. Only files whose header
  // proves they are this harness's cache files go: the directory may hold other files named alike.
  const prefix = `${setting}-seed${seed}-n${count}-`;
  for (const f of await readdir(options.cacheDir)) {
    if (!f.startsWith(prefix) || !f.endsWith('.jsonl') || f === name) continue;
    const stale = join(options.cacheDir, f);
    if (await isOwnCacheFile(stale, setting, seed, count)) await rm(stale, { force: true });
  }
  log(`corpus ${setting}: recorded ${count} problems (seed ${seed}) in ${(generateMs / 1000).toFixed(1)} s -> ${file}`);
  // The run uses the problems as the cache stores them, so a first run and a cached run time the same input.
  const stored = lines.map((l) => JSON.parse(l) as Problem);
  return {
    setting,
    seed,
    window: source.window,
    problems: stored,
    hash,
    fingerprint,
    origin: 'generated',
    file,
    generateMs,
  };
}

/** Writes `corpus` as a pinned corpus (gzip JSON lines with its header) into `dir`; returns the file. */
export async function savePinned(corpus: Corpus, dir: string): Promise<string> {
  const lines = corpus.problems.map((p) => JSON.stringify(p));
  const header: CorpusHeader = {
    format: 'tao-bench-corpus',
    formatVersion: CORPUS_FORMAT_VERSION,
    setting: corpus.setting,
    seed: corpus.seed,
    count: lines.length,
    window: corpus.window,
    packageVersion: PACKAGE_VERSION,
    fingerprint: corpus.fingerprint,
    corpusHash: hashLines(lines),
  };
  if (header.corpusHash !== corpus.hash)
    throw new Error(`corpus ${corpus.setting}: problems do not match the corpus hash`);
  await mkdir(dir, { recursive: true });
  const file = join(dir, pinnedFileName(corpus.setting, corpus.seed, lines.length));
  // mtime 0 in the gzip header: the same corpus gives the same bytes (no diff on re-save).
  await writeFile(file, gzipSync([JSON.stringify(header), ...lines].join('\n') + '\n', { level: 9 }));
  return file;
}
