// A Stryker reporter plugin ("checkpoint"): keeps the scope's results in the repository's store
// (scripts/mutation-store.mjs, the file named by MUTATION_STORE; scripts/mutation.mjs sets it per scope)
// while the run goes on, so that a run stopped before its end (Stryker writes its incremental file only
// then) loses at most the last minute. Every mutant tested so far (those reused from the store included) is
// written at most once a minute and every 25 mutants; at the end, the whole report. A mutant not yet
// tested is left out, and the next run tests it.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import { compact, writeStore } from './mutation-store.mjs';

const EVERY_MS = 60_000;
const EVERY_MUTANTS = 25;

const rel = (file) => relative(process.cwd(), file).split('\\').join('/');
const readOrUndefined = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

class CheckpointReporter {
  #file = process.env.MUTATION_STORE;
  #meta = { commit: process.env.MUTATION_COMMIT ?? '' };
  /** Test file texts and their tests (from the dry run), sources of the mutated files, and the results. */
  #testSources = new Map();
  #testFiles = {};
  #sources = new Map();
  #results = new Map();
  #sinceWrite = 0;
  #lastWrite = Date.now();
  /** Mutants whose result is known before any test runs (reused from the store, static): all reported first. */
  #early = Number.POSITIVE_INFINITY;

  onDryRunCompleted({ result }) {
    for (const t of result.tests) {
      const file = rel(t.fileName ?? '');
      if (!this.#testSources.has(file)) this.#testSources.set(file, readOrUndefined(file));
      (this.#testFiles[file] ??= { tests: [] }).tests.push({ id: t.id, name: t.name });
    }
  }

  onMutationTestingPlanReady({ mutantPlans }) {
    this.#early = mutantPlans.filter((p) => p.plan === 'EarlyResult').length;
    for (const { mutant } of mutantPlans) {
      const file = rel(mutant.fileName);
      if (!this.#sources.has(file)) this.#sources.set(file, readOrUndefined(file) ?? '');
    }
  }

  onMutantTested(m) {
    if (this.#file === undefined) return;
    const l = m.location;
    this.#results.set(
      `${m.fileName}@${l.start.line}:${l.start.column}-${l.end.line}:${l.end.column}:${m.mutatorName}:${m.replacement}`,
      m,
    );
    this.#sinceWrite++;
    // Not before every reused result is in: a checkpoint with fewer mutants than the store would lose some.
    if (this.#results.size < this.#early) return;
    if (this.#sinceWrite >= EVERY_MUTANTS || Date.now() - this.#lastWrite >= EVERY_MS) this.#write();
  }

  onMutationTestReportReady(report) {
    if (this.#file === undefined) return;
    // The whole report: test files' texts as Stryker read them, or from disk when it kept none.
    writeStore(
      this.#file,
      compact(report, this.#meta, (f) => report.testFiles?.[f]?.source ?? this.#testSources.get(f)),
    );
  }

  #write() {
    const files = {};
    for (const m of this.#results.values()) {
      const file = rel(m.fileName);
      (files[file] ??= {
        language: 'typescript',
        source: this.#sources.get(file) ?? readOrUndefined(file) ?? '',
        mutants: [],
      }).mutants.push(m);
    }
    const report = { schemaVersion: '1.0', files, testFiles: this.#testFiles };
    writeStore(
      this.#file,
      compact(report, { ...this.#meta, partial: true }, (f) => this.#testSources.get(f)),
    );
    this.#sinceWrite = 0;
    this.#lastWrite = Date.now();
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'checkpoint', CheckpointReporter)];
