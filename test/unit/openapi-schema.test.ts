import { describe, expect, it } from 'vitest';
import { SchemaConverter } from '../../src/import/openapi-schema.js';

// Component schemas of an OpenAPI document become `$defs` of each tool schema that reaches them:
// converted once, each carried once per tool, recursion kept as a reference, titles dropped so no two
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
  it('carries each component a schema reaches once, under $defs, with titles and $ref examples dropped', () => {
    const converter = new SchemaConverter(document);
    const refs = new Set<string>();
    const root = converter.part({ $ref: '#/components/schemas/issue' }, refs, { circular: false });
    expect(converter.withDefs(converter.inlineRoot(root, refs), refs)).toEqual({
      type: 'object',
      properties: { user: { $ref: '#/$defs/simple-user' }, assignee: { $ref: '#/$defs/nullable-simple-user' } },
      $defs: {
        'nullable-simple-user': { type: ['object', 'null'], properties: { login: { type: 'string' } } },
        'simple-user': { type: 'object', properties: { login: { type: 'string' } } },
      },
    });
  });

  it('keeps a recursive component a reference to itself', () => {
    const converter = new SchemaConverter(document);
    const refs = new Set<string>();
    const findings = { circular: false };
    const root = converter.part({ type: 'array', items: { $ref: '#/components/schemas/node' } }, refs, findings);
    expect([converter.withDefs(root, refs), findings.circular]).toEqual([
      {
        type: 'array',
        items: { $ref: '#/$defs/node' },
        $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } },
      },
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
    expect(root).toEqual({ anyOf: [{ $ref: '#/$defs/simple-user' }, { $ref: '#/$defs/simple_user_2' }] });
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
