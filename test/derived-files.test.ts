import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCatalogMarkdown } from '../src/diagnostics/catalog-doc.js';
import { manifestSchema } from '../src/validate/manifest-schema.js';
import { repoRoot } from './support/golden.js';

// These files are written from source by `npm run docs`; editing them by hand, or editing their sources
// without rerunning it, is a mistake this catches.
describe('files derived from source are up to date', () => {
  it('docs/diagnostics.md matches the code catalog', () => {
    expect(readFileSync(path.join(repoRoot, 'docs', 'diagnostics.md'), 'utf8')).toBe(renderCatalogMarkdown());
  });

  it('schema/manifest.schema.json matches the schema validate uses', () => {
    expect(readFileSync(path.join(repoRoot, 'schema', 'manifest.schema.json'), 'utf8')).toBe(`${JSON.stringify(manifestSchema, null, 2)}\n`);
  });

  it('every example points editors at the schema', () => {
    const text = readFileSync(path.join(repoRoot, 'examples', 'notes', 'mcp.yaml'), 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../../schema/manifest.schema.json');
  });
});
