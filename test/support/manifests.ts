import { expect } from 'vitest';
import { parseManifest } from '../../src/load/index.js';
import type { Manifest } from '../../src/model/manifest.gen.js';
import { validateManifest } from '../../src/validate/index.js';

/** The typed manifest of `text`, which must validate without any diagnostic. */
export function validated(text: string): Manifest {
  const loaded = parseManifest(text, 'a.yaml');
  if (!loaded.ok) throw new Error('did not load');
  const verdict = validateManifest(loaded.manifest);
  expect(verdict.diagnostics).toEqual([]);
  if (verdict.manifest === null) throw new Error('not valid');
  return verdict.manifest;
}
