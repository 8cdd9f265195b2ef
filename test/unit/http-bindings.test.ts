import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { emitBindings } from '../../src/emit/bindings/index.js';
import { runtimeFeatures, runtimeModules } from '../../src/emit/runtime/index.js';
import { runPipeline } from '../../src/pipeline.js';
import type { HttpBindingModel, UpstreamCredentialModel } from '../../src/model/bindings.js';
import { planProject } from '../../src/plan/index.js';
import type { HttpBindingSpec, UpstreamCredentialSpec } from '../../templates/runtime/upstream-spec.gen.js';
import { expectGolden, repoRoot } from '../support/golden.js';

// The HTTP bindings from manifest to generated code: the normalized binding, the plan that writes no handler for
// a bound tool (and keeps a written one, which overrides the binding), and bindings.gen.ts as a golden; the model's
// binding types are the runtime's (templates/runtime/upstream-spec.gen.ts), declared once.

const manifest = path.join('test', 'fixtures', 'bindings', 'mcp.yaml');
const ctx = {
  manifestPath: 'mcp.yaml',
  regenerateCommand: 'npx mcp-gen generate mcp.yaml --out .',
  templates: new Map(),
  mcpGenVersion: '0.0.0',
};

async function model() {
  const result = await runPipeline({ manifest, cwd: repoRoot }, 'normalize');
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  if (result.model === null) throw new Error('no model');
  return result.model;
}

describe('HTTP bindings', () => {
  it('normalizes http: with defaults and args sorted by name, and upstream: with its credential', async () => {
    const m = await model();
    expect(m.upstream).toEqual({
      baseUrl: 'SHOP_URL',
      credential: { type: 'apiKey', in: 'query', name: 'key', value: 'SHOP_KEY' },
      credentials: {},
    });
    expect(m.tools.map((t) => [t.name, t.http])).toEqual([
      [
        'get_item',
        {
          method: 'GET',
          path: '/items/{id}',
          baseUrl: null,
          args: [
            { name: 'id', in: 'path' },
            { name: 'lang', in: 'header' },
            { name: 'session', in: 'cookie' },
          ],
          body: 'application/json',
          accept: 'application/json',
          encoding: {},
          result: 'body',
          outputCheck: 'warn',
          security: null,
          errorMessage: '/error/text',
        },
      ],
      [
        'put_manual',
        {
          method: 'PUT',
          path: '/items/{id}/manual',
          baseUrl: null,
          args: [
            { name: 'file', in: 'body' },
            { name: 'id', in: 'path' },
          ],
          body: 'application/pdf',
          accept: 'application/json',
          encoding: {},
          result: 'body',
          outputCheck: 'warn',
          security: null,
          errorMessage: null,
        },
      ],
      [
        'rename_item',
        {
          method: 'PATCH',
          path: '/items/{id}',
          baseUrl: null,
          args: [
            { name: 'id', in: 'path' },
            { name: 'name', in: 'field' },
          ],
          body: 'application/x-www-form-urlencoded',
          accept: 'application/json',
          encoding: { name: { allowReserved: true } },
          result: 'body',
          outputCheck: 'warn',
          security: null,
          errorMessage: null,
        },
      ],
      [
        'search_items',
        {
          method: 'GET',
          path: '/kinds/{kind}/items',
          baseUrl: null,
          args: [
            { name: 'created', in: 'query', style: 'deepObject', explode: true },
            { name: 'kind', in: 'path' },
            { name: 'query_kind', in: 'query', wire: 'kind' },
            { name: 'tags', in: 'query', explode: false },
          ],
          body: 'application/json',
          accept: 'application/json',
          encoding: {},
          result: 'body',
          outputCheck: 'warn',
          security: null,
          errorMessage: null,
        },
      ],
      [
        'update_item',
        {
          method: 'PATCH',
          path: '/items/{id}',
          baseUrl: null,
          args: [
            { name: 'body', in: 'body' },
            { name: 'id', in: 'path' },
          ],
          body: 'application/merge-patch+json',
          accept: 'application/json',
          encoding: {},
          result: 'body',
          outputCheck: 'warn',
          security: null,
          errorMessage: null,
        },
      ],
      [
        'upload_photo',
        {
          method: 'PUT',
          path: '/items/{id}/photo',
          baseUrl: 'SHOP_UPLOADS_URL',
          args: [
            { name: 'caption', in: 'field' },
            { name: 'id', in: 'path' },
          ],
          body: 'multipart/form-data',
          accept: 'application/json',
          encoding: {},
          result: 'body',
          outputCheck: 'warn',
          security: null,
          errorMessage: null,
        },
      ],
    ]);
    expect(runtimeModules(runtimeFeatures(m))).toContain('upstream');
  });

  it('plans no handler file for a bound tool, and keeps a written one, which then overrides the binding', async () => {
    const m = await model();
    const bound = planProject(m, new Map());
    expect(bound.handlers.map((h) => [h.name, h.action])).toEqual([
      ['get_item', 'bind'],
      ['put_manual', 'bind'],
      ['rename_item', 'bind'],
      ['search_items', 'bind'],
      ['update_item', 'bind'],
      ['upload_photo', 'bind'],
    ]);
    const written = planProject(m, new Map([['src/handlers/tools/get_item.ts', 'export const getItemHandler = 1;']]));
    expect(written.handlers.map((h) => [h.name, h.action])).toEqual([
      ['get_item', 'keep'],
      ['put_manual', 'bind'],
      ['rename_item', 'bind'],
      ['search_items', 'bind'],
      ['update_item', 'bind'],
      ['upload_photo', 'bind'],
    ]);
    const files = emitBindings(m, written.handlers, ctx);
    expect(files.map((f) => f.path)).toEqual(['src/generated/bindings.gen.ts']);
    expect(files[0]?.contents).not.toContain('getItemHandler');
  });

  it('emits bindings.gen.ts: one bindTool call per bound tool, the binding as data', async () => {
    const m = await model();
    const files = emitBindings(m, planProject(m, new Map()).handlers, ctx);
    expectGolden(
      path.join(repoRoot, 'test', 'fixtures', 'golden', 'bindings', 'bindings.gen.ts'),
      files[0]?.contents ?? '',
    );
  });

  it('declares the binding types once, in the runtime, reached through the contract project', () => {
    expectTypeOf<UpstreamCredentialModel>().toEqualTypeOf<UpstreamCredentialSpec>();
    expectTypeOf<HttpBindingModel['body']>().toEqualTypeOf<HttpBindingSpec['body']>();
    expectTypeOf<HttpBindingModel['args']>().toEqualTypeOf<HttpBindingSpec['args']>();
    const contract = JSON.parse(readFileSync(path.join(repoRoot, 'templates', 'tsconfig.contract.json'), 'utf8'));
    expect(contract.files).toContain('runtime/upstream-spec.gen.ts');
    expect(readFileSync(path.join(repoRoot, 'src', 'model', 'bindings.ts'), 'utf8')).not.toMatch(/type: 'bearer'/);
    // The build emits declarations to dist/contract only: nothing compiled lands next to the templates.
    const runtime = readdirSync(path.join(repoRoot, 'templates', 'runtime'));
    expect(runtime.filter((name) => !name.endsWith('.gen.ts'))).toEqual([]);
  });
});
