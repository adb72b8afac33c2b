/**
 * docs/architecture.md maps the tree: every path it names exists, and every folder of src/ and assembly/
 * has its line in the map.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const doc = readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8');

/** Backticked names that are paths: a folder (`src/pool/`) or a source or document file (`src/xml.ts`). */
function namedPaths(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!)
    .filter((p) => p.endsWith('/') || /^[\w./-]+\.(ts|mjs|md|json)$/.test(p));
}

/** Root-relative paths of the map: a root file of `src/` named alone (`types.ts`) is under src/. */
function resolved(p: string): string {
  return p.includes('/') ? p : `src/${p}`;
}

function folders(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(`${root}/${dir}`, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    out.push(`${dir}/${entry.name}/`, ...folders(`${dir}/${entry.name}`));
  }
  return out;
}

describe('docs/architecture.md', () => {
  const paths = namedPaths(doc).filter((p) => !p.startsWith('tao-solver') && !p.startsWith('build/'));

  it('names paths that exist', () => {
    expect(paths.length).toBeGreaterThan(15);
    const missing = paths.filter((p) => !existsSync(`${root}/${resolved(p)}`));
    expect(missing).toEqual([]);
  });

  it('maps every folder of src/ and assembly/', () => {
    const mapped = new Set(paths);
    const unmapped = ['src/', 'assembly/', ...folders('src'), ...folders('assembly')].filter((f) => !mapped.has(f));
    expect(unmapped).toEqual([]);
  });
});
