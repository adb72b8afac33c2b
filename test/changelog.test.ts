/**
 * The CHANGELOG's newest entry is a release of the version package.json (and so `tao --version` and the
 * sidecar's `hello`) reports, with a date; nothing sits above it unreleased while the manifest claims
 * that version.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
const changelog = readFileSync(new URL('CHANGELOG.md', root), 'utf8');

describe('CHANGELOG.md', () => {
  it("opens with the release entry of package.json's version", () => {
    const headings = [...changelog.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    expect(headings.length).toBeGreaterThan(0);
    expect(headings[0]).toMatch(new RegExp(`^${pkg.version.replace(/\./g, '\\.')} \\(\\d{4}-\\d{2}-\\d{2}\\)$`));
    expect(headings.filter((h) => h.startsWith(`${pkg.version} `))).toHaveLength(1);
  });
});
