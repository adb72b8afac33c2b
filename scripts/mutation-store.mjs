// The mutation results kept in the repository (scripts/mutation-results/<scope>.json.gz), so that runs on
// fresh checkouts resume where the last one stopped and successive runs add up. One file per scope: Stryker's
// incremental report cut to what its incremental mode reads back, gzipped. It keeps, per mutant, its place
// (file, mutator, replacement, location) and result (status, the tests that covered or killed it); per
// mutated file its source (to map old mutants onto edited code); per test file only a hash of its text and
// its tests' names: the vitest runner reports no test locations, so a test file counts as changed as a whole,
// and a hash says that as well as the text. Test ids are renumbered, messages dropped. It is written during a
// run (scripts/stryker-checkpoint.mjs, with the mutants tested so far) and at its end (the whole report), and
// expanded into Stryker's incremental file before the next run (scripts/mutation.mjs).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

export const STORE = 'scripts/mutation-results';

/** The store file of a scope's slug (scripts/mutation.mjs names scopes by slug). */
export const storeFile = (slug) => `${STORE}/${slug}.json.gz`;

/** The paths of a scope as given on the command line (comma-separated, trailing slashes dropped). */
export const pathsOf = (scope) => scope.split(',').map((p) => p.replace(/\/$/, ''));

/** The slug of scopes (file names of their results and reports): their paths, src/ and .ts dropped, joined by +. */
export const slugOf = (scopes) =>
  scopes
    .flatMap(pathsOf)
    .map((s) => s.replace(/^src\//, '').replace(/\.ts$/, ''))
    .join('+')
    .replace(/[^A-Za-z0-9.+-]+/g, '-');

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/** The fields of a mutant that Stryker's incremental mode reads back (messages are dropped). */
const MUTANT_FIELDS = ['mutatorName', 'replacement', 'location', 'status', 'static', 'testsCompleted'];

/**
 * The compact form of a mutation report (Stryker's JSON report schema): `files` as in the report, each
 * mutant with renumbered test ids, and `testFiles` as `{ sha256, tests: [{ id, name }] }`; `meta` as given.
 * `testSource(file)` gives a test file's text (from the report, or read from disk).
 */
export function compact(report, meta, testSource) {
  const tests = [];
  for (const [file, tf] of Object.entries(report.testFiles ?? {})) {
    for (const t of tf.tests) tests.push({ file, id: t.id, name: t.name, location: t.location });
  }
  tests.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const renumber = new Map(tests.map((t, i) => [t.id, String(i)]));
  const ids = (list) =>
    (list ?? [])
      .map((id) => renumber.get(id))
      .filter((id) => id !== undefined)
      .sort((a, b) => Number(a) - Number(b));
  const testFiles = {};
  for (const t of tests) {
    testFiles[t.file] ??= { sha256: sha256(testSource(t.file) ?? ''), tests: [] };
    testFiles[t.file].tests.push({
      id: renumber.get(t.id),
      name: t.name,
      ...(t.location === undefined ? {} : { location: t.location }),
    });
  }
  const files = {};
  for (const file of Object.keys(report.files).sort()) {
    const f = report.files[file];
    const mutants = [...f.mutants]
      .sort(
        (a, b) =>
          a.location.start.line - b.location.start.line ||
          a.location.start.column - b.location.start.column ||
          (a.mutatorName + a.replacement < b.mutatorName + b.replacement ? -1 : 1),
      )
      .map((m, i) => {
        const out = { id: String(i) };
        for (const k of MUTANT_FIELDS) if (m[k] !== undefined) out[k] = m[k];
        // A killed mutant is reused when a test that killed it is unchanged: its covering tests are not read.
        if (m.status !== 'Killed') out.coveredBy = ids(m.coveredBy);
        if (m.killedBy !== undefined) out.killedBy = ids(m.killedBy);
        return out;
      });
    files[file] = { language: f.language, source: f.source, mutants };
  }
  return { schemaVersion: report.schemaVersion ?? '1.0', meta, files, testFiles };
}

/** Writes a compact report to `file`, gzipped, through a temporary file (a run stopped mid-write leaves the last). */
export function writeStore(file, data) {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, gzipSync(`${JSON.stringify(data)}\n`, { level: 9 }));
  renameSync(tmp, file);
}

/** The compact report in `file`, or undefined. */
export function readStore(file) {
  return existsSync(file) ? JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) : undefined;
}

/**
 * Stryker's incremental report from a compact one: a test file whose text still has the recorded hash gets
 * its current text (no change); one that changed gets an empty text, so that all of its tests count as
 * changed (their mutants rerun).
 */
export function expand(data) {
  const testFiles = {};
  for (const [file, tf] of Object.entries(data.testFiles)) {
    const now = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    testFiles[file] = { source: now !== undefined && sha256(now) === tf.sha256 ? now : '', tests: tf.tests };
  }
  return {
    schemaVersion: data.schemaVersion,
    files: data.files,
    testFiles,
    thresholds: { high: 80, low: 60, break: null },
  };
}
