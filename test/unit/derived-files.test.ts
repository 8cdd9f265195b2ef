import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCatalogMarkdown } from '../../src/diagnostics/catalog-doc.js';
import { emitManifestType } from '../../src/emit/types/manifest-type.js';
import { renderManifestReference } from '../../src/validate/manifest-reference.js';
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
    expect(doc.match(/<!-- schema-table: /g)?.length).toBe(15);
    expect(doc).toBe(renderManifestReference(doc));
  });

  it('every example points editors at the schema', () => {
    const text = readFileSync(path.join(repoRoot, 'examples', 'notes', 'mcp.yaml'), 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../../schema/manifest.schema.json');
  });
});
