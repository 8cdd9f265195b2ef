import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/index.js';
import { generateProject } from '../../src/generate.js';
import { repoRoot } from '../support/golden.js';

const examples = readdirSync(path.join(repoRoot, 'examples')).sort();

// The committed output of every example must be exactly what generate produces now (`--check`).
describe('committed examples are up to date', () => {
  for (const name of examples) {
    it(`examples/${name}`, async () => {
      const options = resolveOptions({ manifest: `examples/${name}/mcp.yaml`, check: true }, repoRoot);
      const result = await generateProject(options, '0.1.0', repoRoot);
      expect(result.diagnostics).toEqual([]);
      expect(result.report?.changes.map((c) => `${c.kind} ${c.path}`)).toEqual([]);
      expect(result.ok).toBe(true);
    });
  }
});
