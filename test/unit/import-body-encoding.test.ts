import { describe, expect, it } from 'vitest';
import { draftFromOpenApi } from '../../src/import/index.js';

// The Encoding Object of a form or multipart body: the import keeps what a binding sends (style, explode,
// allowReserved, a part's one content type) and says what it does not, naming the operation and the member. A part's
// `headers` were dropped without a word, so the part went out without headers the document declares; a part type
// that is a range or a list was sent as the part's Content-Type as written.

const draft = (content: Record<string, unknown>, openapi = '3.1.0') =>
  draftFromOpenApi(
    {
      openapi,
      info: { title: 'Parts', version: '1.0.0' },
      servers: [{ url: 'https://api.example.com' }],
      paths: { '/uploads': { post: { operationId: 'upload', requestBody: { content } } } },
    },
    'parts.json',
  );
const schema = {
  type: 'object',
  properties: {
    file: { type: 'string', format: 'binary' },
    meta: { type: 'object', properties: { a: { type: 'integer' } } },
    tags: { type: 'array', items: { type: 'string' } },
  },
};
const http = (d: ReturnType<typeof draft>) =>
  (d.data as { tools: Record<string, { http?: Record<string, unknown> }> }).tools.upload?.http;
const at = 'tool "upload" (POST /uploads): ';

describe('import openapi: the Encoding Object of a body', () => {
  it('multipart: flags the required part headers and a part type that is a range or a list', () => {
    const d = draft({
      'multipart/form-data': {
        schema,
        encoding: {
          file: {
            contentType: 'image/png, image/jpeg',
            headers: { 'X-Checksum': { required: true, schema: { type: 'string' } }, 'content-type': {} },
          },
          // Optional headers may be left out, as the binding does: no line. A $ref's Header Object is not read here.
          meta: {
            contentType: 'application/json',
            headers: { 'X-Rate': {}, 'X-Trace': { required: false }, 'X-Id': { $ref: '#/components/headers/Id' } },
          },
          tags: { contentType: 'text/*' },
        },
      },
    });
    expect(http(d)?.encoding).toEqual({ meta: { contentType: 'application/json' } });
    expect(d.flags.filter((f) => f.startsWith(at))).toEqual([
      `${at}body member "file" has contentType "image/png, image/jpeg", a range or list rather than one type; its ` +
        'part is sent with the default type (application/octet-stream for a file, application/json for an object, ' +
        'none for text): set http.encoding.file.contentType to the one the API takes',
      `${at}body member "file" has the required part header "X-Checksum" in its Encoding Object, which the binding ` +
        'does not send (write a handler if the API needs it)',
      `${at}body member "meta" has the required part header "X-Id" in its Encoding Object, which the binding does ` +
        'not send (write a handler if the API needs it)',
      `${at}body member "tags" has contentType "text/*", a range or list rather than one type; its part is sent ` +
        'with the default type (application/octet-stream for a file, application/json for an object, none for ' +
        'text): set http.encoding.tags.contentType to the one the API takes',
    ]);
  });

  // OpenAPI 3.1 applies style, explode and allowReserved to a multipart part (3.0 says to ignore them); the multipart
  // body sends each array item as its own part, so `explode: false` went into http.encoding and was not sent.
  const styled = {
    'multipart/form-data': {
      schema,
      encoding: {
        file: { contentType: 'image/png', allowReserved: true },
        meta: { style: 'form', explode: true },
        tags: { style: 'pipeDelimited', explode: false },
      },
    },
  };

  it('multipart, OpenAPI 3.1: keeps no style field and flags those that ask for other than a part per item', () => {
    const d = draft(styled);
    expect(http(d)?.encoding).toEqual({ file: { contentType: 'image/png' } });
    expect(d.flags.filter((f) => f.startsWith(at))).toEqual([
      `${at}body member "tags" has style "pipeDelimited", explode false in its Encoding Object, which OpenAPI 3.1 ` +
        'applies to a multipart part but the binding does not: an array is sent one part per item, an object as ' +
        'one application/json part (write a handler if the API reads one joined value)',
    ]);
  });

  it('multipart, OpenAPI 3.0: the style fields, which 3.0 says to ignore there, are left out without a word', () => {
    const d = draft(styled, '3.0.3');
    expect([http(d)?.encoding, d.flags.filter((f) => f.startsWith(at))]).toEqual([
      { file: { contentType: 'image/png' } },
      [],
    ]);
  });

  it('a form: flags a contentType OpenAPI does not ignore; headers, which a form ignores, are not flagged', () => {
    const d = draft({
      'application/x-www-form-urlencoded': {
        schema,
        encoding: {
          file: { contentType: 'text/plain', headers: { 'X-Checksum': {} } },
          meta: { contentType: 'application/json' },
          tags: { contentType: 'application/json', style: 'pipeDelimited' },
        },
      },
    });
    expect(http(d)?.encoding).toEqual({ tags: { style: 'pipeDelimited' } });
    expect(d.flags.filter((f) => f.startsWith(at))).toEqual([
      `${at}body member "meta" has contentType "application/json", which mcp-gen does not encode a form member ` +
        'by; it is sent in the form style (write a handler if the API reads that type)',
    ]);
  });

  it('a JSON body ignores its encoding, as OpenAPI says, without a word', () => {
    const d = draft({
      'application/json': { schema, encoding: { meta: { contentType: 'text/*', headers: { 'X-Rate': {} } } } },
    });
    expect([http(d)?.encoding, d.flags.filter((f) => f.startsWith(at))]).toEqual([undefined, []]);
  });
});
