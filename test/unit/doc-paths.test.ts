import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';

// Issue 33 item 12: docs/interop.md named four test files under test/integration/protocol/ that live in test/e2e/.
// Every path of this repository's test suite that a document names exists (a glob up to its first wildcard).

const documents = [
  'README.md',
  ...readdirSync(path.join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...readdirSync(path.join(repoRoot, 'examples')).map((name) => `examples/${name}/README.md`),
  'test/fixtures/protocol/conformance-harness/package.json',
  'test/fixtures/protocol/interop-harness/package.json',
].sort();

/** The suite's paths a text names: under test/unit, integration, e2e, support or fixtures, up to any wildcard. */
function testPaths(text: string): string[] {
  const found = text.matchAll(/\btest\/(?:unit|integration|e2e|support|fixtures)\/[A-Za-z0-9_./-]*/g);
  return [...new Set([...found].map((match) => match[0].replace(/[.]+$/, '')))];
}

describe('test paths named in the docs', () => {
  it('finds the paths it checks', () => {
    expect(testPaths('see `test/e2e/interop-matrix.test.ts`. And test/unit/**/*.test.ts')).toEqual([
      'test/e2e/interop-matrix.test.ts',
      'test/unit/',
    ]);
  });

  it.each(documents)('%s names only paths that exist', (document) => {
    const named = testPaths(readFileSync(path.join(repoRoot, document), 'utf8'));
    expect(named.filter((file) => !existsSync(path.join(repoRoot, file)))).toEqual([]);
  });
});
