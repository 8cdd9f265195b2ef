import { describe, expect, it } from 'vitest';
import { pointerStem } from '../../src/import/openapi-pointer.js';
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

  it('shares a pointer into a component as one schema, so pointers that lead to pointers stay linear', () => {
    // Each level refers to the one below twice through a pointer into a component: inlined, 2^depth copies.
    const depth = 40;
    const levels: Record<string, Record<string, unknown>> = Object.fromEntries(
      Array.from({ length: depth }, (_, i) => [
        `L${i}`,
        {
          type: 'object',
          properties: {
            inner: { type: 'object', properties: { tag: { type: 'string' } } },
            ...(i + 1 < depth
              ? {
                  left: { $ref: `#/components/schemas/L${i + 1}/properties/inner` },
                  right: { $ref: `#/components/schemas/L${i + 1}/properties/inner` },
                  next: { $ref: `#/components/schemas/L${i + 1}` },
                }
              : {}),
          },
        },
      ]),
    );
    levels.L1 = { ...levels.L1, allOf: [{ $ref: '#/components/schemas/L0/properties/inner/properties/tag' }] };
    const converter = new SchemaConverter({ components: { schemas: levels } });
    const refs = new Set<string>();
    const root = converter.part({ $ref: '#/components/schemas/L0' }, refs, { circular: false });
    converter.withShared(root, refs);
    const shared = converter.sharedSchemas();
    expect(Object.keys(shared).length).toBe(2 * depth - 1 + 1);
    expect(shared.L0?.properties).toEqual({
      inner: { type: 'object', properties: { tag: { type: 'string' } } },
      left: { $ref: '#/schemas/L1_inner' },
      right: { $ref: '#/schemas/L1_inner' },
      next: { $ref: '#/schemas/L1' },
    });
    expect(shared.L1_inner).toEqual({ type: 'object', properties: { tag: { type: 'string' } } });
    expect(shared.L1?.allOf).toEqual([{ $ref: '#/schemas/L0_inner_tag' }]);
    expect(shared.L0_inner_tag).toEqual({ type: 'string' });
  });

  it('names a pointer by the names it goes through', () => {
    expect(
      ['Pet/properties/tags/items', 'Pet/allOf/0', 'a~1b/properties/properties/properties/x'].map(pointerStem),
    ).toEqual(['Pet_tags_item', 'Pet_allOf0', 'a/b_properties_x']);
  });
});
