import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWarmCache, type WarmCache } from '../../src/cache/index.js';
import { piecesPath } from '../../src/cache/store.js';
import { resolveOptions } from '../../src/config/index.js';
import { generateProject, primeWarmCache } from '../../src/generate.js';
import { largeManifestChars } from '../../src/model/limits.js';
import { useCacheDir } from '../support/cache-dir.js';
import { listTree, repoRoot } from '../support/golden.js';

// A process that generates again and again (`generate --watch`, `dev`) keeps pieces and per-tool values between
// its runs (src/cache/warm.ts). After every kind of edit, what it writes must be exactly what a cold `generate` of
// the same text writes: every file, byte for byte, and every diagnostic.

const root = path.join(repoRoot, '.test-out', 'warm-seam');
useCacheDir(root);

const tools = 260;

/** One tool; each kind of tool in turn reads a handle, issues one, reaches a shared schema or changes data. */
function tool(i: number): string {
  const kind = i % 5;
  const name = `tool_${String(i).padStart(3, '0')}`;
  const hints =
    kind === 3
      ? '{ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }'
      : '{ readOnlyHint: true, openWorldHint: true }';
  const extra =
    kind === 0
      ? '        basket: { $handle: basket }'
      : '        limit: { type: integer, minimum: 1, maximum: 50, default: 5, description: How many to return. }';
  const output =
    kind === 1
      ? ['    output:', '      type: object', '      properties:', '        basket: { $handle: basket }']
      : kind === 2
        ? ['    output:', '      type: object', '      properties:', "        book: { $ref: '#/schemas/book' }"]
        : [];
  return [
    `  ${name}:`,
    `    title: Tool number ${i}`,
    `    description: Reads record ${i} of the catalog and returns its fields, for the kind ${kind} of request.`,
    `    tags: [${kind === 4 ? 'reads' : `kind-${kind}`}]`,
    `    annotations: ${hints}`,
    ...(kind === 3 ? ['    idempotency: key'] : []),
    '    http:',
    '      method: GET',
    `      path: /records/${i}/{id}`,
    '      args: { id: path }',
    '    input:',
    '      type: object',
    '      additionalProperties: false',
    '      required: [id]',
    '      properties:',
    '        id: { type: string, maxLength: 64, description: The record id as the catalog lists it. }',
    ...(kind === 0 ? [] : [extra]),
    ...output,
    '',
  ].join('\n');
}

function manifest(): string {
  const head = [
    'mcpGen: 1',
    'server:',
    '  name: warm-catalog',
    '  version: 1.0.0',
    '  instructions: Find records with the read tools; the destructive ones ask the user first.',
    'config:',
    '  CATALOG_URL: { description: The base URL of the catalog API., type: url, default: "https://catalog.example" }',
    'upstream:',
    '  baseUrl: CATALOG_URL',
    'handles:',
    '  basket:',
    '    description: Records a member picked.',
    '    ttl: 2h',
    'schemas:',
    '  book:',
    '    type: object',
    '    properties:',
    '      title: { type: string, maxLength: 200, description: The title. }',
    'toolsets:',
    '  reads: { description: The tools that only read., default: true, tags: [reads] }',
    '  kinds: { description: Tools by kind., names: ["tool_0*"] }',
    'tools:',
    '',
  ].join('\n');
  return head + [...Array(tools).keys()].map(tool).join('');
}

/** Each edit a user makes between two saves, as a change of the manifest's text. */
const edits: readonly [string, (text: string) => string][] = [
  ['a description', (t) => t.replace('Reads record 7 of', 'Reads the record 7 of')],
  ['the same description, same length', (t) => t.replace('Reads the record 7 of', 'Reads thx record 7 of')],
  ['an input schema', (t) => t.replace(/(tool_008:[\s\S]*?maxLength: )64/, '$132')],
  [
    'annotations',
    (t) =>
      t.replace(
        /(tool_009:[\s\S]*?annotations: )\{ readOnlyHint: true, openWorldHint: true \}/,
        '$1{ readOnlyHint: false, destructiveHint: true, openWorldHint: false }',
      ),
  ],
  ['a rename', (t) => t.replace('  tool_010:', '  tool_010_renamed:')],
  ['a removal', (t) => t.replace(/ {2}tool_011:\n(?: {4}.*\n)+/, '')],
  ['an addition', (t) => `${t}${tool(900)}`],
  ['a shared schema', (t) => t.replace('description: The title. }', 'description: The book title. }')],
  ['a handle', (t) => t.replace('Records a member picked.', 'Records a member picked, not yet checked out.')],
  ['toolsets', (t) => t.replace('names: ["tool_0*"]', 'names: ["tool_1*"]')],
  ['server instructions', (t) => t.replace('ask the user first.', 'ask the user to confirm first.')],
  ['a YAML error', (t) => t.replace('  tool_012:', '  tool_012: [')],
  ['the error fixed', (t) => t.replace('  tool_012: [', '  tool_012:')],
  ['a validation error', (t) => t.replace(/(tool_013:[\s\S]*?)maxLength: 64/, '$1maxLength: -1')],
  ['the validation error fixed', (t) => t.replace('maxLength: -1', 'maxLength: 64')],
];

