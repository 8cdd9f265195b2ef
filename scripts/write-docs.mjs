// Writes the files that are derived from source: docs/diagnostics.md and schema/manifest.schema.json.
// Run through `npm run docs` (after a build); tests fail when either is out of date.
import { writeFileSync } from 'node:fs';
import { renderCatalogMarkdown } from '../dist/diagnostics/catalog-doc.js';
import { manifestSchema } from '../dist/validate/manifest-schema.js';

writeFileSync(new URL('../docs/diagnostics.md', import.meta.url), renderCatalogMarkdown());
writeFileSync(new URL('../schema/manifest.schema.json', import.meta.url), `${JSON.stringify(manifestSchema, null, 2)}\n`);
