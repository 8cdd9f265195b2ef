// Writes the files that are derived from source: docs/diagnostics.md, schema/manifest.schema.json,
// src/model/manifest.gen.ts (the Manifest type) and the key tables of docs/manifest.md (both from the same
// schema). Run through `npm run docs` (after a build); tests fail when any of them is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { renderCatalogMarkdown } from '../dist/diagnostics/catalog-doc.js';
import { emitManifestType } from '../dist/emit/types/manifest-type.js';
import { manifestSchema } from '../dist/validate/manifest-schema.js';
import { renderManifestReference } from '../dist/validate/manifest-reference.js';

writeFileSync(new URL('../docs/diagnostics.md', import.meta.url), renderCatalogMarkdown());
writeFileSync(
  new URL('../schema/manifest.schema.json', import.meta.url),
  `${JSON.stringify(manifestSchema, null, 2)}\n`,
);
writeFileSync(new URL('../src/model/manifest.gen.ts', import.meta.url), await emitManifestType(manifestSchema));
const manifestDoc = new URL('../docs/manifest.md', import.meta.url);
writeFileSync(manifestDoc, renderManifestReference(readFileSync(manifestDoc, 'utf8')));
