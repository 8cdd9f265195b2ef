import { describe, expect, it } from 'vitest';
import { mapSchema, mapSchemaSorted, someSchema, walkSchema } from '../../src/model/schema-walk.js';
import { canonicalSchema, lowerHandles } from '../../src/normalize/tools.js';
import { compareText } from '../../src/util/compare.js';
import { sortKeysDeep } from '../../src/util/stable-json.js';
import type { JsonSchema } from '../../src/model/types.js';

// someSchema asks of the nodes walkSchema visits (every subschema, never a value such as a default or an example);
// normalize and validate use it to skip copying a schema without `$handle`.

const handle = { $handle: 'order' };
const places: Record<string, unknown> = {
  root: handle,
  property: { type: 'object', properties: { id: handle } },
  patternProperty: { type: 'object', patternProperties: { '^x': handle } },
  items: { type: 'array', items: handle },
  tuple: { type: 'array', items: [{ type: 'string' }, handle] },
  prefixItems: { type: 'array', prefixItems: [handle] },
  anyOf: { anyOf: [{ type: 'string' }, handle] },
  not: { not: handle },
  additionalProperties: { type: 'object', additionalProperties: handle },
  defs: { $defs: { order: handle } },
  inDefault: { type: 'object', default: { $handle: 'order' } },
  inExamples: { type: 'object', examples: [{ $handle: 'order' }] },
  inEnum: { enum: [{ $handle: 'order' }] },
  none: { type: 'object', properties: { id: { type: 'string' } } },
};

describe('someSchema', () => {
  for (const [place, schema] of Object.entries(places))
    it(`agrees with walkSchema: ${place}`, () => {
      let visited = false;
      walkSchema(schema, (node) => {
        if (typeof node.$handle === 'string') visited = true;
      });
      expect(someSchema(schema, (node) => typeof node.$handle === 'string')).toBe(visited);
      expect(visited).toBe(!['inDefault', 'inExamples', 'inEnum', 'none'].includes(place));
    });

  it('lets lowerHandles give a schema without a handle back as it is, and copy one with a handle', () => {
    const plain = places.none as JsonSchema;
    expect(lowerHandles(plain, new Map())).toBe(plain);
    const withHandle = places.property as JsonSchema;
    const lowered = lowerHandles(withHandle, new Map([['order', 'An order.']]));
    expect(lowered).not.toBe(withHandle);
    expect((lowered.properties as Record<string, Record<string, unknown>>).id).toEqual({
      description: 'A order handle (An order). Pass it back exactly as it was returned.',
      maxLength: 2048,
      minLength: 1,
      type: 'string',
    });
    expect(withHandle).toEqual({ type: 'object', properties: { id: handle } });
  });
});

describe('mapSchemaSorted', () => {
  // What canonicalSchema did in two copies: mapSchema sorting `required`, then sortKeysDeep.
  const twoCopies = (schema: unknown) =>
    sortKeysDeep(
      mapSchema(schema, (node) =>
        Array.isArray(node.required)
          ? { ...node, required: [...node.required].sort((a, b) => compareText(String(a), String(b))) }
          : node,
      ),
    );

  it('gives what mapSchema then sortKeysDeep gave, for every subschema position and value keyword', () => {
    const schema = {
      type: 'object',
      required: ['z', 'a', 'm'],
      properties: {
        z: { type: 'array', items: { required: ['b', 'a'], type: 'object', properties: { b: {}, a: true } } },
        a: { enum: [{ y: 1, x: 2 }, 'q'], default: { b: [{ d: 1, c: 2 }], a: null }, examples: [{ z: 1, a: 2 }] },
        m: { anyOf: [{ required: ['y', 'x'] }, false], not: { required: ['k', 'j'] } },
        // A property *named* required is a schema, not a list of names.
        required: { type: 'string', const: 'required' },
      },
      tuple: { items: [{ required: ['2', '10'] }, true], prefixItems: [{ b: 1, a: 2 }] },
      $defs: { later: { required: ['n', 'b'], additionalProperties: { required: ['y', 'a'] } } },
      // A keyword in the wrong form is copied as a value: sorted keys, nothing taken for a subschema.
      allOf: { required: ['b', 'a'] },
      patternProperties: ['x'],
      if: { required: ['q', 'p'] },
      else: 1,
    };
    const sorted = canonicalSchema(schema);
    expect(sorted).toEqual(twoCopies(schema));
    expect(JSON.stringify(sorted)).toBe(JSON.stringify(twoCopies(schema)));
    expect((sorted.properties as Record<string, { required?: unknown }>).required).toEqual({
      const: 'required',
      type: 'string',
    });
    expect(sorted.required).toEqual(['a', 'm', 'z']);
  });

  it('copies: nothing of the result is an object of the input', () => {
    const inner = { b: 1, a: 2 };
    const schema = { properties: { x: { default: inner } } };
    const sorted = mapSchemaSorted(schema, (node) => node) as { properties: { x: { default: unknown } } };
    expect(sorted.properties.x.default).toEqual(inner);
    expect(sorted.properties.x.default).not.toBe(inner);
    expect(mapSchemaSorted('text', (node) => node)).toBe('text');
  });
});
