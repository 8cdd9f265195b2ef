import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allCodes, formatReport } from '../../src/diagnostics/index.js';
import { manifestLimits } from '../../src/model/limits.js';
import { runPipeline } from '../../src/pipeline.js';
import { largestManifest } from '../support/big-manifest.js';
import { expectGolden, repoRoot, updateGolden } from '../support/golden.js';

const fixturesDir = path.join(repoRoot, 'test', 'fixtures', 'invalid');
const cases = readdirSync(fixturesDir).sort();

/** Cases whose manifest is too large to commit: each is written when its test runs. */
const writtenAtRunTime: Readonly<Record<string, () => string>> = {
  'manifest-too-large': () => largestManifest(manifestLimits.bytes + 1),
};

describe('invalid manifests: full diagnostic text', () => {
  it('has at least 30 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  for (const name of cases) {
    it(name, async () => {
      // Paths in diagnostics are relative to the working directory, so run from the repo root, or from a
      // temporary root holding the same relative path for a manifest too large to commit.
      const manifest = path.join('test', 'fixtures', 'invalid', name, 'manifest.yaml');
      const write = writtenAtRunTime[name];
      const cwd = write === undefined ? repoRoot : mkdtempSync(path.join(tmpdir(), 'mcp-gen-invalid-'));
      if (write !== undefined) {
        mkdirSync(path.dirname(path.join(cwd, manifest)), { recursive: true });
        writeFileSync(path.join(cwd, manifest), write());
      }
      const result = await runPipeline({ manifest, cwd }, 'normalize').finally(() => {
        if (write !== undefined) rmSync(cwd, { recursive: true, force: true });
      });
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
