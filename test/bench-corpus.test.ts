import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCorpus, type CorpusSource } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';

function source(fingerprint: string, calls: { n: number }, window = 'test'): CorpusSource {
  return {
    window,
    fingerprint: async () => fingerprint,
    async record(_setting, seed, count) {
      calls.n++;
      return Array.from(
        { length: count },
        (_, i): Problem => ({
          nodes: [{ id: 'a', capacity: 100 + seed }],
          sessions: [{ id: `s${i}`, weight: 10 + i, tokens: i, ready: i % 2 === 0 }],
        }),
      );
    },
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tao-corpus-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('bench corpus cache', () => {
  it('records on first use, then reads the same corpus back from the cache', async () => {
    const calls = { n: 0 };
    const a = await loadCorpus(source('fp1', calls), 'ds-32', { seed: 3, count: 5, cacheDir: dir });
    expect(a.origin).toBe('generated');
    expect(a.file).toMatch(/ds-32-seed3-n5-[0-9a-f]{12}\.jsonl$/);
    const b = await loadCorpus(source('fp1', calls), 'ds-32', { seed: 3, count: 5, cacheDir: dir });
    expect(b.origin).toBe('cache');
    expect(calls.n).toBe(1);
    expect(b.hash).toBe(a.hash);
    expect(b.problems).toEqual(a.problems);
  });

  it('regenerates when the simulator fingerprint changes, and removes the stale file', async () => {
    const calls = { n: 0 };
    const a = await loadCorpus(source('fp1', calls), 'ds-32', { seed: 3, count: 5, cacheDir: dir });
    const b = await loadCorpus(source('fp2', calls), 'ds-32', { seed: 3, count: 5, cacheDir: dir });
    expect(b.origin).toBe('generated');
    expect(calls.n).toBe(2);
    expect(b.file).not.toBe(a.file);
    expect(await readdir(dir)).toEqual([b.file.split('/').at(-1)]);
  });

  it('regenerates a cache file whose lines no longer match its hash', async () => {
    const calls = { n: 0 };
    const lines: string[] = [];
    const a = await loadCorpus(source('fp1', calls), 'ds-32', { seed: 3, count: 5, cacheDir: dir }, (l) =>
      lines.push(l),
    );
    const text = await readFile(a.file, 'utf8');
    await writeFile(a.file, text.replace('"tokens":2', '"tokens":3'));
    const b = await loadCorpus(source('fp1', calls), 'ds-32', { seed: 3, count: 5, cacheDir: dir }, (l) =>
      lines.push(l),
    );
    expect(b.origin).toBe('generated');
    expect(lines.some((l) => l.includes('corpus hash does not match its lines'))).toBe(true);
    expect(b.hash).toBe(a.hash);
  });

  it('a different seed is a different corpus with a different hash', async () => {
    const calls = { n: 0 };
    const a = await loadCorpus(source('fp1', calls), 'ds-32', { seed: 3, count: 5, cacheDir: dir });
    const b = await loadCorpus(source('fp1', calls), 'ds-32', { seed: 4, count: 5, cacheDir: dir });
    expect(b.hash).not.toBe(a.hash);
  });

  it('rejects a source that records the wrong number of problems', async () => {
    const bad: CorpusSource = { window: 'test', fingerprint: async () => 'x', record: async () => [] };
    await expect(loadCorpus(bad, 'ds-16', { seed: 1, count: 2, cacheDir: dir })).rejects.toThrow(
      'the simulator recorded 0 problems for ds-16 seed 1, 2 were asked for',
    );
  });
});

describe('pinned corpora', () => {
  it('are reused whatever the simulator fingerprint, and checked against their own hash', async () => {
    const { savePinned } = await import('./helpers/internals.js');
    const calls = { n: 0 };
    const a = await loadCorpus(source('fp1', calls), 'glm-96', { seed: 2, count: 3, cacheDir: join(dir, 'cache') });
    const pinnedDir = join(dir, 'pinned');
    const file = await savePinned(a, pinnedDir);
    expect(file).toMatch(/glm-96-seed2-n3\.jsonl\.gz$/);
    const b = await loadCorpus(source('fp-changed', calls), 'glm-96', {
      seed: 2,
      count: 3,
      cacheDir: join(dir, 'cache'),
      readDirs: [pinnedDir],
    });
    expect(b.origin).toBe('pinned');
    expect(b.hash).toBe(a.hash);
    expect(calls.n).toBe(1);
    // Same corpus, same bytes: re-saving leaves no diff.
    const before = await readFile(file);
    await savePinned(b, pinnedDir);
    expect((await readFile(file)).equals(before)).toBe(true);
  });

  it('of another window are refused, never measured in its place', async () => {
    const { savePinned } = await import('./helpers/internals.js');
    const calls = { n: 0 };
    const a = await loadCorpus(source('fp1', calls, 'warm-up'), 'glm-96', {
      seed: 2,
      count: 3,
      cacheDir: join(dir, 'cache'),
    });
    const pinnedDir = join(dir, 'pinned');
    await savePinned(a, pinnedDir);
    await expect(
      loadCorpus(source('fp1', calls, 'steady-state'), 'glm-96', {
        seed: 2,
        count: 3,
        cacheDir: join(dir, 'cache'),
        readDirs: [pinnedDir],
      }),
    ).rejects.toThrow('recorded from the "warm-up" window, this run measures "steady-state"');
  });

  it('a cached corpus of another window is recorded again', async () => {
    const calls = { n: 0 };
    await loadCorpus(source('fp1', calls, 'warm-up'), 'ds-16', { seed: 1, count: 3, cacheDir: dir });
    const b = await loadCorpus(source('fp1', calls, 'steady-state'), 'ds-16', { seed: 1, count: 3, cacheDir: dir });
    expect(b.origin).toBe('generated');
    expect(calls.n).toBe(2);
  });
});
