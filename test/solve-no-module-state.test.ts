/**
 * Nothing in src/solve keeps mutable state at module level: reusable buffers live in the solver's
 * SolveScratch (src/solve/scratch.ts) and travel in the solve's context. The scan reads every source file
 * of src/solve and fails on a top-level `let`/`var`, or a top-level `const` bound to a typed array, an
 * ArrayBuffer, an array, or an empty Map, Set, WeakMap or WeakSet (a cache keyed weakly by the object it
 * describes is state all the same: what a solve derives from its problem lives in the solve's context).
 * One kind of top-level object stays, named here: the compiled WebAssembly modules per build (immutable
 * once compiled).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The compiled modules per build: a cache of immutable values, in the one file that touches WebAssembly. */
const ALLOWED = new Set([
  'src/solve/wasm/loader.ts: const modules = new Map<WasmBuild, Promise<WebAssembly.Module>>();',
]);

const MUTABLE_LET = /^(?:export\s+)?(?:let|var)\s/;
/** A top-level const bound to a buffer (a typed array or ArrayBuffer, alone or in an object literal), an empty (Weak)Map or (Weak)Set, or an empty array not typed readonly. */
const MUTABLE_CONST = [
  /^(?:export\s+)?const\s+\w+\s*(?::[^=]+)?=\s*(?:\{[^=]*:\s*)?new\s+(?:[A-Z]\w*Array|ArrayBuffer)\((?!new )/,
  /^(?:export\s+)?const\s+\w+\s*(?::[^=]+)?=\s*new\s+(?:Weak)?(?:Map|Set)\b[^(]*\(\)/,
  /^(?:export\s+)?const\s+\w+\s*(?::\s*(?!\s|readonly)[^=]+)?=\s*\[\]/,
];

function mutable(line: string): boolean {
  return MUTABLE_LET.test(line) || MUTABLE_CONST.some((r) => r.test(line));
}

/**
 * The top-level statements of a source, each as its first line and its whole text on one line: a line
 * that starts at column 0 starts a statement, unless it closes a bracket (a declaration's type or value
 * spread over several lines goes on), and an indented line continues the statement above it.
 */
function statements(text: string): { first: string; text: string }[] {
  const out: { first: string; lines: string[] }[] = [];
  for (const line of text.split('\n')) {
    const continues = /^[\s})\]]/.test(line) || line === '';
    const last = out[out.length - 1];
    if (continues && last !== undefined) last.lines.push(line.trim());
    else out.push({ first: line.trim(), lines: [line.trim()] });
  }
  return out.map((st) => ({ first: st.first, text: st.lines.join(' ').replace(/\s+/g, ' ').trim() }));
}

/** The top-level declarations of a source that hold mutable state, as `file: first line`. */
function moduleState(file: string): string[] {
  const name = relative(root, file).split('\\').join('/');
  return statements(readFileSync(file, 'utf8'))
    .filter((st) => mutable(st.text))
    .map((st) => `${name}: ${st.first}`)
    .filter((entry) => !ALLOWED.has(entry));
}

describe('src/solve', () => {
  const files = sources(join(root, 'src/solve'));

  it('keeps no mutable state at module level', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap(moduleState)).toEqual([]);
  });

  it('the scan sees what it forbids', () => {
    const forbidden = [
      'let kept: Scratch | null = null;',
      'const buf = new Int32Array(64);',
      'const scratch = { qcap: new Float64Array(64), fits: new Uint8Array(1024) };',
      'export const seen = new Set<string>();',
      'const list: number[] = [];',
      'const levels = new WeakMap<PackedProblem, CreditLevel | null>();',
      'const sent = new WeakSet<object>();',
    ];
    for (const line of forbidden) expect(mutable(line), line).toBe(true);
    // A declaration whose type and value span several lines is read as one statement.
    const spread = [
      'const scratch: Record<"cw", Float64Array> & {',
      '  parent: Int32Array;',
      '} = {',
      '  cw: new Float64Array(256),',
      '  parent: new Int32Array(1024),',
      '};',
    ].join('\n');
    expect(
      statements(spread)
        .filter((st) => mutable(st.text))
        .map((st) => st.first),
    ).toEqual(['const scratch: Record<"cw", Float64Array> & {']);
    const constants = [
      'const RUN = 16;',
      "const KEYS = new Set(['id', 'capacity']);",
      'const NONE: readonly number[] = [];',
    ];
    for (const line of constants) expect(mutable(line), line).toBe(false);
  });
});
