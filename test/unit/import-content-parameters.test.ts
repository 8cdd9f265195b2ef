import { describe, expect, it } from 'vitest';
import { draftFromOpenApi } from '../../src/import/index.js';
import type { ManifestTool } from '../../src/model/manifest.gen.js';
import { normalizeBinding } from '../../src/normalize/bindings.js';
import { buildRequest } from '../../templates/runtime/upstream-request.gen.js';
import type { HttpBindingSpec } from '../../templates/runtime/upstream-spec.gen.js';

// A parameter described by `content` (one media type) rather than `schema`: OpenAPI serializes its value with that
// media type, then percent-encodes it. The import made it a bare string input sent as the model wrote it; now a JSON
// type's schema is the input and the binding sends the value's JSON text, and any other type is left out and said.

const document = (parameters: unknown[]) => ({
  openapi: '3.1.0',
  info: { title: 'Wire', version: '1.0.0' },
  servers: [{ url: 'https://api.example.com' }],
  paths: {
    '/items/{sel}': { get: { operationId: 'listItems', parameters, responses: { '200': { description: 'OK' } } } },
  },
});

const json = (schema: unknown) => ({ 'application/json': { schema } });
const sel = { name: 'sel', in: 'path', required: true, content: json({ type: 'array', items: { type: 'integer' } }) };
const filter = {
  name: 'filter',
  in: 'query',
  description: 'What to match.',
  content: json({ type: 'object', additionalProperties: false, properties: { a: { type: 'integer' } } }),
};
const opts = {
  name: 'X-Opts',
  in: 'header',
  content: { 'application/vnd.opts+json': { schema: { type: 'object', properties: { b: { type: 'boolean' } } } } },
};
const prefs = { name: 'prefs', in: 'cookie', content: { 'application/json': {} } };

const drafted = (parameters: unknown[]) => {
  const draft = draftFromOpenApi(document(parameters), 'wire.json');
  const tools = (draft.data as { tools: Record<string, ManifestTool> }).tools;
  return { tool: tools.list_items, flags: draft.flags };
};

describe('import openapi: a parameter described by content', () => {
  it("takes a JSON type's schema as the input, and records the media type in its args entry", () => {
    const { tool, flags } = drafted([sel, filter, opts, prefs]);
    expect(tool?.input).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['sel'],
      properties: {
        sel: { type: 'array', items: { type: 'integer' } },
        filter: {
          type: 'object',
          additionalProperties: false,
          properties: { a: { type: 'integer' } },
          description: 'What to match.',
        },
        'X-Opts': { type: 'object', properties: { b: { type: 'boolean' } } },
        prefs: {},
      },
    });
    expect(tool?.http).toEqual({
      method: 'GET',
      path: '/items/{sel}',
      args: {
        'X-Opts': { in: 'header', content: 'application/vnd.opts+json' },
        filter: { in: 'query', content: 'application/json' },
        prefs: { in: 'cookie', content: 'application/json' },
        sel: { in: 'path', content: 'application/json' },
      },
    });
    expect(flags.filter((f) => f.includes('content'))).toEqual([]);
  });

  it('sends each value as its JSON text, percent-encoded in the path, the query and a cookie', () => {
    const { tool } = drafted([sel, filter, opts, prefs]);
    const http = normalizeBinding(tool?.http);
    if (http === null) throw new Error('no binding');
    const binding: HttpBindingSpec = {
      tool: 'list_items',
      method: http.method,
      path: http.path,
      args: http.args,
      body: http.body,
      result: 'body',
      errorMessage: null,
      structured: false,
    };
    const request = buildRequest(binding, 'https://api.example.com', {
      sel: [1, 2],
      filter: { a: 1 },
      'X-Opts': { b: true },
      prefs: 'dark & wide',
    });
    expect(request.url.href).toBe('https://api.example.com/items/%5B1%2C2%5D?filter=%7B%22a%22%3A1%7D');
    expect([request.headers.get('x-opts'), request.headers.get('cookie')]).toEqual([
      '{"b":true}',
      'prefs=%22dark%20%26%20wide%22',
    ]);
  });

  it('leaves out a parameter of another media type, or of none or several, and says so', () => {
    const xml = { name: 'xml', in: 'query', content: { 'application/xml': { schema: { type: 'object' } } } };
    const two = { name: 'two', in: 'query', content: { 'application/json': {}, 'text/plain': {} } };
    const none = { name: 'none', in: 'header', content: {} };
    const { tool, flags } = drafted([{ ...sel, content: { 'text/plain': {} } }, xml, two, none, filter]);
    expect([tool?.http, Object.keys(tool?.input.properties ?? {})]).toEqual([undefined, ['filter']]);
    const at = 'tool "list_items" (GET /items/{sel}): ';
    expect(flags.filter((f) => f.startsWith(at))).toEqual([
      `${at}parameter "sel" has content "text/plain", which mcp-gen cannot encode in the path (JSON only); it is ` +
        'left out of the tool (write a handler)',
      `${at}parameter "xml" has content "application/xml", which mcp-gen cannot encode in the query (JSON only); ` +
        'it is left out of the tool (write a handler)',
      `${at}parameter "two" has content in 2 media types ("application/json", "text/plain"), where OpenAPI allows ` +
        'one, so mcp-gen cannot tell which encodes it; it is left out of the tool (write a handler)',
      `${at}parameter "none" has content with no media type, so mcp-gen cannot tell how to encode it; it is left ` +
        'out of the tool (write a handler)',
      `${at}its path cannot be built without that parameter, so it has no http binding`,
    ]);
  });

  it('keeps a schema parameter as it was: its schema, serialized by style', () => {
    const { tool } = drafted([{ ...sel, schema: { type: 'string' }, content: undefined }]);
    expect([tool?.input.properties, tool?.http?.args]).toEqual([{ sel: { type: 'string' } }, { sel: 'path' }]);
  });
});
