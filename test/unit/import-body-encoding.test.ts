import { describe, expect, it } from 'vitest';
import { draftFromOpenApi } from '../../src/import/index.js';

// The Encoding Object of a form or multipart body: the import keeps what a binding sends (style, explode,
// allowReserved, a part's one content type) and says what it does not, naming the operation and the member. A part's
// `headers` were dropped without a word, so the part went out without headers the document declares; a part type
// that is a range or a list was sent as the part's Content-Type as written.

const draft = (content: Record<string, unknown>) =>
  draftFromOpenApi(
    {
      openapi: '3.1.0',
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
  it('multipart: flags part headers, a part type that is a range or a list, and a style no form takes', () => {
    const d = draft({
      'multipart/form-data': {
        schema,
        encoding: {
          file: {
            contentType: 'image/png, image/jpeg',
            headers: { 'X-Checksum': { required: true, schema: { type: 'string' } }, 'content-type': {} },
          },
          meta: { contentType: 'application/json', headers: { 'X-Rate': {}, 'X-Trace': {} } },
          tags: { style: 'matrix', contentType: 'text/*' },
        },
      },
    });
    expect(http(d)?.encoding).toEqual({ meta: { contentType: 'application/json' } });
    expect(d.flags.filter((f) => f.startsWith(at))).toEqual([
      `${at}body member "file" has contentType "image/png, image/jpeg", a range or list rather than one type; its ` +
        'part is sent with the default type (application/octet-stream for a file, application/json for an object, ' +
        'none for text): set http.encoding.file.contentType to the one the API takes',
      `${at}body member "file" has the part header "X-Checksum" in its Encoding Object, which the binding does not ` +
        'send (write a handler if the API needs it)',
      `${at}body member "meta" has the part headers "X-Rate", "X-Trace" in its Encoding Object, which the binding ` +
        'does not send (write a handler if the API needs them)',
      `${at}body member "tags" has style "matrix", which mcp-gen cannot encode in a form; it is sent as form`,
      `${at}body member "tags" has contentType "text/*", a range or list rather than one type; its part is sent ` +
        'with the default type (application/octet-stream for a file, application/json for an object, none for ' +
        'text): set http.encoding.tags.contentType to the one the API takes',
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
