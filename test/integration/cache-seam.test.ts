import { cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCacheDir } from '../support/cache-dir.js';
import { openRunCache } from '../../src/cache/index.js';
import { resolveOptions } from '../../src/config/index.js';
import type { ExistingProject } from '../../src/load/index.js';
import { runPipeline, type PipelineCache } from '../../src/pipeline.js';
import { manifestFiles } from '../support/manifests.js';
import { generateProject } from '../../src/generate.js';
import { listTree, repoRoot } from '../support/golden.js';

// The caches wrap pure stages (src/cache/): a run that finds every cache warm must produce exactly what a run
// with every cache off produces, bytes and diagnostics, on every manifest the tests own. Each manifest runs to
// emit four times: off and with a cold cache on an empty project, then off and with the warm cache on the project
// holding the stubs the first run wrote (so the handler checks' verdicts are reused too).

const root = path.join(repoRoot, '.test-out', 'cache-seam');
const cacheDir = useCacheDir(root);

/** What a run produced that a user sees: every file's path, ownership and bytes, and every diagnostic. */
async function emitted(manifest: string, existing: ExistingProject, cache?: PipelineCache) {
  const options = resolveOptions({ manifest }, repoRoot);
  const project = { options, mcpGenVersion: '0.1.0', existing };
  const result = await runPipeline({ manifest, cwd: repoRoot, project, ...(cache ? { cache } : {}) }, 'emit');
  return { result, seen: { diagnostics: result.diagnostics, files: result.files } };
}

describe('caches off and caches warm', () => {
  it('give the same bytes and diagnostics on every fixture and example', async () => {
    const counts = { manifests: 0, parsed: 0, reviewed: 0, stubs: 0, verdicts: 0 };
    for (const [i, original] of manifestFiles().entries()) {
      const file = path.join(root, String(i), 'mcp.yaml');
      mkdirSync(path.dirname(file), { recursive: true });
      cpSync(original, file);
      const options = resolveOptions({ manifest: file }, repoRoot);
      const open = () => openRunCache(options, '0.1.0', repoRoot, { minChars: 0 });
      const empty: ExistingProject = { handlers: new Map(), previouslyGenerated: null };
      const off = await emitted(file, empty);
      const cold = open();
      const first = await emitted(file, empty, cold);
      cold.save(empty, first.result);
      expect(first.seen, original).toEqual(off.seen);
      const stubs = off.result.files.filter((f) => f.ownership === 'scaffold' && f.path.startsWith('src/handlers/'));
      const existing: ExistingProject = {
        handlers: new Map(stubs.map((f) => [f.path, f.contents])),
        previouslyGenerated: null,
      };
      const warm = open();
      const text = off.result.manifest?.text;
      if (text !== undefined) {
        counts.parsed += warm.parsed(file, text) === undefined ? 0 : 1;
        counts.reviewed += warm.reviewed(file, text) === undefined ? 0 : 1;
      }
      const verdicts = warm.handlerVerdicts;
      const counted: PipelineCache = {
        ...warm,
        handlerVerdicts: {
          get: (key) => {
            const verdict = verdicts.get(key);
            counts.verdicts += verdict === undefined ? 0 : 1;
            return verdict;
          },
          set: (key, findings) => verdicts.set(key, findings),
        },
      };
      const again = await emitted(file, existing, counted);
      expect(again.seen, original).toEqual((await emitted(file, existing)).seen);
      counts.manifests += 1;
      counts.stubs += stubs.length;
    }
    // Every manifest that loads is read back from the cache, the clean ones skip validation and review too, and
    // every stub's check is known.
    expect(counts.manifests).toBeGreaterThan(150);
    expect(counts.parsed).toBeGreaterThan(140);
    expect(counts.reviewed).toBeGreaterThan(60);
    expect(counts.stubs).toBeGreaterThan(200);
    expect(counts.verdicts).toBe(counts.stubs);
  }, 600_000);

  it('give the same tree and diagnostics through generate, the run record included', async () => {
    const valid = path.join(repoRoot, 'test', 'fixtures', 'valid');
    const manifests = readdirSync(valid).map((name) => path.join(valid, name, 'manifest.yaml'));
    const tree = (dir: string) => listTree(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]);
    for (const [i, original] of manifests.entries()) {
      const generate = async (dir: string, env: string) => {
        process.env.MCP_GEN_CACHE_DIR = env;
        const options = resolveOptions({ manifest: path.join(dir, 'mcp.yaml') }, repoRoot);
        return (await generateProject(options, '0.1.0', repoRoot)).diagnostics;
      };
      const offDir = path.join(root, 'generate', String(i), 'off');
      const warmDir = path.join(root, 'generate', String(i), 'warm');
      for (const dir of [offDir, warmDir]) {
        mkdirSync(dir, { recursive: true });
        cpSync(original, path.join(dir, 'mcp.yaml'));
      }
      // The second run keeps the stubs the first wrote; warm, the third answers from the run record.
      await generate(offDir, '');
      const off = await generate(offDir, '');
      for (let run = 0; run < 2; run++) await generate(warmDir, cacheDir);
      const warm = await generate(warmDir, cacheDir);
      expect(warm, original).toEqual(off);
      expect(tree(warmDir), original).toEqual(tree(offDir));
    }
    process.env.MCP_GEN_CACHE_DIR = cacheDir;
  }, 600_000);
});
