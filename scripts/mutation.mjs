#!/usr/bin/env node
// Mutation testing (StrykerJS, stryker.config.json) over one scope: a file or a folder under src/, or a list
// of them joined by commas (one scope, one row).
// Usage: npm run mutation -- <scope>... [more stryker flags]
//   npm run mutation -- src/planner/revalidate.ts
//   npm run mutation -- src/evaluate
//   npm run mutation -- src/solve/plan.ts,src/solve/orders.ts,src/solve/ties.ts,src/solve/bfd.ts
//   npm run mutation -- src/solve/pack.ts --report-only   (rewrite the row from the kept results)
// A folder is mutated as every .ts file in it and below. Each scope runs with its own generated config
// (reports/mutation/<scope>.config.json): its own sandbox directory and JSON report. Its results are kept in
// the repository, in scripts/mutation-results/<scope>.json.gz (scripts/mutation-store.mjs): written while
// the run goes on (at most a minute behind) and at its end, and read back before the next run, which then
// tests only the mutants not tested yet and those whose code or covering tests changed (`--force` reruns
// all). A run stopped at any point (Ctrl-C, `kill`) keeps what it tested; committing that file carries the
// progress to any other checkout. The test files run are the scope's in-process tests (TEST_FILES below):
// CLI and sidecar tests that spawn the compiled package never reach a mutant, and running them would only
// slow every run. A scope not listed runs the tests vitest finds related to it. After the run (finished or
// not), the scope's row in docs/results/mutation.md is written from the kept results, with the mutants
// listed in EQUIVALENT (scripts/mutation-equivalent.json) set apart; a row of a run that did not reach
// every mutant of its scope says how many it has.
// `src/solve` is too large for one run on this machine: it is run in sub-scopes (SOLVE_PARTS, each a scope
// of its own with the src/solve test files), and its row is the sum of their rows, with how many of the
// folder's mutants (counted by Stryker's instrumenter) they cover. `npm run mutation -- --parts` lists them.
// Needs `npm run build` first. Not part of .ci/run: a folder can take hours on 2 cores.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { expand, pathsOf, readStore, slugOf, storeFile } from './mutation-store.mjs';

const TABLE = 'docs/results/mutation.md';
const EQUIVALENT = 'scripts/mutation-equivalent.json';

/** Test files per scope: those that exercise the scope in-process. Globs as Stryker's `testFiles`. */
const TEST_FILES = {
  'src/evaluate': [
    'test/evaluate-*.test.ts',
    'test/bernstein-bound.test.ts',
    'test/bounded-options.test.ts',
    'test/bounded-wait.test.ts',
    'test/credit-decay.test.ts',
    'test/hold-rule.test.ts',
    'test/hostile-input-api.test.ts',
    'test/live-credit.test.ts',
    'test/predict-report.test.ts',
    'test/predictor-*.test.ts',
    'test/readiness-*.test.ts',
    'test/schemas.test.ts',
    'test/serve-input-limits.test.ts',
    'test/serve-tick.test.ts',
    'test/signature.test.ts',
    'test/sim-tao-bounded.test.ts',
    'test/sleep-parse.test.ts',
    'test/snapshot-validation.test.ts',
  ],
  'src/planner/revalidate.ts': [
    'test/revalidate-*.test.ts',
    'test/hostile-input-api.test.ts',
    'test/planner-queue.test.ts',
    'test/serve-tick.test.ts',
  ],
  // The solver's in-process tests, brute force as the exactness oracle, and the comparisons of each kernel
  // with its TypeScript mirror (the mirrors' oracle, a few seconds each); the slow oracle tier (HiGHS, the
  // WASM-against-reference and twin runs at scale) is left out: a folder run would take days.
  'src/solve': [
    'test/solve-*.test.ts',
    'test/*-matches-mirror.test.ts',
    'test/bfd-*.test.ts',
    'test/cardinality-ceiling.test.ts',
    'test/closed-form-paths-and-spread.test.ts',
    'test/fallback-labels.test.ts',
    'test/known-answer-cases.test.ts',
    'test/load-solver-*.test.ts',
    'test/mkp-regroup.test.ts',
    'test/pack-*.test.ts',
    'test/plan-*.test.ts',
    'test/slab-views.test.ts',
    'test/radix-sort-indices.test.ts',
    'test/sort-indices.test.ts',
    'test/solver-boundary-cases.test.ts',
    'test/solver-deadline-phases.test.ts',
    'test/solver-fallbacks.test.ts',
    'test/solver-invalid-input.test.ts',
    'test/solver-matches-brute-force.test.ts',
    'test/solver-never-worse-than-bfd.test.ts',
    'test/solver-plans-as-pinned.test.ts',
    'test/solver-wide-path.test.ts',
    'test/wasm-*.test.ts',
  ],
};

