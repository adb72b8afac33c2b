/**
 * Pinned corpora of family groups (the regression gate's inputs): gzip JSON lines, a header then one
 * Problem per line, named `<family>-<group>-seed<seed>-n<count>.jsonl.gz`. They are fixed inputs: the gate
 * keeps measuring the same problems when a generator or the simulator changes; `tao bench --pin-paired`
 * writes them again from the generators.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { validateProblem } from '../solve/validate.js';
import type { Problem } from '../types.js';
import { hashLines } from './corpus.js';
import type { FamilyGroup } from './families/index.js';

export interface FamilyCorpusHeader {
  format: 'tao-bench-family-corpus';
  formatVersion: 1;
  /** `family/group`. */
  group: string;
  seed: number;
  count: number;
  /** The quantum the group is solved at. */
  quantum: number;
  /** sha256 of the problem lines joined by '\n'. */
  corpusHash: string;
}

export interface FamilyCorpus {
  header: FamilyCorpusHeader;
  problems: Problem[];
  file: string;
}

export function familyCorpusFileName(group: FamilyGroup, seed: number, count: number): string {
  return `${group.family}-${group.name}-seed${seed}-n${count}.jsonl.gz`;
}

/** Generates `count` problems of `group` from `seed` and writes them into `dir`; returns the file. */
export async function pinFamilyCorpus(group: FamilyGroup, seed: number, count: number, dir: string): Promise<string> {
  const lines = (await group.generate(seed, count)).map((p) => JSON.stringify(p));
  const header: FamilyCorpusHeader = {
    format: 'tao-bench-family-corpus',
    formatVersion: 1,
    group: `${group.family}/${group.name}`,
    seed,
    count: lines.length,
    quantum: group.quantum,
    corpusHash: hashLines(lines),
  };
  await mkdir(dir, { recursive: true });
  const file = join(dir, familyCorpusFileName(group, seed, lines.length));
  await writeFile(file, gzipSync([JSON.stringify(header), ...lines].join('\n') + '\n', { level: 9 }));
  return file;
}

/** Reads one pinned family corpus; a damaged file is an error naming it. */
export async function readFamilyCorpus(file: string): Promise<FamilyCorpus> {
  const all = gunzipSync(await readFile(file))
    .toString('utf8')
    .split('\n');
  if (all.at(-1) === '') all.pop();
  const [head, ...lines] = all;
  const header = JSON.parse(head ?? 'null') as FamilyCorpusHeader | null;
  if (header === null || header.format !== 'tao-bench-family-corpus' || header.formatVersion !== 1)
    throw new Error(`${file}: not a family corpus of this format`);
  if (lines.length !== header.count)
    throw new Error(`${file}: ${lines.length} problems, the header says ${header.count}`);
  if (hashLines(lines) !== header.corpusHash) throw new Error(`${file}: the problems do not match the header's hash`);
  const problems = lines.map((l, i) => {
    const p = JSON.parse(l) as unknown;
    validateProblem(p, `${file} line ${i + 2}`);
    return p as Problem;
  });
  return { header, problems, file };
}

/** Every pinned family corpus in `dir`, by file name. */
export async function readFamilyCorpora(dir: string): Promise<FamilyCorpus[]> {
  const names = (await readdir(dir)).filter((f) => f.endsWith('.jsonl.gz')).sort();
  return Promise.all(names.map((f) => readFamilyCorpus(join(dir, f))));
}
