import { describe, expect, it } from 'vitest';
import { someSchema, walkSchema } from '../../src/model/schema-walk.js';
import { lowerHandles } from '../../src/normalize/tools.js';
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
