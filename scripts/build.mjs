#!/usr/bin/env node
/**
 * Builds what changed, for `npm run build` and `prepare`: the WASM builds when a file under assembly/ (or
 * asconfig.json, the installed compiler) is newer than the oldest of build/*.wasm, and the TypeScript with tsc's
 * incremental mode (its build info under build/, started over when dist/ is gone). `npm run build:wasm`
 * and `npm run build:ts` rebuild everything.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (p) => join(root, p);
const WASM = ['build/tao.wasm', 'build/tao.debug.wasm'];
const BUILD_INFO = 'build/dist.tsbuildinfo';

/** Newest modification time (ms) of the files under a directory, recursively. */
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(at(dir), { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(at(p)).mtimeMs);
  }
  return t;
}

const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

const compiler = createRequire(import.meta.url).resolve('assemblyscript/package.json');
const inputs = Math.max(newest('assembly'), statSync(at('asconfig.json')).mtimeMs, statSync(compiler).mtimeMs);
const built = WASM.every((f) => existsSync(at(f))) ? Math.min(...WASM.map((f) => statSync(at(f)).mtimeMs)) : -Infinity;
if (built < inputs) run('npm', ['run', 'build:wasm']);
else console.log('build: WASM up to date');

if (!existsSync(at('dist/index.js'))) rmSync(at(BUILD_INFO), { force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', BUILD_INFO]);
