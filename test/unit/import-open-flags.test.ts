import { describe, expect, it } from 'vitest';
import { draftFromOpenApi } from '../../src/import/index.js';
import { isOpenObject, isUndescribedObject } from '../../src/import/openapi-tool.js';

// The import's "open schema" flags name only schemas a reviewer must describe: an operation without parameters
// takes exactly nothing, an empty answer that forbids keys is described, and so is a map with typed values.

const ok = (schema: unknown) => ({
  '200': { description: 'OK', content: { 'application/json': { schema } } },
});

/** A spec with one GET operation per entry of `operations`: its request body or parameters, and its answer. */
function spec(operations: Record<string, { body?: unknown; parameters?: unknown[]; answer: unknown }>) {
  const paths: Record<string, unknown> = {};
  for (const [id, { body, parameters, answer }] of Object.entries(operations))
    paths[`/${id}`] = {
      [body === undefined ? 'get' : 'post']: {
        operationId: id,
        summary: `The ${id} operation, described at length for the test`,
        ...(parameters === undefined ? {} : { parameters }),
        ...(body === undefined
          ? {}
          : { requestBody: { required: true, content: { 'application/json': { schema: body } } } }),
        responses: ok(answer),
      },
    };
  return { openapi: '3.0.3', info: { title: 'Flags', version: '1.0.0' }, paths };
}

const openFlags = (flags: readonly string[]) => flags.filter((flag) => flag.includes(': open '));

describe('open schema flags of an import', () => {
  it('flags only what accepts keys it does not name, or answers what nobody described', () => {
    const draft = draftFromOpenApi(
      spec({
        getMeta: { answer: { type: 'object', properties: { version: { type: 'string' } } } },
        getInventory: { answer: { type: 'object', additionalProperties: { type: 'integer' } } },
        putEmpty: {
          body: { type: 'object', properties: { name: { type: 'string' } } },
          answer: {
            type: 'object',
            description: 'An object without any properties.',
            properties: {},
            additionalProperties: false,
          },
        },
        getNothingSaid: { answer: { type: 'object', properties: {} } },
        postAnything: { body: { type: 'object' }, answer: { type: 'object' } },
        postLabels: {
          body: { type: 'object', additionalProperties: { type: 'string' } },
          answer: { type: 'object', additionalProperties: true },
        },
      }),
      'flags.json',
    );
    expect(openFlags(draft.flags)).toEqual([
      'tool "get_nothing_said": open output schema',
      'tool "post_anything": open input schema (an object that accepts any keys); name the properties the API needs',
      'tool "post_anything": open output schema',
      'tool "post_labels": open input schema (an object that accepts any keys); name the properties the API needs',
      'tool "post_labels": open output schema',
    ]);
  });

  it('reads additionalProperties: false as closed, even without properties', () => {
    expect(isOpenObject({ type: 'object', additionalProperties: false, properties: {} })).toBe(false);
    expect(isOpenObject({ type: 'object', additionalProperties: false })).toBe(false);
    expect(isOpenObject({ type: 'object', properties: {} })).toBe(true);
    expect(isOpenObject({ type: 'object' })).toBe(true);
    expect(isOpenObject({})).toBe(true);
    expect(isOpenObject({ type: 'string' })).toBe(false);
    expect(isOpenObject({ type: 'object', properties: { a: {} }, additionalProperties: true })).toBe(true);
    expect(isOpenObject({ type: 'object', properties: { a: {} }, additionalProperties: { type: 'string' } })).toBe(
      true,
    );
    expect(isOpenObject({ type: 'object', properties: { a: {} } })).toBe(false);
  });

  it('reads a map with typed values as described, one with any values as not', () => {
    expect(isUndescribedObject({ type: 'object', additionalProperties: { type: 'integer' } })).toBe(false);
    expect(isUndescribedObject({ type: 'object', additionalProperties: {} })).toBe(true);
    expect(isUndescribedObject({ type: 'object', additionalProperties: true })).toBe(true);
    expect(isUndescribedObject({ type: 'object', additionalProperties: false, properties: {} })).toBe(false);
    expect(isUndescribedObject({ type: 'object' })).toBe(true);
    expect(isUndescribedObject(undefined)).toBe(true);
  });
});