/** The folder run in sub-scopes, and its sub-scopes in the order they are run: together every file of it, once. */
const SOLVE = 'src/solve';
const SOLVE_PARTS = [
  'src/solve/plan.ts,src/solve/orders.ts,src/solve/ties.ts,src/solve/bfd.ts',
  'src/solve/validate.ts',
  'src/solve/incumbent.ts',
  'src/solve/bound.ts',
  'src/solve/nested-bound.ts',
  'src/solve/pack.ts',
  'src/solve/credit-level.ts',
  'src/solve/mkp',
  'src/solve/dp',
  'src/solve/credit-branch.ts,src/solve/credit-knapsack.ts',
  'src/solve/assignment',
  'src/solve/pipeline',
  'src/solve/exact.ts,src/solve/options.ts,src/solve/prepared.ts,src/solve/scratch.ts,src/solve/slab.ts,src/solve/solver.ts,src/solve/sort-indices.ts,src/solve/warm-up.ts',
  'src/solve/wasm',
];

const argv = process.argv.slice(2);
if (argv.includes('--parts')) {
  process.stdout.write(`${SOLVE_PARTS.join('\n')}\n`);
  process.exit(0);
}
{
  // Every file of the folder in exactly one sub-scope: a file added to src/solve must be given one.
  const inParts = SOLVE_PARTS.flatMap((p) => tsFiles(p.split(',')));
  const missing = tsFiles([SOLVE]).filter((f) => !inParts.includes(f));
  const twice = inParts.filter((f, i) => inParts.indexOf(f) !== i);
  if (missing.length + twice.length > 0) {
    process.stderr.write(
      `mutation: SOLVE_PARTS must hold every file of ${SOLVE} once (missing: ${missing.join(', ') || 'none'}; twice: ${twice.join(', ') || 'none'})\n`,
    );
    process.exit(2);
  }
}
const firstFlag = argv.findIndex((a) => a.startsWith('-'));
const scopes = (firstFlag < 0 ? argv : argv.slice(0, firstFlag)).map((s) => s.replace(/\/$/, ''));
const rest = firstFlag < 0 ? [] : argv.slice(firstFlag);
if (scopes.length === 0) {
  process.stderr.write('usage: npm run mutation -- <file-or-folder under src/>... [stryker flags]\n');
  process.exit(2);
}
/** The paths of a scope: a file or folder, or several joined by commas. */
/** Whether `file` (a path from the report) lies in `scope`. */
const inScope = (file, scope) => pathsOf(scope).some((p) => file === p || file.startsWith(`${p}/`));
for (const s of scopes) {
  if (s === SOLVE) {
    process.stderr.write(`mutation: ${SOLVE} is run in sub-scopes (npm run mutation -- --parts lists them)\n`);
    process.exit(2);
  }
  for (const p of pathsOf(s)) {
    if (!existsSync(p)) {
      process.stderr.write(`mutation: ${p} does not exist\n`);
      process.exit(2);
    }
  }
}
const mutate = scopes.flatMap(pathsOf).map((p) => (statSync(p).isDirectory() ? `${p}/**/*.ts` : p));
const slug = slugOf(scopes);
const report = `reports/mutation/${slug}.json`;
const store = storeFile(slug);
const incrementalFile = `reports/mutation/${slug}.incremental.json`;
const base = JSON.parse(readFileSync('stryker.config.json', 'utf8'));
delete base.$schema;
const testFiles = [
  ...new Set(
    scopes
      .flatMap(pathsOf)
      .flatMap((name) => Object.entries(TEST_FILES).find(([s]) => name === s || name.startsWith(`${s}/`))?.[1] ?? []),
  ),
];
const config = {
  ...base,
  mutate,
  tempDirName: `.stryker-tmp/${slug}`,
  jsonReporter: { fileName: report },
  incrementalFile,
  // With the test files named, vitest need not look for the files related to each mutant's file.
  ...(testFiles.length === 0 ? {} : { testFiles, vitest: { ...base.vitest, related: false } }),
};
mkdirSync('reports/mutation', { recursive: true });
mkdirSync('.stryker-tmp', { recursive: true });
const configFile = `reports/mutation/${slug}.config.json`;
writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);

