import { describe, expect, it } from 'vitest';
import { bindTool, startUpstream, type UpstreamSpec } from '../../../templates/runtime/upstream.gen.js';
import { generated, importedUpstream } from './imported.js';

// Swagger 2.0's collectionFormat, from the document to the bytes a recording upstream on 127.0.0.1 receives. A
// formData array is csv unless it says (`a,b`), which swagger2openapi drops from the body it makes, so the form
// sent `a=1&a=2`; and a format OpenAPI 3 has no style for (pipes in the path or a header, tsv anywhere), which the
// converter only marks, was sent as csv or exploded. Now the form keeps its format, and the others are said.

const { out, seen, config } = importedUpstream('upstream-swagger-formats', 'FORMATS_URL');

const ok = { '200': { description: 'ok' } };
const strings = (collectionFormat?: string) => ({
  type: 'array',
  items: { type: 'string' },
  ...(collectionFormat === undefined ? {} : { collectionFormat }),
});

const swagger = {
  swagger: '2.0',
  info: { title: 'Formats', version: '1.0.0' },
  host: 'formats.example.com',
  schemes: ['https'],
  paths: {
    '/forms': {
      post: {
        operationId: 'send_form',
        consumes: ['application/x-www-form-urlencoded'],
        parameters: [
          { name: 'csv', in: 'formData', ...strings() },
          { name: 'pipes', in: 'formData', ...strings('pipes') },
          { name: 'ssv', in: 'formData', ...strings('ssv') },
          { name: 'multi', in: 'formData', ...strings('multi') },
          { name: 'tsv', in: 'query', ...strings('tsv') },
          { name: 'X-Tags', in: 'header', ...strings('pipes') },
        ],
        responses: ok,
      },
    },
    '/parts': {
      post: {
        operationId: 'send_parts',
        consumes: ['multipart/form-data'],
        parameters: [{ name: 'tags', in: 'formData', ...strings() }],
        responses: ok,
      },
    },
    '/items/{ids}': {
      get: {
        operationId: 'get_items',
        parameters: [{ name: 'ids', in: 'path', required: true, ...strings('pipes') }],
        responses: ok,
      },
    },
  },
};

type Call = (input: Record<string, unknown>, ctx: { signal: AbortSignal }) => Promise<unknown>;
const upstream: UpstreamSpec = { baseUrl: 'FORMATS_URL', credential: { type: 'none' } };

describe('Swagger 2.0 collectionFormat', () => {
  it('a formData array is sent in its format (csv unless it says), and a format no style holds is said', async () => {
    const { binding, imported } = await generated(out, swagger, 'send_form');
    expect(binding.args).toEqual([{ name: 'body', in: 'body' }]);
    const at = seen.length;
    startUpstream(config, null);
    await bindTool<Call>(upstream, binding)(
      { body: { csv: ['a', 'b c'], pipes: ['a', 'b'], ssv: ['a', 'b'], multi: ['x', 'y'] } },
      { signal: AbortSignal.timeout(20_000) },
    );
    expect(seen.slice(at).map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/forms', 'csv=a,b+c&pipes=a|b&ssv=a+b&multi=x&multi=y'],
    ]);
    const warnings = imported.draft.flags.filter((f) => f.includes('collectionFormat'));
    expect(warnings).toEqual([
      'tool "send_form" (POST /forms): parameter "tsv" has Swagger 2.0 collectionFormat "tsv", which no OpenAPI ' +
        'style holds in the query; it is left out of the tool (write a handler)',
      'tool "send_form" (POST /forms): parameter "X-Tags" has Swagger 2.0 collectionFormat "pipes", which no ' +
        'OpenAPI style holds in the header; it is left out of the tool (write a handler)',
      'tool "send_parts" (POST /parts): body "tags" (collectionFormat "csv") of Swagger 2.0 has no form style a ' +
        'binding sends; each item is sent as its own member (write a handler if the API reads one joined value)',
      'tool "get_items" (GET /items/{ids}): parameter "ids" has Swagger 2.0 collectionFormat "pipes", which no ' +
        'OpenAPI style holds in the path; it is left out of the tool (write a handler)',
    ]);
    // Without its path parameter no request can be built: the tool is drafted without a binding, and it builds.
    const tools = imported.draft.data.tools as Record<string, Record<string, unknown>>;
    expect([tools.get_items?.http, imported.compiled?.diagnostics.filter((d) => d.severity === 'error')]).toEqual([
      undefined,
      [],
    ]);
  });
});
