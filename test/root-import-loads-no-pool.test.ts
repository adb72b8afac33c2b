/**
 * Importing the package root loads no worker-pool machinery: piscina is loaded when the first pool is
 * created. Runs the compiled package (dist/) in a fresh process, as a user's import would.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../dist/index.js', import.meta.url));

function piscinaModulesAfter(code: string): number {
  const script = `const tao = await import(${JSON.stringify(ROOT)});
${code}
const { createRequire } = await import('node:module');
console.log(Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('piscina')).length);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim());
}

describe('root import', () => {
  it('does not load piscina until a pool is created', () => {
    expect(piscinaModulesAfter('')).toBe(0);
    expect(
      piscinaModulesAfter('const pool = tao.createSolverPool({ minThreads: 0, maxThreads: 1 }); await pool.close();'),
    ).toBeGreaterThan(0);
  });
});
