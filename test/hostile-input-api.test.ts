/**
 * Hostile input through the library: every input is bounded by a documented package limit, only plain
 * objects are read, option and field checks go by own keys, and id-keyed records the package builds keep
 * every id (including "__proto__").
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import {
  MAX_COMMAND_LENGTH,
  MAX_CORPUS_BYTES,
  MAX_PREDICTOR_HISTORY_SLOTS,
  MAX_SESSIONS,
} from './helpers/internals.js';
import { evaluate } from './helpers/internals.js';
import { ReadinessPredictor } from './helpers/internals.js';
import { resolveSolveOptions } from './helpers/internals.js';
import { resolveEvaluateOptions } from './helpers/internals.js';
import { resolvePredictorOptions } from './helpers/internals.js';
import { validateProblem } from './helpers/internals.js';
import { loadSolver, type Solver } from './helpers/internals.js';
import { revalidate } from './helpers/internals.js';
import { signaturesOf } from './helpers/internals.js';
import { namedSetting, parseSetting } from './helpers/internals.js';
import { simulate } from './helpers/internals.js';
import { loadCorpus, pinnedFileName, type CorpusSource } from './helpers/internals.js';
import type { Problem } from './helpers/internals.js';
import type { Snapshot } from './helpers/internals.js';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

const problemWithCredit = (credit: unknown): unknown => ({
  nodes: [{ id: 'a', capacity: 64 }],
  sessions: [{ id: 's', weight: 16, tokens: 1, ready: true, credit }],
});

describe('only plain objects are read', () => {
  it('refuses a Map or a Date as credit instead of reading it as no credit', () => {
    expect(() => solver.solve(problemWithCredit(new Map([['a', 5]])) as Problem)).toThrow(InvalidTypeError);
    expect(() => solver.solve(problemWithCredit(new Map([['a', 5]])) as Problem)).toThrow(
      'problem.sessions[0].credit must be a plain object',
    );
    expect(() => solver.solve(problemWithCredit(new Date()) as Problem)).toThrow(
      'problem.sessions[0].credit must be a plain object',
    );
  });

  it('accepts a null-prototype credit record', () => {
    const credit = Object.create(null) as Record<string, number>;
    credit.a = 3;
    expect(solver.solve(problemWithCredit(credit) as Problem).value.credit).toBe(3);
  });

  it('refuses class instances as problems, nodes, options and snapshots', () => {
    class P {
      nodes = [];
      sessions = [];
    }
    expect(() => validateProblem(new P())).toThrow('problem must be a plain object');
    expect(() => resolveSolveOptions(new Date() as never)).toThrow('options must be a plain object');
    expect(() => resolveEvaluateOptions(new Map() as never)).toThrow('options must be a plain object');
    expect(() => new ReadinessPredictor(new Date() as never)).toThrow('options must be a plain object');
  });
});

describe('unknown options are found by own keys', () => {
  for (const key of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__']) {
    it(`refuses "${key}" as a solve, evaluate and predictor option`, () => {
      const options = JSON.parse(`{"${key}": 1}`) as object;
      expect(() => resolveSolveOptions(options)).toThrow(`options.${key} is not a known option`);
      expect(() => resolveEvaluateOptions(options)).toThrow(`options.${key} is not a known option`);
      expect(() => resolvePredictorOptions(options)).toThrow(`options.${key} is not a known option`);
    });
  }

  it('refuses "constructor" and "__proto__" as problem and setting fields', () => {
    expect(() => validateProblem(JSON.parse('{"nodes":[],"sessions":[],"__proto__":{}}'))).toThrow(
      'problem.__proto__ is not a known field',
    );
    expect(() => parseSetting(JSON.parse('{"name":"x","extends":"ds-16","constructor":1}'))).toThrow(
      'setting.constructor is not a known field',
    );
  });
});

describe('id-keyed records keep every id', () => {
  it('keeps a node whose id is "__proto__" in the residual of an applied plan', () => {
    const live: Problem = {
      nodes: [
        { id: '__proto__', capacity: 10 },
        { id: 'constructor', capacity: 7 },
      ],
      sessions: [{ id: 's', weight: 4, tokens: 1, ready: true, signature: 1 }],
    };
    const r = revalidate({ assignments: [{ session: 's', node: '__proto__' }] }, signaturesOf(live), live);
    expect(r.outcome).toBe('applied');
    expect(Object.keys(r.residual)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(r.residual, '__proto__')?.value).toBe(6);
    expect(r.residual.constructor).toBe(7);
    expect(Object.getPrototypeOf(r.residual)).toBeNull();
  });

  it('credits a node whose id is "__proto__"', () => {
    const p = JSON.parse(
      '{"nodes":[{"id":"__proto__","capacity":64}],"sessions":[{"id":"s","weight":16,"tokens":1,"ready":true,"credit":{"__proto__":4}}]}',
    ) as Problem;
    expect(solver.solve(p).value.credit).toBe(4);
  });
});

describe('input sizes are bounded by package limits', () => {
  it('refuses a tool command longer than MAX_COMMAND_LENGTH, naming the field', () => {
    const snapshot: Snapshot = {
      time: 10,
      nodes: [{ id: 'a', capacity: 1000 }],
      sessions: [
        {
          id: 's',
          tokens: 1,
          tool: { name: 'bash', startedAt: 0, command: `sleep 3; ${'x'.repeat(MAX_COMMAND_LENGTH)}` },
        },
      ],
    };
    expect(() => evaluate(snapshot, new ReadinessPredictor())).toThrow(InvalidValueError);
    expect(() => evaluate(snapshot, new ReadinessPredictor())).toThrow(
      `snapshot.sessions[0].tool.command must have at most ${MAX_COMMAND_LENGTH} characters`,
    );
    const p = new ReadinessPredictor();
    expect(() => p.ready({ name: 'bash', startedAt: 0, command: 'x'.repeat(MAX_COMMAND_LENGTH + 1) }, 1)).toThrow(
      'tool.command must have at most',
    );
    expect(() =>
      p.observe({ name: 'bash', startedAt: 0, returnedAt: 1, command: 'x'.repeat(MAX_COMMAND_LENGTH + 1) }),
    ).toThrow('call.command must have at most');
  });

  it('reads a command of exactly MAX_COMMAND_LENGTH characters', () => {
    const command = `sleep 3; ${'x'.repeat(MAX_COMMAND_LENGTH - 9)}`;
    expect(command.length).toBe(MAX_COMMAND_LENGTH);
    expect(new ReadinessPredictor().predict({ name: 'bash', startedAt: 0, command }, 0).source).toBe('sleep');
  });

  it('checks the session count before reading any session', () => {
    // 10^6 holes: a check that walked the sessions first would throw on sessions[0], not on the count.
    const sessions = new Array<unknown>(1_000_000);
    expect(() => validateProblem({ nodes: [], sessions })).toThrow(
      `problem.sessions must have at most ${MAX_SESSIONS} entries (has 1000000)`,
    );
  });

  it('restores a predictor only within the package history limit, whatever the JSON sets', () => {
    const json = new ReadinessPredictor().toJSON();
    const big = { ...json, options: { ...json.options, maxTools: 65536, window: 4096 } };
    expect(() => ReadinessPredictor.fromJSON(big)).toThrow(
      `json.options.maxTools * json.options.window must be at most ${MAX_PREDICTOR_HISTORY_SLOTS}`,
    );
    expect(() => new ReadinessPredictor({ maxTools: 65536, window: 4096 })).toThrow(
      `options.maxTools * options.window must be at most ${MAX_PREDICTOR_HISTORY_SLOTS}`,
    );
  });

  it('refuses a restored probe opened before its call started', () => {
    const p = new ReadinessPredictor();
    p.ready({ name: 'x', startedAt: 0 }, 100, 's');
    const json = p.toJSON();
    expect(json.probes).toHaveLength(1);
    expect(() => ReadinessPredictor.fromJSON(json)).not.toThrow();
    const early = { ...json, probes: [{ ...json.probes[0]!, openedAt: -5, until: -4, next: -3 }] };
    expect(() => ReadinessPredictor.fromJSON(early)).toThrow(
      'json.probes[0].openedAt must not be before json.probes[0].startedAt',
    );
  });
});

describe('simulator settings', () => {
  it('refuses names that are Object.prototype members', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(() => namedSetting(name, '--setting')).toThrow(InvalidValueError);
      expect(() => parseSetting({ name: 'x', extends: name })).toThrow('setting.extends must be one of');
      expect(() => parseSetting({ name: 'x', extends: 'ds-16', workload: name })).toThrow(
        'setting.workload must be one of',
      );
    }
  });

  it('refuses malformed simulate options with a typed error before any run', async () => {
    await expect(simulate(null as never)).rejects.toThrow('options must be an object');
    await expect(simulate(new Date() as never)).rejects.toThrow('options must be a plain object');
    await expect(simulate({ setting: 'ds-16', constructor: 1 } as never)).rejects.toThrow(
      'options.constructor is not a known option',
    );
    await expect(simulate({ setting: 'ds-16', tao: { toString: 1 } } as never)).rejects.toThrow(
      'options.tao.toString is not a known option',
    );
    await expect(simulate({ setting: {} as never })).rejects.toThrow(InvalidTypeError);
    await expect(simulate({ setting: 'ds-16', mode: new Map() as never })).rejects.toThrow(
      'mode must be a plain object',
    );
  });

  it('refuses more workers than a snapshot may hold sessions, naming the field', () => {
    expect(() => parseSetting({ name: 'x', extends: 'ds-16', workers: 100_000 })).toThrow(
      `setting.workers must be an integer from 1 to ${MAX_SESSIONS}`,
    );
  });
});

describe('bench corpora', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tao-hostile-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const source = (fingerprint: string): CorpusSource => ({
    window: 'test',
    fingerprint: async () => fingerprint,
    record: async (_s, _seed, count) =>
      Array.from(
        { length: count },
        (_, i): Problem => ({
          nodes: [{ id: 'a', capacity: 100 }],
          sessions: [{ id: `s${i}`, weight: 10, tokens: 1, ready: true }],
        }),
      ),
  });

  it('never deletes a file in the cache directory it did not write', async () => {
    const cacheDir = join(dir, 'cache');
    await loadCorpus(source('fp1'), 'ds-16', { seed: 1, count: 5, cacheDir });
    await writeFile(join(cacheDir, 'ds-16-seed1-n5-mynotes.jsonl'), 'my notes\n');
    await writeFile(join(cacheDir, 'ds-16-seed1-n5-other.jsonl'), '{"format":"something-else"}\n');
    await loadCorpus(source('fp2'), 'ds-16', { seed: 1, count: 5, cacheDir });
    const files = (await readdir(cacheDir)).sort();
    expect(files).toContain('ds-16-seed1-n5-mynotes.jsonl');
    expect(files).toContain('ds-16-seed1-n5-other.jsonl');
    // The stale cache file of fp1 (its own) is still removed: one cache file of ours remains.
    expect(
      files.filter((f) => f !== 'ds-16-seed1-n5-mynotes.jsonl' && f !== 'ds-16-seed1-n5-other.jsonl'),
    ).toHaveLength(1);
  });

  it('refuses a pinned gzip corpus that expands past the decompression cap', async () => {
    const pinned = join(dir, 'pinned');
    await rm(pinned, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(pinned));
    // Concatenated gzip members of 1 MiB of zeros each: ~100 KB that expand past the cap.
    const member = gzipSync(Buffer.alloc(2 ** 20), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: MAX_CORPUS_BYTES / 2 ** 20 + 1 }, () => member));
    await writeFile(join(pinned, pinnedFileName('ds-16', 1, 5)), bomb);
    await expect(
      loadCorpus(source('fp1'), 'ds-16', { seed: 1, count: 5, cacheDir: join(dir, 'c2'), readDirs: [pinned] }),
    ).rejects.toThrow(/expands past/);
  });
});
