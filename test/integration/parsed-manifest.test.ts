import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCacheDir } from '../support/cache-dir.js';
import { openParseCache } from '../../src/cache/index.js';
import { existsSync, rmSync } from 'node:fs';
import { parseDocument } from 'yaml';
import {
  loadManifest,
  manifestTextOf,
  parseManifest,
  type LoadedManifest,
  type PieceMemo,
} from '../../src/load/index.js';
import { parsedManifestPath, piecesPath } from '../../src/cache/store.js';
import { largeManifestChars } from '../../src/model/limits.js';
import { validateManifest } from '../../src/validate/index.js';
import { importOpenApi, updateOpenApi } from '../../src/import.js';
import { runPipeline, type Stage } from '../../src/pipeline.js';
import { manifestFiles } from '../support/manifests.js';
import { repoRoot, runIn } from '../support/golden.js';

// The parse cache (src/cache/parsed.ts): a manifest whose text parsed cleanly before is read from its saved data,
// and its positions come from parsing only the entries asked about. Every position and every diagnostic must be
// the ones parsing the whole text gives, on every manifest the tests own.

const root = path.join(repoRoot, '.test-out', 'parsed-manifest');
useCacheDir(root);

/** Every pointer into `data`, and one missing key under each mapping, with both targets. */
function pointers(data: unknown, at = ''): string[] {
  if (Array.isArray(data)) return [at, ...data.flatMap((item, i) => pointers(item, `${at}/${i}`)), `${at}/99`];
  if (data === null || typeof data !== 'object') return [at];
  const keys = Object.keys(data);
  const escaped = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
  return [
    at,
    ...keys.flatMap((key) => pointers((data as Record<string, unknown>)[key], `${at}/${escaped(key)}`)),
    `${at}/not-there`,
  ];
}

function load(file: string): LoadedManifest {
  const result = loadManifest(file, repoRoot);
  if (!result.ok) throw new Error(`${file} does not load`);
  return result.manifest;
}

/** What the cache holds for `file` as it is now: its data and its kept review (any text length). */
function entry(file: string) {
  const text = manifestTextOf(readFileSync(file));
  const cache = openParseCache({ minChars: 0 });
  return { data: cache.parsed(file, text), reviewed: cache.reviewed(file, text) };
}

/** Runs the pipeline on `file` up to `until` with a cache that keeps every manifest, and saves what it found. */
async function runCached(file: string, until: Stage) {
  const cache = openParseCache({ minChars: 0 });
  const result = await runPipeline({ manifest: file, cwd: repoRoot, cache }, until);
  cache.save();
  return result;
}