/** A warm cache, and how many values of each table its runs computed rather than recalled. */
function countingWarmCache() {
  const opened = openWarmCache();
  const computed = new Map<string, number>();
  const warm: WarmCache = {
    ...opened,
    memo: {
      recall: (table, key, compute) =>
        opened.memo.recall(table, key, (k) => {
          computed.set(table, (computed.get(table) ?? 0) + 1);
          return compute(k);
        }),
    },
  };
  return { warm, computed };
}

/** Every file under `dir` but the manifest, with its bytes. */
function tree(dir: string): Record<string, string> {
  return Object.fromEntries(
    listTree(dir)
      .filter((file) => file !== 'mcp.yaml')
      .map((file) => [file, readFileSync(path.join(dir, file), 'utf8')]),
  );
}

describe('a warm generate', () => {
  it('writes what a cold generate writes, after every kind of edit', async () => {
    const warmDir = path.join(root, 'warm');
    const coldDir = path.join(root, 'cold');
    mkdirSync(warmDir, { recursive: true });
    mkdirSync(coldDir, { recursive: true });
    const { warm, computed } = countingWarmCache();
    const run = async (dir: string, text: string, cache?: WarmCache) => {
      writeFileSync(path.join(dir, 'mcp.yaml'), text);
      const options = resolveOptions({ manifest: path.join(dir, 'mcp.yaml') }, repoRoot);
      const result = await generateProject(options, '0.1.0', repoRoot, {}, cache);
      const shown = (file: string) => file.replace(/\b(warm|cold)\//, '<dir>/');
      return {
        ok: result.ok,
        diagnostics: result.diagnostics.map((d) => ({ ...d, file: shown(d.file) })),
        files: tree(dir),
      };
    };
    let text = manifest();
    expect(text.length).toBeGreaterThan(largeManifestChars);
    const first = await run(warmDir, text, warm);
    expect(first.ok).toBe(true);
    expect(first).toEqual(await run(coldDir, text));
    expect(computed.get('normalize.tool')).toBe(tools);
    for (const [edit, change] of edits) {
      const next = change(text);
      expect(next, edit).not.toBe(text);
      text = next;
      computed.clear();
      const warmRun = await run(warmDir, text, warm);
      const coldRun = await run(coldDir, text);
      expect(warmRun.diagnostics, edit).toEqual(coldRun.diagnostics);
      expect(Object.keys(warmRun.files), edit).toEqual(Object.keys(coldRun.files));
      for (const [file, bytes] of Object.entries(coldRun.files))
        expect(warmRun.files[file], `${edit}: ${file}`).toBe(bytes);
      // An edit of one tool redoes that tool's work alone; an edit outside `tools:` redoes every tool's.
      const expected: Record<string, number> = { 'a description': 1, 'a rename': 1, 'an addition': 1, toolsets: tools };
      if (edit in expected) expect(computed.get('normalize.tool') ?? 0, edit).toBe(expected[edit]);
    }
    // A generated file changed by hand, keeping its size: the warm run must see it and write it again.
    const registry = path.join(warmDir, 'src', 'generated', 'registry.gen.ts');
    const before = readFileSync(registry, 'utf8');
    writeFileSync(registry, before.replace('tool_000', 'tool_00X'));
    const again = await run(warmDir, text, warm);
    expect(again.files['src/generated/registry.gen.ts']).toBe(before);
  }, 300_000);

  it('fills itself when the run record answered its first run, so the first save redoes one tool', async () => {
    const dir = path.join(root, 'primed');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'mcp.yaml');
    const text = manifest();
    writeFileSync(file, text);
    const options = resolveOptions({ manifest: file }, repoRoot);
    // Twice: the second run reads the project the first one wrote, as every run after it does.
    for (const _ of [1, 2]) expect((await generateProject(options, '0.1.0', repoRoot)).ok).toBe(true);
    const { warm, computed } = countingWarmCache();
    // The run record answers: nothing is computed, so nothing is kept.
    expect((await generateProject(options, '0.1.0', repoRoot, {}, warm)).ok).toBe(true);
    expect(warm.primed()).toBe(false);
    await primeWarmCache(options, '0.1.0', repoRoot, warm);
    expect(warm.primed()).toBe(true);
    // What it keeps is written when it ends, for the next process, even after a single run: its pieces too.
    const pieces = piecesPath(file) ?? '';
    rmSync(pieces, { force: true });
    warm.flush();
    expect(existsSync(pieces)).toBe(true);
    expect(computed.get('normalize.tool')).toBe(tools);
    computed.clear();
    writeFileSync(file, text.replace('Reads record 3 of', 'Reads the record 3 of'));
    expect((await generateProject(options, '0.1.0', repoRoot, {}, warm)).ok).toBe(true);
    expect(computed.get('normalize.tool')).toBe(1);
  }, 300_000);
});
