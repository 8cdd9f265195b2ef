import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectGolden, listTree, repoRoot, runIn } from '../support/golden.js';

const casesDir = path.join(repoRoot, 'test', 'fixtures', 'regenerate');
const cases = readdirSync(casesDir).sort();

// Each case: a project as the user left it (before/), a changed manifest, the exact output of
// `mcp-gen generate` (expected.txt), and the user files as they must be afterwards (after/).
describe('regeneration keeps user code', () => {
  for (const name of cases) {
    it(name, async () => {
      const caseDir = path.join(casesDir, name);
      const work = path.join(repoRoot, '.test-out', 'regenerate', name);
      rmSync(work, { recursive: true, force: true });
      mkdirSync(work, { recursive: true });
      cpSync(path.join(caseDir, 'manifest.yaml'), path.join(work, 'mcp.yaml'));
      const before = listTree(path.join(caseDir, 'before'));
      if (before.length > 0) cpSync(path.join(caseDir, 'before'), work, { recursive: true });

      const result = await runIn(work, ['generate', 'mcp.yaml']);
      expectGolden(
        path.join(caseDir, 'expected.txt'),
        `exit ${result.code}\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`,
      );

      const after = listTree(path.join(caseDir, 'after'));
      for (const file of after)
        expect(readFileSync(path.join(work, file), 'utf8')).toBe(
          readFileSync(path.join(caseDir, 'after', file), 'utf8'),
        );
      for (const file of before) {
        const moved = !existsSync(path.join(work, file));
        if (!moved)
          expect(readFileSync(path.join(work, file), 'utf8')).toBe(
            readFileSync(path.join(caseDir, 'before', file), 'utf8'),
          );
      }
    });
  }
});
