/**
 * The packed tarball, installed into a fresh project (`npm install <tarball>`, dependencies from the
 * local npm cache when it has them), works from there: an ESM import and solve, the schemas resolved
 * through the package's exports, `npx tao --version`, `tao solve` on stdin, and a sidecar session of
 * solve/evaluate/observe/save/load, and a strict TypeScript compile of a consumer program against the
 * published declarations (`skipLibCheck: false`, lib ES2022 and `@types/node` only, so a declaration that
 * names an environment type such as `WebAssembly` fails it). Packs the current build (`npm run build`
 * first) without running scripts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Plan, type Problem, SIDECAR_PROTOCOL_VERSION } from './helpers/internals.js';
import { SidecarProcess } from './helpers/sidecar.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };

const problem: Problem = {
  nodes: [
    { id: 'a', capacity: 4096 },
    { id: 'b', capacity: 2048 },
  ],
  sessions: [
    { id: 's1', weight: 2048, tokens: 1536, ready: true, credit: { b: 1024 } },
    { id: 's2', weight: 3072, tokens: 2560, ready: false },
  ],
};
/** By hand: s1 on b (its credit), s2 on a; both fit. */
const expectedValue = { credit: 1024, ready: 1, tokens: 4096 };

let dir: string;
let app: string;
let tao: string;

beforeAll(() => {
  for (const f of ['dist/cli.js', 'dist/index.js', 'build/tao.wasm']) {
    expect(existsSync(join(root, f)), `${f} is missing: run \`npm run build\``).toBe(true);
  }
  dir = mkdtempSync(join(tmpdir(), 'tao-install-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
    }),
  ) as [{ filename: string }];
  const tarball = join(dir, packed[0].filename);
  app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
    cwd: app,
    encoding: 'utf8',
    stdio: 'pipe',
  });
  tao = join(app, 'node_modules', '.bin', 'tao');
}, 120_000);

afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** A consumer that touches every entry point's declarations. */
const CONSUMER_TS = `import {
  createPlanner, createSolverPool, evaluate, InvalidValueError, loadSolver, ReadinessPredictor, revalidate,
  type Plan, type PlanStats, type Problem, type Snapshot, type SolverPool,
} from 'tao-solver';
import * as simulate from 'tao-solver/simulate';
import * as internals from 'tao-solver/internals';

const problem: Problem = { nodes: [{ id: 'a', capacity: 4096 }], sessions: [{ id: 's', weight: 1024, tokens: 900, ready: true }] };
const solver = await loadSolver({ wasm: new Uint8Array(0) }).catch((err: unknown) => {
  if (err instanceof InvalidValueError) return loadSolver();
  throw err;
});
const plan: Plan = solver.solve(problem, { quantum: 256 });
const how: PlanStats['heuristic'] = plan.stats.heuristic;
const snapshot: Snapshot = { time: 0, nodes: problem.nodes, sessions: [] };
const evaluated: Problem = evaluate(snapshot, new ReadinessPredictor());
const pool: SolverPool = createSolverPool({ maxThreads: 1 });
const planner = await createPlanner({ pool });
console.log(how, evaluated, revalidate, planner, simulate, internals);
`;

/** Compiles \`file\` in the consumer project with the strict settings; returns tsc's output. */
function strictCompile(file: string): { status: number | null; output: string } {
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: false,
        noEmit: true,
        types: ['node'],
        typeRoots: [join(root, 'node_modules', '@types')],
      },
      files: [file],
    }),
  );
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], {
    cwd: app,
    encoding: 'utf8',
  });
  return { status: r.status, output: r.stdout + r.stderr };
}

