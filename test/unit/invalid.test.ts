import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allCodes, formatReport } from '../../src/diagnostics/index.js';
import { runPipeline } from '../../src/pipeline.js';
import { expectGolden, repoRoot, updateGolden } from '../support/golden.js';

const fixturesDir = path.join(repoRoot, 'test', 'fixtures', 'invalid');
const cases = readdirSync(fixturesDir).sort();

describe('invalid manifests: full diagnostic text', () => {
  it('has at least 30 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  for (const name of cases) {
    it(name, async () => {
      // Paths in diagnostics are relative to the working directory, so run from the repo root.
      const result = await runPipeline(
        { manifest: path.join('test', 'fixtures', 'invalid', name, 'manifest.yaml'), cwd: repoRoot },
        'normalize',
      );
      expect(result.diagnostics.length).toBeGreaterThan(0);
      expectGolden(path.join(fixturesDir, name, 'expected.txt'), formatReport(result.diagnostics));
    });
  }

  it.skipIf(updateGolden)('every catalog code is triggered by at least one fixture', () => {
    const seen = new Set<string>();
    const fixtureRoot = path.join(repoRoot, 'test', 'fixtures');
    const expectedFiles = ['invalid', 'regenerate', 'lint', 'breaking'].flatMap((kind) =>
      readdirSync(path.join(fixtureRoot, kind)).map((name) => path.join(fixtureRoot, kind, name, 'expected.txt')),
    );
    for (const file of expectedFiles) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/: (?:error|warning|note) \[([a-z0-9-]+)\]/g)) seen.add(match[1] ?? '');
    }
    expect(allCodes.filter((code) => !seen.has(code))).toEqual([]);
  });

  it('reports all ten mistakes of one manifest in one run, in line order', async () => {
    const result = await runPipeline(
      { manifest: 'test/fixtures/invalid/ten-mistakes/manifest.yaml', cwd: repoRoot },
      'normalize',
    );
    const codes = result.diagnostics.map((d) => d.code);
    expect(new Set(codes).size).toBeGreaterThanOrEqual(10);
    const lines = result.diagnostics.map((d) => d.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(result.model).toBeNull();
  });
});
