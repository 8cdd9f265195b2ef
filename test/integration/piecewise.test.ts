import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/load/index.js';
import { parsePieces } from '../../src/load/piecewise.js';
import { locateInDocument } from '../../src/load/locator.js';
import { largeManifestChars } from '../../src/model/limits.js';
import { parsePointer } from '../../src/util/json-pointer.js';
import { manifestFiles } from '../support/manifests.js';
import { repoRoot } from '../support/golden.js';

// A large manifest is parsed an entry at a time (src/load/piecewise.ts) only when that gives exactly the data of
// one parse of the whole text, which then has no error or warning; anything else must answer null.

/** The whole parse's data, when it has no error or warning; else undefined. */
function whole(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true });
  return doc.errors.length > 0 || doc.warnings.length > 0 ? undefined : doc.toJS({ maxAliasCount: 100 });
}

const agree = (text: string) => {
  const pieces = parsePieces(text);
  if (pieces !== null) expect(pieces).toEqual(whole(text));
  return pieces;
};

describe('parsing a manifest an entry at a time', () => {
  it('gives the data of a whole parse, or nothing, on every fixture and example', () => {
    let cut = 0;
    const files = manifestFiles();
    for (const file of files) if (agree(readFileSync(file, 'utf8')) !== null) cut += 1;
    expect(files.length).toBeGreaterThan(150);
    expect(cut).toBeGreaterThan(100);
  });

  it('keeps every kind of value, key and comment as a whole parse does', () => {
    const text = [
      '# head',
      'mcpGen: 1',
      'server: { name: x, version: 1.0.0 }',
      '',
      'tools:',
      '  # first',
      '  a:',
      '    description: |-',
      '      two lines',
      '',
      '      and a blank one',
      '    input: { type: object }',
      "  'b: c':",
      '    n: 1',
      '  __proto__:',
      '    polluted: true',
      '  d:',
      '  - 1',
      '  - 2',
      '  e: ~',
      '# between',
      'resources: {}',
      'prompts:',
      '  p: { description: "quoted: yes" }',
      '',
    ].join('\n');
    const pieces = agree(text);
    expect(pieces).not.toBeNull();
    expect(Object.keys((pieces as { tools: object }).tools)).toEqual(['a', 'b: c', '__proto__', 'd', 'e']);
    expect(agree(text.replace(/\n/g, '\r\n'))).not.toBeNull();
    // A kept block scalar at the end, with and without the file's last line break.
    expect(agree(`${text}last:\n  k: |+\n    x\n\n`)).not.toBeNull();
    expect(agree(`${text}last:\n  k: |+\n    x`)).not.toBeNull();
  });

  it('answers nothing for what only a whole parse can tell', () => {
    const base = 'mcpGen: 1\ntools:\n  a:\n    x: 1\n  b:\n    y: 2\n';
    const hostile = {
      'a key twice across entries': `${base}  a:\n    z: 3\n`,
      'a section twice': `${base}tools:\n  c: {}\n`,
      'an anchor in one entry, its alias in another': 'mcpGen: 1\ntools:\n  a: &s\n    x: 1\n  b: *s\n',
      'an alias at the top': 'mcpGen: 1\nx: &s 1\ny: *s\n',
      'a directive': '%YAML 1.2\n---\nmcpGen: 1\n',
      'two documents': 'mcpGen: 1\n---\nmcpGen: 2\n',
      'a sequence at the top': '- mcpGen: 1\n',
      'a line no entry holds': 'mcpGen: 1\ntools:\n    stray: 1\n  a: 1\n',
      'a syntax error inside an entry': `${base}  c:\n    x: [1\n`,
      'an unknown tag': `${base}  c: !custom 1\n`,
      'a value on the section line and entries': 'mcpGen: 1\ntools: x\n  a: 1\n',
      'a flow mapping over lines': 'mcpGen: 1\ntools: {\n  a: 1 }\n',
      'an explicit key and its value on two lines': 'mcpGen: 1\ntools:\n  ? long\n  : x\n  b: 1\n',
      'an explicit key at the top': 'mcpGen: 1\n? tools\n: {}\n',
      'a key that starts with a dash': 'mcpGen: 1\ntools:\n  a: 1\n  -b: 2\n',
    };
    for (const [label, text] of Object.entries(hostile)) {
      const pieces = parsePieces(text);
      if (pieces !== null) expect(pieces, label).toEqual(whole(text));
      else expect(pieces, label).toBeNull();
    }
    for (const label of [
      'a key twice across entries',
      'a section twice',
      'an anchor in one entry, its alias in another',
    ])
      expect(parsePieces(hostile[label as keyof typeof hostile]), label).toBeNull();
  });

  it('is how a large manifest is loaded, with the positions of a whole parse', () => {
    const dir = path.join(repoRoot, '.test-out', 'piecewise');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // The library example with its tools written 60 times over, each copy under new names.
    const base = readFileSync(path.join(repoRoot, 'examples', 'library', 'mcp.yaml'), 'utf8');
    const [head, rest] = base.split(/^tools:\n/m) as [string, string];
    const end = rest.search(/^\S/m);
    const copies = Array.from({ length: 60 }, (_, i) => rest.slice(0, end).replace(/^ {2}([a-z_]+):$/gm, `  $1_${i}:`));
    const text = `${head}tools:\n${copies.join('')}${rest.slice(end)}`;
    expect(text.length).toBeGreaterThan(largeManifestChars);
    expect(parsePieces(text)).not.toBeNull();
    const file = path.join(dir, 'mcp.yaml');
    writeFileSync(file, text);
    const saved = process.env.MCP_GEN_CACHE_DIR;
    process.env.MCP_GEN_CACHE_DIR = '';
    const result = loadManifest(file, dir);
    if (saved === undefined) delete process.env.MCP_GEN_CACHE_DIR;
    else process.env.MCP_GEN_CACHE_DIR = saved;
    if (!result.ok) throw new Error('did not load');
    expect(result.manifest.data).toEqual(whole(text));
    const lineCounter = new LineCounter();
    const locate = locateInDocument(parseDocument(text, { lineCounter, uniqueKeys: true }), lineCounter);
    const tools = (result.manifest.data as { tools: Record<string, Record<string, unknown>> }).tools;
    let compared = 0;
    for (const [name, tool] of Object.entries(tools))
      for (const key of [...Object.keys(tool), 'missing'])
        for (const target of ['key', 'value'] as const) {
          const pointer = `/tools/${name}/${key}`;
          expect(result.manifest.locate(pointer, target), pointer).toEqual(locate(parsePointer(pointer), target));
          compared += 1;
        }
    expect(compared).toBeGreaterThan(1_000);
  });
});