const survivorsFile = `reports/mutation/${slug}.survivors.txt`;
if (!process.argv.includes('--report-only')) writeFileSync(survivorsFile, '');
const started = Date.now();
// `--report-only`: rewrite the scopes' rows from the kept results (after editing the equivalents list).
const reportOnly = rest.includes('--report-only');
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
let status = 0;
let resumed = false;
if (!reportOnly) {
  // The kept results become Stryker's incremental file; Stryker's own, from an earlier run here, is replaced.
  const kept = readStore(store);
  resumed = kept !== undefined;
  if (resumed) writeFileSync(incrementalFile, JSON.stringify(expand(kept)));
  const before = existsSync(store) ? readFileSync(store) : null;
  const r = spawnSync('npx', ['stryker', 'run', configFile, ...rest], {
    stdio: 'inherit',
    env: { ...process.env, MUTATION_SURVIVORS: survivorsFile, MUTATION_STORE: store, MUTATION_COMMIT: commit },
  });
  status = r.status ?? 1;
  if (status !== 0) {
    // A run that failed before testing a mutant (e.g. a test failing in Stryker's initial run) leaves the
    // kept results, and so the row, as they were.
    const after = existsSync(store) ? readFileSync(store) : null;
    if (before === null ? after === null : after !== null && before.equals(after)) {
      process.stderr.write(
        `mutation: stryker stopped (${r.status ?? r.signal}) before testing a mutant; the row is left as it was\n`,
      );
      process.exit(status);
    }
    process.stderr.write(
      `mutation: stryker stopped (${r.status ?? r.signal}); the row is written from what it tested\n`,
    );
  }
}
const kept = readStore(store);
if (kept === undefined) process.exit(status === 0 ? 1 : status);

// Stryker's own score: detected (killed, timeout) over valid mutants (also survived, no coverage).
// Ignored (static, skipped by `ignoreStatic`) and compile errors (refused by the type checker) are not valid.
// A survivor listed in EQUIVALENT (file, line, column, mutator, replacement, and why) counts as equivalent: taken out
// of the valid mutants for the second score (also when it timed out). A listed mutant that is now killed is
// reported as stale.
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const ranOn = kept.meta?.commit ? `, on ${kept.meta.commit}` : '';
const runCell = reportOnly
  ? `${process.env.MUTATION_RUN ?? 'see docs/history.md'}${ranOn}`
  : `${minutes} min${resumed ? ' incremental' : ''}, load ${loadavg()[0].toFixed(1)}${ranOn}`;
const equivalent = existsSync(EQUIVALENT) ? JSON.parse(readFileSync(EQUIVALENT, 'utf8')) : [];
// An entry with a `column` names the mutants that start there with that mutator and replacement (several
// can, told apart only by their end: `true` for a condition and for its first operand); without, every
// mutant of that line, mutator and replacement.
const key = (file, line, mutator, replacement, column) =>
  `${file}:${line}${column === undefined ? '' : `:${column}`}:${mutator}:${replacement}`;
