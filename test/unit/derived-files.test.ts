import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCatalogMarkdown } from '../../src/diagnostics/catalog-doc.js';
import { emitManifestType } from '../../src/emit/types/manifest-type.js';
import { referenceTableSections, renderManifestReference } from '../../src/validate/manifest-reference.js';
import { manifestSchema } from '../../src/validate/manifest-schema.js';
import { repoRoot } from '../support/golden.js';

// These files are written from source by `npm run docs`; editing them by hand, or editing their sources
// without rerunning it, is a mistake this catches.
describe('files derived from source are up to date', () => {
  it('docs/diagnostics.md matches the code catalog', () => {
    expect(readFileSync(path.join(repoRoot, 'docs', 'diagnostics.md'), 'utf8')).toBe(renderCatalogMarkdown());
  });

  it('schema/manifest.schema.json matches the schema validate uses', () => {
    expect(readFileSync(path.join(repoRoot, 'schema', 'manifest.schema.json'), 'utf8')).toBe(
      `${JSON.stringify(manifestSchema, null, 2)}\n`,
    );
  });

  it('src/model/manifest.gen.ts is the Manifest type compiled from the same schema', async () => {
    expect(readFileSync(path.join(repoRoot, 'src', 'model', 'manifest.gen.ts'), 'utf8')).toBe(
      await emitManifestType(manifestSchema),
    );
  });

  it('the key tables of docs/manifest.md are written from the same schema', () => {
    const doc = readFileSync(path.join(repoRoot, 'docs', 'manifest.md'), 'utf8');
    // Sections added beside others once replaced them (transports, auth, secrets, store and lint went missing, and
    // the document's own links to #auth, #secrets and #store led nowhere): every table the schema has is there.
    const inDoc = [...doc.matchAll(/<!-- schema-table: ([a-zA-Z]+) -->/g)].map((match) => match[1]);
    expect(inDoc.sort()).toEqual([...referenceTableSections].sort());
    expect(doc).toBe(renderManifestReference(doc));
  });

  it('docs/manifest.md has a section for every top-level key of the schema', () => {
    const doc = readFileSync(path.join(repoRoot, 'docs', 'manifest.md'), 'utf8');
    // `schemas` is described under "## Shared schemas", an anchor other pages link to.
    expect(doc).toContain('\n## Shared schemas\n');
    const headed = [...doc.matchAll(/^## `([A-Za-z]+)`/gm)].map((match) => match[1]).concat('schemas');
    const keys = Object.keys(manifestSchema.properties as object).filter((key) => key !== '$schema');
    expect(keys.filter((key) => !headed.includes(key))).toEqual([]);
  });

  it('every example points editors at the schema', () => {
    const text = readFileSync(path.join(repoRoot, 'examples', 'notes', 'mcp.yaml'), 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../../schema/manifest.schema.json');
  });
});
