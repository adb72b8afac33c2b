/**
 * The baseline build: a frozen copy of the compiled solver (its JavaScript module closure and the release
 * WASM), committed beside the gate's corpora, so the regression gate can run the baseline and the current
 * solver alternately in one process on the same problems. A ratio measured that way does not depend on
 * the machine's speed or load, which a comparison with numbers recorded in another run does.
 *
 * The snapshot is one gzip JSON file: the package version, the WASM's sha256, and every file of the closure
 * by its path relative to the package root (`dist/solve/solver.js`, `build/tao.wasm`, ...), base64. Loading
 * writes the files under the cache directory (keyed by the snapshot's hash) and imports the copy's
 * `loadSolver`; the copy resolves its WASM relative to itself, as the package does.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Plan, Problem } from '../types.js';
import type { SolveOptions } from '../solve/options.js';
import { sha256 } from './hash.js';
import { PACKAGE_VERSION } from '../version.js';

/** The package root of the running code (holds dist/ and build/). */
const PACKAGE_ROOT = new URL('../../', import.meta.url);

/** The module the snapshot is taken from and loaded through, and the WASM it loads. */
export const SOLVER_ENTRY = 'dist/solve/solver.js';
export const SOLVER_WASM = 'build/tao.wasm';

export interface BaselineBuildFile {
  format: 'tao-baseline-build';
  formatVersion: 1;
  packageVersion: string;
  wasmSha256: string;
  createdAt: string;
  /** Path relative to the package root -> base64 content. */
  files: Record<string, string>;
}

/** A solver as the gate uses it. */
export interface GateSolver {
  solve(problem: Problem, options: SolveOptions): Plan;
  close(): void;
}

const SOURCE_MAP_COMMENT = /^\/\/# sourceMappingURL=.*$/gm;

const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

/** The relative-import closure of `entry` (package-root paths), entry first. */
export async function moduleClosure(root: URL, entry: string): Promise<string[]> {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    const text = await readFile(new URL(file, root), 'utf8');
    for (const m of text.matchAll(RELATIVE_IMPORT)) {
      const dep = posix.normalize(posix.join(posix.dirname(file), m[1] as string));
      if (!seen.has(dep)) {
        seen.add(dep);
        queue.push(dep);
      }
    }
  }
  return [...seen];
}

/** Snapshots the compiled solver of the running package into `file` (run `npm run build` first). */
export async function writeBaselineBuild(file: string): Promise<BaselineBuildFile> {
  const paths = [...(await moduleClosure(PACKAGE_ROOT, SOLVER_ENTRY)), SOLVER_WASM];
  const files: Record<string, string> = {};
  for (const p of paths) {
    const bytes = await readFile(new URL(p, PACKAGE_ROOT));
    // Source maps are not part of the snapshot: drop the comments that point at them.
    files[p] = (
      p.endsWith('.js') ? Buffer.from(bytes.toString('utf8').replace(SOURCE_MAP_COMMENT, '')) : bytes
    ).toString('base64');
  }
  const snapshot: BaselineBuildFile = {
    format: 'tao-baseline-build',
    formatVersion: 1,
    packageVersion: PACKAGE_VERSION,
    wasmSha256: sha256(Buffer.from(files[SOLVER_WASM] as string, 'base64')),
    createdAt: new Date().toISOString(),
    files,
  };
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, gzipSync(JSON.stringify(snapshot, null, 0) + '\n', { level: 9 }));
  return snapshot;
}

export async function readBaselineBuild(file: string): Promise<BaselineBuildFile> {
  const snapshot = JSON.parse(gunzipSync(await readFile(file)).toString('utf8')) as BaselineBuildFile;
  if (snapshot.format !== 'tao-baseline-build' || snapshot.formatVersion !== 1)
    throw new Error(`${file}: not a baseline build of this format`);
  if (snapshot.files[SOLVER_ENTRY] === undefined || snapshot.files[SOLVER_WASM] === undefined)
    throw new Error(`${file}: has no ${SOLVER_ENTRY} or ${SOLVER_WASM}`);
  return snapshot;
}

/** sha256 of the running package's release WASM, or null when it is not built. */
export async function currentWasmSha256(): Promise<string | null> {
  try {
    return sha256(await readFile(new URL(SOLVER_WASM, PACKAGE_ROOT)));
  } catch {
    return null;
  }
}

/** Writes the snapshot's files under `cacheDir` (once per snapshot) and loads its solver. */
export async function loadBaselineSolver(snapshot: BaselineBuildFile, cacheDir: string): Promise<GateSolver> {
  const key = sha256(JSON.stringify(Object.entries(snapshot.files).sort())).slice(0, 16);
  const root = join(cacheDir, `baseline-build-${key}`);
  for (const [p, b64] of Object.entries(snapshot.files)) {
    const target = join(root, ...p.split('/'));
    const exists = await stat(target).then(
      () => true,
      () => false,
    );
    if (exists) continue;
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, Buffer.from(b64, 'base64'));
  }
  // The copy is ESM: mark its folder as such, as the package's package.json does.
  await writeFile(join(root, 'package.json'), '{ "type": "module" }\n');
  const mod = (await import(pathToFileURL(join(root, ...SOLVER_ENTRY.split('/'))).href)) as {
    loadSolver: () => Promise<GateSolver>;
  };
  return mod.loadSolver();
}
