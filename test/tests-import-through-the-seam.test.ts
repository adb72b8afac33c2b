import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The package entry points: what a user imports. Everything below them reaches the tests through the seam. */
const ENTRY_POINTS = new Set(['src/index.js', 'src/internals.js', 'src/sim/index.js']);
const SEAM = 'test/helpers/internals.ts';

/** Every module specifier of a TypeScript text's import and re-export statements, multi-line ones too. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?\bfrom\s+'([^']+)'/g)].map((m) => m[1]!);
}

/** The test files and test helpers, as paths from the repository root. */
function testSources(): string[] {
  const top = readdirSync('test').filter((f) => f.endsWith('.ts'));
  const helpers = readdirSync('test/helpers').filter((f) => f.endsWith('.ts'));
  return [...top.map((f) => join('test', f)), ...helpers.map((f) => join('test/helpers', f))];
}

describe('tests reach the source tree only through the package entry points or the test barrel', () => {
  it('finds multi-line imports and re-exports (the scan cannot pass by seeing nothing)', () => {
    const text = "import {\n  a,\n  b,\n} from '../src/solve/bfd.js';\nexport * as m from '../src/x.js';\n";
    expect(specifiers(text)).toEqual(['../src/solve/bfd.js', '../src/x.js']);
  });

  it('no test file or helper but the barrel imports a module below the entry points', () => {
    const deep: string[] = [];
    for (const file of testSources()) {
      if (file === SEAM) continue;
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        const fromRoot = join(file, '..', spec);
        if (fromRoot.startsWith('src/') && !ENTRY_POINTS.has(fromRoot)) deep.push(`${file}: ${spec}`);
      }
    }
    expect(deep).toEqual([]);
  });
});
