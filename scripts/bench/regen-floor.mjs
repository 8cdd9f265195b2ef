// The yardstick of the row "`generate` after editing one tool's description": the least any run of that edit does
// with the files a project has today. It starts Node, reads the manifest and hashes it (a run must know what
// changed), and writes again the files the timed `generate` changed, each to a new file renamed over the old one,
// as the write stage does (unflushed, as generated files are). It reads those files to have their bytes, which a
// real run builds in memory instead, so it errs on the slow side: the floor is, if anything, lower.
// Usage: node regen-floor.mjs MANIFEST FILE... (each FILE relative to the manifest's folder)
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [manifest, ...changed] = process.argv.slice(2);
const folder = path.dirname(manifest);
createHash('sha256').update(readFileSync(manifest, 'utf8'), 'utf8').digest('hex');
for (const file of changed) {
  const target = path.join(folder, file);
  const bytes = readFileSync(target);
  writeFileSync(`${target}.floor`, bytes, { flag: 'wx' });
  renameSync(`${target}.floor`, target);
}