const listed = new Set(equivalent.map((e) => key(e.file, e.line, e.mutator, e.replacement, e.column)));
const json = kept;
const pct = (a, b) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);
const rows = new Map();
// Notes written by hand below the table (from the NOTES marker on) are kept.
const NOTES = '<!-- notes: kept by scripts/mutation.mjs -->';
let notes = '';
if (existsSync(TABLE)) {
  const text = readFileSync(TABLE, 'utf8');
  const end = text.includes(NOTES) ? text.indexOf(NOTES) : text.length;
  notes = text.slice(end);
  for (const l of text.slice(0, end).split('\n')) {
    const m = /^\| `([^`]+)` /.exec(l);
    if (m !== null) rows.set(m[1], l);
  }
}
const found = new Set();
// Listed keys matched by a detected mutant, and by an undetected one (two mutants can share a key).
const detectedListed = new Map();
const undetectedListed = new Set();
for (const scope of scopes) {
  const n = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0, CompileError: 0, RuntimeError: 0, eq: 0 };
  const survivors = [];
  for (const [file, f] of Object.entries(json.files)) {
    if (!inScope(file, scope)) continue;
    for (const m of f.mutants) {
      const at = [file, m.location.start.line, m.mutatorName, m.replacement ?? ''];
      const exact = key(...at, m.location.start.column);
      const k = listed.has(exact) ? exact : key(...at);
      const isListed = listed.has(k);
      if (isListed) found.add(k);
      // A listed mutant that timed out counts as equivalent, not detected: on a loaded machine a mutant that
      // cannot change any result can still run past the timeout (seen on this machine).
      if ((m.status === 'Survived' || m.status === 'NoCoverage' || m.status === 'Timeout') && isListed) n.eq++;
      else n[m.status] = (n[m.status] ?? 0) + 1;
      if ((m.status === 'Survived' || m.status === 'NoCoverage') && !isListed) survivors.push(`${k} (${m.status})`);
      if (m.status !== 'Survived' && m.status !== 'NoCoverage' && m.status !== 'Timeout' && isListed) {
        detectedListed.set(k, `${m.status} (the mutant ending at ${m.location.end.line}:${m.location.end.column})`);
      } else if (isListed) undetectedListed.add(k);
    }
  }
  const detected = n.Killed + n.Timeout;
  const valid = detected + n.Survived + n.NoCoverage + n.eq;
  const score = pct(detected, valid);
  const scoreEq = pct(detected, valid - n.eq);
  // A run stopped before its end: how many of the scope's mutants (as the instrumenter makes them now) it has.
  const have = valid + n.Ignored + n.CompileError + n.RuntimeError;
  const all = await countMutants(pathsOf(scope));
  const partial = have < all ? `; partial: ${have} of ${all} mutants` : '';
  rows.set(
    scope,
    `| \`${scope}\` | ${valid} | ${n.Killed} | ${n.Timeout} | ${n.Survived} | ${n.NoCoverage} | ${n.eq} | ${n.Ignored} | ${n.CompileError} | ${score} | **${scoreEq}** | ${runCell}${partial} |`,
  );
  process.stdout.write(`${scope}: ${score}, ${scoreEq} with equivalents out (${detected} of ${valid} detected)\n`);
  for (const s of survivors) process.stdout.write(`  survivor ${s}\n`);
}
for (const [k, status] of detectedListed) {
  // Mutants that share a start are told apart by their end: the entry may argue for one the kept results
  // do not hold (a stopped run's), so check which one was detected before taking the entry off the list.
  if (!undetectedListed.has(k)) process.stdout.write(`  listed as equivalent but ${status}: ${k}\n`);
}
for (const k of listed) {
  if (!found.has(k) && scopes.some((s) => inScope(k.slice(0, k.indexOf(':')), s))) {
    process.stdout.write(`  listed as equivalent, no such mutant: ${k}\n`);
  }
}

