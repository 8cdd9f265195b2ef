import { describe, expect, it } from 'vitest';
import {
  compileSchema,
  compileUnreferenced,
  type PreparedSchema,
  reusingCompile,
} from '../../src/emit/types/compile.js';

// A schema without `$ref` skips the library's option merge, deep copy and dereferencing (compile.ts,
// compileUnreferenced); what it gets must be exactly what the library's `compile` gives, for every shape the
// compiler treats on its own: each schema below is built fresh for each path, since the direct one changes it.

// Built by hand, not by prepareSchema, which would drop `tsType`: each call gives a new tree.
const shapes: Record<string, () => Record<string, unknown>> = {
  empty: () => ({ type: 'object', properties: {} }),
  closed: () => ({
    type: 'object',
    additionalProperties: false,
    properties: { owner: { type: 'string', description: 'The account owner. */ ends a comment' } },
    required: ['owner'],
  }),
  nullable: () => ({
    type: 'object',
    properties: {
      a: { type: ['string', 'null'] },
      b: { type: 'string', nullable: true },
      c: { enum: [null] },
      d: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
    },
  }),
  enums: () => ({
    type: 'object',
    properties: {
      state: { type: 'string', enum: ['open', 'closed', 'all'], default: 'open' },
      level: { const: 3 },
      mixed: { enum: ['a', 1, true, null] },
    },
  }),
  combinators: () => ({
    type: 'object',
    properties: {
      one: { oneOf: [{ type: 'string' }, { type: 'object', properties: { id: { type: 'integer' } } }] },
      all: { allOf: [{ type: 'object', properties: { x: { type: 'number' } } }, { required: ['x'] }] },
      not: { not: { type: 'string' } },
    },
  }),
  arrays: () => ({
    type: 'object',
    properties: {
      list: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
      tuple: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
      nested: { type: 'array', items: { type: 'array', items: { type: 'boolean' } } },
      open: { type: 'array' },
    },
  }),
  maps: () => ({
    type: 'object',
    properties: {
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      patterned: { type: 'object', patternProperties: { '^x-': { type: 'integer' } } },
      anything: {},
    },
    additionalProperties: { type: 'number' },
  }),
  titled: () => ({
    type: 'object',
    properties: {
      user: { title: 'Simple User', type: 'object', properties: { login: { type: 'string' } }, required: ['login'] },
      owner: { title: 'Simple User', type: 'object', properties: { id: { type: 'integer' } } },
      root: { title: 'Titled', type: 'string', deprecated: true },
    },
  }),
  named: () => ({
    type: 'object',
    properties: { handle: { type: 'string', tsType: 'Verified<Order>' }, user: { tsType: 'SimpleUser' } },
    definitions: { unused: { type: 'string' } },
  }),
  defs: () => ({ type: 'object', properties: { n: { type: 'number' } }, $defs: { other: { type: 'integer' } } }),
  keys: () => ({
    type: 'object',
    properties: { 'with space': { type: 'string' }, '0digit': { type: 'integer' }, 'dash-ed': { type: 'boolean' } },
  }),
};

describe('compiling a schema without $ref directly', () => {
  for (const [label, make] of Object.entries(shapes))
    it(`gives the library's own text: ${label}`, async () => {
      expect(compileUnreferenced(make() as PreparedSchema, 'ToolInput')).toBe(await compileSchema(make(), 'ToolInput'));
    });

  it('is what reusingCompile takes for a schema without $ref, and a schema with one takes the library', async () => {
    const compile = reusingCompile();
    expect(await compile((shapes.titled?.() ?? {}) as PreparedSchema, 'GetUserOutput')).toBe(
      await compileSchema(shapes.titled?.() ?? {}, 'GetUserOutput'),
    );
    const recursive = () =>
      ({ type: 'object', properties: { next: { $ref: '#' }, value: { type: 'string' } } }) as Record<
        string,
        unknown
      > as PreparedSchema;
    expect(await compile(recursive(), 'NodeInput')).toBe(await compileSchema(recursive(), 'NodeInput'));
  });
});
