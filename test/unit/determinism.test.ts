import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/index.js';
import { buildProject } from '../support/build-project.js';
import { repoRoot } from '../support/golden.js';

const fresh = { handlers: new Map<string, string>(), previouslyGenerated: null };

async function filesOf(manifest: string, cwd: string) {
  const result = await buildProject(resolveOptions({ manifest }, cwd), '0.1.0', fresh, cwd);
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.files.map((f) => [f.path, f.contents]);
}

describe('same manifest, same bytes', () => {
  const notes = path.join(repoRoot, 'examples', 'notes', 'mcp.yaml');

  it('twice in a row', async () => {
    expect(await filesOf(notes, repoRoot)).toEqual(await filesOf(notes, repoRoot));
  });

  it('whatever the working directory', async () => {
    const fromRoot = await filesOf('examples/notes/mcp.yaml', repoRoot);
    const fromTmp = await filesOf(notes, os.tmpdir());
    const fromExample = await filesOf('mcp.yaml', path.dirname(notes));
    expect(fromTmp).toEqual(fromRoot);
    expect(fromExample).toEqual(fromRoot);
  });

  it('whatever the YAML key order', async () => {
    const dir = path.join(repoRoot, '.test-out', 'determinism');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(path.join(dir, 'a'), { recursive: true });
    mkdirSync(path.join(dir, 'b'), { recursive: true });
    const text = readFileSync(notes, 'utf8');
    const reordered = text
      .replace(
        /( {2}search_notes:[\s\S]*?)( {2}start_note_draft:[\s\S]*?)( {2}publish_note_draft:[\s\S]*?)(resources:)/,
        '$3$2$1$4',
      )
      .replace(/( {2}note:[\s\S]*?)( {2}style_guide:[\s\S]*?)(prompts:)/, '$2$1$3')
      .replace('cache: { ttlMs: 300000, scope: public }', 'cache: { scope: public, ttlMs: 300000 }')
      .replace('required: [id, title]', 'required: [title, id]')
      .replace(
        'properties: { id: { type: string }, title: { type: string } }',
        'properties: { title: { type: string }, id: { type: string } }',
      );
    expect(reordered).not.toBe(text);
    writeFileSync(path.join(dir, 'a', 'mcp.yaml'), text);
    writeFileSync(path.join(dir, 'b', 'mcp.yaml'), reordered);
    expect(await filesOf('mcp.yaml', path.join(dir, 'b'))).toEqual(await filesOf('mcp.yaml', path.join(dir, 'a')));
  });
});
