import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { parseManifest } from '../../src/load/index.js';
import type { Manifest } from '../../src/model/manifest.gen.js';
import { validateManifest } from '../../src/validate/index.js';
import { repoRoot } from './golden.js';

/** The typed manifest of `text`, which must validate without any diagnostic. */
export function validated(text: string): Manifest {
  const loaded = parseManifest(text, 'a.yaml');
  if (!loaded.ok) throw new Error('did not load');
  const verdict = validateManifest(loaded.manifest);
  expect(verdict.diagnostics).toEqual([]);
  if (verdict.manifest === null) throw new Error('not valid');
  return verdict.manifest;
}

/** Every YAML manifest under test/fixtures and examples (files that start a manifest: `mcpGen:` on a line). */
export function manifestFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const at = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(at);
      else if (entry.isFile() && /\.ya?ml$/.test(entry.name) && /^mcpGen:/m.test(readFileSync(at, 'utf8')))
        found.push(at);
    }
  };
  walk(path.join(repoRoot, 'test', 'fixtures'));
  walk(path.join(repoRoot, 'examples'));
  return found;
}
