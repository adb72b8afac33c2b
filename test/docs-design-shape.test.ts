/**
 * Every design page in docs/ has the same four parts, in order: what it is for, its design, the alternatives
 * considered and its limits. The record of how each step was chosen (docs/history.md) and the generated
 * tables (docs/results/) are not design pages.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DOCS = join(import.meta.dirname, '..', 'docs');
const SHAPE = ['What it is for', 'Design', 'Alternatives considered', 'Limits'];
const NOT_DESIGN = new Set(['history.md']);

const pages = readdirSync(DOCS)
  .filter((f) => f.endsWith('.md') && !NOT_DESIGN.has(f))
  .sort();

/** The level-2 headings of a Markdown page, outside fenced code blocks. */
function sections(text: string): string[] {
  let fenced = false;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced && line.startsWith('## ')) out.push(line.slice(3).trim());
  }
  return out;
}

describe('the design pages', () => {
  it('are found', () => {
    expect(pages).toContain('solver.md');
    expect(pages.length).toBeGreaterThanOrEqual(10);
  });

  it.each(pages)('%s has exactly the four parts, in order', (page) => {
    expect(sections(readFileSync(join(DOCS, page), 'utf8'))).toEqual(SHAPE);
  });
});
