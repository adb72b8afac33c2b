// Checks kept mutants against tests by hand, before the next mutation run: applies each mutant that a
// scope's kept results (scripts/mutation-results/) hold at one place of a file to the source, one at a
// time, runs the named test files with vitest, and says whether they detect it. The source is restored
// after each mutant, also on Ctrl-C. A test run past --timeout seconds (default 60) is stopped with its
// whole process group and counts as timed out (detected, as Stryker counts it): an infinite loop in a
// synchronous test cannot be stopped by vitest's own timeout.
//
//   node scripts/mutation-check.mjs <scope> <file:line[:column[:mutator]]> <test files...> [--timeout S]
//
// <scope> is a scope as given to `npm run mutation` (src/solve/mkp) or its results file. The place is as
// in reports/mutation/<scope>.survivors.txt (line and column 1-based). Refused when the file's text is not
// the one the results were recorded on (the places would not match).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { readStore, slugOf, storeFile } from './mutation-store.mjs';

const args = process.argv.slice(2);
const fail = (message) => {
  process.stderr.write(`mutation-check: ${message}\n`);
  process.exit(2);
};
let timeoutS = 60;
const t = args.indexOf('--timeout');
if (t >= 0) {
  timeoutS = Number(args[t + 1]);
  if (!(timeoutS > 0)) fail('--timeout takes a number of seconds above 0');
  args.splice(t, 2);
}
const [scope, place, ...tests] = args;
if (scope === undefined || place === undefined || tests.length === 0)
  fail('usage: node scripts/mutation-check.mjs <scope> <file:line[:column[:mutator]]> <test files...> [--timeout S]');
const slug = slugOf([scope]);
const file = scope.endsWith('.json.gz') ? scope : storeFile(slug);
const kept = readStore(file);
if (kept === undefined) fail(`no kept results at ${file}`);
const [name, line, column, mutator] = place.split(':');
const key = Object.keys(kept.files).find((f) => f === name || f.endsWith(`/${name}`));
if (key === undefined) fail(`${file} holds no file ${name}`);
const recorded = kept.files[key].source;
const source = readFileSync(key, 'utf8');
if (recorded !== undefined && recorded !== source)
  fail(`${key} changed since its results were recorded: the places would not match (rerun the scope)`);
const mutants = kept.files[key].mutants.filter(
  (m) =>
    m.location.start.line === Number(line) &&
    (column === undefined || m.location.start.column === Number(column)) &&
    (mutator === undefined || m.mutatorName === mutator),
);
if (mutants.length === 0) fail(`no kept mutant at ${place}`);
for (const f of tests) if (!existsSync(f)) fail(`no test file ${f}`);

const lines = source.split('\n');
const offset = (l, c) => lines.slice(0, l - 1).reduce((a, s) => a + s.length + 1, 0) + c - 1;
let restore = () => {};
process.on('SIGINT', () => {
  restore();
  process.exit(130);
});

/** Runs the tests: 'passed', 'failed' or 'timeout'. */
function runTests() {
  return new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', '--reporter=dot', ...tests], { stdio: 'ignore', detached: true });
    const timer = setTimeout(() => {
      process.kill(-child.pid, 'SIGKILL');
      resolve('timeout');
    }, timeoutS * 1000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? 'passed' : 'failed');
    });
  });
}

for (const m of mutants) {
  const a = offset(m.location.start.line, m.location.start.column);
  const b = offset(m.location.end.line, m.location.end.column);
  restore = () => writeFileSync(key, source);
  writeFileSync(key, source.slice(0, a) + m.replacement + source.slice(b));
  let outcome;
  try {
    outcome = await runTests();
  } finally {
    restore();
  }
  const verdict = outcome === 'passed' ? 'survives' : outcome === 'failed' ? 'killed' : 'timed out';
  const where = `${m.location.start.line}:${m.location.start.column}`;
  process.stdout.write(
    `${key}:${where} ${m.mutatorName} ${JSON.stringify(m.replacement)} (kept: ${m.status}): ${verdict}\n`,
  );
}