// The src/solve row: the sum of its sub-scopes' rows (those of SOLVE_PARTS in the table), and how many of
// the folder's mutants they cover: each row's mutants (valid, ignored, compile errors) over every mutant
// Stryker's instrumenter makes of the folder now (before the type checker and the static filter).
const parts = SOLVE_PARTS.filter((p) => rows.has(p));
if (parts.length > 0) {
  const cells = (row) =>
    row
      .split('|')
      .slice(2, 10)
      .map((c) => Number(c.trim()));
  const sum = parts.map((p) => cells(rows.get(p))).reduce((a, b) => a.map((x, i) => x + b[i]));
  const [valid, killed, timeout, survived, noCoverage, eq, ignored, compileErrors] = sum;
  const run = valid + ignored + compileErrors;
  const total = await countMutants([SOLVE]);
  rows.set(
    SOLVE,
    `| \`${SOLVE}\` | ${valid} | ${killed} | ${timeout} | ${survived} | ${noCoverage} | ${eq} | ${ignored} | ${compileErrors} | ${pct(killed + timeout, valid)} | **${pct(killed + timeout, valid - eq)}** | sum of the ${parts.length} of ${SOLVE_PARTS.length} sub-scopes below: ${run} of ${total} mutants run |`,
  );
}
/** Table order: by scope, except that src/solve's sub-scopes follow its row in the order they are run. */
const order = (k) => {
  const i = SOLVE_PARTS.indexOf(k);
  return i < 0 ? k : `${SOLVE}\u0000${String(i).padStart(3, '0')}`;
};

const head = `<!-- generated by scripts/mutation.mjs (npm run mutation -- <scope>...); one row per scope, the latest run -->
# Mutation score per scope

StrykerJS 9.6.1 with its vitest runner (per-test coverage: each mutant runs only the tests that reach it,
the file that killed the previous mutant first, then the others from the quickest:
scripts/mutation-vitest.config.mjs) and the TypeScript checker over src/ (tsconfig.mutation.json; mutants
that do not compile are discarded, not counted). Score: mutants detected
(killed or timed out) over valid mutants (detected, survived, not covered, equivalent); the last score
leaves out the mutants shown equivalent (each listed with its reason in scripts/mutation-equivalent.json).
Static mutants (module-level constants, which every test would rerun) are ignored. A run uses
\`nice -n 19\` and concurrency 1 or 2 on a shared 2-core machine; "run" is the wall time of the latest
(possibly incremental) run that wrote the row, the load average at its end and the commit it ran on.

Each scope's results are kept in \`scripts/mutation-results/<scope>.json.gz\`, written while a run goes on
(at most a minute behind) and at its end. \`npm run mutation -- <scope>\` reads them back and tests only
the mutants not tested yet and those whose code or covering tests changed, so a scope too long for one
sitting is finished by successive runs, on any checkout: stop a run at any point, commit the scope's file,
and the next run goes on from there (\`--force\` retests every mutant; \`--report-only\` rewrites the row
from the kept results, e.g. after a change to the equivalents list). A row whose runs have not yet reached
every mutant of its scope says how many it holds ("partial"). A survivor is checked against a new test
before the next run with \`node scripts/mutation-check.mjs <scope> <file:line[:column]> <test files...>\`: it
applies the kept mutants at that place one at a time and says whether the tests detect each.

| scope | valid | killed | timeout | survived | no coverage | equivalent | ignored | compile errors | score | score, equivalents out | run |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|
`;
mkdirSync('docs/results', { recursive: true });
writeFileSync(
  TABLE,
  `${
    head +
    [...rows.keys()]
      .sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0))
      .map((k) => rows.get(k))
      .join('\n')
  }\n${notes === '' ? '' : `\n${notes}`}`,
);

/** The .ts files of a list of paths (files, or folders and everything below). */
function tsFiles(paths) {
  return paths.flatMap((p) =>
    statSync(p).isDirectory()
      ? readdirSync(p, { recursive: true })
          .map((f) => join(p, f))
          .filter((f) => f.endsWith('.ts'))
      : [p],
  );
}

/** How many mutants Stryker's instrumenter makes of every .ts file of `paths`, with the default mutators. */
async function countMutants(paths) {
  const { Instrumenter } = await import('@stryker-mutator/instrumenter');
  const files = tsFiles(paths).map((name) => ({ name, mutate: true, content: readFileSync(name, 'utf8') }));
  const quiet = () => {};
  const logger = { debug: quiet, info: quiet, warn: quiet, error: quiet, trace: quiet, isDebugEnabled: () => false };
  const result = await new Instrumenter(logger).instrument(files, {
    plugins: null,
    excludedMutations: [],
    ignorers: [],
  });
  return result.mutants.length;
}
