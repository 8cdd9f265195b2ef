// Writes the files that are derived from source: docs/diagnostics.md, schema/manifest.schema.json,
// src/model/manifest.gen.ts (the Manifest type) and the key tables of docs/manifest.md (both from the same
// schema), and templates/joined/start.gen.ts
// (the runtime start modules joined into one, see src/emit/runtime/merge.ts).
// Run through `npm run docs` (after a build); tests fail when any of them is out of date.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { renderCatalogMarkdown } from '../dist/diagnostics/catalog-doc.js';
import { joinedStartTemplate, joinStartModules } from '../dist/emit/runtime/merge.js';
import { emitManifestType } from '../dist/emit/types/manifest-type.js';
import { manifestSchema } from '../dist/validate/manifest-schema.js';
import { renderManifestReference } from '../dist/validate/manifest-reference.js';

const templates = new URL('../templates/', import.meta.url);

writeFileSync(new URL('../docs/diagnostics.md', import.meta.url), renderCatalogMarkdown());
writeFileSync(new URL('../schema/manifest.schema.json', import.meta.url), `${JSON.stringify(manifestSchema, null, 2)}\n`);
writeFileSync(new URL('../src/model/manifest.gen.ts', import.meta.url), await emitManifestType(manifestSchema));
const manifestDoc = new URL('../docs/manifest.md', import.meta.url);
writeFileSync(manifestDoc, renderManifestReference(readFileSync(manifestDoc, 'utf8')));
mkdirSync(new URL('joined/', templates), { recursive: true });
writeFileSync(new URL(joinedStartTemplate, templates), joinStartModules((template) => readFileSync(new URL(template, templates), 'utf8')));
