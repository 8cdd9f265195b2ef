import { describe, expect, it } from 'vitest';
import { draftFromOpenApi } from '../../src/import/index.js';
import { bodyKind } from '../../src/model/media.js';

// The request bodies import openapi binds beside JSON and forms: a text type's body is one string input sent as it
// is, any other type's (octet-stream, images) a base64 string input sent as its bytes; a wildcard, or a text body
// that is not one string, stays JSON with a TODO, as before.

type Tool = { input: { properties: Record<string, unknown> }; http: Record<string, unknown> };

const put = (content: Record<string, unknown>, description?: string) => ({
  put: { requestBody: { required: true, ...(description === undefined ? {} : { description }), content } },
});

describe('import openapi: text and bytes bodies', () => {
  it('binds a text body as a string, a binary one as base64, and flags what it cannot send', () => {
    const { data, notes } = draftFromOpenApi(
      {
        openapi: '3.0.3',
        info: { title: 'Blobs', version: '1.0.0' },
        servers: [{ url: 'https://blobs.example.com' }],
        paths: {
          '/notes': put({ 'text/plain': { schema: { type: 'string', maxLength: 100 } } }),
          '/yaml': put({ 'application/x-yaml': {} }),
          '/assets': put(
            { 'application/octet-stream': { schema: { type: 'string', format: 'binary', description: 'The data' } } },
            undefined,
          ),
          '/photos': put({ 'image/png': {}, 'image/jpeg': {} }, 'The photo.'),
          '/any': put({ '*/*': { schema: { type: 'string' } } }),
          '/odd': put({ 'text/plain': { schema: { type: 'object' } } }),
        },
      },
      'blobs.json',
    );
    const tools = (data as { tools: Record<string, Tool> }).tools;
    const of = (name: string) => [tools[name]?.input.properties.body, tools[name]?.http.body];
    expect(Object.fromEntries(Object.keys(tools).map((name) => [name, of(name)]))).toEqual({
      update_notes: [{ type: 'string', maxLength: 100 }, 'text/plain'],
      update_yaml: [{ type: 'string' }, 'application/x-yaml'],
      update_assets: [
        {
          type: 'string',
          contentEncoding: 'base64',
          description: 'The data (the application/octet-stream bytes, base64)',
        },
        'application/octet-stream',
      ],
      update_photos: [
        { type: 'string', contentEncoding: 'base64', description: 'The photo. (the image/png bytes, base64)' },
        'image/png',
      ],
      update_any: [{ type: 'string' }, undefined],
      update_odd: [{ type: 'object' }, undefined],
    });
    const todos = notes.filter((n) => n.text.startsWith('TODO http')).map((n) => [n.path[1], n.text]);
    expect(todos).toEqual([
      [
        'update_any',
        'TODO http: the spec\'s body is "*/*"; the binding sends JSON (write a handler if the API needs ' +
          'another encoding)',
      ],
      [
        'update_odd',
        'TODO http: the spec\'s body is "text/plain"; the binding sends JSON (write a handler if the API needs ' +
          'another encoding)',
      ],
    ]);
  });

  it('classifies media types once for the schema, validation, import and emit', () => {
    expect(
      [
        'application/vnd.api+json',
        'multipart/form-data',
        'text/csv',
        'application/xml',
        'application/pdf',
        'application/json;version=2018-01-01',
        'text/plain; charset="utf-8"',
        'image/svg+xml',
      ].map(bodyKind),
    ).toEqual(['json', 'multipart', 'text', 'text', 'bytes', 'json', 'text', 'text']);
    // A form type in another case, or with parameters, is refused: the runtime builds forms only for the two as
    // written.
    expect(['*/*', 'image/*', 'text/plain; utf-8', 'multipart/mixed', '', 'Multipart/Form-Data'].map(bodyKind)).toEqual(
      [null, null, null, null, null, null],
    );
    expect(
      ['Application/X-WWW-Form-Urlencoded', 'application/x-www-form-urlencoded; charset=utf-8'].map(bodyKind),
    ).toEqual([null, null]);
  });
});
