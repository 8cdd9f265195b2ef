import { describe, expect, it } from 'vitest';
import { bindTool, startUpstream, type UpstreamSpec } from '../../../templates/runtime/upstream.gen.js';
import { generated, importedUpstream } from './imported.js';

// A parameter described by `content: application/json` rather than `schema`, from the document to the bytes a
// recording upstream on 127.0.0.1 receives: OpenAPI serializes the value as JSON, then percent-encodes it. The
// import made it a string input sent as the model wrote it; now the value is the object and its JSON text is sent.

const { out, seen, config } = importedUpstream('upstream-content', 'CONTENT_URL');

const json = (schema: unknown) => ({ 'application/json': { schema } });
const document = {
  openapi: '3.0.3',
  info: { title: 'Content', version: '1.0.0' },
  servers: [{ url: 'https://content.example.com' }],
  paths: {
    '/items/{sel}': {
      get: {
        operationId: 'find_items',
        parameters: [
          { name: 'sel', in: 'path', required: true, content: json({ type: 'array', items: { type: 'integer' } }) },
          { name: 'filter', in: 'query', content: json({ type: 'object', properties: { a: { type: 'integer' } } }) },
          { name: 'X-Opts', in: 'header', content: json({ type: 'object' }) },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

type Call = (input: Record<string, unknown>, ctx: { signal: AbortSignal }) => Promise<unknown>;
const upstream: UpstreamSpec = { baseUrl: 'CONTENT_URL', credential: { type: 'none' } };

describe('a content parameter on the wire', () => {
  it("sends the value's JSON text, percent-encoded in the path and the query, as it is in a header", async () => {
    const { binding, input } = await generated(out, document, 'find_items');
    expect((input.properties as Record<string, unknown>).filter).toEqual({
      type: 'object',
      properties: { a: { type: 'integer' } },
    });
    const at = seen.length;
    startUpstream(config, null);
    await bindTool<Call>(upstream, binding)(
      { sel: [1, 2], filter: { a: 1 }, 'X-Opts': { b: 'x y' } },
      { signal: AbortSignal.timeout(20_000) },
    );
    expect(seen.slice(at).map((s) => [s.method, s.url, s.headers['x-opts']])).toEqual([
      ['GET', '/items/%5B1%2C2%5D?filter=%7B%22a%22%3A1%7D', '{"b":"x y"}'],
    ]);
  });
});
