/**
 * The `tao` CLI end to end: `tao solve` reads a Problem from a file or stdin and prints the same Plan as
 * the library; invalid input exits 2 with one line naming the field; `tao demo` solves the bundled
 * examples.
 *
 * Node 20 cannot run the TypeScript sources directly, so this runs the compiled CLI (dist/cli.js). It
 * relies on `npm run build` having run: `npm install` / `npm ci` do that through the `prepare` script.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendixHCache } from './helpers/internals.js';
import { loadSolver, type Solver } from './helpers/internals.js';
import type { Plan } from './helpers/internals.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

function tao(args: string[], input?: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { input: input ?? '', encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A Plan without its wall time, for comparisons across processes. */
function timeless(plan: Plan): unknown {
  return { ...plan, stats: { ...plan.stats, micros: 0 } };
}

let solver: Solver;
let dir: string;
beforeAll(async () => {
  expect(existsSync(cli), `${cli} is missing: run \`npm run build\` (npm install/ci runs it)`).toBe(true);
  solver = await loadSolver();
  dir = mkdtempSync(join(tmpdir(), 'tao-cli-'));
});
afterAll(() => {
  solver.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('tao solve', () => {
  const problem = appendixHCache.problem;

  it('reads stdin and prints the library Plan', () => {
    const r = tao(['solve', '--quantum', '512'], JSON.stringify(problem));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(timeless(plan)).toEqual(timeless(solver.solve(problem, { quantum: 512 })));
    expect(plan.value.credit).toBe(16_791);
  });

  it('reads a file; --budget and --compact', () => {
    const file = join(dir, 'problem.json');
    // Without credit and with less room (18k per node: not every session fits), so the budget binds the
    // multiple-knapsack search (no session's value depends on the node); with its credit, the credit
    // level decides this tick without a DP.
    const nodes = problem.nodes.map((n) => ({ ...n, capacity: 18_000 }));
    writeFileSync(file, JSON.stringify({ nodes, sessions: problem.sessions.map(({ credit: _, ...s }) => s) }));
    const r = tao(['solve', file, '--budget=10', '--compact', '--quantum=512']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(plan.status).toBe('fallback');
    expect(plan.reason).toMatch(
      /^state budget exceeded: the multiple-knapsack search passed stateBudget 10 units of work$/,
    );
  });

  it('malformed JSON: exit 2, one line', () => {
    const r = tao(['solve'], '{"nodes": [');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^tao solve: stdin is not valid JSON: [^\n]+\n$/);
  });

  it('an invalid field: exit 2, one line naming it', () => {
    const bad = { nodes: [{ id: 'a', capacity: 10 }], sessions: [{ id: 's', weight: 1.5, tokens: 0, ready: true }] };
    const r = tao(['solve'], JSON.stringify(bad));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('tao solve: problem.sessions[0].weight must be a positive integer <= 4294967295\n');
  });

  it('bad flags and missing files: exit 2, one line', () => {
    expect(tao(['solve', '--quantum', '0'])).toMatchObject({
      code: 2,
      stderr: 'tao solve: --quantum must be an integer from 1 to 9007199254740991 (got "0")\n',
    });
    expect(tao(['solve', '--budget', '67108865'])).toMatchObject({
      code: 2,
      stderr: 'tao solve: --state-budget must be an integer from 1 to 67108864 (got "67108865")\n',
    });
    expect(tao(['solve', '--fast'])).toMatchObject({ code: 2, stderr: 'tao solve: unknown option "--fast"\n' });
    expect(tao(['solve', join(dir, 'absent.json')])).toMatchObject({
      code: 2,
      stderr: `tao solve: cannot read ${join(dir, 'absent.json')}: ENOENT\n`,
    });
  });
});

describe('tao demo', () => {
  it('solves every bundled example and prints timings', () => {
    const r = tao(['demo', '--repeat', '3']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('appendix-h-cache');
    expect(r.stdout).toContain('(credit 16791, ready 4, tokens 37376)');
    expect(r.stdout).toContain('(credit 13624, ready 4, tokens 37376)');
    expect(r.stdout).toContain('appendix-h-admission');
    expect(r.stdout).toMatch(/solve time: median [\d.]+ us, p95 [\d.]+ us over 3 solves/);
  });
});
