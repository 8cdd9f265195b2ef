#!/usr/bin/env node
// Fails when a line of mcp-gen's own code (src/, test/, scripts/, bin/, templates/) is longer than 120
// characters, listing each one as file:line. The runtime templates are checked like the rest: they are the
// code every user of a generated server reads. Generated text is exempt, as mcp-gen writes it rather than a
// person: test/fixtures/ (goldens included), every *.gen.* file outside templates/ (src/model/manifest.gen.ts)
// and every generated/ folder; examples/ is outside the checked folders. Biome's formatter wraps code at the
// same width; this check also covers what it cannot wrap: comments, strings and template literals.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const maxLength = 120;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['src', 'test', 'scripts', 'bin', 'templates'];
const skippedFolders = new Set(['test/fixtures', 'node_modules']);
const code = /\.(?:ts|mts|cts|js|mjs|cjs)$/;
/** Template sources end in .gen.* too (the name they are emitted under), but a person writes them. */
const isTemplate = (rel) => rel.startsWith('templates/');

/** Every checked file under `dir` (relative to the repository), in a stable order. */
function listFiles(dir) {
  const entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files = [];
  for (const entry of entries) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!skippedFolders.has(rel) && entry.name !== 'generated' && entry.name !== 'node_modules') {
        files.push(...listFiles(rel));
      }
    } else if (entry.isFile() && code.test(entry.name) && (isTemplate(rel) || !entry.name.includes('.gen.'))) {
      files.push(rel);
    }
  }
  return files;
}

const offending = [];
for (const file of roots.flatMap(listFiles)) {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  for (const [i, line] of lines.entries()) {
    // Characters, not UTF-16 units or bytes: an emoji or "—" counts once.
    const length = [...line].length;
    if (length > maxLength) offending.push(`${file}:${i + 1}: ${length} characters`);
  }
}
if (offending.length > 0) {
  process.stderr.write(`${offending.join('\n')}\n${offending.length} line(s) longer than ${maxLength} characters\n`);
  process.exit(1);
}
