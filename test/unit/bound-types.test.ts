import { describe, expect, it } from 'vitest';
import type { EmitContext } from '../../src/emit/shared/files.js';
import { emitTypes } from '../../src/emit/types/index.js';
import { parseManifest } from '../../src/load/index.js';
import { normalizeManifest } from '../../src/normalize/index.js';
import { planProject } from '../../src/plan/index.js';
import { validateManifest } from '../../src/validate/index.js';

// A tool its `http:` binding serves, with no handler file, has no compiled input and output types (issue 35 item 6):
// nothing of the project reads them, and compiling a large imported API's schemas was most of generate's time. A
// handler file written for it brings them back; shared schemas go with the tools that reach them.

const manifest = [
  'mcpGen: 1',
  'server: { name: shop, version: 1.0.0 }',
  'config:',
  '  API_URL: { description: The API., type: url, default: "https://api.example.com" }',
  'upstream:',
  '  baseUrl: API_URL',
  'schemas:',
  '  item: { type: object, properties: { id: { type: string, maxLength: 9 } } }',
  '  order: { type: object, properties: { line: { $ref: "#/schemas/item" } } }',
  '  note: { type: object, properties: { text: { type: string, maxLength: 99 } } }',
  'tools:',
  '  get_item:',
  '    description: Reads one item by its id and returns it.',
  '    annotations: { readOnlyHint: true, openWorldHint: true }',
  '    input: { type: object, additionalProperties: false, properties: { id: { type: string, maxLength: 9 } } }',
  '    output: { $ref: "#/schemas/item" }',
  '    http: { method: GET, path: "/items/{id}", args: { id: path } }',
  '  get_order:',
  '    description: Reads one order by its id and returns it.',
  '    annotations: { readOnlyHint: true, openWorldHint: true }',
  '    input: { type: object, additionalProperties: false, properties: { id: { type: string, maxLength: 9 } } }',
  '    output: { $ref: "#/schemas/order" }',
  '    http: { method: GET, path: "/orders/{id}", args: { id: path } }',
  '',
].join('\n');

const ctx = {
  manifestPath: 'mcp.yaml',
  regenerateCommand: 'mcp-gen generate',
  templates: new Map(),
  mcpGenVersion: '0.0.0',
};

function model() {
  const loaded = parseManifest(manifest, 'mcp.yaml');
  if (!loaded.ok) throw new Error('did not load');
  const verdict = validateManifest(loaded.manifest);
  expect(verdict.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  if (verdict.manifest === null) throw new Error('not valid');
  return normalizeManifest(verdict.manifest);
}

/** The types file of a project whose handler files are `files` (path -> text). */
async function typesWith(files: ReadonlyMap<string, string>) {
  const m = model();
  const plan = planProject(m, files);
  const bound = new Set(plan.handlers.filter((h) => h.action === 'bind').map((h) => h.name));
  const types = await emitTypes(m, ctx as EmitContext, bound);
  expect(types.diagnostics).toEqual([]);
  return { bound: [...bound], text: types.file.contents };
}

const declared = (text: string) => [...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);

describe('types of bound tools', () => {
  it('are not compiled while the binding serves the tool: its entry is BoundTool', async () => {
    const { bound, text } = await typesWith(new Map());
    expect(bound).toEqual(['get_item', 'get_order']);
    const names = declared(text);
    expect(names.filter((n) => /^(Get|Item|Order|Note)/.test(n ?? ''))).toEqual(['Note']);
    expect(names).toContain('BoundTool');
    expect(text).toContain('  get_item: BoundTool;\n  get_order: BoundTool;');
  });

  it('come back with a handler file, with the shared schemas the tool reaches', async () => {
    const handler = "export const getOrderHandler: ToolHandler<'get_order'> = async () => ({ line: {} });\n";
    const { bound, text } = await typesWith(new Map([['src/handlers/tools/get_order.ts', handler]]));
    expect(bound).toEqual(['get_item']);
    const names = declared(text).filter((n) => /^(Get|Item|Order|Note)/.test(n ?? ''));
    expect(names.sort()).toEqual(['GetOrderInput', 'GetOrderOutput', 'Item', 'Note', 'Order']);
    expect(text).toContain('  get_item: BoundTool;');
    expect(text).toContain('  get_order: { input: GetOrderInput; output: GetOrderOutput; };');
  });

  it('are all compiled when no tool is bound', async () => {
    const m = model();
    const types = await emitTypes(m, ctx as EmitContext);
    expect(declared(types.file.contents)).not.toContain('BoundTool');
    expect(types.file.contents).toContain('export interface GetItemInput');
  });
});
