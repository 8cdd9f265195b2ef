import { describe, expect, it } from 'vitest';
import { SchemaConverter } from '../../src/import/openapi-schema.js';

// Component schemas of an OpenAPI document become the manifest's shared schemas (`#/schemas/<name>`):
// converted once, written once, recursion kept as a reference, titles dropped so no two
// TypeScript types share a name, and keys that would give two types one name kept apart.

const document = {
  components: {
    schemas: {
      'simple-user': { title: 'Simple User', type: 'object', properties: { login: { type: 'string' } } },
      'nullable-simple-user': {
        title: 'Simple User',
        type: 'object',
        nullable: true,
        properties: { login: { type: 'string' } },
      },
      node: { type: 'object', properties: { child: { $ref: '#/components/schemas/node' } } },
      issue: {
        type: 'object',
        example: { $ref: '#/components/examples/issue' },
        properties: {
          user: { $ref: '#/components/schemas/simple-user' },
          assignee: { $ref: '#/components/schemas/nullable-simple-user' },
        },
      },
      simple_user: { type: 'string' },
    },
  },
};

describe('SchemaConverter', () => {
  it('writes each component a schema reaches once, as a shared schema, with titles and $ref examples dropped', () => {
    const converter = new SchemaConverter(document);
    const refs = new Set<string>();
    const root = converter.part({ $ref: '#/components/schemas/issue' }, refs, { circular: false });
    expect([converter.withShared(converter.inlineRoot(root, refs), refs), converter.sharedSchemas()]).toEqual([
      {
        type: 'object',
        properties: { user: { $ref: '#/schemas/simple-user' }, assignee: { $ref: '#/schemas/nullable-simple-user' } },
      },
      {
        'nullable-simple-user': { type: ['object', 'null'], properties: { login: { type: 'string' } } },
        'simple-user': { type: 'object', properties: { login: { type: 'string' } } },
      },
    ]);
  });

  it('keeps a recursive component a reference to itself', () => {
    const converter = new SchemaConverter(document);
    const refs = new Set<string>();
    const findings = { circular: false };
    const root = converter.part({ type: 'array', items: { $ref: '#/components/schemas/node' } }, refs, findings);
    expect([converter.withShared(root, refs), converter.sharedSchemas(), findings.circular]).toEqual([
      { type: 'array', items: { $ref: '#/schemas/node' } },
      { node: { type: 'object', properties: { child: { $ref: '#/schemas/node' } } } },
      false,
    ]);
  });

  it('gives two components whose keys name one type different keys', () => {
    const converter = new SchemaConverter(document);
    const refs = new Set<string>();
    const root = converter.part(
      { anyOf: [{ $ref: '#/components/schemas/simple-user' }, { $ref: '#/components/schemas/simple_user' }] },
      refs,
      { circular: false },
    );
    expect(root).toEqual({ anyOf: [{ $ref: '#/schemas/simple-user' }, { $ref: '#/schemas/simple_user_2' }] });
  });

  it('inlines any other local pointer, and cuts one that leads back to itself', () => {
    const loop = { paths: { a: { schema: { type: 'object', properties: { again: { $ref: '#/paths/a/schema' } } } } } };
    const converter = new SchemaConverter(loop);
    const findings = { circular: false };
    expect([converter.part({ $ref: '#/paths/a/schema' }, new Set(), findings), findings.circular]).toEqual([
      { type: 'object', properties: { again: {} } },
      true,
    ]);
  });
});
