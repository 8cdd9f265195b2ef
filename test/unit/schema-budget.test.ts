import { describe, expect, it } from 'vitest';
import { compareText } from '../../src/util/compare.js';
import { draftFromOpenApi } from '../../src/import/from-openapi.js';
import { SchemaConverter } from '../../src/import/openapi-schema.js';
import { outputBudget, prunedReview } from '../../src/import/schema-budget.js';

// A tool schema carries, as $defs, every component it reaches; past its budget (count and depth) the references
// that reach the most become pruned objects, deterministically, and the draft says so.

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `wide` refers to 200 leaf components; `node` refers to itself; `chain0` … `chain19` is 20 references deep. */
function document(): Record<string, unknown> {
  const schemas: Record<string, unknown> = {
    node: { type: 'object', properties: { children: { type: 'array', items: ref('node') } } },
    tag: { type: 'object', properties: { name: { type: 'string' } } },
    wide: {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, ref(`leaf${i}`)])),
    },
    choice: { anyOf: [{ type: 'string' }, ref('wide')] },
  };
  for (let i = 0; i < 200; i += 1) schemas[`leaf${i}`] = { type: 'object', properties: { id: { type: 'string' } } };
  for (let i = 0; i < 20; i += 1)
    schemas[`chain${i}`] = { type: 'object', properties: i === 19 ? {} : { next: ref(`chain${i + 1}`) } };
  return { components: { schemas } };
}

function output(schema: unknown) {
  const converter = new SchemaConverter(document());
  const refs = new Set<string>();
  const findings = { circular: false, prunedOutput: [] as string[] };
  const root = converter.part(schema, refs, findings);
  const bounded = converter.withShared(root, refs, outputBudget, findings.prunedOutput);
  return { bounded, pruned: findings.prunedOutput, shared: Object.keys(converter.sharedSchemas()) };
}

describe('schema budget', () => {
  it('keeps a recursive component: it is one shared schema, however deep the data', () => {
    expect(output({ type: 'object', properties: { tree: ref('node') } })).toEqual({
      bounded: { type: 'object', properties: { tree: { $ref: '#/schemas/node' } } },
      pruned: [],
      shared: ['node'],
    });
  });

  it('prunes a reference to a graph of 201 components and keeps the small ones beside it', () => {
    expect(output({ type: 'object', properties: { all: ref('wide'), tag: ref('tag') } })).toEqual({
      bounded: {
        type: 'object',
        properties: {
          all: {
            type: 'object',
            description: 'A wide object (schema pruned: see DESIGN.md)',
            additionalProperties: true,
          },
          tag: { $ref: '#/schemas/tag' },
        },
      },
      pruned: ['wide'],
      shared: ['tag'],
    });
  });

  it('prunes a component that is not an object to any value, and one 20 references deep', () => {
    expect(output({ type: 'object', properties: { one: ref('choice'), deep: ref('chain0') } })).toEqual({
      bounded: {
        type: 'object',
        properties: {
          one: { description: 'A choice object (schema pruned: see DESIGN.md)' },
          deep: {
            type: 'object',
            description: 'A chain0 object (schema pruned: see DESIGN.md)',
            additionalProperties: true,
          },
        },
      },
      pruned: ['chain0', 'choice'],
      shared: [],
    });
  });

  it('keeps a chain 12 references deep, the output limit', () => {
    expect(output({ type: 'object', properties: { deep: ref('chain8') } }).pruned).toEqual([]);
  });

  it('writes a draft note and a report flag per pruned schema', () => {
    expect(
      prunedReview('get_all', ['tools', 'get_all'], { prunedInput: [], prunedOutput: ['choice', 'wide'] }),
    ).toEqual({
      notes: [
        {
          path: ['tools', 'get_all', 'output'],
          text:
            "TODO schema: the output reached more of the spec's components than a client holds (at most 64 shared " +
            'schemas, 12 references deep); choice, wide became open objects; name the members a model needs',
        },
      ],
      flags: [
        'tool "get_all": output schema pruned to fit at most 64 shared schemas, 12 references deep (choice, wide)',
      ],
    });
  });

  it('prunes an imported output and says so in the draft and the report, the input untouched', () => {
    const api = {
      openapi: '3.1.0',
      info: { title: 'Wide', version: '1.0.0' },
      paths: {
        '/all': {
          get: {
            operationId: 'getAll',
            summary: 'Get everything',
            responses: { '200': { content: { 'application/json': { schema: ref('wide') } } } },
          },
        },
      },
      ...document(),
    };
    const draft = draftFromOpenApi(api, 'wide.json');
    const tools = draft.data.tools as Record<string, { output: { properties: Record<string, unknown> } }>;
    // 200 references of one component each: the first 136 by name go, the last 64 (leaf41 ... leaf99) stay.
    const names = Array.from({ length: 200 }, (_, i) => `leaf${i}`).sort(compareText);
    expect(names.indexOf('leaf41')).toBe(136);
    expect([tools.get_all?.output.properties.p0, tools.get_all?.output.properties.p99]).toEqual([
      { type: 'object', description: 'A leaf0 object (schema pruned: see DESIGN.md)', additionalProperties: true },
      { $ref: '#/schemas/leaf99' },
    ]);
    expect(Object.keys(draft.data.schemas as object)).toEqual(names.slice(136));
    expect(draft.flags.filter((f) => f.includes('pruned'))).toEqual([
      `tool "get_all": output schema pruned to fit at most 64 shared schemas, 12 references deep (${names
        .slice(0, 136)
        .join(', ')})`,
    ]);
    expect(draft.notes.filter((n) => n.text.startsWith('TODO schema')).map((n) => n.path)).toEqual([
      ['tools', 'get_all', 'output'],
    ]);
  });
});
