import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../../src/pipeline.js';
import { runCommand } from '../../support/commands.js';
import { repoRoot } from '../../support/golden.js';
import { typecheckProjects } from '../../support/typecheck.js';

// Drafts that always build: minimal OpenAPI documents whose names or schemas once broke generate or the build,
// each imported, generated and type-checked with the generated project's own settings, and every tool schema
// compiled by the official client's validator, as tools/list would make it: component names the generated types
// declare themselves (Config, ToolHandlers) or that are JavaScript words, dotted names with a digit before a
// lower-case letter (Kubernetes' io.k8s.api.admissionregistration.v1alpha1.Rule), a path and a query parameter of
// the same name, $id, $schema, $anchor and $dynamicRef inside components, and security per operation (public,
// alternatives, a combination, a credential query parameter); each with a dated API version, kept.

const ok = (schema: unknown) => ({
  200: { description: 'ok', content: { 'application/json': { schema } } },
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const documents: Record<string, Record<string, unknown>> = {
  reserved: {
    paths: {
      '/config': { get: { operationId: 'getConfig', responses: ok(ref('Config')) } },
      '/handlers': {
        post: {
          operationId: 'createHandlers',
          requestBody: { content: { 'application/json': { schema: ref('ToolHandlers') } } },
          responses: ok(ref('delete')),
        },
      },
    },
    components: {
      schemas: {
        Config: { type: 'object', properties: { debug: { type: 'boolean' } } },
        ToolHandlers: { type: 'object', properties: { name: { type: 'string' } } },
        delete: { type: 'object', properties: { gone: { type: 'boolean' } } },
        Services: { type: 'object', properties: { list: { type: 'array', items: ref('Config') } } },
      },
    },
  },
  dotted: {
    paths: {
      '/apis/admissionregistration.k8s.io/v1alpha1/rules': {
        get: {
          operationId: 'listAdmissionregistrationV1alpha1Rule',
          responses: ok(ref('io.k8s.api.admissionregistration.v1alpha1.RuleList')),
        },
      },
    },
    components: {
      schemas: {
        'io.k8s.api.admissionregistration.v1alpha1.Rule': {
          type: 'object',
          properties: { apiGroups: { type: 'array', items: { type: 'string' } } },
        },
        'io.k8s.api.admissionregistration.v1alpha1.RuleList': {
          type: 'object',
          properties: { items: { type: 'array', items: ref('io.k8s.api.admissionregistration.v1alpha1.Rule') } },
        },
        'io.k8s.api.admissionregistration.v1Alpha1.Rule': { type: 'object', properties: { other: { type: 'string' } } },
      },
    },
  },
  'path-and-query': {
    paths: {
      '/namespaces/{namespace}/pods/{name}/proxy/{path}': {
        parameters: [
          { name: 'namespace', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'name', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'path', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'path', in: 'query', schema: { type: 'string' } },
        ],
        get: { operationId: 'connectGetNamespacedPodProxyWithPath', responses: ok({ type: 'string' }) },
      },
    },
  },
  identifiers: {
    paths: {
      '/pets': { get: { operationId: 'listPets', responses: ok(ref('PetList')) } },
    },
    components: {
      schemas: {
        Pet: {
          $id: 'https://example.com/schemas/pet',
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          $anchor: 'pet',
          $dynamicAnchor: 'node',
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $dynamicRef: '#node' } } },
        },
        PetList: {
          $id: 'https://example.com/schemas/pet-list',
          type: 'object',
          properties: { pets: { type: 'array', items: ref('Pet') }, first: { $ref: '#pet' } },
        },
      },
    },
  },
  security: {
    security: [{ bearer: [] }],
    paths: {
      '/health': { get: { operationId: 'health', security: [], responses: ok({ type: 'string' }) } },
      '/items': {
        get: {
          operationId: 'listItems',
          security: [{ key: [] }, { basic: [] }],
          parameters: [{ name: 'api_key', in: 'query', schema: { type: 'string' } }],
          responses: ok({ type: 'string' }),
        },
        delete: { operationId: 'dropItems', security: [{ bearer: [], key: [] }], responses: ok({ type: 'string' }) },
      },
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        key: { type: 'apiKey', in: 'cookie', name: 'session' },
        basic: { type: 'http', scheme: 'basic' },
      },
    },
  },
};

const root = path.join(repoRoot, '.test-out', 'drafts-build');
const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');

describe('drafts that always build', () => {
  it('imports, generates and type-checks each document; the official client compiles every tool schema', async () => {
    rmSync(root, { recursive: true, force: true });
    for (const [name, parts] of Object.entries(documents)) {
      const dir = path.join(root, name);
      mkdirSync(dir, { recursive: true });
      const spec = {
        openapi: '3.1.0',
        // A dated API version, as Stripe's: not semantic, kept as imported.
        info: { title: name, version: '2023-10-16' },
        servers: [{ url: 'https://api.example.com' }],
        ...parts,
      };
      writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(spec));
      const imported = runCommand('node', [cli, 'import', 'openapi', 'spec.json', '--out', 'mcp.yaml'], dir);
      expect(imported.code, imported.output).toBe(0);
      const generated = runCommand('node', [cli, 'generate', 'mcp.yaml'], dir);
      expect(generated.code, generated.output).toBe(0);
      const { model } = await runPipeline({ manifest: path.join(dir, 'mcp.yaml'), cwd: dir }, 'normalize');
      expect(model?.server.version).toBe('0.1.0');
      const registry = JSON.parse(readFileSync(path.join(dir, 'src', 'generated', 'registry.gen.json'), 'utf8'));
      expect(registry.discover._meta['io.modelcontextprotocol/serverInfo'].version).toBe('2023-10-16');
      const validator = new AjvJsonSchemaValidator();
      for (const tool of model?.tools ?? [])
        for (const schema of [tool.wireInput, tool.wireOutput].filter((s) => s !== null))
          expect(() => validator.getValidator(schema as never), `${name}: ${tool.name}`).not.toThrow();
    }
    const tsc = typecheckProjects(root, ['*/src/**/*.ts', '*/test/**/*.ts']);
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);
  });
});
