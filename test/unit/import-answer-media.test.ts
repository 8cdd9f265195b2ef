import { describe, expect, it } from 'vitest';
import { draftFromOpenApi } from '../../src/import/index.js';
import { answerKind } from '../../src/model/media.js';

// An operation whose 2xx answer offers no JSON type (a CSV export, a PDF, an image) asks for what the document lists
// (`http.accept`) and has no output schema: its answer is the tool's text or content. One that offers JSON keeps its
// output schema, and asks for its JSON types when they are not `application/json` or `*/*`.

type Tool = { output?: unknown; http: Record<string, unknown> };

const get = (content: Record<string, unknown> | undefined, code = '200') => ({
  get: { responses: { [code]: { description: 'The answer.', ...(content === undefined ? {} : { content }) } } },
});

describe('import openapi: answers that are not JSON', () => {
  it('asks for the types the answer lists and drops the output schema; JSON keeps it, with its own types', () => {
    const { data } = draftFromOpenApi(
      {
        openapi: '3.0.3',
        info: { title: 'Reports', version: '1.0.0' },
        servers: [{ url: 'https://reports.example.com' }],
        paths: {
          '/csv': get({ 'text/csv': { schema: { type: 'string' } } }),
          '/pdf': get({ 'application/pdf': { schema: { type: 'string', format: 'binary' } } }),
          '/images': get({ 'image/png': {}, 'image/*': {} }),
          '/both': get({ 'text/csv': {}, 'application/json': { schema: { type: 'object', properties: {} } } }),
          '/charset': get({ 'application/json; charset=utf-8': { schema: { type: 'string' } } }),
          '/versioned': get({
            'application/json;version=2018-01-01': {
              schema: { type: 'object', properties: { id: { type: 'string' } } },
            },
          }),
          '/vendor': get({
            'application/vnd.api+json': { schema: { type: 'object', properties: { data: { type: 'object' } } } },
            'application/hal+json': {},
            'text/html': {},
          }),
          '/any': get({ '*/*': { schema: { type: 'object', properties: { id: { type: 'string' } } } } }),
          '/odd': get({ 'text/plain; version=2': {}, 'not a type': {} }, '201'),
          '/none': get(undefined),
        },
      },
      'reports.json',
    );
    const tools = (data as { tools: Record<string, Tool> }).tools;
    const of = (name: string) => [
      tools[name]?.http.accept,
      tools[name]?.output !== undefined,
      tools[name]?.http.result,
    ];
    expect(Object.fromEntries(Object.keys(tools).map((name) => [name, of(name)]))).toEqual({
      list_csv: ['text/csv', false, undefined],
      list_pdf: ['application/pdf', false, undefined],
      list_images: ['image/png, image/*', false, undefined],
      list_both: [undefined, true, undefined],
      list_charset: ['application/json; charset=utf-8', true, 'wrap'],
      list_versioned: ['application/json;version=2018-01-01', true, undefined],
      list_vendor: ['application/vnd.api+json, application/hal+json', true, undefined],
      list_any: [undefined, true, undefined],
      list_odd: ['text/plain; version=2', false, undefined],
      list_none: [undefined, false, undefined],
    });
  });

  it('reads */* and JSON types as JSON, text and forms as text, anything else as bytes, parameters aside', () => {
    const kinds = [
      '*/*',
      'application/json; charset=utf-8',
      'application/problem+json',
      'text/*',
      'text/csv',
      'application/xml',
      'image/svg+xml',
      'application/x-www-form-urlencoded',
      'image/*',
      'application/pdf',
      'application/octet-stream',
      'audio/mpeg',
    ].map((m) => [m, answerKind(m)]);
    expect(Object.fromEntries(kinds)).toEqual({
      '*/*': 'json',
      'application/json; charset=utf-8': 'json',
      'application/problem+json': 'json',
      'text/*': 'text',
      'text/csv': 'text',
      'application/xml': 'text',
      'image/svg+xml': 'text',
      'application/x-www-form-urlencoded': 'text',
      'image/*': 'bytes',
      'application/pdf': 'bytes',
      'application/octet-stream': 'bytes',
      'audio/mpeg': 'bytes',
    });
  });
});