describe('the parse cache', () => {
  it('gives the positions and diagnostics of a full parse, on every fixture and example', async () => {
    let compared = 0;
    let files = 0;
    for (const [i, original] of manifestFiles().entries()) {
      // A copy per manifest, so that no other test's cache entry is read or replaced.
      const file = path.join(root, String(i), 'mcp.yaml');
      mkdirSync(path.dirname(file), { recursive: true });
      cpSync(original, file);
      const result = loadManifest(file, repoRoot);
      if (!result.ok) continue;
      if (result.manifest.problems !== undefined) {
        // Never kept: read back, the data would no longer say that the text has duplicate keys.
        await runCached(file, 'load');
        expect(entry(file).data, original).toBeUndefined();
        continue;
      }
      const fresh = result.manifest;
      files += 1;
      expect(entry(file).data).toBeUndefined();
      await runCached(file, 'load');
      expect(entry(file).data, original).toEqual(fresh.data);
      const cached = (await runCached(file, 'load')).manifest;
      if (cached === null) throw new Error(`${original} does not load from the cache`);
      expect(validateManifest(cached).diagnostics, original).toEqual(validateManifest(fresh).diagnostics);
      for (const pointer of pointers(fresh.data))
        for (const target of ['key', 'value'] as const) {
          expect(cached.locate(pointer, target), `${original} ${pointer} ${target}`).toEqual(
            fresh.locate(pointer, target),
          );
          compared += 1;
        }
    }
    expect(files).toBeGreaterThan(150);
    expect(compared).toBeGreaterThan(10_000);
  });

  it('keeps the review of a manifest that validates without a diagnostic, and reviews it the same', async () => {
    let kept = 0;
    let files = 0;
    for (const [i, original] of manifestFiles().entries()) {
      const file = path.join(root, 'reviewed', String(i), 'mcp.yaml');
      mkdirSync(path.dirname(file), { recursive: true });
      cpSync(original, file);
      const result = loadManifest(file, repoRoot);
      if (!result.ok) continue;
      files += 1;
      const fresh = await runPipeline({ manifest: file, cwd: repoRoot }, 'review');
      const first = await runCached(file, 'review');
      expect([first.diagnostics, first.review, first.model]).toEqual([fresh.diagnostics, fresh.review, fresh.model]);
      // Kept exactly when validation found nothing, so that skipping it on a hit loses nothing.
      const clean = validateManifest(result.manifest).diagnostics.length === 0 && fresh.review !== null;
      expect(entry(file).reviewed !== undefined, original).toBe(clean);
      if (!clean) continue;
      kept += 1;
      const again = await runCached(file, 'review');
      expect(again.review, original).toEqual(fresh.review);
      expect(again.diagnostics, original).toEqual(fresh.diagnostics);
      expect(again.model, original).toEqual(fresh.model);
    }
    expect(files).toBeGreaterThan(150);
    expect(kept).toBeGreaterThan(50);
  });

  it('is not used for another text, another mcp-gen, or data that JSON would change', async () => {
    const file = path.join(root, 'edited', 'mcp.yaml');
    mkdirSync(path.dirname(file), { recursive: true });
    cpSync(path.join(repoRoot, 'examples', 'notes', 'mcp.yaml'), file);
    const text = readFileSync(file, 'utf8');
    await runCached(file, 'load');
    expect(entry(file).data).toBeDefined();
    // One more byte: parsed again.
    writeFileSync(file, `${text}\n`);
    expect(entry(file).data).toBeUndefined();
    // The record of another build of mcp-gen is ignored.
    await runCached(file, 'load');
    expect(entry(file).data).toBeDefined();
    const record = parsedManifestPath(file) ?? '';
    const { hash, data } = JSON.parse(readFileSync(record, 'utf8')) as { hash: string; data: unknown };
    writeFileSync(record, JSON.stringify({ format: 1, identity: 'another build', hash, data }));
    expect(entry(file).data).toBeUndefined();
    // YAML's .inf has no JSON form: such data is never saved.
    writeFileSync(file, 'mcpGen: 1\nlimit: .inf\n');
    await runCached(file, 'load');
    expect(entry(file).data).toBeUndefined();
  });

  it('drops a byte-order mark, parsed or cached, so columns match an editor', async () => {
    const file = path.join(root, 'bom', 'mcp.yaml');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `\uFEFF${readFileSync(path.join(repoRoot, 'examples', 'notes', 'mcp.yaml'), 'utf8')}`);
    const fresh = load(file);
    expect(fresh.text.charCodeAt(0)).not.toBe(0xfeff);
    expect(fresh.locate('/mcpGen', 'key')).toEqual({ line: 2, col: 1 });
    await runCached(file, 'load');
    expect(entry(file).data).toBeDefined();
    const cached = (await runCached(file, 'load')).manifest;
    expect(cached?.text).toBe(fresh.text);
    expect(cached?.locate('/mcpGen', 'key')).toEqual({ line: 2, col: 1 });
  });

  it('is saved by import and by generate for a large manifest, never for a small one', async () => {
    const fixtures = path.join(repoRoot, 'test', 'fixtures', 'import', 'openapi');
    const large = path.join(root, 'imported', 'readme.yaml');
    const small = path.join(root, 'imported', 'petstore.yaml');
    await importOpenApi(path.join(fixtures, 'readme.json'), { out: large, force: true, cwd: repoRoot });
    await importOpenApi(path.join(fixtures, 'petstore.json'), { out: small, force: true, cwd: repoRoot });
    expect(readFileSync(large, 'utf8').length).toBeGreaterThan(largeManifestChars);
    expect(readFileSync(small, 'utf8').length).toBeLessThan(largeManifestChars);
    expect(entry(large).data).toBeDefined();
    // The draft validated without a diagnostic, so its review is kept too: generate neither validates nor lints it.
    expect(entry(large).reviewed?.review.findings.length).toBeGreaterThan(0);
    expect(entry(small).data).toBeUndefined();
    // An edit: the next load parses; generate saves what it parsed, and the load after it reads that.
    writeFileSync(large, `${readFileSync(large, 'utf8')}# edited\n`);
    expect(entry(large).data).toBeUndefined();
    const generated = await runIn(path.dirname(large), ['generate', 'readme.yaml', '--out', 'project']);
    expect(generated.code).toBe(0);
    expect(entry(large).data).toBeDefined();
    expect(entry(large).reviewed?.review.findings.length).toBeGreaterThan(0);
  }, 120_000);

  it('fills the piece cache from an imported draft, so an edit of one tool parses that tool alone', async () => {
    const spec = path.join(repoRoot, 'test', 'fixtures', 'import', 'openapi', 'readme.json');
    const large = path.join(root, 'pieces', 'readme.yaml');
    await importOpenApi(spec, { out: large, force: true, cwd: repoRoot });
    const text = readFileSync(large, 'utf8');
    const edited = text.replace(/^( {4}title: )/m, '$1Edited ');
    expect(edited).not.toBe(text);
    const memo = openParseCache().pieces?.(large);
    if (memo === undefined) throw new Error('no piece cache');
    let parsed = 0;
    const counting: PieceMemo = {
      get: (piece) => memo.get(piece),
      set: (piece, value) => {
        parsed += 1;
        memo.set(piece, value);
      },
    };
    const result = parseManifest(edited, large, large, counting);
    expect(result.ok && result.manifest.data).toEqual(parseDocument(edited).toJS());
    expect(parsed).toBe(1);
    // --update merges into a manifest a user may have edited (anchors, aliases): its pieces are parsed, not seeded.
    rmSync(piecesPath(large) ?? '', { force: true });
    await updateOpenApi(spec, { out: large, cwd: repoRoot }, null);
    expect(existsSync(piecesPath(large) ?? '')).toBe(false);
  }, 120_000);
});
