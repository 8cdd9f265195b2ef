import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDraft } from '../../src/import/index.js';
import { createLocator } from '../../src/load/locator.js';
import { parseManifest } from '../../src/load/index.js';
import { formatPointer } from '../../src/util/json-pointer.js';
import { repoRoot } from '../support/paths.js';

// The locator `import` uses for the draft it just wrote parses one entry at a time; every position it gives must
// be the one a parse of the whole file gives, for every node, as key and as value, and for pointers to keys
// that are missing (which locate at their nearest existing parent).

/** Every pointer of `data`, plus missing keys at each level of the first branch. */
function pointersOf(data: unknown, at: string[] = [], out: string[] = []): string[] {
  out.push(formatPointer(at));
  if (data !== null && typeof data === 'object')
    for (const [key, value] of Object.entries(data)) pointersOf(value, [...at, key], out);
  return out;
}

function expectSameAsWhole(text: string): number {
  const whole = parseManifest(text, 'mcp.yaml');
  if (!whole.ok) throw new Error('fixture does not parse');
  const { data, locate } = whole.manifest;
  const entries = createLocator(text, data);
  const pointers = [...pointersOf(data), '/nope', '/nope/x', '/tools/nope', '/tools/nope/x', '/server/nope/deeper'];
  const differ = pointers.flatMap((p) =>
    (['key', 'value'] as const).flatMap((t) => {
      const [a, b] = [locate(p, t), entries(p, t)];
      return a.line === b.line && a.col === b.col ? [] : [`${p} ${t}: ${a.line}:${a.col} != ${b.line}:${b.col}`];
    }),
  );
  expect(differ).toEqual([]);
  return pointers.length;
}

describe('createLocator', () => {
  it('gives the whole parse positions on the imported drafts and every example manifest', () => {
    const files = [
      path.join(repoRoot, 'test/fixtures/import/openapi/expected/petstore.yaml'),
      path.join(repoRoot, 'test/fixtures/import/openapi/expected/readme.yaml'),
      ...readdirSync(path.join(repoRoot, 'examples')).map((e) => path.join(repoRoot, 'examples', e, 'mcp.yaml')),
    ];
    for (const file of files) expect(expectSameAsWhole(readFileSync(file, 'utf8'))).toBeGreaterThan(50);
  });

  it('gives them on a draft with keys the yaml library quotes, block scalars and comments', () => {
    const text = renderDraft({
      data: {
        mcpGen: 1,
        server: { name: 'x', version: '1.0.0', instructions: 'line one\n\nline: two\n  indented' },
        tools: {
          '200': { description: 'a: b', input: { type: 'object', properties: { 'a: b': { type: 'string' } } } },
          'has: colon': { description: '# not a comment' },
          plain: { description: 'multi\nline', input: { type: 'object', required: ['a'] } },
        },
        schemas: {},
      },
      notes: [
        { path: [], text: 'header' },
        { path: ['tools', 'plain'], text: 'a note' },
        { path: ['tools', '200', 'description'], text: 'another' },
      ],
      flags: [],
    });
    expect(expectSameAsWhole(text)).toBe(28);
  });
});