describe('the installed package', () => {
  it('type-checks a consumer program strictly, declarations included (skipLibCheck false, no DOM lib)', () => {
    writeFileSync(join(app, 'consumer.ts'), CONSUMER_TS);
    expect(strictCompile('consumer.ts')).toEqual({ status: 0, output: '' });
    // The same settings do catch a consumer's type error, so the pass above means something.
    writeFileSync(
      join(app, 'wrong.ts'),
      `import type { Plan } from 'tao-solver';\nexport const p: Plan['status'] = 'ok';\n`,
    );
    const wrong = strictCompile('wrong.ts');
    expect(wrong.status).not.toBe(0);
    expect(wrong.output).toContain('TS2322');
  }, 60_000);

  it('imports as ESM and solves; its schemas resolve through the exports', () => {
    writeFileSync(
      join(app, 'consumer.mjs'),
      `import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { loadSolver } from 'tao-solver';
const solver = await loadSolver();
const plan = solver.solve(JSON.parse(process.argv[2]));
solver.close();
const schema = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('tao-solver/schemas/problem.schema.json'), 'utf8'));
const esm = new URL(import.meta.resolve('tao-solver/schemas/request.schema.json')).pathname;
console.log(JSON.stringify({ plan, schemaId: schema.$id, esm }));
`,
    );
    const r = spawnSync(process.execPath, ['consumer.mjs', JSON.stringify(problem)], { cwd: app, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { plan: Plan; schemaId: string; esm: string };
    expect(out.plan.status).toBe('optimal');
    expect(out.plan.value).toEqual(expectedValue);
    expect(out.schemaId).toBe('https://unpkg.com/tao-solver/schemas/problem.schema.json');
    expect(out.esm).toBe(join(app, 'node_modules', 'tao-solver', 'schemas', 'request.schema.json'));
    // The code ran from the installed copy, not from this checkout.
    expect(existsSync(join(app, 'node_modules', 'tao-solver', 'dist', 'index.js'))).toBe(true);
  });

  it('npx tao --version prints the version', () => {
    const r = spawnSync('npx', ['--no-install', 'tao', '--version'], { cwd: app, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });

  it('tao solve reads a Problem on stdin', () => {
    const r = spawnSync(tao, ['solve', '--compact'], { cwd: app, encoding: 'utf8', input: JSON.stringify(problem) });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as Plan).value).toEqual(expectedValue);
  });

  it('tao serve answers a session of solve, observe, evaluate, predictor save and load', async () => {
    const s = new SidecarProcess([], [tao, 'serve']);
    expect(await s.request({ id: 0, op: 'hello' })).toMatchObject({
      ok: true,
      protocol: SIDECAR_PROTOCOL_VERSION,
      version: pkg.version,
    });
    const solved = await s.request({ id: 1, op: 'solve', problem });
    expect((solved.plan as Plan).value).toEqual(expectedValue);
    const snapshot = {
      time: 100,
      nodes: problem.nodes,
      sessions: [{ id: 's1', tokens: 1536, tool: { name: 'bash', startedAt: 99.5 } }],
    };
    const before = await s.request({ id: 2, op: 'evaluate', snapshot });
    expect((before.problem as Problem).sessions[0]!.ready).toBe(false);
    const calls = [
      { name: 'bash', startedAt: 90, returnedAt: 90.6 },
      { name: 'bash', startedAt: 95, returnedAt: 95.7 },
    ];
    expect(await s.request({ id: 3, op: 'observe', calls })).toEqual({ id: 3, op: 'observe', ok: true, learned: 2 });
    const after = await s.request({ id: 4, op: 'evaluate', snapshot });
    expect((after.problem as Problem).sessions[0]!.ready).toBe(true);
    const saved = await s.request({ id: 5, op: 'predictor.save' });
    expect(saved.predictor).toMatchObject({
      format: 'tao-readiness-predictor',
      global: { durations: [expect.any(Number), expect.any(Number)] },
    });
    await s.shutdown(6);

    const again = new SidecarProcess([], [tao, 'serve']);
    expect(await again.request({ id: 1, op: 'predictor.load', predictor: saved.predictor })).toEqual({
      id: 1,
      op: 'predictor.load',
      ok: true,
    });
    expect(((await again.request({ id: 2, op: 'evaluate', snapshot })).problem as Problem).sessions[0]!.ready).toBe(
      true,
    );
    await again.shutdown(3);
    expect(s.stderr + again.stderr).toBe('');
  });
});
