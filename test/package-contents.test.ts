/**
 * The published tarball is the `files` whitelist of package.json: this pins what it holds, so a new
 * entry point that is not shipped, or sources and tests that leak into it, fail here. Needs the build
 * (`npm install`/`npm ci` run it through `prepare`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface PackEntry {
  path: string;
}

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  bin: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
};

function packedFiles(): Set<string> {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
  });
  const [report] = JSON.parse(out) as [{ files: PackEntry[] }];
  return new Set(report.files.map((f) => f.path));
}

describe('package tarball', () => {
  const files = packedFiles();

  it('ships every entry point named by exports and bin, with its types', () => {
    const targets: string[] = Object.values(pkg.bin);
    for (const target of Object.values(pkg.exports)) {
      if (typeof target === 'string') targets.push(target);
      else targets.push(target.types, target.default);
    }
    for (const t of targets) {
      const path = t.replace(/^\.\//, '');
      // A subpath pattern (`./schemas/*`) must match at least one shipped file.
      if (path.endsWith('*'))
        expect(
          [...files].some((f) => f.startsWith(path.slice(0, -1))),
          t,
        ).toBe(true);
      else expect(files, t).toContain(path);
    }
  });

  it('ships the JSON Schemas, the license, the changelog, the sidecar protocol and its Python client', () => {
    for (const name of ['problem', 'plan', 'snapshot', 'predictor', 'request', 'response']) {
      expect(files).toContain(`schemas/${name}.schema.json`);
    }
    for (const f of ['LICENSE', 'CHANGELOG.md', 'docs/sidecar.md']) expect(files).toContain(f);
    // The Python package, installable with pip from node_modules/tao-solver/clients/python; not its tests.
    for (const f of [
      'pyproject.toml',
      'README.md',
      'src/tao_client/__init__.py',
      'src/tao_client/client.py',
      'src/tao_client/aio.py',
      'src/tao_client/py.typed',
    ]) {
      expect(files).toContain(`clients/python/${f}`);
    }
    expect(
      [...files].filter(
        (f) =>
          f.startsWith('clients/') &&
          !/^clients\/python\/(pyproject\.toml|README\.md|src\/tao_client\/[a-z_]+\.py|src\/tao_client\/py\.typed)$/.test(
            f,
          ),
      ),
    ).toEqual([]);
  });

  it('ships the docs the README links', () => {
    for (const f of [
      'docs/solver.md',
      'docs/abi.md',
      'docs/architecture.md',
      'docs/evaluation.md',
      'docs/planner.md',
    ]) {
      expect(files).toContain(f);
    }
  });

  it('ships source maps that carry their sources, and no build info', () => {
    const maps = [...files].filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(10);
    for (const map of maps) {
      const json = JSON.parse(readFileSync(new URL(map, root), 'utf8')) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      expect(json.sourcesContent?.length, map).toBe(json.sources.length);
      for (const content of json.sourcesContent!) expect(typeof content, map).toBe('string');
    }
    expect([...files].filter((f) => f.endsWith('.tsbuildinfo'))).toEqual([]);
  });

  it('ships the release WASM, the worker and the README', () => {
    for (const f of ['build/tao.wasm', 'dist/pool/worker.js', 'README.md', 'package.json']) expect(files).toContain(f);
  });

  it('ships no sources, tests, benchmarks or CI files', () => {
    const leaked = [...files].filter((f) => /^(src|test|assembly|bench|\.ci|\.bench-cache|node_modules)\//.test(f));
    expect(leaked).toEqual([]);
  });
});
