/**
 * The order of the solve's stages is written once, in STAGES: docs/solver.md lists the same stages in the
 * same order for each value of the option `path` (the test helpers' EXACT_PATHS are read from STAGES).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STAGES } from './helpers/internals.js';
import { PATH_OPTIONS } from './helpers/solvers.js';

const doc = readFileSync(new URL('../docs/solver.md', import.meta.url), 'utf8');

/** The stage names docs/solver.md's table lists for one `path` option. */
function documentedStages(option: string): string[] {
  const row = doc.split('\n').find((line) => line.startsWith(`| \`${option}\` |`));
  if (row === undefined) return [];
  return [...row.split('|')[2]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

describe('the stage list', () => {
  it('covers every value of the path option', () => {
    expect(Object.keys(STAGES).sort()).toEqual([...PATH_OPTIONS].sort());
  });

  it.each(PATH_OPTIONS)('docs/solver.md lists the %s stages in their order', (option) => {
    expect(documentedStages(option)).toEqual(STAGES[option].map((s) => s.name));
  });

  it('starts every list with the closed-form trivial stage and names each stage once per list', () => {
    for (const option of PATH_OPTIONS) {
      const names = STAGES[option].map((s) => s.name);
      expect(names[0]).toBe('trivial');
      expect(new Set(names).size).toBe(names.length);
    }
  });
});
