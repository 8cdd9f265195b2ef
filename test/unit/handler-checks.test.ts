import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/index.js';
import type { Finding } from '../../src/diagnostics/index.js';
import { runPipeline } from '../../src/pipeline.js';
import { repoRoot } from '../support/golden.js';

// A run records each new stub's check as finding nothing, so that the next run does not load the
// compiler to check it (src/emit/handlers/index.ts). That holds only if checking the stub really finds
// nothing, under the key the next run computes: checked here, with the compiler, for every manifest.
const manifests = [
  ...readdirSync(path.join(repoRoot, 'examples'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => path.join(repoRoot, 'examples', e.name, 'mcp.yaml')),
  ...readdirSync(path.join(repoRoot, 'test', 'fixtures', 'valid')).map((name) =>
    path.join(repoRoot, 'test', 'fixtures', 'valid', name, 'manifest.yaml'),
  ),
];

/** The run's diagnostics and files, and the verdicts it reached (what a cache would keep). */
async function emitWith(manifest: string, handlers: ReadonlyMap<string, string>) {
  const options = resolveOptions({ manifest }, repoRoot);
  const existing = { handlers, previouslyGenerated: null };
  const verdicts = new Map<string, readonly Finding[]>();
  const cache = { parsed: () => undefined, reviewed: () => undefined, handlerVerdicts: verdicts, observe() {} };
  const result = await runPipeline(
    { manifest, cwd: repoRoot, cache, project: { options, mcpGenVersion: '0.1.0', existing } },
    'emit',
  );
  return { ...result, verdicts };
}

describe('the recorded check of a new stub', () => {
  it.each(manifests.map((m) => [path.relative(repoRoot, m)]))(
    'is what checking it finds: %s',
    async (manifest) => {
      const first = await emitWith(manifest, new Map());
      const stubs = new Map(
        first.files.filter((f) => f.path.startsWith('src/handlers/')).map((f) => [f.path, f.contents] as const),
      );
      expect(stubs.size).toBeGreaterThan(0);
      expect([...first.verdicts.values()]).toEqual([...stubs.keys()].map(() => []));
      const second = await emitWith(manifest, stubs);
      expect(second.diagnostics.filter((d) => d.code.startsWith('handler-'))).toEqual([]);
      expect(second.verdicts).toEqual(first.verdicts);
    },
    60_000,
  );
});
