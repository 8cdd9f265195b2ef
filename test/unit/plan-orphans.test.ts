import { describe, expect, it } from 'vitest';
import { normalizeManifest } from '../../src/normalize/index.js';
import { planProject } from '../../src/plan/index.js';
import { validated } from '../support/manifests.js';

// A handler file no entry owns is kept and reported. Its hint says how to hand it on, unless a tool already names
// it in renamedFrom and has a file of its own: then nothing moves, and the hint says so instead of asking again.

const manifest = (renamed: string) =>
  [
    'mcpGen: 1',
    'server: { name: shop, version: 1.0.0 }',
    'tools:',
    '  get_item:',
    '    description: Reads one item of the shop by its id and returns it.',
    '    annotations: { readOnlyHint: true, openWorldHint: false }',
    renamed,
    '    input: { type: object, properties: {} }',
    '',
  ].join('\n');

describe('orphaned handler files', () => {
  it('ask for renamedFrom, or, when the rename is written and both files exist, to move the code by hand', () => {
    const files = new Map([
      ['src/handlers/tools/get_item.ts', 'export const getItemHandler = 1;'],
      ['src/handlers/tools/fetch_item.ts', 'export const fetchItemHandler = 1;'],
    ]);
    const hint = (renamed: string) =>
      planProject(normalizeManifest(validated(manifest(renamed))), files).findings.map((f) => f.hint);
    expect(hint('    title: Get item')).toEqual([
      'delete it, or add "renamedFrom: <old name>" to the tool that replaces it',
    ]);
    expect(hint('    renamedFrom: fetch_item')).toEqual([
      'tool "get_item" renames it but has its own file, src/handlers/tools/get_item.ts: move what you need there, ' +
        'then delete this one',
    ]);
  });
});
